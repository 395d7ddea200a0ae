import ArgumentParser
import Foundation
import GPSCore
import Pipeline
import Tides
import TrailbookKit

/// `trailbook config init|show|check`.
struct Config: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Write a starter config, show the effective configuration, or check a config file.",
        discussion: "Every key, its unit and default: docs/CONFIG.md.",
        subcommands: [Init.self, Show.self, Check.self]
    )

    /// `trailbook config init`: a commented starter config where commands look for one.
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Write a commented starter config (time zone, preset, a sample record kind, maps) and say where.",
            discussion: """
                Writes $XDG_CONFIG_HOME/trailbook/config.toml (~/.config/trailbook/config.toml), where every \
                command looks for its config, or the file given with -o. The time zone is the system's. An \
                existing file is kept unless --force. Exit codes: 73 the file exists or cannot be written.
                """)

        @Option(name: [.short, .customLong("output")], help: ArgumentHelp("Where to write it.", valueName: "file"))
        var output: String?

        @Flag(help: "Replace a config file that exists.")
        var force = false

        @Flag(help: "Print {\"file\", \"time_zone\"} as JSON.")
        var json = false

        func run() throws {
            let path = output ?? UserDirectories.config() + "/trailbook/config.toml"
            if FileManager.default.fileExists(atPath: path) && !force {
                throw CommandFailure(
                    message: "\(path) exists already; trailbook config show prints what it says, --force replaces it.",
                    code: .cannotCreate)
            }
            let zone = TimeZone.current.displayIdentifier
            let folder = (path as NSString).deletingLastPathComponent
            // Where commands look, the folders are made; a folder named with -o must exist (a
            // mistyped one makes nothing).
            if output != nil && !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
                throw CommandFailure(
                    message:
                        "Cannot write \(path): there is no folder \(folder); make it first or choose another file.",
                    code: .cannotCreate)
            }
            do {
                try FileManager.default.createDirectory(
                    atPath: folder.isEmpty ? "." : folder, withIntermediateDirectories: true)
                try Self.starter(zone: zone).write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw CommandFailure(
                    message: "Cannot write \(path) (\(error.localizedDescription)); choose another file with -o.",
                    code: .cannotCreate)
            }
            if json {
                let data = try JSONSerialization.data(
                    withJSONObject: ["file": path, "time_zone": zone], options: [.sortedKeys, .withoutEscapingSlashes])
                print(String(decoding: data, as: UTF8.self))
            } else {
                let readers =
                    output == nil
                    ? "Every command reads it; trailbook config show prints the result."
                    : "Commands read it with --config \(path) (trailbook config show --config \(path) prints the result)."
                print("Wrote \(path) (time zone \(zone)). \(readers)")
            }
        }

        /// The starter file: each setting with a comment, every one of them valid as written.
        static func starter(zone: String) -> String {
            """
            # Trailbook's configuration. Every key, its unit and its default: docs/CONFIG.md.
            # `trailbook config show` prints the effective settings and where each came from;
            # `trailbook config check FILE` checks a file.

            # "ride" keeps a fix a second (cycling, running); "diary" one a minute, 10 m apart
            # (a day's whereabouts, a small store).
            preset = "ride"

            [time]
            # Days, times you type and times printed are in this zone.
            zone = "\(zone)"

            [maps]
            # The base map of `serve`'s pages and of the reports. Empty: OpenStreetMap's standard
            # layer on `serve`'s pages (fetched and cached by the server), the plain map in reports.
            # "none": the plain map everywhere; "osm": OpenStreetMap everywhere. An offline MBTiles
            # file, or a tile server whose terms allow your use, e.g.
            # tiles = "mbtiles:/home/you/maps/region.mbtiles"
            # tiles = "https://tile.example.org/{z}/{x}/{y}.png"
            tiles = ""

            # A record kind: `trailbook mark --kind catch --field species=pike --field weight="2.1 kg"`
            # checks the fields; `trailbook suggest --kind catch` learns which conditions go with them.
            [kinds.catch]
            species = { type = "choice", values = ["pike", "perch", "trout", "carp"], required = true }
            weight  = { type = "mass", min = "0 kg", max = "100 kg" }
            length  = { type = "length", min = "0 cm" }
            bait    = { type = "text" }

            """
        }
    }

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
                print("\(file): ok (preset \(config.preset), \(counted(config.origins.count, "setting")))")
            } catch let error as ConfigError {
                throw CommandFailure(message: error.description, code: .config)
            }
        }
    }
}
