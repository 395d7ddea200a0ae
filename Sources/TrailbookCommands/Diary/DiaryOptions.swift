import ArgumentParser
import Foundation
import GPSCore
import Pipeline
import Tides
import TrackStore
import TrailbookKit

/// `--time-zone` and `--config` for the diary commands: local times and days are read and shown
/// in the configured zone (time.zone), like everywhere else.
struct ZoneOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Config file (TOML) whose time.zone applies.", valueName: "path"))
    var config: String?

    @Option(help: ArgumentHelp("IANA time zone for local times and days, e.g. Europe/Zurich.", valueName: "zone"))
    var timeZone: String?

    func zone() throws -> TimeZone {
        var arguments: [String] = []
        if let config { arguments += ["--config", config] }
        if let timeZone { arguments += ["--time-zone", timeZone] }
        return try ConfigOptions.parse(arguments).load().timeZone
    }

    /// The config file's settings (with --time-zone applied).
    func loaded() throws -> TrailbookConfig {
        var arguments: [String] = []
        if let config { arguments += ["--config", config] }
        if let timeZone { arguments += ["--time-zone", timeZone] }
        return try ConfigOptions.parse(arguments).load()
    }

    /// The tide station of the config (tide.station, from tide.file or xtide-data); nil without one.
    func tide() throws -> TideStation? {
        var arguments: [String] = []
        if let config { arguments += ["--config", config] }
        let loaded = try ConfigOptions.parse(arguments).load()
        guard let name = loaded.tideStation else { return nil }
        do {
            return try TideDatabase.station(name, path: loaded.tideFile ?? TideDatabase.defaultPath)
        } catch let error as TideError {
            throw CommandFailure(message: "tide.station in the config: \(error).", code: .config)
        }
    }

    /// The record kinds of the config file.
    func kinds() throws -> [String: RecordKind] {
        var arguments: [String] = []
        if let config { arguments += ["--config", config] }
        return try ConfigOptions.parse(arguments).load().kinds
    }

    /// The record kind `name` of the config file.
    func kind(_ name: String) throws -> RecordKind {
        let kinds = try kinds()
        guard let kind = kinds[name] else { throw DiaryError.noKind(name, known: kinds.keys.sorted()) }
        return kind
    }
}

extension LocalTime {
    /// Parses or fails with exit 64 naming the option and what is wrong.
    static func require(_ text: String, option: String, zone: TimeZone) throws -> Int64 {
        guard let ms = parse(text, zone: zone) else {
            throw CommandFailure(
                message: "\(option) '\(text)' is not a time; \(problem(text, zone: zone)).", code: .usage)
        }
        return ms
    }
}

extension LocalDate {
    /// Parses or fails with exit 64 naming the option (empty for an argument) and what is wrong
    /// ("February 2026 has no 30th").
    static func require(_ text: String, option: String, zone: TimeZone) throws -> CivilDate {
        switch parse(text, zone: zone) {
        case .success(let date): return date
        case .failure(let problem):
            throw CommandFailure(
                message: (option.isEmpty ? "" : option + " ") + "'\(text)' is not a date; \(problem).", code: .usage)
        }
    }

    /// For `validate()`: the form only (today and yesterday are read in the zone later), failing
    /// as a usage error with the same sentence.
    static func check(_ text: String, option: String) throws {
        do {
            _ = try require(text, option: option, zone: TimeZone(identifier: "UTC")!)
        } catch let failure as CommandFailure {
            throw ValidationError(failure.message)
        }
    }
}

/// Record ids as typed.
enum RecordReference {
    static func parse(_ text: String) throws -> Int64 {
        guard let id = Int64(text), id > 0 else {
            throw CommandFailure(
                message: "'\(text)' is not a record id; ids are positive numbers (trailbook records lists them).",
                code: .usage)
        }
        return id
    }
}

/// `KEY=VALUE` as typed: a bad one fails with exit 64 naming the option it came with.
enum FieldArgument {
    static func parse(_ text: String, option: String? = nil) throws -> Field {
        do {
            return try DiaryService.field(text)
        } catch {
            throw CommandFailure(message: (option.map { $0 + " " } ?? "") + error.description, code: .usage)
        }
    }
}

/// Text from `--text`, a file (`-` for standard input), standard input when it is piped, or
/// `$VISUAL`/`$EDITOR` on a terminal.
enum TextInput {
    /// The text; from a file, a pipe or the editor without the one line end that ends the last
    /// line (`echo text | trailbook note add 3` stores "text").
    static func read(text: String?, file: String?, initial: String = "", what: String) throws -> String {
        if let text { return text }
        return withoutFinalLineEnd(try readInput(file: file, initial: initial, what: what))
    }

    static func withoutFinalLineEnd(_ text: String) -> String {
        // "\r\n" is one Character in Swift: dropping the last Character removes either ending.
        text.hasSuffix("\r\n") || text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    private static func readInput(file: String?, initial: String, what: String) throws -> String {
        if let file {
            if file == "-" { return String(decoding: Console.current.readInput(), as: UTF8.self) }
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CommandFailure(
                    message: "Cannot read \(file); check the path and its permissions.", code: .noInput)
            }
            guard let string = String(data: data, encoding: .utf8) else {
                throw CommandFailure(message: "\(file) is not UTF-8 text; save it as UTF-8.", code: .dataError)
            }
            return string
        }
        if !Console.current.inputIsTerminal {
            return String(decoding: Console.current.readInput(), as: UTF8.self)
        }
        return try edit(initial, what: what)
    }

    /// Opens `$VISUAL`, `$EDITOR` or `vi` on a temporary file holding `initial`.
    static func edit(_ initial: String, what: String) throws -> String {
        let env = Console.current.environment
        let editor = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("trailbook-\(getpid()).txt").path
        guard
            FileManager.default.createFile(
                atPath: file, contents: Data(initial.utf8), attributes: [.posixPermissions: 0o600])
        else { throw CommandFailure(message: "Cannot create a temporary file for the editor.", code: .cannotCreate) }
        defer { unlink(file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(editor) \"$1\"", "sh", file]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CommandFailure(message: "The editor (\(editor)) failed; \(what) left unchanged.", code: .failure)
        }
        return String(decoding: FileManager.default.contents(atPath: file) ?? Data(), as: UTF8.self)
    }
}

/// Asks before removing for good: on a terminal, y/N; elsewhere --yes is required.
enum Confirmation {
    static func require(_ question: String, yes: Bool) throws {
        if yes { return }
        guard Console.current.inputIsTerminal else {
            throw CommandFailure(
                message: "\(question)\nThis cannot be undone; pass --yes to confirm when not on a terminal.",
                code: .usage)
        }
        Console.current.writeError("\(question)\nThis cannot be undone. Remove? [y/N] ")
        let answer = Console.current.readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else {
            throw CommandFailure(message: "Nothing removed.", code: .ok)
        }
    }
}
