import GPSCore
import SystemPackage
import NMEA

#if canImport(Glibc)
    import Glibc
#endif

/// Finds the baud rate at which a receiver sends valid, checksummed NMEA.
public enum BaudProbe {
    /// What a probe saw at the rate it settled on.
    public struct Result: Equatable, Sendable {
        /// The rate at which valid sentences arrived.
        public var baud: Int
        /// Talker IDs seen (GP, GN, GL, ...), sorted.
        public var talkers: [String]
        /// Valid sentences seen during the probe.
        public var sentences: Int
        /// Whether a sentence reported a position fix.
        public var hasFix: Bool
        /// The bytes read at this rate, so a source can decode them instead of losing them.
        public var bytes: [UInt8]
    }

    /// Valid sentences needed to accept a rate.
    static let sentencesNeeded = 2

    /// Tries each rate for up to `window` seconds; nil when none produced NMEA.
    public static func detect(
        _ port: SerialPort, rates: [Int], window: Double, shouldStop: () -> Bool
    ) throws(DeviceError) -> Result? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { buffer.deallocate() }
        for rate in rates {
            if shouldStop() { return nil }
            try port.configure(baud: rate)
            var framer = NMEAFramer()
            let parser = SentenceParser()
            var result = Result(baud: rate, talkers: [], sentences: 0, hasFix: false, bytes: [])
            var talkers: Set<String> = []
            let end = Posix.monotonicSeconds() + window
            while Posix.monotonicSeconds() < end && !shouldStop() {
                switch port.read(into: buffer, milliseconds: 100) {
                case .timeout: continue
                case .gone: throw .io(port.path, Errno.ioError)
                case .data(let n):
                    let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
                    result.bytes.append(contentsOf: chunk)
                    framer.feed(chunk) { candidate in
                        parser.parse(candidate) { outcome in
                            switch outcome {
                            case .decoded(let s):
                                result.sentences += 1
                                talkers.insert(s.talker.description)
                                if s.reportsFix { result.hasFix = true }
                            case .rejected(.unsupported):
                                result.sentences += 1  // checksummed, just not a type we decode
                            default: break
                            }
                        }
                    }
                }
                // A whole second of sentences tells more than two; stop early only on plenty.
                if result.sentences >= 8 { break }
            }
            if result.sentences >= sentencesNeeded {
                result.talkers = talkers.sorted()
                return result
            }
        }
        return nil
    }
}

extension Sentence {
    /// Whether this sentence says the receiver has a position.
    var reportsFix: Bool {
        switch body {
        case .gga(let s): return (s.quality ?? 0) > 0 && s.latitude != nil
        case .rmc(let s): return s.statusValid && s.latitude != nil
        case .gns(let s): return s.valid && s.latitude != nil
        case .gll(let s): return s.statusValid && s.latitude != nil
        default: return false
        }
    }
}
