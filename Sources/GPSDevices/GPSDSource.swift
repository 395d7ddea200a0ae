internal import CGPS
import GPSCore
import SystemPackage
import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Fixes from gpsd through libgps, the only Swift file that sees libgps.
///
/// gpsd may send several reports for one epoch as sentences arrive; the source keeps the
/// latest report of an epoch and passes it on when the next epoch starts (or after a quiet
/// spell), so each epoch yields one fix. DOPs and satellite counts come from gpsd's SKY reports.
/// When gpsd is down or restarts, the source says so once in the log, reports a disconnect,
/// and retries with a backoff of 0.5 s doubling to 4 s.
public struct GPSDSource: FixSource {
    public let host: String
    public let port: String
    /// Whether gpsd not answering at the very start is an error (commands) or retried (daemons).
    public var failIfUnavailableAtStart: Bool
    public var maximumBackoff = 4.0
    private let logger: Logger

    public init(
        host: String = "localhost", port: String = "2947", failIfUnavailableAtStart: Bool = true, logger: Logger
    ) {
        self.host = host
        self.port = port
        self.failIfUnavailableAtStart = failIfUnavailableAtStart
        self.logger = logger
    }

    public mutating func run(shouldStop: () -> Bool, handle: (SourceEvent) throws -> Void) throws {
        var connectedOnce = false
        var reconnection = Reconnection(maximumDelay: maximumBackoff)
        while !shouldStop() {
            guard let session = tb_gps_new() else { throw DeviceError.io("gpsd", Errno.noMemory) }
            defer { tb_gps_free(session) }
            if gps_open(host, port, session) != 0 {
                let reason = String(cString: gps_errstr(errno))
                if !connectedOnce && failIfUnavailableAtStart {
                    throw DeviceError.gpsdUnavailable(host: host, port: port, reason: reason)
                }
                reconnection.failed(
                    announce: {
                        logger.warning(
                            "gpsd is not answering; retrying",
                            metadata: ["gpsd": "\(host):\(port)", "reason": "\(reason)"])
                    }, shouldStop: shouldStop)
                continue
            }
            _ = tb_gps_watch(session)
            connectedOnce = true
            reconnection.succeeded()
            logger.info("connected to gpsd", metadata: ["gpsd": "\(host):\(port)"])
            try handle(.connected("gpsd at \(host):\(port)"))
            let reason = try read(session, shouldStop: shouldStop, handle: handle)
            gps_close(session)
            guard let reason else { return }
            logger.warning("lost gpsd", metadata: ["gpsd": "\(host):\(port)", "reason": "\(reason)"])
            reconnection.markAnnounced()
            try handle(.disconnected("gpsd at \(host):\(port): \(reason)"))
        }
    }

    /// Reads reports until gpsd goes away (returns why) or the caller stops (nil).
    private func read(
        _ session: UnsafeMutablePointer<gps_data_t>, shouldStop: () -> Bool, handle: (SourceEvent) throws -> Void
    ) throws -> String? {
        var report = tb_gps_report()
        var sky = Fix()
        var pending: Fix?
        var lastReport = Posix.monotonicSeconds()
        while !shouldStop() {
            if gps_waiting(session, 200_000) {
                guard gps_read(session, nil, 0) >= 0 else {
                    if let p = pending { try handle(.fix(p)) }
                    return "the connection closed"
                }
                lastReport = Posix.monotonicSeconds()
                tb_gps_report_fill(session, &report)
                if report.is_sky {
                    sky.hdop = finite(report.hdop)
                    sky.vdop = finite(report.vdop)
                    sky.pdop = finite(report.pdop)
                    sky.satellitesUsed = Int(report.satellites_used)
                    sky.satellitesInView = Int(report.satellites_visible)
                }
                guard report.is_position, report.has_time else { continue }
                let fix = Self.fix(from: report, sky: sky)
                if let p = pending, p.unixMilliseconds != fix.unixMilliseconds { try handle(.fix(p)) }
                pending = fix
            } else if let p = pending, Posix.monotonicSeconds() - lastReport > 1.5 {
                try handle(.fix(p))
                pending = nil
            }
        }
        if let p = pending { try handle(.fix(p)) }
        return nil
    }

    static func fix(from r: tb_gps_report, sky: Fix) -> Fix {
        var f = Fix()
        let seconds = Int64(r.time_sec)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        f.date = CivilDate(daysSinceEpoch: Int(days))
        f.timeOfDay = Int(seconds - days * 86_400) * 1000 + Int((Double(r.time_nsec) / 1e6).rounded())
        f.mode = FixMode(rawValue: Int(r.mode)) ?? .unknown
        if f.mode >= .twoD, let lat = finite(r.latitude), let lon = finite(r.longitude) {
            f.coordinate = Coordinate(latitude: lat, longitude: lon)
        }
        if f.coordinate != nil {
            f.altitudeMSL = finite(r.alt_msl)
            f.speed = finite(r.speed)
            f.track = finite(r.track)
            f.geoidSeparation = finite(r.geoid_sep)
            // gpsd's estimates are at 95% confidence; Fix carries 1-sigma values (as GST does).
            f.latitudeError = finite(r.epy).map { $0 / 1.96 }
            f.longitudeError = finite(r.epx).map { $0 / 1.96 }
            f.altitudeError = finite(r.epv).map { $0 / 1.96 }
        }
        f.hdop = sky.hdop
        f.vdop = sky.vdop
        f.pdop = sky.pdop
        f.satellitesUsed = sky.satellitesUsed
        f.satellitesInView = sky.satellitesInView
        return f
    }
}

private func finite(_ v: Double) -> Double? { v.isFinite ? v : nil }
