#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes one line to standard error (messages, statistics, progress), unbuffered.
func printError(_ line: String) {
    var text = line
    if !text.hasSuffix("\n") { text += "\n" }
    text.withCString { p in _ = write(STDERR_FILENO, p, strlen(p)) }
}
