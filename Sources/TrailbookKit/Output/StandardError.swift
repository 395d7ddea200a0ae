#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes one line to standard error (messages, statistics, progress), unbuffered; with
/// `newline: false` the text is written as it is (progress redraws).
public func printError(_ line: String, newline: Bool = true) {
    var text = line
    if newline && !text.hasSuffix("\n") { text += "\n" }
    text.withCString { p in _ = write(STDERR_FILENO, p, strlen(p)) }
}
