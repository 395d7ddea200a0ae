import CPosix
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real gpsd started by `gpsfake` (gpsd-clients) on a free loopback port, replaying a log.
public final class GPSFake: @unchecked Sendable {
    public let port: Int
    private let pid: Int32

    /// Starts gpsfake on `log`, feeding one sentence every `cycle` seconds once a client connects,
    /// on `port` or a free one.
    public init(log: String, cycle: Double = 0.01, port: Int? = nil) throws {
        guard let gpsfake = Self.which("gpsfake"), Self.which("gpsd") != nil else {
            throw SupportError(
                "gpsfake or gpsd is not installed: sudo apt-get install gpsd gpsd-clients (make test does this).")
        }
        let port = try port ?? Self.freePort()
        self.port = port
        // In a process group of its own, so that stopping it stops the gpsd it started too.
        let arguments = [gpsfake, "-1", "-q", "-P", String(port), "-c", String(cycle), log]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer {
            for p in argv { free(p) }
        }
        pid = tb_spawn_in_group(&argv)
        guard pid > 0 else { throw SupportError("Cannot start gpsfake: \(String(cString: strerror(errno))).") }
        // Wait until gpsd listens.
        for _ in 0..<100 {
            if Self.canConnect(port: port) { return }
            usleep(100_000)
        }
        tb_stop_group(pid, 2000)
        throw SupportError("gpsfake started but gpsd did not listen on port \(port) within 10 s.")
    }

    deinit { stop() }

    private let stopped = Locked(false)

    /// Stops gpsfake and the gpsd it started (SIGTERM, then SIGKILL after 2 s); safe to call twice.
    public func stop() {
        let first = stopped.withLock { was in
            defer { was = true }
            return !was
        }
        if first { tb_stop_group(pid, 2000) }
    }

    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let dirs: [String] = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        for dir in dirs {
            let path = "\(dir)/\(name)"
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }

    /// A loopback TCP port nobody listens on (bound once and released).
    static func freePort() throws -> Int {
        let (fd, port) = try boundLoopback()
        close(fd)
        return port
    }

    /// A socket bound to a free loopback port, not listening (the caller closes it), and the port.
    static func boundLoopback() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0
            }
        }
        guard fd >= 0, ok else {
            let reason = String(cString: strerror(errno))
            if fd >= 0 { close(fd) }
            throw SupportError("Cannot find a free loopback port: \(reason).")
        }
        return (fd, Int(UInt16(bigEndian: addr.sin_port)))
    }

    static func canConnect(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &addr) { p in
            p.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
