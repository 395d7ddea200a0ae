import ArgumentParser
import Logging

/// Options every command shares.
struct GlobalOptions: ParsableArguments {
    @Option(help: "Log detail on standard error: trace, debug, info, notice, warning, error or critical.")
    var logLevel: Logger.Level = .warning

    /// A logger that writes to standard error at the chosen level.
    func makeLogger() -> Logger {
        var logger = Logger(label: "trailbook") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel
        return logger
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
