#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An `errno` value with its system message.
public struct Errno: Error, Equatable, CustomStringConvertible, Sendable {
    public let code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The current thread's `errno`.
    public static var current: Errno { Errno(errno) }

    public var description: String { String(cString: strerror(code)) }

    public static let noEntry = Errno(ENOENT)
    public static let accessDenied = Errno(EACCES)
    public static let permissionDenied = Errno(EPERM)
}

/// The system calls Trailbook makes, each wrapped once: EINTR is retried here,
/// failures become ``Errno``.
public enum Posix {
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> Int32 {
        while true {
            let fd = Glibc.open(path, flags | O_CLOEXEC, mode)
            if fd >= 0 { return fd }
            if errno != EINTR { throw .current }
        }
    }

    public static func close(_ fd: Int32) {
        _ = Glibc.close(fd)  // Linux closes the descriptor even when close reports EINTR.
    }

    /// Reads what is available; 0 means end of file. EAGAIN reads as an empty result (-1).
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return -1 }
            throw .current
        }
    }

    /// Writes everything, retrying short writes.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw .current
            }
            offset += n
        }
    }

    /// What `poll` saw on one descriptor.
    public enum Readiness: Sendable { case readable, timeout, hangup }

    /// Waits up to `milliseconds` for input.
    public static func waitReadable(_ fd: Int32, milliseconds: Int32) throws(Errno) -> Readiness {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let n = poll(&p, 1, milliseconds)
            if n < 0 {
                if errno == EINTR { continue }
                throw .current
            }
            if n == 0 { return .timeout }
            if p.revents & Int16(POLLIN) != 0 { return .readable }
            return .hangup  // POLLHUP, POLLERR or POLLNVAL without data
        }
    }

    /// Seconds on the monotonic clock.
    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Sleeps for `seconds`, in slices, returning early when `shouldStop` says so.
    public static func sleep(_ seconds: Double, shouldStop: () -> Bool) {
        let end = monotonicSeconds() + seconds
        while !shouldStop() {
            let left = end - monotonicSeconds()
            if left <= 0 { return }
            let slice = Swift.min(left, 0.1)
            var request = timespec(tv_sec: Int(slice), tv_nsec: Int((slice - Double(Int(slice))) * 1e9))
            var remaining = timespec()
            while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
        }
    }

    /// Whether this process may read and write `path` (the device permission check).
    public static func mayReadWrite(_ path: String) -> Bool { access(path, R_OK | W_OK) == 0 }

    /// Whether `path` exists (following links).
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0
    }
}
