import ArgumentParser
import Logging

/// Options every command shares.
struct GlobalOptions: ParsableArguments {
    /// Log levels as the command line spells them.
    enum LogLevel: String, ExpressibleByArgument, CaseIterable {
        case trace, debug, info, notice, warning, error, critical

        var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .warning }
    }

    @Option(help: "Log detail on standard error: trace, debug, info, notice, warning, error or critical.")
    var logLevel: LogLevel = .warning

    /// A logger that writes to standard error at the chosen level.
    func makeLogger() -> Logger {
        Logger.console(label: "trailbook", level: logLevel.level)
    }
}
