import CPosix
import Foundation
import GPSCore

#if canImport(Glibc)
    import Glibc
#endif

/// A console of pipes for a command run in the test's own process: what the test gives is its
/// standard input, what the command writes to standard output and error is read as it comes
/// (a pipe nobody drained would fill and stop the command), and ``finish()`` gives both.
public final class CapturedConsole: @unchecked Sendable {
    /// The console to run the command on (``Console/current``).
    public let console: Console
    private let output: Drained
    private let error: Drained
    private let inputRead: Int32
    private let feeder: Guarded<Bool>

    /// `input`: standard input's bytes (none: an empty input, at its end at once); `environment`:
    /// the variables the command sees.
    public init(input: Data?, environment: [String: String]) throws {
        // A write to a pipe whose reader is gone (a command that did not read all its input)
        // is then an error, not the end of the test process.
        signal(SIGPIPE, SIG_IGN)
        let stdin = try Self.pipe()
        let stdout = try Self.pipe()
        let stderr = try Self.pipe()
        output = Drained(stdout.read)
        error = Drained(stderr.read)
        inputRead = stdin.read
        let feeder = Guarded(false)
        self.feeder = feeder
        let bytes = input ?? Data()
        let write = stdin.write
        Blocking.start("test stdin") {
            bytes.withUnsafeBytes { _ = try? Posix.write(write, $0) }
            Posix.close(write)
            feeder.withLock { $0 = true }
        }
        console = Console(input: stdin.read, output: stdout.write, error: stderr.write, environment: environment)
    }

    /// Closes the command's ends and gives all it wrote: standard output and standard error.
    public func finish() -> (output: String, error: String) {
        Posix.close(console.output)
        Posix.close(console.error)
        let text = (output.wait(), error.wait())
        Posix.close(inputRead)
        feeder.wait(until: { $0 }) { _ in }
        return text
    }

    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard tb_pipe_cloexec(&fds) == 0 else {
            throw CapturedConsoleError("pipe2 failed: \(String(cString: strerror(errno)))")
        }
        return (fds[0], fds[1])
    }

    /// A pipe's read end, read to its end on a thread of its own.
    private final class Drained: Sendable {
        private let text = Guarded<String?>(nil)

        init(_ fd: Int32) {
            let text = self.text
            Blocking.start("test output") {
                var data = Data()
                let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
                while let n = try? Posix.read(fd, into: chunk), n > 0 {
                    data.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<n]))
                }
                chunk.deallocate()
                Posix.close(fd)
                text.withLock { $0 = String(decoding: data, as: UTF8.self) }
            }
        }

        func wait() -> String { text.wait(until: { $0 != nil }) { $0! } }
    }
}

/// A pipe that could not be made.
public struct CapturedConsoleError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
