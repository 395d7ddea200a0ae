#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes collected in memory and written to a file descriptor in large blocks.
struct OutputBuffer: ~Copyable {
    var bytes: [UInt8] = []
    let fd: Int32
    static let flushThreshold = 1 << 16

    init(fd: Int32 = STDOUT_FILENO) {
        self.fd = fd
        bytes.reserveCapacity(Self.flushThreshold + 1024)
    }

    mutating func append(_ b: UInt8) { bytes.append(b) }

    mutating func append(_ s: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    mutating func append(_ s: String) { bytes.append(contentsOf: s.utf8) }

    /// Writes out when enough has collected.
    mutating func flushIfFull() throws {
        if bytes.count >= Self.flushThreshold { try flush() }
    }

    /// Writes everything collected so far.
    mutating func flush() throws {
        var offset = 0
        try bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    let reason = String(cString: strerror(errno))
                    throw CommandFailure(message: "Writing the output failed: \(reason).", code: .cannotCreate)
                }
                offset += n
            }
        }
        bytes.removeAll(keepingCapacity: true)
    }
}
