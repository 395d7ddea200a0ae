import Foundation
import GPSCore
import GPSDevices
import NMEA
import Reports

/// The readers `import` uses: each reads one file and hands over its fixes as ``StreamItem``s.
enum ImportReaders {
    /// What a GPX file held besides its track points.
    struct GPXExtras {
        var waypoints: [GPXReader.Waypoint] = []
        var routes = 0
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
    ) throws -> GPXExtras {
        let input = try InputFile(path: path)
        let reader = GPXReader()
        var extras = GPXExtras()
        func take(_ i: GPXReader.Item) throws {
            switch i {
            case .track: try item(.track)
            case .segment: try item(.segment)
            case .point(let f): try item(.fix(f))
            case .waypoint(let w): extras.waypoints.append(w)
            }
        }
        do {
            try input.forEachChunk { chunk in
                try reader.feed(chunk, take)
                progress?(input.bytesRead)
            }
            try reader.finish(take)
        } catch let failure as GPXReader.Failure {
            throw ImportError.broken(path, reason: failure.description, format: "GPX file")
        }
        extras.routes = reader.routes
        return extras
    }

    /// Reads the JSON track format: one stream, each of its segments a segment.
    static func jsonTrack(_ path: String, _ item: (StreamItem) throws -> Void) throws {
        var data = Data()
        let input = try InputFile(path: path)
        try input.forEachChunk { chunk in
            data.append(contentsOf: chunk)
            guard data.count <= 1 << 30 else {
                throw ImportError.tooLarge(path)
            }
        }
        let segments: [[Fix]]
        do {
            segments = try JSONTrack.read(data)
        } catch {
            throw ImportError.broken(path, reason: "\(error)", format: "file")
        }
        try item(.track)
        for (i, fixes) in segments.enumerated() {
            if i > 0 { try item(.segment) }
            for f in fixes { try item(.fix(f)) }
        }
    }
}

/// An NMEA log (plain or gzip) read through the replay source on a thread of its own, from
/// when it is made, while ``take(kind:_:)`` hands its fixes to `item` on the caller's thread (the
/// collection rules, the segmenter): two cores share an import, and the fixes arrive in the same
/// order as from one (``FixHandoff``). Dropped untaken, it stops the thread.
final class NMEAReading {
    private let path: String
    private let handoff = FixHandoff()

    /// Starts reading `path`, dating epochs that have no date in the log with `date`.
    init(_ path: String, date: CivilDate?, progress: (@Sendable (Int) -> Void)?) {
        self.path = path
        let handoff = handoff
        let reader = Thread {
            var source = ReplaySource(path: path, fallbackDate: date)
            source.progress = progress
            source.parallel = true
            do {
                try source.run(shouldStop: { handoff.cancelled }) { event in
                    if case .fix(let f) = event { handoff.put(f) }
                }
                handoff.finish(source.statistics, nil)
            } catch {
                handoff.finish(nil, error)
            }
        }
        reader.stackSize = 1 << 20
        reader.start()
    }

    deinit { handoff.cancel() }

    /// Hands every fix to `item`, in order; then the reader's error if it failed, or
    /// ``ImportError/nothingToImport(_:found:)`` when the file held no NMEA (`kind` says what
    /// it looked like).
    func take(kind: FileKind, _ item: (StreamItem) throws -> Void) throws {
        while let batch = handoff.take() {
            for f in batch { try item(.fix(f)) }
        }
        let s = try handoff.outcome()
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
/// none is ready. The reader ends with its statistics or its error; the taker cancels when it
/// stops early, and the reader's `shouldStop` sees that.
final class FixHandoff: @unchecked Sendable {
    /// Fixes a batch.
    static let batch = 1024
    /// Batches waiting at most.
    static let depth = 8

    private let condition = NSCondition()
    private var ready: [[Fix]] = []
    private var filling: [Fix] = []
    private var ended = false
    private var statistics: DecodeStatistics?
    private var failure: (any Error)?
    private var stopped = false

    init() { filling.reserveCapacity(Self.batch) }

    /// Whether the taker has stopped (read by the reader only).
    var cancelled: Bool { condition.withLock { stopped } }

    /// Adds a fix (the reader): a full batch goes to the taker, waiting while too many are unread.
    func put(_ fix: Fix) {
        filling.append(fix)
        guard filling.count == Self.batch else { return }
        let full = filling
        filling = []
        filling.reserveCapacity(Self.batch)
        condition.withLock {
            while ready.count >= Self.depth && !stopped { condition.wait() }
            ready.append(full)
            condition.broadcast()
        }
    }

    /// Ends the reading with its statistics, or the error that ended it.
    func finish(_ statistics: DecodeStatistics?, _ failure: (any Error)?) {
        let last = filling
        filling = []
        condition.withLock {
            if !last.isEmpty { ready.append(last) }
            self.statistics = statistics
            self.failure = failure
            ended = true
            condition.broadcast()
        }
    }

    /// The next batch in order; nil once the reader has ended and every batch was taken.
    func take() -> [Fix]? {
        condition.withLock {
            while ready.isEmpty && !ended { condition.wait() }
            guard !ready.isEmpty else { return nil }
            condition.broadcast()
            return ready.removeFirst()
        }
    }

    /// After ``take()`` returned nil: the reader's statistics, or its error.
    func outcome() throws -> DecodeStatistics {
        try condition.withLock {
            if let failure { throw failure }
            return statistics ?? DecodeStatistics()
        }
    }

    /// Stops the reader (the taker stopped or failed) and waits until it has ended.
    func cancel() {
        condition.withLock {
            stopped = true
            ready.removeAll()
            condition.broadcast()
            while !ended { condition.wait() }
        }
    }
}
