import ArgumentParser
import Foundation
import Pipeline
import Tides

/// `trailbook config show|check`.
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the effective configuration, or check a config file.",
        discussion: "Every key, its unit and default: docs/CONFIG.md.",
        subcommands: [Show.self, Check.self]
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the effective configuration as TOML, each key with its unit and where its value came from."
        )

        @OptionGroup var options: ConfigOptions

        func run() throws {
            print(try options.load().rendered)
        }
    }

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check",
            abstract: "Check a config file; exit 0 when it is usable, 78 with the file, line and key when not.")

        @Argument(help: "The config file to check.")
        var file: String

        func run() throws {
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CommandFailure(
                    message: "Cannot read \(file); check the path and its permissions.", code: .noInput)
            }
            do {
                let config = try TrailbookConfig.load(text: String(decoding: data, as: UTF8.self), file: file)
                if let station = config.tideStation {
                    do {
                        _ = try TideDatabase.station(station, path: config.tideFile ?? TideDatabase.defaultPath)
                    } catch let error as TideError {
                        throw CommandFailure(
                            message: "\(file): tide.station: \(error).", code: .config)
                    }
                }
                print("\(file): ok (preset \(config.preset), \(config.origins.count) settings)")
            } catch let error as ConfigError {
                throw CommandFailure(message: error.description, code: .config)
            }
        }
    }
}
