import Foundation
import GPSCore
import Hummingbird
import NIOCore
import TrackModel
import TrailbookKit

/// `/export/archive`: everything of the signed-in account as one tar file, a backup that comes
/// back whole. It is `trailbook store copy --user NAME` into a new SQLite store (the account,
/// its devices, points, rides, imports, records with their photos, day summaries, places,
/// events, cues, tasks and alerts, ids kept), with that store's photo folder: unpacked,
/// `trailbook store copy trailbook-NAME-DATE/trailbook.sqlite NEW` copies it back into an empty
/// store (SQLite or PostgreSQL).
struct WebArchive {
    let store: any StoreCopying
    let login: Login
    let zone: TimeZone
    let makeStore: @Sendable (String) throws -> any StoreCopying

    /// Bytes read from the tar file per write to the browser.
    static let chunk = 1 << 20

    func add(to router: Router<ServerContext>) {
        router.get("/export/archive") { request, _ -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let user = session.user
            let zone = await login.local(user, zone: zone).zone
            let name = "trailbook-\(Self.safe(user))-\(LocalTime.today(in: zone))"
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trailbook-archive-\(UUID())")
                .path
            let (store, makeStore) = (self.store, self.makeStore)
            let tar: String
            do {
                tar = try await Blocking.run {
                    try Self.make(name, of: user, in: folder, from: store, makeStore: makeStore)
                }
            } catch let refusal as Refusal {
                try? FileManager.default.removeItem(atPath: folder)
                throw refusal
            } catch {
                try? FileManager.default.removeItem(atPath: folder)
                throw Refusal(.serviceUnavailable, "The archive could not be made (\(error)); try again in a moment.")
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: tar)[.size] as? Int) ?? nil
            guard let handle = FileHandle(forReadingAtPath: tar) else {
                try? FileManager.default.removeItem(atPath: folder)
                throw Refusal(.internalServerError, "The archive could not be read back; try again.")
            }
            let body = ResponseBody(contentLength: size) { writer in
                defer {
                    try? handle.close()
                    try? FileManager.default.removeItem(atPath: folder)
                }
                while true {
                    let data = await Blocking.run { handle.readData(ofLength: Self.chunk) }
                    if data.isEmpty { break }
                    try await writer.write(ByteBuffer(bytes: data))
                }
                try await writer.finish(nil)
            }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "application/x-tar", .cacheControl: "no-store",
                    .contentDisposition: "attachment; filename=\"\(name).tar\"",
                ], body: body)
        }
    }

    /// The account's store copy in `folder/name/` (`trailbook.sqlite` and `trailbook-media/`), as
    /// `folder/name.tar`.
    static func make(
        _ name: String, of user: String, in folder: String, from source: any StoreCopying,
        makeStore: (String) throws -> any StoreCopying
    ) throws -> String {
        let directory = folder + "/" + name
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard let account = try source.copyAccountID(user) else {
            throw Refusal(.notFound, "There is no account \(user).")
        }
        // The new store is closed (its write-ahead log folded in) before it is packed.
        try {
            let destination = try makeStore(directory + "/trailbook.sqlite")
            _ = try StoreCopyService(source: source, destination: destination, account: account).copy()
        }()
        let tar = Process()
        tar.executableURL = URL(fileURLWithPath: "/bin/tar")
        tar.arguments = ["-C", folder, "-cf", folder + "/" + name + ".tar", name]
        tar.standardError = FileHandle.nullDevice
        try tar.run()
        tar.waitUntilExit()
        guard tar.terminationStatus == 0 else {
            throw Refusal(.internalServerError, "The archive could not be packed (tar failed); try again.")
        }
        return folder + "/" + name + ".tar"
    }

    /// A name as a file name takes it: letters, digits, `.`, `_` and `-`.
    static func safe(_ text: String) -> String {
        String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
    }
}
