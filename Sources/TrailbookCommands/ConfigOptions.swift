import ArgumentParser
import Foundation
import GPSCore
import Pipeline
import TrailbookKit

/// `--config`, `--preset` and the common collection settings, shared by the commands that
/// run the pipeline. Precedence: the preset, then the config file, then these options.
struct ConfigOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Config file (TOML). Default: $XDG_CONFIG_HOME/trailbook/config.toml if it exists, else built-in defaults.",
            valueName: "path"))
    var config: String?

    @Option(help: "Starting values: ride (1 s, strict) or diary (60 s, looser).")
    var preset: String?

    @Option(help: ArgumentHelp("Keep at most one fix per this many seconds.", valueName: "seconds"))
    var interval: String?

    @Option(help: ArgumentHelp("Keep fixes at least this far from the last kept one.", valueName: "metres"))
    var minDistance: String?

    @Option(
        help: ArgumentHelp(
            "Daily windows in local time, e.g. 07:00-12:00,22:00-06:00; '' for always.", valueName: "windows"))
    var activeHours: String?

    @Option(help: ArgumentHelp("Weekdays the windows apply to, e.g. mon,tue,wed,thu,fri.", valueName: "days"))
    var weekdays: String?

    @Option(
        help: ArgumentHelp("IANA time zone for active hours and local days, e.g. Europe/Zurich.", valueName: "zone"))
    var timeZone: String?

    @Option(help: ArgumentHelp("Largest HDOP kept, or off.", valueName: "hdop"))
    var maxHdop: String?

    @Option(help: ArgumentHelp("Fewest satellites used (0: off).", valueName: "count"))
    var minSats: String?

    @Option(help: ArgumentHelp("Implied speed above which a fix is a jump.", valueName: "m/s"))
    var maxSpeed: String?

    /// The config file to read, if any: the one given, else the per-user one when it exists.
    func configPath() -> String? {
        if let config { return config }
        let env = Console.current.environment
        let path = UserDirectories.config(env) + "/trailbook/config.toml"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// The effective configuration; failures become exit 66 (file missing) or 78 (bad setting).
    func load() throws -> TrailbookConfig {
        var result: TrailbookConfig
        do {
            if let path = configPath() {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw CommandFailure(
                        message: "Cannot read the config file \(path); check the path and its permissions.",
                        code: .noInput)
                }
                result = try TrailbookConfig.load(
                    text: String(decoding: data, as: UTF8.self), file: path, preset: preset)
            } else {
                result = try TrailbookConfig(preset: preset ?? "ride")
            }
            let overrides: [(String, String?)] = [
                ("collection.interval", interval), ("collection.min_distance", minDistance),
                ("active_hours.windows", activeHours), ("active_hours.weekdays", weekdays), ("time.zone", timeZone),
                ("accuracy.max_hdop", maxHdop), ("accuracy.min_satellites", minSats), ("jumps.max_speed", maxSpeed),
            ]
            for case (let key, let value?) in overrides { try result.override(key, with: value) }
        } catch let error as ConfigError {
            throw CommandFailure(message: error.description, code: .config)
        }
        return result
    }
}
