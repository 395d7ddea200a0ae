import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A command's standard streams and environment: the process's own when the binary runs, or the
/// pipes and variables a test gives a command it runs in its own process.
///
/// Everything a command reads or writes by the standard streams goes through ``current``:
/// printed lines, output files written to `-`, standard input, the terminal checks and the
/// environment (the store's and the config's defaults). A value captured where a command starts
/// (a logger, an output buffer, a progress bar) keeps writing there from any thread.
public struct Console: Sendable {
    /// Standard input's descriptor.
    public var input: Int32
    /// Standard output's descriptor.
    public var output: Int32
    /// Standard error's descriptor.
    public var error: Int32
    /// The environment variables the command sees.
    public var environment: [String: String]

    public init(input: Int32, output: Int32, error: Int32, environment: [String: String]) {
        self.input = input
        self.output = output
        self.error = error
        self.environment = environment
    }

    /// The process's own streams (0, 1, 2) and environment.
    public static let process = Console(
        input: STDIN_FILENO, output: STDOUT_FILENO, error: STDERR_FILENO,
        environment: ProcessInfo.processInfo.environment)

    /// The console of the command running in this task (the process's, unless a test set one).
    @TaskLocal public static var current: Console = .process

    /// Whether standard output is the process's own (Swift's buffered `print` may write it).
    public var isProcessOutput: Bool { output == STDOUT_FILENO }

    /// Whether standard input is a terminal.
    public var inputIsTerminal: Bool { isatty(input) != 0 }
    /// Whether standard output is a terminal.
    public var outputIsTerminal: Bool { isatty(output) != 0 }
    /// Whether standard error is a terminal.
    public var errorIsTerminal: Bool { isatty(error) != 0 }

    /// Writes `text` to standard output as it is, unbuffered (after what `print` buffered).
    public func write(_ text: String) {
        if isProcessOutput { fflush(nil) }
        Self.write(text, to: output)
    }

    /// Writes `text` to standard error as it is, unbuffered.
    public func writeError(_ text: String) {
        Self.write(text, to: error)
    }

    /// Everything left on standard input, as bytes.
    public func readInput() -> Data {
        var data = Data()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { chunk.deallocate() }
        while let n = try? Posix.read(input, into: chunk), n > 0 {
            data.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<n]))
        }
        return data
    }

    /// One line of standard input without its line end; nil at the end of the input. Reads a
    /// byte at a time, so nothing after the line is taken from the stream.
    public func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let n = withUnsafeMutableBytes(of: &byte) { (try? Posix.read(input, into: $0)) ?? 0 }
            guard n > 0 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func write(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { try? Posix.write(fd, UnsafeRawBufferPointer($0)) }
    }
}
