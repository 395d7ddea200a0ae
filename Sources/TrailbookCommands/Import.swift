import ArgumentParser
import Foundation
import GPSCore
import NMEA
import Reports
import TrackStore

/// `trailbook import FILE...`: files through the decoder and the collection rules into the store.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Import NMEA logs, GPX files and JSON tracks into the store through the collection rules (--dry-run: store nothing).",
        discussion: """
            Each file is its own stream (each GPX track too), put in time order before the rules \
            run, so the files may come in any order and the store ends up the same; points \
            earlier than what is stored are stored too. A ride that overlaps a stored ride in \
            time joins it. Each file is stored in one transaction once it has been read whole, so \
            a file that fails stores nothing; points already stored are skipped. A file that \
            stored something is remembered (by its SHA-256) and skipped when given again; \
            --reimport replaces what it stored, with the current rules. A file that stored nothing \
            can simply be imported again. Without --format or --json, prints a summary per file: \
            fixes read, kept, stored, dropped per reason, waypoints; then rides and segments. \
            --format csv (with --dry-run) prints the kept fixes (the columns of trailbook decode, \
            then ride and segment); --json prints the counts as one JSON document.
            """
    )

    enum Format: String, ExpressibleByArgument { case csv }

    @Argument(help: "NMEA logs, GPX files or JSON tracks to read (plain or gzip-compressed), in any order.")
    var files: [String]

    @Flag(help: "Decode and filter without storing anything.")
    var dryRun = false

    @Flag(help: "For a file imported before: remove what it stored, then import it again with the current rules.")
    var reimport = false

    @Option(
        help: ArgumentHelp(
            "UTC date of the first epoch of NMEA logs that never give one (a date in the log wins).",
            valueName: "YYYY-MM-DD"))
    var date: String?

    @Option(
        help: ArgumentHelp(
            "Time for GPX waypoints that have none: 'first' (the file's first track point) or an ISO 8601 time. "
                + "Without it such waypoints are not stored.",
            valueName: "first|time"))
    var waypointTime: String?

    @Option(
        help: ArgumentHelp(
            "The device the points are stored as; points of different devices never merge.", valueName: "name"))
    var deviceName = "import"

    @OptionGroup var storeOptions: StoreOptions

    @Option(help: "Print the kept fixes as CSV.")
    var format: Format?

    @Flag(help: "Print the counts as JSON (keys in docs/COMMANDS.md).")
    var json = false

    @OptionGroup var configOptions: ConfigOptions

    func validate() throws {
        if json && format != nil { throw ValidationError("Choose --format csv or --json, not both.") }
        if format != nil && !dryRun {
            throw ValidationError("--format csv prints what would be kept; use it with --dry-run.")
        }
        if reimport && dryRun { throw ValidationError("--reimport replaces stored points; it cannot be a dry run.") }
        if let date, CivilDate(iso: date) == nil {
            throw ValidationError("--date takes a date as YYYY-MM-DD, for example 2026-06-14; got '\(date)'.")
        }
        if let waypointTime, waypointTime != "first", UTCTimestamp.milliseconds(Substring(waypointTime)) == nil {
            throw ValidationError(
                "--waypoint-time takes 'first' or an ISO 8601 time such as 2026-06-14T06:30:00Z; got '\(waypointTime)'."
            )
        }
    }

    struct FileCounts: Codable {
        var file: String
        var fixesRead = 0
        var kept = 0
        var stored: Int?
        var dropped: [String: Int] = [:]
        /// Set when the same bytes were imported before: nothing was read (unless --reimport).
        var alreadyImported: Earlier?
        /// With --reimport: points of the earlier import removed first.
        var replaced: Int?
        /// With --reimport, for an import made before Trailbook noted which points it stored.
        var notReplaced: Bool?
        /// Whether a stream was out of time order and was sorted.
        var reordered: Bool?
        /// GPX only: waypoints read, records stored for them, those already stored, those without
        /// a time (not stored), routes skipped.
        var waypoints: Int?
        var records: Int?
        var recordsAlreadyStored: Int?
        var waypointsWithoutTime: Int?
        var routesSkipped: Int?

        struct Earlier: Codable {
            var name: String
            var points: Int
            var importedAt: String

            init(_ i: StoredImport) {
                name = i.name
                points = i.points
                importedAt = LocalTime.iso(i.importedMilliseconds, zone: TimeZone(identifier: "UTC")!)
            }

            enum CodingKeys: String, CodingKey {
                case name, points
                case importedAt = "imported_at"
            }
        }

        enum CodingKeys: String, CodingKey {
            case file, kept, stored, dropped, waypoints, records, replaced, reordered
            case fixesRead = "fixes_read"
            case alreadyImported = "already_imported"
            case notReplaced = "not_replaced"
            case recordsAlreadyStored = "records_already_stored"
            case waypointsWithoutTime = "waypoints_without_time"
            case routesSkipped = "routes_skipped"
        }

        /// The line printed for this file.
        var line: String {
            if let earlier = alreadyImported, replaced == nil {
                let name = earlier.name == file ? "" : " as \(earlier.name)"
                if notReplaced == true {
                    return "\(file): imported\(name) by an earlier Trailbook that did not note which points it stored, "
                        + "so --reimport cannot replace them; skipped (trailbook rm --from --to removes a time range)"
                }
                return
                    "\(file): already imported\(name), skipped (\(earlier.points) points stored \(earlier.importedAt); "
                    + "--reimport replaces them)"
            }
            let drops = dropped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let storedText =
                stored.map { ", \($0) stored" + ($0 < kept ? " (\(kept - $0) already in the store)" : "") } ?? ""
            var text =
                "\(file): \(fixesRead) fixes read, \(kept) kept\(storedText), \(fixesRead - kept) dropped"
                + (drops.isEmpty ? "" : " (\(drops))")
            if let replaced { text += "; replaced \(replaced) points of the earlier import" }
            if reordered == true { text += "; points put in time order" }
            if let waypoints, waypoints > 0 {
                var parts: [String] = []
                if let records { parts.append("\(records) stored as records") }
                if let already = recordsAlreadyStored, already > 0 { parts.append("\(already) already stored") }
                if let untimed = waypointsWithoutTime, untimed > 0 {
                    parts.append("\(untimed) without a time, not stored (--waypoint-time stores them)")
                }
                text += "; \(waypoints) waypoints" + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
            }
            if let routesSkipped, routesSkipped > 0 { text += "; \(routesSkipped) routes skipped (no times)" }
            return text
        }
    }

    struct Report: Codable {
        var files: [FileCounts]
        var fixesRead: Int
        var kept: Int
        var dropped: [String: Int]
        var rides: Int
        var segments: Int
        var stored: Int?
        var store: String?

        enum CodingKeys: String, CodingKey {
            case files, kept, dropped, rides, segments, stored, store
            case fixesRead = "fixes_read"
        }
    }

    func run() throws {
        let config = try configOptions.load()
        let store = dryRun ? nil : try storeOptions.open()
        let writer = try store.map { TrackWriter(store: $0, device: try $0.device(named: deviceName)) }
        let fallbackDate = date.flatMap(CivilDate.init(iso:))
        var out = OutputBuffer()
        if format == .csv { out.appendCSVHeader(extra: ["ride", "segment"]) }
        var perFile: [FileCounts] = []
        var rides = 0
        var segments = 0
        for path in files {
            var counts = FileCounts(file: path)
            let kind = try FileKind.sniff(path)
            var imported: TrackWriter.ImportedFile?
            var earlier: StoredImport?
            if let store {
                let digest: String
                do {
                    digest = try ContentDigest.hexDigest(ofFile: path)
                } catch {
                    throw CommandFailure(message: "Cannot read \(path): \(error); check the path.", code: .noInput)
                }
                earlier = try store.importedFile(sha256: digest)
                if let earlier {
                    if !reimport {
                        counts.alreadyImported = .init(earlier)
                        perFile.append(counts)
                        continue
                    }
                    guard earlier.points == 0 || earlier.startMilliseconds != nil else {
                        counts.alreadyImported = .init(earlier)
                        counts.notReplaced = true
                        perFile.append(counts)
                        continue
                    }
                }
                imported = .init(sha256: digest, name: path, bytes: Self.fileSize(path))
            }
            let bar = ProgressBar(label: path, totalBytes: Self.fileSize(path))
            defer { bar.finish() }
            func newRunner() -> StreamRunner {
                StreamRunner(
                    configuration: config.pipeline, keepPoints: writer != nil, keepFixes: format == .csv,
                    rideOffset: rides, segmentOffset: segments)
            }
            var extras = ImportReaders.GPXExtras()
            func read(_ item: (StreamItem) throws -> Void) throws {
                switch kind {
                case .gpx: extras = try ImportReaders.gpx(path, bar: bar, item)
                case .jsonTrack: try ImportReaders.jsonTrack(path, item)
                default: try ImportReaders.nmea(path, kind: kind, date: fallbackDate, bar: bar, item)
                }
            }
            // Read as it comes; a stream out of time order makes a second reading that sorts it.
            var runner = newRunner()
            do {
                try read { try runner.take($0) }
                try runner.endStream()
            } catch is StreamRunner.OutOfOrder {
                var collector = StreamCollector()
                try read { collector.take($0) }
                runner = newRunner()
                try collector.replay(into: &runner)
                counts.reordered = true
            }
            (counts.fixesRead, counts.kept, counts.dropped) = (runner.fixesRead, runner.kept, runner.dropped)
            (rides, segments) = (rides + runner.rides, segments + runner.segments)
            if kind == .gpx {
                counts.routesSkipped = extras.routes
                counts.waypoints = extras.waypoints.count
            }
            let places = try extras.waypoints.compactMap { try place($0, firstTrackTime: runner.firstTime) }
            counts.waypointsWithoutTime = extras.waypoints.isEmpty ? nil : extras.waypoints.count - places.count
            for row in runner.keptFixes {
                out.appendCSVRow(row.fix, extra: [row.ride, row.segment])
                try out.flushIfFull()
            }
            if let writer {
                let outcome = try writer.writeImport(runner.streams, places: places, file: imported, replacing: earlier)
                if outcome.importedMeanwhile, let digest = imported?.sha256,
                    let other = try store?.importedFile(sha256: digest)
                {
                    counts = FileCounts(file: path)
                    counts.alreadyImported = .init(other)
                    perFile.append(counts)
                    continue
                }
                counts.stored = outcome.points
                if earlier != nil { counts.replaced = outcome.replacedPoints }
                if counts.waypoints != nil {
                    counts.records = outcome.places
                    counts.recordsAlreadyStored = places.count - outcome.places
                }
            }
            perFile.append(counts)
        }
        try out.flush()
        var total: [String: Int] = [:]
        for f in perFile { total.merge(f.dropped, uniquingKeysWith: +) }
        let report = Report(
            files: perFile, fixesRead: perFile.map(\.fixesRead).reduce(0, +), kept: perFile.map(\.kept).reduce(0, +),
            dropped: total, rides: rides, segments: segments,
            stored: store == nil ? nil : perFile.compactMap(\.stored).reduce(0, +), store: store?.path)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else if format == nil {
            for f in perFile { print(f.line) }
            if let store {
                print("\(report.rides) rides, \(report.segments) segments; store \(store.path)")
            } else {
                print("\(report.rides) rides, \(report.segments) segments (dry run: nothing stored)")
            }
        }
    }

    /// A GPX waypoint as a record: its name as the field `name`, its description as a note, its
    /// link as the field `link`. A waypoint without a time takes the one `--waypoint-time` gives
    /// (the file's first track point for `first`); without that it is not stored (nil).
    func place(_ w: GPXReader.Waypoint, firstTrackTime: Int64?) throws -> TrackWriter.ImportedPlace? {
        guard let c = w.fix.coordinate else { return nil }
        var time = w.fix.unixMilliseconds
        if time == nil, let waypointTime {
            time = waypointTime == "first" ? firstTrackTime : UTCTimestamp.milliseconds(Substring(waypointTime))
        }
        guard let ms = time else { return nil }
        var fields: [Field] = []
        if let name = w.name { fields.append(Field(key: "name", value: .text(name))) }
        if let link = w.link { fields.append(Field(key: "link", value: .text(link))) }
        return .init(
            milliseconds: ms, coordinate: c, altitude: w.fix.altitudeMSL, notes: w.text.map { [$0] } ?? [],
            fields: fields)
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
