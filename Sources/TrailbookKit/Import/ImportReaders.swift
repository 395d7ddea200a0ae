import Formats
import Foundation
import GPSCore
import GPSDevices
import NMEA
import Reports
import TrackModel

/// The readers `import` uses: each reads one file and hands over its fixes as ``StreamItem``s.
enum ImportReaders {
    /// What a file held besides its track points.
    struct Extras {
        /// GPX: waypoints and routes (not stored: no times).
        var waypoints: [GPXReader.Waypoint] = []
        var routes = 0
        /// Google: the format, the elements read and those left out by reason, and the visits
        /// and activities as records.
        var format: String?
        var elements: Int?
        var skipped: [String: Int] = [:]
        var records: [ImportedPlace] = []
        var visits = 0
        var activities = 0
        /// An account export's areas and visited places (Dawarich's).
        var accountPlaces = ImportedPlaces()
    }

    /// Reads an NMEA log (plain or gzip) through the replay source, dating epochs that have no
    /// date in the log with `date`.
    static func nmea(
        _ path: String, kind: FileKind, date: CivilDate?, progress: (@Sendable (Int) -> Void)?,
        _ item: (StreamItem) throws -> Void
    ) throws {
        try NMEAReading(path, date: date, progress: progress).take(kind: kind, item)
    }

    /// Reads a GPX file (plain or gzip, UTF-8 or UTF-16): each track is a stream, each track
    /// segment a segment.
    static func gpx(
        _ path: String, progress: (@Sendable (Int) -> Void)?, _ item: (StreamItem) throws -> Void
    ) throws -> Extras {
        let reader = GPXReader()
        var extras = Extras()
        do {
            try read(path, with: reader, progress: progress) { try take($0, into: &extras, item) }
        } catch let failure as GPXReader.Failure {
            throw ImportError.broken(path, reason: failure.description, format: "GPX file")
        }
        extras.routes = reader.routes
        return extras
    }

    /// Reads a KML, TCX, FIT, GeoJSON or CSV track file with `reader`: each track a stream, its segments
    /// segments, its places waypoints; what was read and left out counted. Times written without a
    /// zone are in `zone` where the format leaves them so (a Traccar KML line's name).
    static func track(
        _ path: String, kind: FileKind, zone: TimeZone, progress: (@Sendable (Int) -> Void)?,
        _ item: (StreamItem) throws -> Void
    ) throws -> Extras {
        let kml = KMLReader()
        kml.zone = zone
        let (reader, format): (any TrackFileReader, String) =
            switch kind {
            case .kml: (kml, "KML")
            case .tcx: (TCXReader(), "TCX")
            case .fit: (FITReader(), "FIT")
            case .geoJSON: (GeoJSONReader(), "GeoJSON")
            default: (CSVTrackReader(), "CSV")
            }
        var extras = Extras()
        var points = 0
        do {
            try read(path, with: reader, progress: progress) {
                if case .point = $0 { points += 1 }
                try take($0, into: &extras, item)
            }
        } catch let failure as XMLScanner.Failure {
            throw ImportError.broken(path, reason: failure.description, format: "\(format) file")
        } catch let failure as GeoJSONReader.Failure {
            throw ImportError.broken(path, reason: failure.description, format: "\(format) file")
        } catch let failure as CSVTrackReader.Failure {
            throw ImportError.broken(path, reason: failure.description, format: "\(format) file")
        } catch let failure as FITReader.Failure {
            throw ImportError.broken(path, reason: failure.description, format: "\(format) file")
        }
        // A KML with no time anywhere is not a history: refused, as Dawarich refuses it.
        if kind == .kml, points == 0, extras.waypoints.isEmpty {
            throw ImportError.notATrack(
                path, what: kml.whatItHeld,
                give: "a KML whose placemarks have a <TimeStamp> or <TimeSpan>, or a <gx:Track> with <when> times "
                    + "(as Google Earth, Google's Timeline and GPS loggers export them)")
        }
        extras.format = format
        extras.elements = reader.elements
        extras.skipped = reader.skipped
        return extras
    }

    /// Feeds the file at `path` to a reader a chunk at a time, then ends it.
    private static func read(
        _ path: String, with reader: some TrackFileReader, progress: (@Sendable (Int) -> Void)?,
        _ take: (TrackItem) throws -> Void
    ) throws {
        let input = try InputFile(path: path)
        try input.forEachChunk { chunk in
            try reader.feed(chunk, take)
            progress?(input.bytesRead)
        }
        try reader.finish(take)
    }

    /// A track file's item as a stream item; its waypoints kept in `extras`.
    private static func take(
        _ i: TrackItem, into extras: inout Extras, _ item: (StreamItem) throws -> Void
    ) throws {
        switch i {
        case .track: try item(.track)
        case .segment: try item(.segment)
        case .point(let f): try item(.fix(f))
        case .waypoint(let w): extras.waypoints.append(w)
        }
    }

    /// Reads any of Google's location history formats: each part of positions a stream, visits
    /// and activities records.
    static func google(
        _ path: String, progress: (@Sendable (Int) -> Void)?, _ item: (StreamItem) throws -> Void
    ) throws -> Extras {
        let input = try InputFile(path: path)
        let reader = GoogleTimeline.Reader()
        var extras = Extras()
        func take(_ i: GoogleTimeline.Item) throws {
            switch i {
            case .stream: try item(.track)
            case .device(let tag): try item(.source(tag.map(String.init)))
            case .fix(let f): try item(.fix(f))
            case .record(let r):
                if r.kind == .visit { extras.visits += 1 } else { extras.activities += 1 }
                extras.records.append(record(r))
            }
        }
        do {
            try input.forEachChunk(whole: true) { chunk in
                try reader.feed(chunk, take)
                progress?(input.bytesRead)
            }
            try reader.finish(take)
        } catch let failure as GoogleTimeline.Failure {
            throw ImportError.broken(path, reason: failure.description, format: "Google location history file")
        }
        extras.format = reader.format?.rawValue
        extras.elements = reader.elements
        extras.skipped = reader.skipped
        return extras
    }

    /// Reads an OwnTracks Recorder `.rec` file: one stream of its location messages, read and
    /// parsed on a thread of its own while the rules take them on this one (a Recorder store of
    /// years is millions of lines).
    static func ownTracks(
        _ path: String, progress: (@Sendable (Int) -> Void)?, _ item: (StreamItem) throws -> Void
    ) throws -> Extras {
        struct Read: Sendable {
            var places: [TrackItem.Waypoint]
            var elements: Int
            var skipped: [String: Int]
        }
        let read = try FixHandoff<Read>.read(
            "trailbook import reader",
            { put in
                let input = try InputFile(path: path)
                let reader = OwnTracksRec.Reader()
                try input.forEachChunk { chunk in
                    try reader.feed(chunk, put)
                    progress?(input.bytesRead)
                }
                try reader.finish(put)
                return Read(places: reader.places, elements: reader.elements, skipped: reader.skipped)
            }, item)
        var extras = Extras()
        extras.waypoints = read?.places ?? []
        extras.format = "OwnTracks Recorder .rec"
        extras.elements = read?.elements ?? 0
        extras.skipped = read?.skipped ?? [:]
        return extras
    }

    /// Reads a file of Dawarich's account export (``DawarichExport``): its points one stream,
    /// its visits waypoints.
    static func dawarich(
        _ path: String, placeRadius: Double, progress: (@Sendable (Int) -> Void)?, _ item: (StreamItem) throws -> Void
    ) throws -> Extras {
        let input = try InputFile(path: path)
        let reader = DawarichExport.Reader()
        do {
            try input.forEachChunk { chunk in
                try reader.feed(chunk) { try item(.fix($0)) }
                progress?(input.bytesRead)
            }
            try reader.finish { try item(.fix($0)) }
        } catch let failure as JSONScanner.Failure {
            throw ImportError.broken(path, reason: failure.description, format: "Dawarich export file")
        }
        var extras = Extras()
        // A visit is a record of what Dawarich said, named in its note as Dawarich named it.
        extras.records = reader.visits.compactMap { v in
            guard let c = v.fix.coordinate, let ms = v.fix.unixMilliseconds else { return nil }
            let name = v.fields.first { $0.key == "name" }?.value
            return ImportedPlace(
                milliseconds: ms, coordinate: c, altitude: nil, notes: [name ?? "Visit"],
                fields: v.fields.map { Field(key: $0.key, value: FieldValue(parsing: $0.value)) })
        }
        extras.visits = extras.records.count
        // Its trips are records too, named in their note ("Trip: Lisbon").
        extras.records += reader.trips.compactMap { t in
            guard let c = t.fix.coordinate, let ms = t.fix.unixMilliseconds else { return nil }
            return ImportedPlace(
                milliseconds: ms, coordinate: c, altitude: nil, notes: t.text.map { [$0] } ?? [],
                fields: t.fields.map { Field(key: $0.key, value: FieldValue(parsing: $0.value)) })
        }
        extras.accountPlaces = ImportedPlaces(
            areas: reader.areas.map {
                Place(name: $0.name, center: $0.coordinate, radius: $0.radius ?? 100, source: "dawarich")
            },
            visited: reader.places.map { ImportedPlaces.Visited(name: $0.name, center: $0.coordinate) },
            radius: placeRadius)
        extras.format = "Dawarich export"
        extras.elements = reader.elements
        extras.skipped = reader.skipped
        return extras
    }

    /// A Google visit or activity as a record: what Google knew of it as fields, and a note
    /// naming it.
    static func record(_ r: GoogleTimeline.Record) -> ImportedPlace {
        var fields = [Field(key: "google", value: .text(r.kind.rawValue))]
        func add(_ key: String, _ value: String?) {
            if let value, !value.isEmpty { fields.append(Field(key: key, value: .text(value))) }
        }
        func add(_ key: String, _ value: Double?) {
            if let value, value.isFinite { fields.append(Field(key: key, value: .number(value))) }
        }
        add("name", r.name)
        add("address", r.address)
        add("semantic_type", r.semanticType)
        add("activity_type", r.activityType)
        add("distance_m", r.distance)
        add("probability", r.probability)
        add("place_id", r.placeID)
        if let end = r.end {
            add("until", LocalTime.utc(end))
            add("minutes", (Double(end - r.start) / 60_000 * 10).rounded() / 10)
        }
        if let e = r.endCoordinate {
            add("end_latitude", e.latitude)
            add("end_longitude", e.longitude)
        }
        let note: String
        switch r.kind {
        case .visit:
            let named = [r.name, r.address].compactMap { $0 }.joined(separator: ", ")
            note = (named.isEmpty ? "Visit" : named) + (r.semanticType.map { " (\($0))" } ?? "")
        case .activity:
            let what = r.activityType.map { $0.replacingOccurrences(of: "_", with: " ").lowercased() } ?? "moving"
            note =
                what.prefix(1).uppercased() + what.dropFirst()
                + (r.distance.map { String(format: ", %.1f km", $0 / 1000) } ?? "")
        }
        return ImportedPlace(
            milliseconds: r.start, coordinate: r.coordinate, altitude: nil, notes: [note], fields: fields)
    }

    /// Reads the JSON track format: one stream, each of its segments a segment; its places (as
    /// Trailbook writes them) waypoints.
    static func jsonTrack(_ path: String, _ item: (StreamItem) throws -> Void) throws -> Extras {
        var data = Data()
        let input = try InputFile(path: path)
        try input.forEachChunk { chunk in
            data.append(contentsOf: chunk)
            guard data.count <= 1 << 30 else {
                throw ImportError.tooLarge(path)
            }
        }
        let segments: [[Fix]]
        var extras = Extras()
        do {
            (segments, extras.waypoints) = try JSONTrack.read(data)
        } catch {
            throw ImportError.broken(path, reason: "\(error)", format: "file")
        }
        try item(.track)
        for (i, fixes) in segments.enumerated() {
            if i > 0 { try item(.segment) }
            for f in fixes { try item(.fix(f)) }
        }
        return extras
    }
}

/// An NMEA log (plain or gzip) read through the replay source on a thread of its own, from
/// when it is made, while ``take(kind:_:)`` hands its fixes to `item` on the caller's thread (the
/// collection rules, the segmenter): two cores share an import, and the fixes arrive in the same
/// order as from one (``FixHandoff``). Dropped untaken, it stops the thread.
final class NMEAReading {
    private let path: String
    private let handoff = FixHandoff<DecodeStatistics>()

    /// Starts reading `path`, dating epochs that have no date in the log with `date`.
    init(_ path: String, date: CivilDate?, progress: (@Sendable (Int) -> Void)?) {
        self.path = path
        let handoff = handoff
        Blocking.start("trailbook import reader") {
            var source = ReplaySource(path: path, fallbackDate: date)
            source.progress = progress
            source.parallel = true
            var filling: [Fix] = []
            filling.reserveCapacity(FixBatches.batch)
            do {
                try source.run(shouldStop: { handoff.cancelled }) { event in
                    guard case .fix(let f) = event else { return }
                    filling.append(f)
                    guard filling.count == FixBatches.batch else { return }
                    handoff.put(filling)
                    filling.removeAll(keepingCapacity: true)
                }
                handoff.finish(filling, source.statistics, nil)
            } catch {
                handoff.finish(filling, nil, error)
            }
        }
    }

    deinit { handoff.cancel() }

    /// Hands every fix to `item`, in order; then the reader's error if it failed, or
    /// ``ImportError/nothingToImport(_:found:)`` when the file held no NMEA (`kind` says what
    /// it looked like).
    func take(kind: FileKind, _ item: (StreamItem) throws -> Void) throws {
        while let batch = handoff.take() {
            for f in batch { try item(.fix(f)) }
        }
        let s = try handoff.outcome() ?? DecodeStatistics()
        if !s.foundNMEA {
            throw ImportError.nothingToImport(
                path,
                found: s.badChecksum > 0
                    ? "\(counted(s.badChecksum, "sentence")) with bad checksums and none that decoded" : kind.found)
        }
    }
}

/// Fixes handed from a reading thread to the thread that takes them, in batches, in order: the
/// reader waits while ``depth`` batches are unread (so memory stays bounded), the taker while
/// none is ready. The reader ends with what it has to say of the file (`Outcome`: a log's
/// statistics, a file's counts and places) or its error; the taker cancels when it stops early,
/// and the reader's `shouldStop` sees that.
/// The size of the batches a ``FixHandoff`` hands over, and how many may wait.
enum FixBatches {
    /// Fixes a batch.
    static let batch = 1024
    /// Batches waiting at most.
    static let depth = 8
}

final class FixHandoff<Outcome: Sendable>: Sendable {
    private struct State {
        var ready: [[Fix]] = []
        var ended = false
        var outcome: Outcome?
        var failure: (any Error)?
        var stopped = false
    }

    private let state = Guarded(State())

    /// Whether the taker has stopped (read by the reader).
    var cancelled: Bool { state.peek { $0.stopped } }

    /// Hands a full batch to the taker (the reader), waiting while too many are unread.
    func put(_ batch: [Fix]) {
        state.wait(until: { $0.ready.count < FixBatches.depth || $0.stopped }) { $0.ready.append(batch) }
    }

    /// Ends the reading with its last batch and its outcome, or the error that ended it.
    func finish(_ last: [Fix], _ outcome: Outcome?, _ failure: (any Error)?) {
        state.withLock {
            if !last.isEmpty { $0.ready.append(last) }
            $0.outcome = outcome
            $0.failure = failure
            $0.ended = true
        }
    }

    /// The next batch in order; nil once the reader has ended and every batch was taken.
    func take() -> [Fix]? {
        state.wait(until: { !$0.ready.isEmpty || $0.ended }) { $0.ready.isEmpty ? nil : $0.ready.removeFirst() }
    }

    /// After ``take()`` returned nil: the reader's outcome, or its error.
    func outcome() throws -> Outcome? {
        try state.peek {
            if let failure = $0.failure { throw failure }
            return $0.outcome
        }
    }

    /// Reads on a thread of its own what `read` hands to its `put` (each fix, in order), and
    /// hands it to `item` on this one, a batch at a time; then returns `read`'s outcome, or throws
    /// its error or `item`'s (and stops the reading). `read`'s `put` throws once the taker has
    /// stopped.
    static func read(
        _ name: String, _ read: @escaping @Sendable (_ put: (Fix) throws -> Void) throws -> Outcome,
        _ item: (StreamItem) throws -> Void
    ) throws -> Outcome? {
        let handoff = FixHandoff()
        Blocking.start(name) {
            var filling: [Fix] = []
            filling.reserveCapacity(FixBatches.batch)
            do {
                let outcome = try read { f in
                    filling.append(f)
                    guard filling.count == FixBatches.batch else { return }
                    if handoff.cancelled { throw CancellationError() }
                    handoff.put(filling)
                    filling.removeAll(keepingCapacity: true)
                }
                handoff.finish(filling, outcome, nil)
            } catch {
                handoff.finish(filling, nil, error)
            }
        }
        defer { handoff.cancel() }
        while let batch = handoff.take() {
            for f in batch { try item(.fix(f)) }
        }
        return try handoff.outcome()
    }

    /// Stops the reader (the taker stopped or failed) and waits until it has ended.
    func cancel() {
        state.withLock {
            $0.stopped = true
            $0.ready.removeAll()
        }
        state.wait(until: { $0.ended }) { $0.ready.removeAll() }
    }
}
