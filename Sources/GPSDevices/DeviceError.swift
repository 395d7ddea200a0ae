import GPSCore
import SystemPackage

/// Why a source cannot run. Each description is one sentence that says what to do.
public enum DeviceError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The device node does not exist; `existing` lists the receivers that do.
    case missing(String, existing: [String])
    /// This user may not open the device.
    case permissionDenied(String)
    /// The path is not a terminal device.
    case notASerialDevice(String)
    /// A baud rate termios cannot set.
    case unsupportedBaud(Int)
    /// Nothing that looks like NMEA arrived at any rate tried.
    case noNMEA(String, bauds: [Int], seconds: Double)
    /// gpsd does not answer.
    case gpsdUnavailable(host: String, port: String, reason: String)
    /// A replay file cannot be read.
    case unreadableFile(String, Errno)
    /// Another system call failed.
    case io(String, Errno)
    /// A replay file's bytes cannot be used (a broken gzip stream); the reason is a clause.
    case corruptFile(String, reason: String)
    /// A replay file holds no NMEA at all.
    case notNMEA(String)

    /// The broad class of failure, for exit codes.
    public enum Kind: Sendable { case unavailable, permission, usage, noInput, dataError }

    public var kind: Kind {
        switch self {
        case .permissionDenied: return .permission
        case .unsupportedBaud: return .usage
        case .unreadableFile: return .noInput
        case .corruptFile, .notNMEA: return .dataError
        case .missing, .notASerialDevice, .noNMEA, .gpsdUnavailable, .io: return .unavailable
        }
    }

    /// The error for a failed `open` of `path`.
    static func opening(_ path: String, _ error: Errno) -> DeviceError {
        switch error {
        case Errno.noSuchFileOrDirectory: return .missing(path, existing: DeviceDiscovery.candidatePaths())
        case Errno.permissionDenied, Errno.notPermitted: return .permissionDenied(path)
        default: return .io(path, error)
        }
    }

    public var description: String {
        switch self {
        case .missing(let path, let existing):
            let found =
                existing.isEmpty
                ? "no serial GPS receiver is connected (nothing under /dev/ttyUSB*, /dev/ttyACM*, /dev/serial/by-id)"
                : "receivers present: " + existing.joined(separator: ", ")
            return "\(path) does not exist; \(found). Plug the receiver in"
                + (existing.isEmpty ? "." : " or use one of those.")
        case .permissionDenied(let path):
            return "Permission denied opening \(path). Add yourself to the dialout group: "
                + "sudo usermod -aG dialout $USER, then log in again (or install the udev rule from udev/)."
        case .notASerialDevice(let path):
            return "\(path) is not a serial device; pass a /dev/ttyUSB*, /dev/ttyACM* or /dev/serial/by-id/* path."
        case .unsupportedBaud(let baud):
            return "\(baud) is not a baud rate Trailbook can set; use 4800, 9600, 19200, 38400, 57600, 115200 or auto."
        case .noNMEA(let path, let bauds, let seconds):
            let rates = bauds.map(String.init).joined(separator: ", ")
            let secs = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
            return "No NMEA arrived from \(path) at \(rates) baud within \(secs) s each; "
                + (bauds.count == 1
                    ? "check the rate, or let Trailbook probe the rates."
                    : "check that it is a GPS receiver that sends NMEA 0183 (binary-only receivers work through gpsd).")
        case .gpsdUnavailable(let host, let port, let reason):
            return "gpsd is not answering on \(host):\(port) (\(reason)); start it with sudo systemctl start gpsd, "
                + "or read the receiver directly (its serial device)."
        case .unreadableFile(let path, let error):
            return "Cannot read \(path): \(error); check the path."
        case .io(let path, let error):
            return "Reading \(path) failed: \(error)."
        case .corruptFile(let path, let reason):
            return "Cannot read \(path): \(reason); check the file (gzip -t \(path)) or give the uncompressed log."
        case .notNMEA(let path):
            return "No NMEA sentences found in \(path); give a log of NMEA 0183 text such as $GPGGA/$GPRMC lines."
        }
    }
}
