import Formats
import Foundation
import GPSCore
import Pipeline
import Reports
import SystemPackage
import TrackModel

/// The import use case: files through the decoder and the collection rules into the store.
///
/// Each file, and each GPX track, is its own stream, put in time order before the rules run
/// (``StreamRunner``), so the files may come in any order. A file whose bytes were imported
/// before is skipped unless ``Options/reimport`` replaces what it stored; a file that stored
/// nothing is not remembered. One transaction per file: a file that fails (or is interrupted)
/// stores nothing.
public struct ImportService: Sendable {
    /// When GPX waypoints without a time are stored.
    public enum WaypointTime: Equatable, Sendable {
        /// At the file's first track point.
        case first
        /// At this time (ms since 1970, UTC).
        case at(Int64)
    }

    public struct Options: Sendable {
        public var configuration: PipelineConfiguration
        /// Replace what a file imported before stored, instead of skipping it.
        public var reimport = false
        /// The UTC date of the first epoch of NMEA logs that never give one.
        public var date: CivilDate?
        public var waypointTime: WaypointTime?
        /// Keep every kept fix with its ride and segment, numbered through the run (for a dry
        /// run's CSV).
        public var keepFixes = false
        /// Give the events found in ``FileResult/events`` (else only counted: a history of years
        /// finds tens of thousands, stored as they are found).
        public var keepEvents = true
        /// The places events are detected at (the store's, or none).
        public var places: [Place] = []
        /// The cues their place events fire (a once cue fires once per run; an import does
        /// not use it up).
        public var cues: [Cue] = []
        /// Asked every few thousand items read: true stops the file (nothing of it is stored)
        /// with ``ImportInterrupted`` (Ctrl-C).
        public var interrupted: @Sendable () -> Bool = { false }
        /// What a file is called in reports and in the store's list of imports, where not its
        /// path (a file written from an account archive: the archive's name).
        public var names: [String: String] = [:]
        /// The zone of times a file writes without one (the range a Traccar KML line is named by).
        public var zone = TimeZone(identifier: "UTC")!

        public init(configuration: PipelineConfiguration) { self.configuration = configuration }
    }

    /// What one file gave: its report, and the kept fixes when ``Options/keepFixes``.
    public struct FileResult: Sendable {
        public var report: ImportFileReport
        public var keptFixes: [(fix: Fix, ride: Int, segment: Int)] = []
        /// The events found in the file (stored with its points, or only shown by a dry run).
        public var events: [FoundEvent] = []
    }

    /// An event an import found, with the device it is of.
    public struct FoundEvent: Sendable {
        /// The device of the source it came from (a Records.json's phone); nil: the import's own.
        public var device: String?
        public var event: TrailEvent
    }

    public let options: Options
    /// The store and the device the points are stored as; nil for a dry run.
    private let store: (any TrackStoring)?
    private let importDevice: TrackModel.DeviceID?
    /// Whose imports these are (nil: the store's own user).
    private let account: String?
    /// The device the points are stored as (a source named in a file gets one after it).
    private let device: String
    /// The account's imports by digest, read with the device and kept up to date with what this
    /// run stores: a file's digest is looked up in the middle of its reading, which is not a
    /// unit's (another process's import meanwhile is seen by the import's own transaction,
    /// ``ImportOutcome/importedMeanwhile``).
    private var knownImports: [String: StoredImport] = [:]
    /// Rides and segments formed so far in this run.
    public private(set) var rides = 0
    public private(set) var segments = 0

    /// `store` nil: a dry run (nothing is stored, nothing is remembered).
    /// `account`: whose device the points go to and whose imports a file is looked up in (nil:
    /// the store's own user's), which must exist.
    /// Makes the device (when new) and reads the account's imports, in one write unit.
    public init(store: (any TrackStoring)?, device: String, account: String? = nil, options: Options) async throws {
        self.options = options
        self.store = store
        self.account = account
        self.device = device
        guard let store else {
            importDevice = nil
            return
        }
        let (id, imported) = try await store.write { tx in
            (try tx.device(named: device, account: account), try tx.importedFiles(account: account))
        }
        guard let id else { throw DiaryError.noAccount(account ?? "") }
        (importDevice, knownImports) = (id, imported)
    }

    /// The import of a file into the store, a write unit of its own (nil for a dry run).
    private func beginImport(_ file: ImportedFile?, replacing earlier: StoredImport?) throws -> (any ImportWriting)? {
        guard let store, let importDevice else { return nil }
        return try store.beginImport(device: importDevice, file: file, replacing: earlier)
    }

    /// A file whose reading has begun: a log decodes on a thread of its own from when it is
    /// started, and the file's digest is computed on another (for a store). Starting the first
    /// file before the store is opened lets opening and migrating the store overlap them.
    public final class StartedFile {
        let path: String
        let kind: FileKind
        /// Trailbook's own export (``FileKind/writtenByTrailbook(_:head:)``).
        let ownExport: Bool
        let progress: (@Sendable (Int) -> Void)?
        fileprivate var reading: NMEAReading?
        let digesting: FileDigesting?

        fileprivate init(_ path: String, date: CivilDate?, digest: Bool, progress: (@Sendable (Int) -> Void)?) throws {
            self.path = path
            self.progress = progress
            let head = try FileKind.head(path)
            kind = head.withUnsafeBytes { FileKind.kind(of: $0) }
            ownExport = FileKind.writtenByTrailbook(kind, head: head)
            reading = kind == .nmeaOrText ? NMEAReading(path, date: date, progress: progress) : nil
            digesting = digest ? FileDigesting(path) : nil
        }
    }

    /// Starts reading `path` for an import with `options`, into a store when `digest` (its
    /// digest says whether the store holds it already) or for a dry run; `progress` receives the
    /// bytes read so far.
    public static func start(
        _ path: String, options: Options, digest: Bool, progress: (@Sendable (Int) -> Void)? = nil
    ) throws -> StartedFile {
        try StartedFile(path, date: options.date, digest: digest, progress: progress)
    }

    /// Imports one file; `progress` receives the bytes read so far.
    public mutating func importFile(_ path: String, progress: (@Sendable (Int) -> Void)? = nil) throws -> FileResult {
        try importFile(Self.start(path, options: options, digest: store != nil, progress: progress))
    }

    /// Imports a file started with ``start(_:options:digest:progress:)`` (with `digest` true
    /// exactly when this service has a store).
    public mutating func importFile(_ started: StartedFile) throws -> FileResult {
        let (path, kind, progress) = (started.path, started.kind, started.progress)
        precondition((started.digesting != nil) == (store != nil), "started for a store, imported without (or back)")
        let shownAs = options.names[path] ?? path
        var report = ImportFileReport(file: shownAs)
        var imported: ImportedFile?
        var earlier: StoredImport?
        // Once the digest is known the store is asked whether it holds these bytes already: then
        // the reading is dropped, and stops.
        var reading = started.reading
        started.reading = nil
        let digesting = started.digesting
        var decided = store == nil
        let known = knownImports
        // Once the file is known to be new, its points are stored as they are kept, in one
        // transaction that commits when the file has been read whole (and rolls back if it fails).
        var writing: (any ImportWriting)?
        defer { writing?.cancel() }
        // What was kept before the digest is known waits here, in the runner's batches (one
        // large list would be copied as it grew), and goes to the writing once it begins.
        var waiting: [(StreamRunner.Handed, stream: Int, device: String?)] = []
        var waitingPoints = 0
        /// Takes the digest: nil to go on, or the result of a file that is not imported again.
        func decide(_ digested: Result<String, Errno>) throws -> FileResult? {
            decided = true
            guard store != nil else { return nil }
            let digest: String
            do {
                digest = try digested.get()
            } catch {
                throw InputError.cannotOpen(path, error)
            }
            earlier = known[digest]
            if let earlier {
                if !options.reimport {
                    report.alreadyImported = .init(earlier)
                    return FileResult(report: report)
                }
                guard earlier.points == 0 || earlier.startMilliseconds != nil else {
                    report.alreadyImported = .init(earlier)
                    report.notReplaced = true
                    return FileResult(report: report)
                }
            }
            imported = .init(sha256: digest, name: shownAs, bytes: Self.fileSize(path))
            writing = try beginImport(imported, replacing: earlier)
            if let writing {
                for (handed, stream, device) in waiting { try writing.take(handed, stream: stream, device: device) }
            }
            (waiting, waitingPoints) = ([], 0)
            return nil
        }
        /// Stops the reading of a file the store holds already.
        struct Known: Error { let result: FileResult }
        var taken = 0
        /// Every 4,096 items read: looks for the digest, and hands the points kept meanwhile to
        /// the store.
        func checkDigest(_ runner: inout SourceRouter) throws {
            taken &+= 1
            guard taken & 4095 == 0 else { return }
            if options.interrupted() { throw ImportInterrupted() }
            if let writing {
                try runner.handOver(atLeast: 4096) { try writing.take($0, stream: $1, device: $2) }
            } else if store != nil {
                runner.handOver(atLeast: 4096) {
                    if case .points(let points) = $0 { waitingPoints += points.count }
                    waiting.append(($0, $1, $2))
                }
            }
            guard !decided, let digesting else { return }
            // Points wait in memory until the digest says the file is new: past 2^18 of them
            // (23 MB) the reading waits for it instead (the digest runs faster than the import).
            let ready = waitingPoints + runner.pendingPoints >= 1 << 18 ? digesting.wait() : digesting.ready
            guard let digested = ready else { return }
            if let known = try decide(digested) { throw Known(result: known) }
        }
        let (rideOffset, segmentOffset) = (rides, segments)
        // A phone's history is split as the phones' posts are (``PipelineConfiguration/forPhones``).
        let phone = kind == .googleTimeline || kind == .ownTracksRec || kind == .dawarich
        // Trailbook's own export keeps its rides and segments as written (a ride a track, a
        // segment a track segment): no gap or stop cuts them again.
        let ownExport = started.ownExport
        let configuration =
            phone
            ? options.configuration.forPhones : ownExport ? options.configuration.asWritten : options.configuration
        let (keepPoints, keepFixes, watched, cues) = (store != nil, options.keepFixes, options.places, options.cues)
        let keepEvents = options.keepEvents
        // Tracks that any app may have written at any pace; receivers' logs and bike computers'
        // files keep the configured gaps.
        let followsPace = !phone && !ownExport && [.gpx, .kml, .geoJSON, .csv, .jsonTrack].contains(kind)
        let device = self.device
        func newRunner() -> SourceRouter {
            SourceRouter(
                newRunner: {
                    var runner = StreamRunner(
                        configuration: configuration, keepPoints: keepPoints, keepFixes: keepFixes,
                        rideOffset: rideOffset, segmentOffset: segmentOffset, places: watched, cues: cues)
                    runner.keepEvents = keepEvents
                    runner.followsPace = followsPace
                    return runner
                },
                // A Google history's phone (its deviceTag) is a device of its own.
                deviceOf: { "\(device)-google-\($0)" })
        }
        var extras = ImportReaders.Extras()
        func read(_ item: (StreamItem) throws -> Void) throws {
            switch kind {
            case .gpx: extras = try ImportReaders.gpx(path, progress: progress, item)
            case .kml, .tcx, .fit, .geoJSON, .csv:
                extras = try ImportReaders.track(path, kind: kind, zone: options.zone, progress: progress, item)
            case .jsonTrack: extras = try ImportReaders.jsonTrack(path, item)
            case .googleTimeline: extras = try ImportReaders.google(path, progress: progress, item)
            case .ownTracksRec: extras = try ImportReaders.ownTracks(path, progress: progress, item)
            case .dawarich:
                extras = try ImportReaders.dawarich(
                    path, placeRadius: options.configuration.visits.placeRadius, progress: progress, item)
            case .notATrack(let what, let give): throw ImportError.notATrack(path, what: what, give: give)
            default:
                if let started = reading {
                    reading = nil
                    try started.take(kind: kind, item)
                } else {
                    try ImportReaders.nmea(path, kind: kind, date: options.date, progress: progress, item)
                }
            }
        }
        // Read as it comes; a stream out of time order makes a second reading that sorts it.
        var runner = newRunner()
        do {
            do {
                // A little disorder is sorted as it is read (``ReorderBuffer``), in bounded memory.
                try read {
                    try checkDigest(&runner)
                    try runner.take($0)
                }
                try runner.finish()
                if runner.reordered { report.reordered = true }
            } catch is StreamRunner.OutOfOrder {
                // What was stored of the first reading goes; the sorted one is stored in its place.
                writing?.cancel()
                writing = nil
                (waiting, waitingPoints) = ([], 0)
                if decided { writing = try beginImport(imported, replacing: earlier) }
                // Read again, sorted through a temporary file (``SpilledStreams``): memory stays
                // bounded however far out of order the file is.
                var spilled = SpilledStreams(path: path)
                var none = newRunner()
                try read {
                    try checkDigest(&none)
                    try spilled.take($0)
                }
                runner = newRunner()
                try spilled.replay {
                    try checkDigest(&runner)
                    try runner.takeInOrder($0)
                }
                try runner.finish()
                report.reordered = true
            }
        } catch let known as Known {
            return known.result
        }
        if !decided, let digesting, let known = try decide(digesting.wait()) { return known }
        (report.fixesRead, report.kept, report.dropped) = (runner.fixesRead, runner.kept, runner.dropped)
        report.events = runner.eventCount
        if !runner.devices.isEmpty { report.devices = runner.devices }
        if kind == .gpx {
            report.routesSkipped = extras.routes
        }
        if kind == .gpx || !extras.waypoints.isEmpty {
            report.waypoints = extras.waypoints.count
        }
        var places = extras.waypoints.compactMap { place($0, firstTrackTime: runner.firstTime) }
        report.waypointsWithoutTime = extras.waypoints.isEmpty ? nil : extras.waypoints.count - places.count
        if [.googleTimeline, .ownTracksRec, .dawarich, .kml, .tcx, .fit, .geoJSON, .csv].contains(kind) {
            (report.format, report.elements) = (extras.format, extras.elements)
            report.skipped = extras.skipped
            if extras.visits + extras.activities > 0 {
                (report.visits, report.activities) = (extras.visits, extras.activities)
            }
            places += extras.records
        }
        if let writing = try writing ?? beginImport(imported, replacing: earlier) {
            try runner.handOver(atLeast: 0) { try writing.take($0, stream: $1, device: $2) }
            let outcome = try writing.finish(runner.streams(), places: places, accountPlaces: extras.accountPlaces)
            if let digest = imported?.sha256 { knownImports[digest] = outcome.stored }
            if outcome.importedMeanwhile, let other = outcome.stored {
                var skipped = ImportFileReport(file: shownAs)
                skipped.alreadyImported = .init(other)
                return FileResult(report: skipped)
            }
            report.stored = outcome.points
            report.eventsStored = outcome.events
            if !extras.accountPlaces.isEmpty {
                (report.places, report.placesNamed) = (outcome.areas, outcome.visitedPlaces)
            }
            if outcome.points > 0, let stored = outcome.stored {
                report.start = stored.startMilliseconds.map(LocalTime.utc)
                report.end = stored.endMilliseconds.map(LocalTime.utc)
            }
            if earlier != nil { report.replaced = outcome.replacedPoints }
            if let first = places.map(\.milliseconds).min(), let last = places.map(\.milliseconds).max() {
                report.recordsSpan = first...last
            }
            if report.waypoints != nil || report.visits != nil {
                report.records = outcome.places
                report.recordsAlreadyStored = places.count - outcome.places
            }
        }
        (rides, segments) = (rides + runner.rides, segments + runner.segments)
        return FileResult(report: report, keptFixes: runner.keptFixes, events: keepEvents ? runner.events : [])
    }

    /// A GPX waypoint as a record: its name as the field `name`, its description as a note, its
    /// link as the field `link`. A waypoint without a time takes the one ``Options/waypointTime``
    /// gives; without that it is not stored (nil).
    func place(_ w: GPXReader.Waypoint, firstTrackTime: Int64?) -> ImportedPlace? {
        guard let c = w.fix.coordinate else { return nil }
        var time = w.fix.unixMilliseconds
        if time == nil, let waypointTime = options.waypointTime {
            switch waypointTime {
            case .first: time = firstTrackTime
            case .at(let ms): time = ms
            }
        }
        guard let ms = time else { return nil }
        var fields: [Field] = []
        // A name that only repeats the first line of the note (as Trailbook's own export writes
        // it) is not a field of its own.
        let firstLine = w.text.flatMap(TrackExport.Place.firstLine)
        if let name = w.name, name != firstLine, !(name.hasSuffix("…") && firstLine?.hasPrefix(name.dropLast()) == true)
        {
            fields.append(Field(key: "name", value: .text(name)))
        }
        if let link = w.link { fields.append(Field(key: "link", value: .text(link))) }
        for f in w.fields where !fields.contains(where: { $0.key == f.key }) {
            fields.append(Field(key: f.key, value: FieldValue(parsing: f.value)))
        }
        return .init(
            milliseconds: ms, coordinate: c, altitude: w.fix.altitudeMSL, notes: w.text.map { [$0] } ?? [],
            fields: fields)
    }

    /// The file's size in bytes (a zip entry's: what it holds); 0 when it cannot be told.
    public static func fileSize(_ path: String) -> Int {
        if let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue {
            return size
        }
        return (try? InputFile(path: path))?.size ?? 0
    }
}

extension ImportWriting {
    /// Stores what a runner handed over.
    fileprivate func take(_ handed: StreamRunner.Handed, stream: Int, device: String?) throws {
        switch handed {
        case .points(let points): try add(points, stream: stream, device: device)
        case .closed(let rides, let drops, let events):
            try close(rides, drops: drops, events: events, stream: stream, device: device)
        }
    }
}
