internal import CGPS
import GPSCore

#if canImport(Glibc)
    import Glibc
#endif

/// Asks gpsd whether it is running and which devices it has.
public enum GPSDProbe {
    /// What gpsd said.
    public struct Status: Equatable, Sendable {
        public var answering: Bool
        /// Device paths gpsd reads.
        public var devices: [String]
        /// Why it is not answering, when it is not.
        public var error: String?
    }

    /// Connects to gpsd at `host:port` and waits up to `timeout` seconds for its device list.
    public static func status(host: String = "localhost", port: String = "2947", timeout: Double = 2) -> Status {
        guard let session = tb_gps_new() else { return Status(answering: false, devices: [], error: "out of memory") }
        defer { tb_gps_free(session) }
        guard gps_open(host, port, session) == 0 else {
            return Status(answering: false, devices: [], error: String(cString: gps_errstr(errno)))
        }
        defer { gps_close(session) }
        _ = tb_gps_watch(session)
        // gpsd answers WATCH with its device list; a device activated later is announced in a
        // DEVICE report, so keep reading until one names a device or the time is up.
        var paths: [String] = []
        let end = Posix.monotonicSeconds() + timeout
        while Posix.monotonicSeconds() < end && paths.isEmpty {
            guard gps_waiting(session, 200_000) else { continue }
            guard gps_read(session, nil, 0) >= 0 else { break }
            let count = tb_gps_device_count(session)
            if count > 0 {
                paths = (0..<count).map { String(cString: tb_gps_device_path(session, $0)) }
            } else if let activated = tb_gps_device_event_path(session), activated.pointee != 0 {
                paths = [String(cString: activated)]
            }
        }
        return Status(answering: true, devices: paths, error: nil)
    }
}
