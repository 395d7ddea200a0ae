import GPSCore
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open serial device in raw mode, 8N1, no flow control: the only place that sets termios.
public final class SerialPort {
    /// Baud rates Trailbook can set, most likely first for GPS receivers (u-blox and most USB
    /// receivers default to 9600, SiRF and the NMEA standard to 4800).
    public static let probeOrder = [9600, 4800, 38400, 115200, 57600, 19200]

    public let path: String
    let fd: Int32
    public private(set) var baud: Int

    /// Opens `path` (`O_NOCTTY`, non-blocking) and sets raw 8N1 at `baud`.
    public init(path: String, baud: Int) throws(DeviceError) {
        self.path = path
        let fd: Int32
        do {
            fd = try Posix.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        } catch {
            throw DeviceError.opening(path, error)
        }
        self.fd = fd
        self.baud = baud
        do {
            try configure(baud: baud)
        } catch {
            Posix.close(fd)
            throw error
        }
    }

    deinit { Posix.close(fd) }

    /// Switches the line to `baud` and drops anything received at the old rate.
    public func configure(baud: Int) throws(DeviceError) {
        guard let speed = Self.speed(for: baud) else { throw .unsupportedBaud(baud) }
        var t = termios()
        guard tcgetattr(fd, &t) == 0 else { throw .notASerialDevice(path) }
        cfmakeraw(&t)
        t.c_cflag |= tcflag_t(CLOCAL | CREAD)
        t.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(CRTSCTS) | tcflag_t(PARENB))
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        cfsetispeed(&t, speed)
        cfsetospeed(&t, speed)
        // The new settings and the dropping of what came before them in one step.
        guard tcsetattr(fd, TCSAFLUSH, &t) == 0 else { throw .io(path, Errno(rawValue: errno)) }
        self.baud = baud
    }

    /// What one read produced.
    public enum ReadResult: Equatable {
        case data(Int)
        case timeout
        /// The device went away (EOF, EIO, ENXIO, hang-up).
        case gone(String)
    }

    /// Waits up to `milliseconds` and reads what arrived into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer, milliseconds: Int32) -> ReadResult {
        do {
            switch try Posix.waitReadable(fd, milliseconds: milliseconds) {
            case .timeout: return .timeout
            case .hangup: return .gone("the device hung up")
            case .readable:
                let n = try Posix.read(fd, into: buffer)
                if n == 0 { return .gone("end of file on the device") }
                return n < 0 ? .timeout : .data(n)
            }
        } catch {
            return .gone(error.description)
        }
    }

    static func speed(for baud: Int) -> speed_t? {
        switch baud {
        case 4800: return speed_t(B4800)
        case 9600: return speed_t(B9600)
        case 19200: return speed_t(B19200)
        case 38400: return speed_t(B38400)
        case 57600: return speed_t(B57600)
        case 115200: return speed_t(B115200)
        case 230400: return speed_t(B230400)
        case 460800: return speed_t(B460800)
        default: return nil
        }
    }
}
