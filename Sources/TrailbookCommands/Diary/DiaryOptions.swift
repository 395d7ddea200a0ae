import ArgumentParser
import Foundation
import GPSCore
import Pipeline
import TrackStore

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
}

/// Times the user types: ISO 8601 with a zone (`2026-06-14T06:31:05Z`, `...+02:00`), local
/// `YYYY-MM-DD HH:MM[:SS]` (or with `T`), local `HH:MM[:SS]` (today), or `now`.
enum LocalTime {
    static let accepted =
        "ISO 8601 (2026-06-14T08:31:05+02:00), local YYYY-MM-DD HH:MM[:SS], local HH:MM[:SS] for today, or now"

    /// ms since 1970 UTC; nil when the text is none of the accepted forms.
    static func parse(_ text: String, zone: TimeZone, now: Date = Date()) -> Int64? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t == "now" { return UTCTimestamp.milliseconds(of: now) }
        let last = t.last
        if last == "Z" || last == "z" || t.dropFirst(10).contains("+") || t.dropFirst(11).contains("-") {
            return UTCTimestamp.milliseconds(Substring(t))
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var date: CivilDate
        var clock: Substring
        if t.count > 10, let d = CivilDate(iso: String(t.prefix(10))),
            t.dropFirst(10).first == " "
                || t.dropFirst(10).first == "T"
        {
            date = d
            clock = t.dropFirst(11)
        } else {
            let today = calendar.dateComponents([.year, .month, .day], from: now)
            date = CivilDate(year: today.year!, month: today.month!, day: today.day!)!
            clock = Substring(t)
        }
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isNumber) }),
            let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60
        else { return nil }
        let s = parts.count == 3 ? Int(parts[2])! : 0
        guard s < 60 else { return nil }
        let components = DateComponents(
            year: date.year, month: date.month, day: date.day, hour: h, minute: m, second: s)
        guard let instant = calendar.date(from: components) else { return nil }
        return UTCTimestamp.milliseconds(of: instant)
    }

    /// Parses or fails with exit 64 naming the option and the accepted forms.
    static func require(_ text: String, option: String, zone: TimeZone) throws -> Int64 {
        guard let ms = parse(text, zone: zone) else {
            throw CommandFailure(message: "\(option) '\(text)' is not a time; use \(accepted).", code: .usage)
        }
        return ms
    }

    /// `2026-06-14 08:31:05` in `zone`.
    static func format(_ ms: Int64, zone: TimeZone) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return f.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    /// ISO 8601 with the zone's offset: `2026-06-14T08:31:05+02:00`.
    static func iso(_ ms: Int64, zone: TimeZone) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = zone
        return f.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    /// A duration typed as `90`, `90s`, `15m`, `2h`, `1h30m` or `1d`, in seconds.
    static func duration(_ text: String) -> Double? {
        var total = 0.0
        var number = ""
        var sawUnit = false
        for c in text {
            if c.isNumber || c == "." {
                number.append(c)
                continue
            }
            guard let n = Double(number), let unit = ["s": 1.0, "m": 60, "h": 3600, "d": 86400][String(c)] else {
                return nil
            }
            total += n * unit
            number = ""
            sawUnit = true
        }
        if !number.isEmpty {
            guard !sawUnit, let n = Double(number) else { return nil }
            total += n
        }
        return total > 0 ? total : nil
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

    /// The id, checked to exist in `store` (exit 66 when it does not).
    static func existing(_ text: String, in store: TrackStore) throws -> Int64 {
        let id = try parse(text)
        guard try store.record(id) != nil else {
            throw CommandFailure(
                message: "There is no record \(id) in \(store.path); trailbook records lists them.", code: .noInput)
        }
        return id
    }
}

/// `KEY=VALUE` field arguments.
enum FieldArgument {
    static func parse(_ text: String) throws -> Field {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex else {
            throw CommandFailure(
                message:
                    "--field '\(text)' has no KEY=VALUE form; write for example --field weather=sunny or --field weight_kg=12.5.",
                code: .usage)
        }
        let key = String(text[..<eq]).trimmingCharacters(in: .whitespaces)
        guard key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }) else {
            throw CommandFailure(
                message: "Field name '\(key)' may hold only letters, digits, '_', '-' and '.'.", code: .usage)
        }
        return Field(key: key, value: FieldValue(parsing: String(text[text.index(after: eq)...])))
    }
}

/// Text from `--text`, a file (`-` for standard input), standard input when it is piped, or
/// `$VISUAL`/`$EDITOR` on a terminal.
enum TextInput {
    static func read(text: String?, file: String?, initial: String = "", what: String) throws -> String {
        if let text { return text }
        if let file {
            if file == "-" { return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) }
            guard let data = FileManager.default.contents(atPath: file) else {
                throw CommandFailure(
                    message: "Cannot read \(file); check the path and its permissions.", code: .noInput)
            }
            guard let string = String(data: data, encoding: .utf8) else {
                throw CommandFailure(message: "\(file) is not UTF-8 text; save it as UTF-8.", code: .dataError)
            }
            return string
        }
        if isatty(STDIN_FILENO) == 0 {
            return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        }
        return try edit(initial, what: what)
    }

    /// Opens `$VISUAL`, `$EDITOR` or `vi` on a temporary file holding `initial`.
    static func edit(_ initial: String, what: String) throws -> String {
        let env = ProcessInfo.processInfo.environment
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
        guard isatty(STDIN_FILENO) != 0 else {
            throw CommandFailure(
                message: "\(question) This cannot be undone; pass --yes to confirm when not on a terminal.",
                code: .usage)
        }
        FileHandle.standardError.write(Data("\(question) This cannot be undone. Remove? [y/N] ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else {
            throw CommandFailure(message: "Nothing removed.", code: .ok)
        }
    }
}
