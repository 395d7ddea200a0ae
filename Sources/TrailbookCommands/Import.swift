import ArgumentParser
import Foundation
import GPSCore
import GPSDevices
import NMEA
import Pipeline
import TrackStore

/// `trailbook import FILE... --dry-run`: files through the decoder and the pipeline, nothing stored.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Import NMEA logs into the store through the collection rules (--dry-run: store nothing).",
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

    @Argument(help: "NMEA logs to read.")
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

        enum CodingKeys: String, CodingKey {
            case file, kept, stored, dropped
            case fixesRead = "fixes_read"
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
            if index > 0 { pipeline.sourceDisconnected() }
            var counts = FileCounts(file: path)
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
            var source = ReplaySource(path: path)
            let bar = ProgressBar(label: path, totalBytes: Self.fileSize(path))
            source.progress = { bar.update($0) }
            defer { bar.finish() }
            do {
                try source.run(shouldStop: { false }) { event in
                    guard case .fix(let fix) = event else { return }
                    counts.fixesRead += 1
                    try pipeline.process(fix, record)
                }
            } catch let error as DeviceError {
                throw error.commandFailure
            }
            let s = source.statistics
            if !s.foundNMEA {
                let found = s.skippedBytes == 0 && s.sentences == 0 ? "it is empty" : "no NMEA sentences in it"
                throw CommandFailure(
                    message:
                        "Nothing to import from \(path): \(found); give a log of NMEA 0183 text such as $GPGGA/$GPRMC lines.",
                    code: .dataError)
            }
            if index == files.count - 1 { try pipeline.finish(record) }
            if let writer {
                counts.stored = try writer.write(
                    keptPoints, drops: DropCounts.added(since: dropsBefore, to: pipeline.drops))
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
            for f in perFile {
                let drops = f.dropped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                let stored =
                    f.stored.map { ", \($0) stored" + ($0 < f.kept ? " (\(f.kept - $0) already in the store)" : "") }
                    ?? ""
                print(
                    "\(f.file): \(f.fixesRead) fixes read, \(f.kept) kept\(stored), \(f.fixesRead - f.kept) dropped"
                        + (drops.isEmpty ? "" : " (\(drops))"))
            }
            if let store {
                print("\(report.rides) rides, \(report.segments) segments; store \(store.path)")
            } else {
                print("\(report.rides) rides, \(report.segments) segments (dry run: nothing stored)")
            }
        }
    }

    static func fileSize(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }
}
