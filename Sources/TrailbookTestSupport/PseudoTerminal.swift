import CPosix
import Foundation

/// A pseudo-terminal pair standing in for a USB serial receiver: tests write NMEA into the
/// master; the code under test opens ``linkPath`` (a symlink to the slave, like
/// /dev/serial/by-id) through real termios. ``unplug()`` closes the master and removes the
/// link; a new `PseudoTerminal` on the same link path is the receiver plugged back in.
public final class PseudoTerminal: @unchecked Sendable {
    public let slavePath: String
    public let linkPath: String
    private let master: Int32
    private let lock = NSLock()
    private var open = true

    /// Creates the pair and points `linkPath` at the slave (replacing an old link).
    public init(linkPath: String) throws {
        var name = [CChar](repeating: 0, count: 256)
        let fd = tb_open_pty(&name, name.count)
        guard fd >= 0 else {
            throw SupportError("Cannot open a pseudo-terminal: \(String(cString: strerror(errno))).")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        master = fd
        slavePath = String(cString: name)
        self.linkPath = linkPath
        try? FileManager.default.removeItem(atPath: linkPath)
        try FileManager.default.createSymbolicLink(atPath: linkPath, withDestinationPath: slavePath)
    }

    deinit { unplug() }

    /// Writes bytes into the master (what the receiver sends), waiting while the terminal's
    /// buffer is full. Returns false once unplugged. The master is non-blocking and the lock is
    /// held for one write at a time, so ``unplug()`` can always end a send that waits for a
    /// reader that is gone.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let (n, error): (Int, Int32) = lock.withLock {
                guard open else { return (-1, EBADF) }
                let n = bytes[offset...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                return (n, n < 0 ? errno : 0)
            }
            if n < 0 {
                if error == EINTR || error == EAGAIN {
                    usleep(1000)
                    continue
                }
                return false
            }
            offset += n
        }
        return true
    }

    /// Waits until the code under test has opened the port and set it up (raw, its input
    /// flushed: a serial port sets raw mode and drops what came before in one `tcsetattr`), so
    /// that what is sent from now on is read; throws after `timeout` seconds. The master sees
    /// the line's settings: a new terminal is in canonical mode until the port is set up.
    /// Before a second opening of the same terminal, ``expectOpening()``.
    public func awaitOpened(timeout: Double = 20, by whom: String = "the recorder") throws {
        let deadline = Date().addingTimeInterval(timeout)
        while isCanonical() {
            guard Date() < deadline else {
                throw SupportError("\(whom) did not open \(linkPath) within \(Int(timeout)) s.")
            }
            usleep(5000)
        }
    }

    /// Puts the line back in canonical mode, so that ``awaitOpened(timeout:by:)`` waits for the
    /// next opening (the settings outlive the code that made them while the master is open).
    public func expectOpening() {
        lock.withLock {
            var t = termios()
            guard open, tcgetattr(master, &t) == 0 else { return }
            t.c_lflag |= tcflag_t(ICANON)
            tcsetattr(master, TCSANOW, &t)
        }
    }

    private func isCanonical() -> Bool {
        lock.withLock {
            var t = termios()
            guard open, tcgetattr(master, &t) == 0 else { return false }
            return t.c_lflag & tcflag_t(ICANON) != 0
        }
    }

    /// Closes the master and removes the link: the receiver is pulled out.
    public func unplug() {
        lock.lock()
        defer { lock.unlock() }
        guard open else { return }
        open = false
        close(master)
        try? FileManager.default.removeItem(atPath: linkPath)
    }
}

/// A helper's failure, with a sentence saying what is missing.
public struct SupportError: Error, CustomStringConvertible {
    public var description: String
    public init(_ d: String) { description = d }
}
