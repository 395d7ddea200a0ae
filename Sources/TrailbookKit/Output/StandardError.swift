import GPSCore

/// Writes one line to the command's standard error (messages, statistics, progress), unbuffered;
/// with `newline: false` the text is written as it is (progress redraws).
public func printError(_ line: String, newline: Bool = true) {
    Console.current.writeError(newline && !line.hasSuffix("\n") ? line + "\n" : line)
}
