#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file (or standard input) read in large chunks with `read(2)`, EINTR handled here once.
final class InputFile {
    /// The name used in messages ("standard input" for `-`).
    let displayName: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let buffer: UnsafeMutableRawBufferPointer
    /// Bytes read so far.
    private(set) var bytesRead = 0

    /// Size of one read.
    static let chunkSize = 1 << 20

    /// Opens `path`, or standard input for `-`. Throws a ``CommandFailure`` (exit 66) with a
    /// sentence saying what is wrong and what to do.
    init(path: String) throws {
        if path == "-" {
            fd = STDIN_FILENO
            ownsDescriptor = false
            displayName = "standard input"
        } else {
            var fd: Int32
            repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
            guard fd >= 0 else {
                let reason = String(cString: strerror(errno))
                let hint = errno == EACCES ? "check its permissions" : "check the path"
                throw CommandFailure(message: "Cannot open \(path): \(reason); \(hint).", code: .noInput)
            }
            var info = stat()
            if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw CommandFailure(message: "\(path) is a directory; give a log file.", code: .noInput)
            }
            self.fd = fd
            ownsDescriptor = true
            displayName = path
        }
        buffer = .allocate(byteCount: Self.chunkSize, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { close(fd) }
    }

    /// Calls `body` with each chunk until the end of the file.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        while true {
            let n = read(fd, buffer.baseAddress, Self.chunkSize)
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                throw CommandFailure(message: "Reading \(displayName) failed: \(reason).", code: .noInput)
            }
            if n == 0 { return }
            bytesRead += n
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
    }
}
