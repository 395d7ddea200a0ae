#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

import SystemPackage

/// The system calls Trailbook makes, each wrapped once: descriptors, `errno` and EINTR through
/// apple/swift-system's `FileDescriptor` and `Errno` where it covers the call; `poll`, clocks and
/// sleeping here. Descriptors stay plain `Int32`s for the C libraries (termios, libgps) that
/// take them.
public enum Posix {
    public static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> Int32 {
        try call {
            try FileDescriptor.open(
                FilePath(path), FileDescriptor.AccessMode(rawValue: flags & O_ACCMODE),
                options: FileDescriptor.OpenOptions(rawValue: (flags & ~O_ACCMODE) | O_CLOEXEC),
                permissions: FilePermissions(rawValue: CModeT(mode))
            ).rawValue
        }
    }

    /// Runs a swift-system call, whose failures are documented to be `Errno` values.
    private static func call<T>(_ body: () throws -> T) throws(Errno) -> T {
        do {
            return try body()
        } catch let error as Errno {
            throw error
        } catch {
            preconditionFailure("swift-system threw \(error), which is not an Errno")
        }
    }

    public static func close(_ fd: Int32) {
        // Linux closes the descriptor even when close reports EINTR: nothing to retry.
        try? FileDescriptor(rawValue: fd).close()
    }

    /// Reads what is available; 0 means end of file. EAGAIN reads as an empty result (-1).
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        do throws(Errno) {
            return try call { try FileDescriptor(rawValue: fd).read(into: buffer, retryOnInterrupt: true) }
        } catch where error == .resourceTemporarilyUnavailable || error == .wouldBlock {
            return -1
        }
    }

    /// Writes everything, retrying short writes.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(Errno) {
        _ = try call { try FileDescriptor(rawValue: fd).writeAll(bytes) }
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
                throw Errno(rawValue: errno)
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
