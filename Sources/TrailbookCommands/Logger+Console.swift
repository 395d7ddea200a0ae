import GPSCore
import Logging

extension Logger {
    /// A logger that writes swift-log's stream lines to the standard error of the command that
    /// makes it (``Console/current``, captured here), from whichever thread logs.
    static func console(label: String, level: Logger.Level) -> Logger {
        let stream = ConsoleErrorStream(console: Console.current)
        var logger = Logger(label: label) {
            StreamLogHandler(label: $0, stream: stream, metadataProvider: LoggingSystem.metadataProvider)
        }
        logger.logLevel = level
        return logger
    }
}

/// A console's standard error as a text stream.
private struct ConsoleErrorStream: TextOutputStream, Sendable {
    let console: Console

    mutating func write(_ string: String) { console.writeError(string) }
}
