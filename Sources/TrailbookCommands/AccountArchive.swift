import Formats
import Foundation
import GPSCore
import GPSDevices
import Reports
import TrackStore
import TrailbookKit

/// The web app's account archive (`/export/archive`: a tar of a folder holding the account's
/// store, `trailbook.sqlite`, and its photos) as `import` takes it, downloaded as it is: checked
/// whole and unpacked into a temporary folder (``TarArchive``), its rides and records written
/// there as Trailbook's own GPX (a `trk` per ride, a `trkseg` per segment, a `wpt` per record
/// with its notes and fields), one ride at a time, which `import` then reads as written; its
/// photos and day summaries follow (``ArchiveDiary``). The rest of the account (places, events)
/// comes back with `trailbook store copy ARCHIVE.tar NEW` (the whole account into a new store).
struct AccountArchive {
    /// The temporary folder (removed by ``remove()``) and the store in it.
    let folder: String
    let store: String

    /// Whether `path` is a tar file (an account archive or not: ``init(_:doing:)`` says).
    static func isArchive(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
            && TarArchive.isTarFile(path)
    }

    /// Unpacks `path` into a temporary folder: a tar refused, or one that is not an account
    /// archive, is exit 65 with nothing written ("nothing was `undone`": copied, stored).
    init(_ path: String, undone: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("trailbook-\(UUID())").path
        let entries: [TarArchive.Entry]
        do {
            entries = try TarArchive.unpack(path, into: folder)
        } catch let failure as TarArchive.Failure {
            throw CommandFailure(
                message: "\(path) is refused: \(failure.description); nothing was \(undone).", code: .dataError)
        }
        let stores = entries.filter {
            !$0.isFolder && ($0.name.hasSuffix("/trailbook.sqlite") || $0.name == "trailbook.sqlite")
        }
        guard stores.count == 1 else {
            try? FileManager.default.removeItem(atPath: folder)
            throw CommandFailure(
                message:
                    "\(path) is a tar archive but not a Trailbook account archive (it holds \(stores.count) trailbook.sqlite, not one); nothing was \(undone). Unpack it and give the files inside.",
                code: .dataError)
        }
        (self.folder, store) = (folder, folder + "/" + stores[0].name)
    }

    /// Writes the archive's rides and records as GPX beside its store; returns the file's path.
    func gpx(named path: String) async throws -> String {
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let gpx = folder + "/" + name + ".gpx"
        try await Self.write(try TrackStore(path: store), to: gpx)
        return gpx
    }

    /// Writes every ride of `store` (its one account's) and every record as Trailbook's GPX.
    static func write(_ store: TrackStore, to path: String) async throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let out = FileHandle(forWritingAtPath: path)
        else { throw CommandFailure(message: "\(path) cannot be written.", code: .cannotCreate) }
        defer { try? out.close() }
        let zone = TimeZone(identifier: "UTC")!
        // An archive holds one account (a store's copy may hold more: each one's goes).
        let (accounts, records) = try await store.read { tx in
            let accounts = try tx.accounts().map(\.name)
            let records = try accounts.flatMap {
                try tx.records(fromMilliseconds: .min, toMilliseconds: .max, plainPoints: false, account: $0)
            }
            return (accounts, records)
        }
        let places = records.map { r in
            TrackExport.Place(
                id: r.id!, milliseconds: r.milliseconds, coordinate: r.coordinate, altitude: r.altitude,
                notes: r.notes.map(\.text), photos: [], fields: r.fields.map { ($0.key, $0.value.description) })
        }
        // The header and the waypoints, then a track per ride; the document's end last.
        let head = GPXWriter.write(TrackExport(name: "Trailbook archive", rides: [], places: places))
        guard let end = head.range(of: "</gpx>") else { return }
        try out.write(contentsOf: Data(head[..<end.lowerBound].utf8))
        for account in accounts {
            let devices = DeviceFilter(account: account)
            let rides = try await store.read {
                try $0.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: devices)
            }
            for ride in rides {
                let selection = try await RideSelection.load(
                    .ride(ride.id), store: store, zone: zone, devices: devices, fused: false, stays: nil)
                let text = GPXWriter.write(try await selection.export(store: store, records: false, account: account))
                guard let a = text.range(of: "<trk>"), let b = text.range(of: "</trk>", options: .backwards) else {
                    continue
                }
                try out.write(contentsOf: Data(text[a.lowerBound..<b.upperBound].utf8))
                try out.write(contentsOf: Data("\n".utf8))
            }
        }
        try out.write(contentsOf: Data("</gpx>\n".utf8))
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }
}
