import ArgumentParser
import GPSCore
import GPSDevices
import TrailbookKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The root command: `trailbook SUBCOMMAND ...`.
public struct Trailbook: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "trailbook",
        abstract: "Record where you went from a USB GPS receiver, and keep it as a diary.",
        discussion: """
            Trailbook reads NMEA 0183 from receivers and recorded logs. Every command that \
            fails prints one sentence saying what failed and what to do, and exits with a \
            sysexits.h code: 64 bad usage, 65 input data not what it should be, 66 input \
            missing or unreadable, 69 device or gpsd unavailable, 73 output cannot be written, \
            77 permission denied, 78 bad configuration.
            """,
        version: "0.1.0",
        subcommands: [
            Decode.self, Watch.self, Devices.self, Record.self, Import.self, Rides.self, Points.self, Mark.self,
            NoteCommand.self, PhotoCommand.self, FieldCommand.self, Records.self, Day.self, Remove.self, Pause.self,
            Resume.self, Status.self, Summary.self, Report.self, Export.self, Config.self, Simulate.self, Serve.self,
            UserCommand.self, Push.self, StoreCommand.self,
            DeviceCommand.self, PlaceCommand.self, Events.self, Timeline.self, VisitsCommand.self, VisitCommand.self,
            YearCommand.self, TripsCommand.self, GeocoderCommand.self,
            CueCommand.self,
            TaskCommand.self,
            AlertCommand.self, ConditionsCommand.self, WeatherCommand.self, SuggestCommand.self, TideCommand.self,
        ]
    )

    public init() {}

    /// Options whose value may be left out, with the value meant then (`--gpsd` alone is
    /// localhost:2947). Argument parsers take options with required values only, so the default
    /// is filled in before parsing.
    static let optionalValues = ["--gpsd": "localhost:2947"]

    /// The arguments as the parser takes them: an option whose value is left out gets its
    /// default, and a negative number after an option is its value (`--offset -30` becomes
    /// `--offset=-30`; the parser would take `-30` for an option).
    static func prepared(_ arguments: [String]) -> [String] {
        var result: [String] = []
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            let next: String? = i + 1 < arguments.count ? arguments[i + 1] : nil
            if a == "--" {
                result += arguments[i...]
                break
            }
            if let value = optionalValues[a], next == nil || next!.hasPrefix("-") {
                result += [a, value]
            } else if a.hasPrefix("--"), !a.contains("="), let next, isNegativeNumber(next) {
                result.append(a + "=" + next)
                i += 1
            } else {
                result.append(a)
            }
            i += 1
        }
        return result
    }

    /// `-30`, `-0.5`, `-1e3`.
    static func isNegativeNumber(_ text: String) -> Bool {
        text.count > 1 && text.hasPrefix("-") && Double(text) != nil && text.dropFirst().first!.isNumber
    }

    /// Parses the command line, runs the command, and exits with the documented code.
    ///
    /// On the main actor, so a synchronous command runs on the process's main thread, never on one
    /// of Swift's few cooperative threads; an async command's `run` is nonisolated, so it runs on
    /// the global executor (SE-0338) and reaches the store through units of work.
    @MainActor
    public static func runAndExit() async -> Never {
        let code = await main(Array(CommandLine.arguments.dropFirst()))
        Glibc.exit(code)
    }

    /// Runs `trailbook ARGUMENTS` as the binary does, on the task's console
    /// (``Console/current``): parses the arguments, runs the command, prints a failure's one
    /// sentence (or the help) where the binary would, and returns the documented exit code.
    ///
    /// A test runs a command this way in its own process, with a console of pipes; the binary
    /// runs it on the process's console. A synchronous command runs on the main thread for the
    /// binary, on a thread of the offload helper for any other console; never on a cooperative
    /// thread.
    public static func main(_ arguments: [String]) async -> Int32 {
        do {
            let words = prepared(arguments)
            let command = try parseAsRoot(words)
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try await runSynchronously(words)
            }
            return ExitStatus.ok.rawValue
        } catch let failure as CommandFailure {
            printError("trailbook: \(failure.message)")
            return failure.code.rawValue
        } catch let failure as DeviceError {
            let command = failure.commandFailure
            printError("trailbook: \(command.message)")
            return command.code.rawValue
        } catch let failure as any ServiceFailure {
            let command = commandFailure(failure)
            printError("trailbook: \(command.message)")
            return command.code.rawValue
        } catch {
            let code = exitCode(for: error)
            // Help and version go where ArgumentParser puts them (standard output, exit 0).
            guard code != .success else {
                let text = fullMessage(for: error)
                if !text.isEmpty { print(text) }
                return code.rawValue
            }
            printError(
                unknownCommand(prepared(arguments)).map { "trailbook: " + $0 } ?? usageLine(for: error))
            return code.rawValue
        }
    }

    /// Runs a synchronous command off the cooperative threads: on the main thread for the
    /// process's console (as the binary always has), else on an offload thread (which sees the
    /// task's console). The command is parsed again where it runs (a parsed command is not
    /// Sendable; its arguments are, and parsing takes well under a millisecond).
    private static func runSynchronously(_ arguments: [String]) async throws {
        let console = Console.current
        if console.isProcessOutput && console.input == STDIN_FILENO {
            try await MainActor.run {
                var command = try parseAsRoot(arguments)
                try command.run()
            }
        } else {
            try await Blocking.runOnConsole {
                var command = try parseAsRoot(arguments)
                try command.run()
            }
        }
    }

    /// The sentence for a command line whose word after a group of commands is none of them
    /// (`report days --from ...`): ArgumentParser would blame the first option that follows.
    static func unknownCommand(_ arguments: [String]) -> String? {
        var command: any ParsableCommand.Type = Trailbook.self
        var path = ["trailbook"]
        for word in arguments {
            let configuration = command.configuration
            guard !word.hasPrefix("-"), word != "help", !configuration.subcommands.isEmpty else { return nil }
            if let next = configuration.subcommands.first(where: {
                $0._commandName == word || $0.configuration.aliases.contains(word)
            }) {
                command = next
                path.append(word)
                continue
            }
            guard configuration.defaultSubcommand == nil else { return nil }
            let group = path.joined(separator: " ")
            let names = configuration.subcommands.map { $0._commandName }
            return "'\(word)' is not a command of '\(group)'; its commands are \(names.joined(separator: ", ")). "
                + "'\(group) --help' explains them."
        }
        return nil
    }

    /// A command line ArgumentParser refused, in the same style as every other failure: one
    /// `trailbook: ` line (what is wrong, with its help lines if any), and where the help is.
    static func usageLine(for error: any Error) -> String {
        let message = message(for: error).trimmingCharacters(in: .whitespacesAndNewlines)
        let full = fullMessage(for: error)
        var text = "trailbook: " + message
        if let range = full.range(of: #"See '[^']+'"#, options: .regularExpression) {
            let see = full[range].dropFirst(4)
            text += (message.hasSuffix(".") || message.hasSuffix("?") ? "" : ".") + " " + see + " explains the command."
        }
        return text
    }
}
