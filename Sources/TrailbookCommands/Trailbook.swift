import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The root command: `trailbook SUBCOMMAND ...`.
public struct Trailbook: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "trailbook",
        abstract: "Record where you went from a USB GPS receiver, and keep it as a diary.",
        discussion: """
            Trailbook reads NMEA 0183 from receivers and recorded logs. Every command that \
            fails prints one sentence saying what failed and what to do, and exits with a \
            sysexits.h code: 64 bad usage, 65 input data not what it should be, 66 input \
            missing or unreadable, 73 output cannot be written.
            """,
        version: "0.1.0",
        subcommands: [Decode.self, Simulate.self]
    )

    public init() {}

    /// Parses the command line, runs the command, and exits with the documented code.
    public static func runAndExit() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            Glibc.exit(ExitStatus.ok.rawValue)
        } catch let failure as CommandFailure {
            printError("trailbook: \(failure.message)")
            Glibc.exit(failure.code.rawValue)
        } catch {
            exit(withError: error)
        }
    }
}
