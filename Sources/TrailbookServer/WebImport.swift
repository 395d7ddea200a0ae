import Foundation
import GPSCore
import Hummingbird
import Pipeline
import TrackModel
import TrailbookKit

/// Uploading a track file into the signed-in account (`trailbook import --user` in the browser):
/// `GET /import` is the page, whose script sends the chosen file as the body of
/// `POST /import?name=FILE` with the session's CSRF token in `X-CSRF-Token` (or Basic auth, for
/// scripts) and shows the upload's progress, then the import's summary. The body goes to a
/// temporary file through Hummingbird's `FileIO` (the thread pool), then through the same import
/// as the command, on the thread pool; the temporary folder is removed whatever happens.
struct WebImport {
    let store: any TrackStoring
    let login: Login
    let zone: TimeZone
    /// The collection rules an upload goes through, as the phones' points do.
    let pipeline: PipelineConfiguration

    /// The largest upload taken, bytes: a larger one is refused before it is read.
    static let limit = 256 << 20
    /// The device an upload's points are stored as (as `trailbook import`'s default).
    static let device = "imported"

    func add(to router: Router<ServerContext>) {
        router.get("/import") { request, _ -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let zone = await login.local(session.user, zone: zone).zone
            return WebPages.html(
                WebTemplates.pages.render(
                    "import",
                    model: ImportPage(
                        user: session.user, csrf: session.csrf, limit: Self.limit >> 20,
                        today: LocalTime.today(in: zone).description)))
        }
        router.get("/import.js") { _, _ -> Response in WebPages.script(WebTemplates.importScript) }
        router.post("/import") { request, context -> Response in
            let user = try await login.user(request, context)
            let (folder, path, name) = try await Self.receive(
                request, context, limit: Self.limit,
                tooLarge: "Split it, or use trailbook import on the server.")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let zone = await login.local(user, zone: zone).zone
            let (store, pipeline) = (self.store, self.pipeline)
            do {
                // A zip (a Google Takeout, a KMZ) stands for the track files in it: read and
                // written through the offload helper, then the places of the days' visits kept.
                let (files, passedOver) = try await Blocking.run { try ImportJob.files(for: [path]) }
                var job = ImportJob(
                    files: files, device: Self.device, options: ImportService.Options(configuration: pipeline))
                job.account = user
                job.zone = zone
                let prepared = try await job.prepare(target: store, existing: store)
                let (answer, stored) = try await Blocking.run { [job] () throws -> (Upload, [ImportFileReport]) in
                    let summary = try job.importFiles(prepared)
                    let reports = summary.files.map {
                        var r = $0
                        r.file = r.file.replacingOccurrences(of: path, with: name)
                        return r
                    }
                    let days = Self.days(reports, zone: zone)
                    guard reports.count != 1 else {
                        return (
                            Upload(report: reports[0], rides: summary.rides, segments: summary.segments, days: days),
                            summary.files
                        )
                    }
                    // The archive as a whole: its totals; imported before when every file in it was.
                    var report = ImportFileReport(file: name)
                    (report.fixesRead, report.kept, report.dropped) = (summary.fixesRead, summary.kept, summary.dropped)
                    report.stored = summary.stored
                    func total(_ value: (ImportFileReport) -> Int?) -> Int? {
                        let values = reports.compactMap(value)
                        return values.isEmpty ? nil : values.reduce(0, +)
                    }
                    (report.visits, report.activities, report.records) = (
                        total(\.visits), total(\.activities), total(\.records)
                    )
                    if reports.allSatisfy({ $0.alreadyImported != nil }), let first = reports.first?.alreadyImported {
                        report.alreadyImported = first
                        report.alreadyImported?.points = reports.compactMap(\.alreadyImported?.points).reduce(0, +)
                    }
                    return (
                        Upload(
                            report: report, rides: summary.rides, segments: summary.segments, days: days,
                            files: reports, passedOver: passedOver),
                        summary.files
                    )
                }
                try await ImportJob.keepVisits(
                    stored, store: store, account: user, rules: pipeline.visits, zone: zone)
                return try context.responseEncoder.encode(answer, from: request, context: context)
            } catch let failure as any ServiceFailure {
                // Its sentence names the temporary file: the name the browser sent instead.
                let sentence = failure.description.replacingOccurrences(of: path, with: name)
                    .replacingOccurrences(of: folder + "/", with: "")
                throw Refusal(.unprocessableContent, sentence)
            }
        }
    }

    /// An upload's body in a temporary folder of its own (which the caller removes), under the
    /// name the browser gave in `?name=`: the folder, the file's path and the name. A body
    /// without its length (411) or over `limit` bytes (413, with `tooLarge` said after why) is
    /// refused before it is read.
    static func receive(
        _ request: Request, _ context: ServerContext, limit: Int, tooLarge: String
    ) async throws -> (folder: String, path: String, name: String) {
        guard let length = request.headers[.contentLength].flatMap({ Int($0) }) else {
            throw Refusal(.lengthRequired, "Send the file with its Content-Length.")
        }
        guard length <= limit else {
            throw Refusal(
                .contentTooLarge,
                "The file is \(length >> 20) MiB; at most \(limit >> 20) MiB go in one upload. " + tooLarge)
        }
        let name = fileName(request.uri.queryParameters.get("name").map { String($0) } ?? "")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "trailbook-upload-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let path = folder + "/" + name
        do {
            try await FileIO().writeFile(contents: request.body, path: path, context: context)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        return (folder, path, name)
    }

    /// What an upload did: the file's import report (as `trailbook import --json` prints it) and
    /// the rides and segments its points made.
    /// For a zip, the report is the archive's totals, and `files` each file's report (named as a
    /// path through the archive) with `passed_over` the entries that hold no track.
    struct Upload: Encodable, Sendable {
        var report: ImportFileReport
        var rides: Int
        var segments: Int
        /// The local days (in the account's zone) the stored points fall on, at most ``maxDays``
        /// of them (the first ones), for the page to link.
        var days: [String] = []
        var files: [ImportFileReport]? = nil
        var passedOver: Int? = nil

        func encode(to encoder: any Encoder) throws {
            try report.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(rides, forKey: .rides)
            try container.encode(segments, forKey: .segments)
            try container.encode(days, forKey: .days)
            try container.encodeIfPresent(files, forKey: .files)
            try container.encodeIfPresent(passedOver, forKey: .passedOver)
        }

        enum Keys: String, CodingKey {
            case rides, segments, files, days
            case passedOver = "passed_over"
        }
    }

    /// The most days an upload's answer lists.
    static let maxDays = 62

    /// The local days in `zone` from the first point the reports stored to the last, at most
    /// ``maxDays``.
    static func days(_ reports: [ImportFileReport], zone: TimeZone) -> [String] {
        let starts = reports.compactMap { $0.start.flatMap { UTCTimestamp.milliseconds(Substring($0)) } }
        let ends = reports.compactMap { $0.end.flatMap { UTCTimestamp.milliseconds(Substring($0)) } }
        guard let first = starts.min(), let last = ends.max() else { return [] }
        var day = LocalDay.of(first, in: zone)
        let end = LocalDay.of(last, in: zone)
        var out: [String] = []
        while day <= end, out.count < maxDays {
            out.append(day.description)
            day = day.adding(days: 1)
        }
        return out
    }

    /// The last part of the name the browser gave, in letters, digits, `.`, `-` and `_` (so it
    /// names a file in the upload's folder and nothing else); "upload" when nothing is left.
    static func fileName(_ given: String) -> String {
        let last = given.split(separator: "/").last.map(String.init) ?? ""
        let kept = String(last.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
        let trimmed = String(kept.drop { $0 == "." })
        return trimmed.isEmpty ? "upload" : String(trimmed.prefix(120))
    }
}

/// What the `import` template reads.
struct ImportPage: Encodable {
    var user: String
    var csrf: String
    /// The largest upload, MiB.
    var limit: Int
    /// Today where the account is (the link to today's diary).
    var today: String
}
