import Formats
import GPSCore
import NMEA

#if canImport(Glibc)
    import Glibc
#endif

/// A recorded NMEA log (plain or gzip-compressed) played as a live source: as fast as possible, or paced by the times in
/// the log (`realtime`), optionally sped up by `speed`.
public struct ReplaySource: FixSource {
    public let path: String
    /// Whether to wait between fixes as long as the log says (divided by `speed`).
    public var realtime: Bool
    /// Playback speed factor for `realtime` (2 = twice as fast).
    public var speed: Double
    /// Date for logs that never carry one.
    public var fallbackDate: CivilDate?
    /// What the decoder counted, after `run`.
    public private(set) var statistics = DecodeStatistics()
    /// Whether a file with bytes but no NMEA at all is an error (``DeviceError/notNMEA(_:)``)
    /// rather than a replay that ends at once.
    public var requireNMEA = false
    /// Called after each read with the bytes read so far (for progress displays).
    public var progress: (@Sendable (Int) -> Void)?
    /// Whether a large file is framed and checked on a worker thread per core (not with
    /// ``realtime``: a fix would wait for its block). See ``NMEADecoder``.
    public var parallel = false

    public init(path: String, realtime: Bool = false, speed: Double = 1, fallbackDate: CivilDate? = nil) {
        precondition(speed > 0, "speed must be positive")
        self.path = path
        self.realtime = realtime
        self.speed = speed
        self.fallbackDate = fallbackDate
    }

    public mutating func run(shouldStop: () -> Bool, handle: (SourceEvent) throws -> Void) throws {
        let fd: Int32
        do {
            fd = try Posix.open(path, O_RDONLY)
        } catch {
            throw DeviceError.unreadableFile(path, error)
        }
        defer { Posix.close(fd) }
        try handle(.connected("replay of \(path)"))
        var info = stat()
        let size = !realtime && parallel && fstat(fd, &info) == 0 ? Int(info.st_size) : 0
        let decoder = NMEADecoder(fallbackDate: fallbackDate, workers: NMEADecoder.workers(forFileOf: size))
        var firstTime: Double?
        let start = Posix.monotonicSeconds()
        let pacedSpeed = speed
        let paced = realtime
        struct Stop: Error {}
        func emit(_ fix: Fix) throws {
            if shouldStop() { throw Stop() }
            if paced, let t = Self.seconds(of: fix) {
                if firstTime == nil { firstTime = t }
                let due = start + (t - firstTime!) / pacedSpeed
                Posix.sleep(due - Posix.monotonicSeconds(), shouldStop: shouldStop)
                if shouldStop() { throw Stop() }
            }
            try handle(.fix(fix))
        }
        do {
            try read(fd, size: size, into: decoder, emit)
            try decoder.finish(emit)
        } catch is Stop {
            // stopped by the caller
        }
        statistics = decoder.statistics
        if requireNMEA && !statistics.foundNMEA && statistics.skippedBytes > 0 { throw DeviceError.notNMEA(path) }
    }

    /// Feeds the whole file to `decoder`: mapped and in windows when workers check it (no copy),
    /// else read in chunks, gzip decompressed.
    private func read(_ fd: Int32, size: Int, into decoder: NMEADecoder, _ emit: (Fix) throws -> Void) throws {
        if decoder.isParallel, let mapping = MappedFile(fd: fd, size: size), !GzipStream.isGzip(mapping.bytes) {
            var done = 0
            try mapping.forEachWindow { window in
                try decoder.feed(window, emit)
                done += window.count
                progress?(done)
            }
            return
        }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { buffer.deallocate() }
        var bytesRead = 0
        var gzip: GzipStream?
        while true {
            let n: Int
            do {
                n = try Posix.read(fd, into: buffer)
            } catch {
                throw DeviceError.unreadableFile(path, error)
            }
            if n == 0 { break }
            if n > 0 {
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                if bytesRead == 0 && GzipStream.isGzip(chunk) { gzip = try corruptIfFailing { try GzipStream() } }
                if let gzip {
                    try corruptIfFailing { try gzip.feed(chunk) { try decoder.feed($0, emit) } }
                } else {
                    try decoder.feed(chunk, emit)
                }
                bytesRead += n
                progress?(bytesRead)
            }
        }
        try corruptIfFailing { try gzip?.finish() }
    }

    /// Runs `body`, turning a gzip failure into ``DeviceError/corruptFile(_:reason:)``.
    private func corruptIfFailing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as GzipStream.Failure {
            throw DeviceError.corruptFile(path, reason: failure.description)
        }
    }

    /// Seconds since the epoch (or since midnight when undated) of a fix, for pacing.
    static func seconds(of fix: Fix) -> Double? {
        if let ms = fix.unixMilliseconds { return Double(ms) / 1000 }
        return fix.timeOfDay.map { Double($0) / 1000 }
    }
}
