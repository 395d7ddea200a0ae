import Formats
import Foundation
import GPSCore
import GPSDevices
import SystemPackage
import TrackModel
import Visits

/// `import` of several files into one store (or none, for a dry run): each file through
/// ``ImportService`` with a progress bar, then the totals and, when asked, the events found
/// and the alerts each would have sent live (an import itself sends none).
public struct ImportJob: Sendable {
    public var files: [String]
    /// The device the points are stored as.
    public var device: String
    /// Whose device and diary (nil: the store's own user).
    public var account: String?
    public var options: ImportService.Options
    /// Store nothing: no digest, no store opened for writing.
    public var dryRun = false
    /// Report the events found and the alerts they would have sent.
    public var events = false
    /// The account's zone: of the alerts' quiet hours, and of times a file writes without one.
    public var zone: TimeZone = .current

    public init(files: [String], device: String, options: ImportService.Options) {
        self.files = files
        self.device = device
        self.options = options
    }

    /// Imports the files in order.
    ///
    /// - Parameters:
    ///   - store: opens the store to write (not called for a dry run). It is called once the first
    ///     file has started reading, so opening and migrating the store overlap that.
    ///   - existing: the store a dry run looks in for places, cues and alerts, if there is one.
    ///   - keptRow: with `options.keepFixes`, each kept fix with its ride and segment, in order.
    ///
    /// Then keeps the places the visits of the days imported found (``keepVisits(_:store:account:rules:zone:)``).
    public func run(
        store: () throws -> any TrackStoring, existing: () throws -> (any TrackStoring)?,
        keptRow: (Fix, Int, Int) throws -> Void = { _, _, _ in }
    ) async throws -> ImportSummary {
        let first = try files.first.map { try start($0) }
        let target = dryRun ? nil : try store()
        let prepared = try await prepare(target: target, existing: target ?? existing())
        let summary = try importFiles(prepared, first: first, keptRow: keptRow)
        if let target {
            try await Self.keepVisits(
                summary.files, store: target, account: account, rules: options.configuration.visits, zone: zone)
        }
        return summary
    }

    /// What the files are imported with, read before the first: the import service (its device
    /// made and the account's imports read) and the alerts a dry run's events are matched with.
    public struct Prepared: Sendable {
        var service: ImportService
        var alerts: [Alert]
        var target: (any TrackStoring)?
    }

    /// Reads what ``importFiles(_:first:keptRow:)`` looks up, in two units: the places, cues and
    /// alerts in `lookIn` (the store written to, or the one a dry run looks in), then the device
    /// and the account's imports in `target` (nil: a dry run).
    public func prepare(target: (any TrackStoring)?, existing lookIn: (any TrackStoring)?) async throws -> Prepared {
        let account = account
        let (places, cues, alerts) =
            try await lookIn?.read { tx in
                (try tx.places(account: account), try tx.cues(account: account), try tx.alerts(account: account))
            } ?? ([], [], [])
        var options = options
        options.keepEvents = events
        options.places = places
        options.cues = cues
        options.zone = zone
        let service = try await ImportService(store: target, device: device, account: account, options: options)
        return Prepared(service: service, alerts: alerts, target: target)
    }

    /// Starts reading `path` (its progress bar drawn from now on).
    private func start(_ path: String) throws -> (ProgressBar, ImportService.StartedFile) {
        let bar = ProgressBar(label: path, totalBytes: ImportService.fileSize(path))
        return (bar, try ImportService.start(path, options: options, digest: !dryRun) { bar.update($0) })
    }

    /// ``run(store:existing:keptRow:)``'s reading and writing of the files, on the caller's thread
    /// (which it blocks: the server's calls it through the offload helper), without the look at
    /// the visits that follows; `first`: the first file, started already.
    public func importFiles(
        _ prepared: Prepared, first: (ProgressBar, ImportService.StartedFile)? = nil,
        keptRow: (Fix, Int, Int) throws -> Void = { _, _, _ in }
    ) throws -> ImportSummary {
        var first = first
        let (dryRun, alerts, target) = (dryRun, prepared.alerts, prepared.target)
        var service = prepared.service
        let options = service.options
        var perFile: [ImportFileReport] = []
        var found: [ImportService.FoundEvent] = []
        for (index, path) in files.enumerated() {
            /// The files stored before this one, for the sentence an interruption ends with.
            func interrupted() -> ImportJob.Interrupted {
                Interrupted(file: path, index: index + 1, count: files.count, stored: perFile, dryRun: dryRun)
            }
            if index > 0 && options.interrupted() { throw interrupted() }
            let (bar, started) = try first ?? start(path)
            first = nil
            defer { bar.finish() }
            let result: ImportService.FileResult
            do {
                result = try service.importFile(started)
            } catch is ImportInterrupted {
                throw interrupted()
            }
            for row in result.keptFixes { try keptRow(row.fix, row.ride, row.segment) }
            perFile.append(result.report)
            found += result.events
        }
        var dropped: [String: Int] = [:]
        for f in perFile { dropped.merge(f.dropped, uniquingKeysWith: +) }
        var summary = ImportSummary(
            files: perFile, fixesRead: perFile.map(\.fixesRead).reduce(0, +), kept: perFile.map(\.kept).reduce(0, +),
            dropped: dropped, rides: service.rides, segments: service.segments,
            stored: target == nil ? nil : perFile.compactMap(\.stored).reduce(0, +), store: target?.path,
            events: events ? found.map { EventJSON($0.event, device: $0.device ?? device) } : nil)
        let named = found.map { (event: $0.event, device: $0.device ?? device) }
        summary.found = named
        guard events else { return summary }
        summary.wouldSend = AlertService.wouldSend(named, alerts: alerts, account: account, zone: zone)
        summary.alerts = zip(found.map(\.event), summary.wouldSend).flatMap { e, alerts in
            alerts.map {
                ImportSummary.WouldAlert(
                    time: LocalTime.utc(e.milliseconds), type: e.type.rawValue, alert: $0.id, channel: $0.channel.kind)
            }
        }
        return summary
    }
}

extension ImportJob {
    /// Makes the kept timeline of the days imported again (``TimelineKeeper``) and keeps the
    /// places its visits found (their numbers, home and work):
    /// the write that brought the points in keeps what they make, so that reading them never
    /// writes (``VisitService/find(store:fromMilliseconds:toMilliseconds:devices:rules:zone:memo:keep:)``).
    public static func keepVisits(
        _ reports: [ImportFileReport], store: any TrackStoring, account: String?, rules: VisitRules, zone: TimeZone
    ) async throws {
        let starts =
            reports.compactMap { $0.start.flatMap { UTCTimestamp.milliseconds(Substring($0)) } }
            + reports.compactMap { $0.recordsSpan?.lowerBound }
        let ends =
            reports.compactMap { $0.end.flatMap { UTCTimestamp.milliseconds(Substring($0)) } }
            + reports.compactMap { $0.recordsSpan?.upperBound }
        guard let from = starts.min(), let to = ends.max() else { return }
        // The kept timeline of the time imported, made again (every entry when none was kept).
        try await TimelineKeeper.redo(store: store, account: account, from: from, to: to + 1, rules: rules)
        _ = try await VisitService.find(
            store: store, fromMilliseconds: from, toMilliseconds: to + 1, devices: DeviceFilter(account: account),
            rules: rules, zone: zone, keep: true)
    }
}

/// The reading of a file stopped on request (Ctrl-C); nothing of that file is stored.
public struct ImportInterrupted: Error {}

extension ImportJob {
    /// An import stopped on request at file `index` of `count` (nothing of it stored), with
    /// what the files before it stored.
    public struct Interrupted: Error, CustomStringConvertible {
        public var file: String
        public var index: Int
        public var count: Int
        public var stored: [ImportFileReport]
        public var dryRun: Bool

        /// "interrupted: file 2 of 2 (b.nmea) not stored; file 1 stored 1762 points."
        public var description: String {
            var text = "interrupted: file \(index) of \(count) (\(file)) not " + (dryRun ? "read whole" : "stored")
            let earlier = stored.enumerated().map { i, report in
                let points = report.stored.map { counted($0, "point") } ?? counted(report.kept, "point") + " kept"
                return "file \(i + 1) "
                    + (report.alreadyImported != nil ? "was already imported" : (dryRun ? points : "stored \(points)"))
            }
            if !earlier.isEmpty { text += "; " + earlier.joined(separator: ", ") }
            if index < count { text += "; \(counted(count - index, "file")) after it not read" }
            return text + "."
        }
    }
}

extension ImportJob {
    /// The files to import for the names given, and how many files under folders were passed
    /// over: a file is taken as it is; a folder (a Google Takeout, a logger's card) stands for
    /// the files under it, searched recursively, in name order, that hold something to import:
    /// GPX, KML, GeoJSON, CSV, JSON tracks, Google location history and OwnTracks `.rec` files by
    /// their content (``FileKind/isTrackFile``), NMEA logs by their name (`.nmea`, `.nma`, `.log`,
    /// each also `.gz`). A folder with none of them is
    /// ``ImportError/nothingToImport(_:found:)``.
    public static func files(for names: [String]) throws -> (files: [String], passedOver: Int) {
        var files: [String] = []
        var passedOver = 0
        for name in names {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: name, isDirectory: &isDirectory)
            if exists && !isDirectory.boolValue && ZipArchive.isZipFile(name) {
                let (inside, skipped) = try zipEntries(name)
                files += inside
                passedOver += skipped
                continue
            }
            guard exists, isDirectory.boolValue else {
                files.append(name)
                continue
            }
            let under = (FileManager.default.enumerator(atPath: name)?.compactMap { $0 as? String } ?? []).sorted()
            var found = 0
            for relative in under {
                let path = (name.hasSuffix("/") ? name : name + "/") + relative
                var folder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &folder), !folder.boolValue else {
                    continue
                }
                var bare = relative.lowercased()
                if bare.hasSuffix(".gz") { bare.removeLast(3) }
                let byName = [".nmea", ".nma", ".log"].contains { bare.hasSuffix($0) }
                let kind = try? FileKind.sniff(path)
                if byName || kind?.isTrackFile == true {
                    files.append(path)
                    found += 1
                } else {
                    passedOver += 1
                }
            }
            if found == 0 {
                throw ImportError.nothingToImport(
                    name, found: "no NMEA log, GPX, KML, GeoJSON, CSV or Google location history file is under it")
            }
        }
        return (files, passedOver)
    }

    /// The entries of a zip archive to import, as paths through it (`takeout.zip/Takeout/...`),
    /// and how many others it holds: those whose content is a track file (``FileKind/isTrackFile``:
    /// a KMZ's `doc.kml` among them; NMEA logs inside an archive are not read).
    static func zipEntries(_ path: String) throws -> (files: [String], passedOver: Int) {
        let archive = try InputFile.openArchive(path)
        var files: [String] = []
        var passedOver = 0
        for entry in archive.entries.sorted(by: { $0.name < $1.name }) where !entry.isFolder {
            let inside = path + "/" + entry.name
            let kind = try FileKind.sniff(inside)
            if kind.isTrackFile {
                files.append(inside)
            } else {
                passedOver += 1
            }
        }
        if files.isEmpty {
            throw ImportError.nothingToImport(
                path, found: "no GPX, KML, GeoJSON, CSV, Google location history or OwnTracks .rec file is in it")
        }
        return (files, passedOver)
    }
}
