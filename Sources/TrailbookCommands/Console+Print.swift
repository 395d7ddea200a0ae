import GPSCore

/// `print` in the commands: a line on the standard output of the command that runs
/// (``Console/current``), so that a test running a command in its own process reads what the
/// command printed. On the process's own output it is Swift's buffered `print`.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator)
    let console = Console.current
    if console.isProcessOutput {
        Swift.print(text, terminator: terminator)
    } else {
        console.write(text + terminator)
    }
}
