import ArgumentParser
import Foundation
import GPSCore
import GPSDevices
import NMEA
import Pipeline
import Reports
import TrackStore

/// `trailbook import FILE... --dry-run`: files through the decoder and the pipeline, nothing stored.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Import NMEA logs and GPX files into the store through the collection rules (--dry-run: store nothing).",
        discussion: """
            Files are read in the order given, as one stream: each file starts a new segment. \
            Each file is stored in one transaction once it has been read whole, so a file that \
            fails stores nothing; points already stored (the same log imported again) are skipped. \
            Without --format or --json, prints a summary per file: fixes read, kept, stored, dropped \
            per reason, rides and segments. --format csv (with --dry-run) prints the kept fixes (the \
            columns of trailbook decode, then ride and segment); --json prints the counts as one \
            JSON document.
            """
    )

    enum Format: String, ExpressibleByArgument { case csv }

    @Argument(help: "NMEA logs or GPX files to read (plain or gzip-compressed).")
    var files: [String]

    @Flag(help: "Decode and filter without storing anything.")
    var dryRun = false

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
    }

    struct FileCounts: Codable {
        var file: String
        var fixesRead = 0
        var kept = 0
        var stored: Int?
        var dropped: [String: Int] = [:]
        /// Set when the same bytes were imported before (under this name): nothing was read.
        var alreadyImported: String?
        /// GPX only: waypoints read, records stored for them (those with a time), routes skipped.
        var waypoints: Int?
        var records: Int?
        var routesSkipped: Int?

        enum CodingKeys: String, CodingKey {
            case file, kept, stored, dropped, waypoints, records
            case fixesRead = "fixes_read"
            case alreadyImported = "already_imported"
            case routesSkipped = "routes_skipped"
        }

        /// The line printed for this file.
        var line: String {
            if let earlier = alreadyImported {
                return "\(file): already imported" + (earlier == file ? "" : " as \(earlier)") + ", skipped"
            }
            let drops = dropped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            let storedText =
                stored.map { ", \($0) stored" + ($0 < kept ? " (\(kept - $0) already in the store)" : "") } ?? ""
            var text =
                "\(file): \(fixesRead) fixes read, \(kept) kept\(storedText), \(fixesRead - kept) dropped"
                + (drops.isEmpty ? "" : " (\(drops))")
            if let waypoints, waypoints > 0 {
                text += "; \(waypoints) waypoints" + (records.map { ", \($0) stored as records" } ?? "")
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
        let writer = store.map { TrackWriter(store: $0) }
        var pipeline = Pipeline(configuration: config.pipeline)
        var out = OutputBuffer()
        if format == .csv { out.appendCSVHeader(extra: ["ride", "segment"]) }
        var perFile: [FileCounts] = []
        for (index, path) in files.enumerated() {
            var counts = FileCounts(file: path)
            let kind = try FileKind.sniff(path)
            var imported: TrackWriter.ImportedFile?
            if let store {
                let size = Self.fileSize(path)
                let digest: String
                do {
                    digest = try SHA256.hexDigest(ofFile: path)
                } catch {
                    throw CommandFailure(message: "Cannot read \(path): \(error); check the path.", code: .noInput)
                }
                if let earlier = try store.importedFile(sha256: digest) {
                    counts.alreadyImported = earlier.name
                    perFile.append(counts)
                    continue
                }
                imported = .init(sha256: digest, name: path, bytes: size)
            }
            if index > 0 { pipeline.sourceDisconnected() }
            var keptPoints: [TrackWriter.KeptPoint] = []
            let dropsBefore = pipeline.drops
            func record(_ event: PipelineEvent) throws {
                switch event {
                case .kept(let fix, let ride, let segment):
                    counts.kept += 1
                    if writer != nil { keptPoints.append(.init(fix: fix, ride: ride, segment: segment)) }
                    if format == .csv {
                        out.appendCSVRow(fix, extra: [ride, segment])
                        try out.flushIfFull()
                    }
                case .dropped(_, let reason):
                    counts.dropped[reason.rawValue, default: 0] += 1
                }
            }
            let bar = ProgressBar(label: path, totalBytes: Self.fileSize(path))
            defer { bar.finish() }
            var places: [TrackWriter.ImportedPlace] = []
            if kind == .gpx {
                let gpx = try readGPX(path, bar: bar) { fix in
                    try pipeline.process(fix, record)
                } segment: {
                    pipeline.sourceDisconnected()
                }
                (counts.fixesRead, counts.routesSkipped) = (gpx.points, gpx.routes)
                counts.waypoints = gpx.waypoints.count
                places = gpx.waypoints.compactMap(Self.place)
            } else if kind == .jsonTrack {
                counts.fixesRead = try readJSONTrack(path) { fix in
                    try pipeline.process(fix, record)
                } segment: {
                    pipeline.sourceDisconnected()
                }
            } else {
                counts.fixesRead = try readNMEA(path, kind: kind, bar: bar) { fix in try pipeline.process(fix, record) }
            }
            if index == files.count - 1 { try pipeline.finish(record) }
            if let writer {
                let before = writer.storedPlaces
                counts.stored = try writer.write(
                    keptPoints, drops: DropCounts.added(since: dropsBefore, to: pipeline.drops), places: places,
                    from: imported)
                if counts.waypoints != nil { counts.records = writer.storedPlaces - before }
            }
            perFile.append(counts)
        }
        try out.flush()
        var total: [String: Int] = [:]
        for f in perFile { total.merge(f.dropped, uniquingKeysWith: +) }
        let report = Report(
            files: perFile, fixesRead: perFile.map(\.fixesRead).reduce(0, +), kept: perFile.map(\.kept).reduce(0, +),
            dropped: total, rides: pipeline.rides, segments: pipeline.segments,
            stored: writer?.stored, store: store?.path)
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

    /// Reads an NMEA log (plain or gzip) through the replay source; returns the fixes read.
    private func readNMEA(
        _ path: String, kind: FileKind, bar: ProgressBar, _ fix: (Fix) throws -> Void
    ) throws -> Int {
        var source = ReplaySource(path: path)
        source.progress = { bar.update($0) }
        var read = 0
        do {
            try source.run(shouldStop: { false }) { event in
                guard case .fix(let f) = event else { return }
                read += 1
                try fix(f)
            }
        } catch let error as DeviceError {
            throw error.commandFailure
        }
        if !source.statistics.foundNMEA {
            throw CommandFailure(
                message:
                    "Nothing to import from \(path): \(kind.found); give an NMEA 0183 log ($GPGGA/$GPRMC lines, "
                    + "plain or .gz) or a GPX file.",
                code: .dataError)
        }
        return read
    }

    /// Reads a GPX file (plain or gzip): each track segment starts a new segment. Returns the
    /// points and waypoints read and the routes skipped.
    private func readGPX(
        _ path: String, bar: ProgressBar, _ fix: (Fix) throws -> Void, segment: () -> Void
    ) throws -> (points: Int, waypoints: [GPXReader.Waypoint], routes: Int) {
        let input = try InputFile(path: path)
        let reader = GPXReader()
        var read = 0
        var waypoints: [GPXReader.Waypoint] = []
        func item(_ item: GPXReader.Item) throws {
            switch item {
            case .segment: segment()
            case .point(let f):
                read += 1
                try fix(f)
            case .waypoint(let w): waypoints.append(w)
            }
        }
        do {
            try input.forEachChunk { chunk in
                try reader.feed(chunk, item)
                bar.update(input.bytesRead)
            }
            try reader.finish(item)
        } catch let failure as GPXReader.Failure {
            throw CommandFailure(
                message:
                    "Cannot import \(path): \(failure.description); nothing of it was stored. Fix or re-export the GPX file.",
                code: .dataError)
        }
        return (read, waypoints, reader.routes)
    }

    /// A GPX waypoint as a record: its name as the field `name`, its description as a note, its
    /// link as the field `link`. Waypoints without a time have no place in a diary: nil.
    static func place(_ w: GPXReader.Waypoint) -> TrackWriter.ImportedPlace? {
        guard let ms = w.fix.unixMilliseconds, let c = w.fix.coordinate else { return nil }
        var fields: [Field] = []
        if let name = w.name { fields.append(Field(key: "name", value: .text(name))) }
        if let link = w.link { fields.append(Field(key: "link", value: .text(link))) }
        return .init(
            milliseconds: ms, coordinate: c, altitude: w.fix.altitudeMSL, notes: w.text.map { [$0] } ?? [],
            fields: fields)
    }

    /// Reads the JSON track format; each of its segments starts a new segment.
    private func readJSONTrack(_ path: String, _ fix: (Fix) throws -> Void, segment: () -> Void) throws -> Int {
        var data = Data()
        let input = try InputFile(path: path)
        try input.forEachChunk { chunk in
            data.append(contentsOf: chunk)
            guard data.count <= 1 << 30 else {
                throw CommandFailure(message: "\(path) is larger than 1 GB of JSON; split it.", code: .dataError)
            }
        }
        let segments: [[Fix]]
        do {
            segments = try JSONTrack.read(data)
        } catch {
            throw CommandFailure(
                message: "Cannot import \(path): \(error); nothing of it was stored. Fix or re-export the file.",
                code: .dataError)
        }
        var read = 0
        for (i, fixes) in segments.enumerated() {
            if i > 0 { segment() }
            for f in fixes {
                read += 1
                try fix(f)
            }
        }
        return read
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
