import Foundation
import TOMLKit

/// The effective configuration: a preset, then the config file, then command-line overrides.
public struct TrailbookConfig: Sendable {
    /// The preset the values started from ("ride" or "diary").
    public private(set) var preset = "ride"
    public var pipeline = PipelineConfiguration.ride
    /// The zone of active hours and of local days; the system's unless configured.
    public var timeZone = TimeZone.current { didSet { updateActiveHours() } }

    private mutating func updateActiveHours() {
        pipeline.activeHours =
            windows.isEmpty ? nil : ActiveHours(windows: windows, weekdays: weekdays, timeZone: timeZone)
        pipeline.alerts.zone = timeZone
    }
    /// Where each "section.key" value came from: "file" or "command line"; absent = preset.
    public private(set) var origins: [String: String] = [:]
    /// Daily active-hours windows (local time); empty records around the clock.
    public var windows: [ActiveHours.Window] = [] { didSet { updateActiveHours() } }
    /// Weekdays the windows start on, 1 = Monday; empty = every day.
    public var weekdays: Set<Int> = [] { didSet { updateActiveHours() } }
    /// Record kinds (`[kinds.NAME]`), by name.
    public var kinds: [String: RecordKind] = [:]
    /// The tide station whose predictions records get (`tide.station`); nil: no tide.
    public var tideStation: String?
    /// The harmonic constants file (`tide.file`); nil: Debian's xtide-data.
    public var tideFile: String?
    /// The user's own geocoder for places' street addresses (`visits.street_names`):
    /// `nominatim:URL` or `photon:URL` of its reverse endpoint; nil: none (nothing is sent).
    public var streetNames: String?
    /// The reports' base map (`maps.tiles`): a tile URL template or `mbtiles:FILE`; nil: plain.
    public var mapTiles: String?
    /// Shown on the map (`maps.attribution`).
    public var mapAttribution: String?
    /// The bound of the tile cache (`maps.cache_mb`).
    public var mapCacheMegabytes = 256
    /// Deeper zoom levels of tiles a report carries along its routes (`maps.levels`).
    public var mapLevels = 2
    /// How often `serve` files in its view cache the rides that changed, seconds
    /// (`maps.views_every`).
    public var mapViewsEvery = 60

    public init() {}

    /// Built-in defaults with `preset` applied.
    public init(preset: String) throws(ConfigError) {
        try applyPreset(preset, file: "the command line")
    }

    private mutating func applyPreset(_ name: String, file: String, line: Int? = nil) throws(ConfigError) {
        switch name {
        case "ride": pipeline = .ride
        case "diary": pipeline = .diary
        default:
            throw ConfigError(
                file: file, line: line, key: "preset", problem: "unknown preset \"\(name)\"; use \"ride\" or \"diary\"."
            )
        }
        preset = name
        updateActiveHours()
    }

    /// Loads a TOML file's text on top of the preset it names (or `ride`); `preset`, when
    /// given, replaces the file's preset as the base its keys apply to.
    public static func load(text: String, file: String, preset override: String? = nil) throws(ConfigError)
        -> TrailbookConfig
    {
        let table: TOMLTable
        if let bad = TOMLKeyCheck.problem(in: text) {
            throw ConfigError(file: file, line: bad.line, problem: "not valid TOML (\(bad.problem)).")
        }
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(
                file: file, line: error.source.begin.line, problem: "not valid TOML (\(error.description)).")
        } catch {
            throw ConfigError(file: file, problem: "not valid TOML (\(error)).")
        }
        let locate = KeyLocator(text: text)
        var config = TrailbookConfig()
        if let override {
            try config.applyPreset(override, file: "the command line")
        } else if let preset = table["preset"] {
            guard let name = preset.string else {
                throw ConfigError(
                    file: file, line: locate.line(nil, "preset"), key: "preset",
                    problem: "must be a string, \"ride\" or \"diary\".")
            }
            try config.applyPreset(name, file: file, line: locate.line(nil, "preset"))
        }
        if let kinds = table["kinds"] {
            guard let kinds = kinds.table else {
                throw ConfigError(
                    file: file, line: locate.line(nil, "kinds"), key: "kinds",
                    problem: "must be sections [kinds.NAME], one per kind of record.")
            }
            config.kinds = try KindParser(file: file, locate: locate).kinds(kinds)
        }
        for key in table.keys where key != "preset" && key != "kinds" {
            guard let section = ConfigKey.sections.first(where: { $0 == key }) else {
                throw ConfigError(
                    file: file, line: locate.line(nil, key), key: key,
                    problem: "unknown setting; the sections are "
                        + ConfigKey.sections.map { "[\($0)]" }.joined(separator: ", ")
                        + ", [kinds.NAME] and the key preset.")
            }
            guard let sub = table[key]?.table else {
                throw ConfigError(
                    file: file, line: locate.line(nil, key), key: key, problem: "must be a section ([\(key)]).")
            }
            for name in sub.keys {
                let full = "\(section).\(name)"
                guard let spec = ConfigKey.all.first(where: { $0.section == section && $0.name == name }) else {
                    let known = ConfigKey.all.filter { $0.section == section }.map(\.name).joined(separator: ", ")
                    throw ConfigError(
                        file: file, line: locate.line(section, name), key: full,
                        problem: "unknown key; [\(section)] takes \(known).")
                }
                do throws(ConfigProblem) {
                    try spec.apply(ConfigValue(sub[name]!), &config)
                } catch {
                    throw ConfigError(file: file, line: locate.line(section, name), key: full, problem: error.text)
                }
                config.origins[full] = "file"
            }
        }
        return config
    }

    /// Sets one "section.key" from a command-line value (text as a user types it).
    public mutating func override(_ key: String, with text: String) throws(ConfigError) {
        guard let spec = ConfigKey.all.first(where: { "\($0.section).\($0.name)" == key }) else {
            throw ConfigError(file: "the command line", key: key, problem: "unknown setting.")
        }
        do throws(ConfigProblem) {
            try spec.apply(ConfigValue(commandLine: text), &self)
        } catch {
            throw ConfigError(file: "the command line", key: key, problem: error.text)
        }
        origins[key] = "command line"
    }

    /// The effective configuration as TOML, each key with its unit and where its value came from.
    public var rendered: String {
        var lines = ["# Effective Trailbook configuration (preset \"\(preset)\").", "preset = \"\(preset)\""]
        for section in ConfigKey.sections {
            lines.append("")
            lines.append("[\(section)]")
            for spec in ConfigKey.all where spec.section == section {
                let origin = origins["\(section).\(spec.name)"] ?? "preset \(preset)"
                lines.append("\(spec.name) = \(spec.render(self))  # \(spec.unit); from \(origin)")
            }
        }
        for kind in kinds.values.sorted(by: { $0.name < $1.name }) {
            lines.append("")
            lines.append("[kinds.\(kind.name)]")
            for f in kind.fields { lines.append("\(f.name) = \(KindParser.render(f))") }
        }
        return lines.joined(separator: "\n")
    }
}

/// Reads `[kinds.NAME]` sections: each key a field, its value an inline table with `type`
/// (text, number, mass, length, temperature, choice, bool, date-time) and, as the type allows,
/// `required`, `values`, `min`, `max`, `unit`.
struct KindParser {
    let file: String
    let locate: KeyLocator

    static let keys = ["type", "required", "values", "min", "max", "unit"]

    func kinds(_ table: TOMLTable) throws(ConfigError) -> [String: RecordKind] {
        var kinds: [String: RecordKind] = [:]
        for name in table.keys {
            guard Self.isName(name), let fields = table[name]?.table else {
                throw ConfigError(
                    file: file, line: locate.line("kinds", name) ?? locate.line(nil, "kinds.\(name)"),
                    key: "kinds.\(name)",
                    problem: "a kind is a section [kinds.NAME] (letters, digits, _ and -) whose keys are its fields.")
            }
            var list: [KindField] = []
            for key in fields.keys {
                list.append(try field(key, fields[key]!, kind: name))
            }
            kinds[name] = RecordKind(name: name, fields: list)
        }
        return kinds
    }

    static func isName(_ s: String) -> Bool {
        !s.isEmpty && s.count <= 64 && s.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
    }

    func field(_ key: String, _ value: TOMLValueConvertible, kind: String) throws(ConfigError) -> KindField {
        let at = locate.line("kinds.\(kind)", key)
        func fail(_ problem: String) -> ConfigError {
            ConfigError(file: file, line: at, key: "kinds.\(kind).\(key)", problem: problem)
        }
        let types = KindField.FieldType.allCases.map(\.rawValue).joined(separator: ", ")
        guard Self.isName(key) || key.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) }), key != "kind"
        else { throw fail("not a field name (letters, digits, _, - and .; not \"kind\").") }
        guard let spec = value.table else {
            throw fail("must be an inline table such as { type = \"text\" }; types: \(types).")
        }
        if let unknown = spec.keys.first(where: { !Self.keys.contains($0) }) {
            throw fail("unknown rule \"\(unknown)\"; a field takes \(Self.keys.joined(separator: ", ")).")
        }
        guard let typeName = spec["type"]?.string, let type = KindField.FieldType(rawValue: typeName) else {
            throw fail("needs type = one of \(types).")
        }
        var f = KindField(name: key, type: type)
        if let required = spec["required"] {
            guard let b = required.bool else { throw fail("required must be true or false.") }
            f.required = b
        }
        if let values = spec["values"] {
            guard type == .choice else { throw fail("values go with type = \"choice\".") }
            guard let list = values.array?.compactMap(\.string), list.count == values.array?.count, !list.isEmpty
            else { throw fail("values must be a list of strings.") }
            f.values = list
        } else if type == .choice {
            throw fail("a choice needs values = [\"...\", ...].")
        }
        if let unit = spec["unit"] {
            guard type == .number, let u = unit.string, !u.isEmpty else {
                throw fail("unit goes with type = \"number\" and is a string such as \"hPa\".")
            }
            f.unit = u
        }
        for bound in ["min", "max"] {
            guard let b = spec[bound] else { continue }
            guard [.number, .mass, .length, .temperature].contains(type) else {
                throw fail("\(bound) goes with number, mass, length and temperature.")
            }
            let text = b.string ?? b.double.map { String($0) } ?? b.int.map { String($0) }
            guard let text, let q = Quantity(text) else {
                throw fail("\(bound) must be a number with its unit, e.g. \"0 kg\".")
            }
            if let d = type.dimension, q.dimension != d {
                throw fail("\(bound) \"\(text)\" is not a \(d.rawValue); use a unit such as \(d.si).")
            }
            if type == .number, !q.unit.isEmpty, q.unit != f.unit {
                throw fail("\(bound) \"\(text)\" is not in the field's unit.")
            }
            if bound == "min" { f.min = q } else { f.max = q }
        }
        return f
    }

    static func render(_ f: KindField) -> String {
        var parts = ["type = \"\(f.type.rawValue)\""]
        if !f.values.isEmpty { parts.append("values = [" + f.values.map { "\"\($0)\"" }.joined(separator: ", ") + "]") }
        if f.required { parts.append("required = true") }
        if let min = f.min { parts.append("min = \"\(KindField.show(min))\"") }
        if let max = f.max { parts.append("max = \"\(KindField.show(max))\"") }
        if let unit = f.unit { parts.append("unit = \"\(unit)\"") }
        return "{ " + parts.joined(separator: ", ") + " }"
    }
}

/// A setting's value as read from TOML or typed on the command line.
struct ConfigValue {
    var double: Double?
    var int: Int?
    var bool: Bool?
    var string: String?
    var strings: [String]?
    var typeName: String

    init(_ v: TOMLValueConvertible) {
        double = v.double ?? v.int.map(Double.init)
        int = v.int
        bool = v.bool
        string = v.string
        strings = v.array.flatMap { a in
            let s = a.compactMap { $0.string }
            return s.count == a.count ? s : nil
        }
        typeName = v.type.description
    }

    /// Command-line text: numbers, booleans, and comma-separated lists.
    init(commandLine text: String) {
        double = Double(text)
        int = Int(text)
        bool = text == "true" ? true : text == "false" || text == "off" ? false : nil
        string = text
        strings = text.isEmpty ? [] : text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        typeName = "text"
    }
}

/// Why a value does not fit its key, as the end of a sentence.
struct ConfigProblem: Error {
    var text: String
}

/// Finds the line of a key in TOML text (the text is valid TOML by then): tracks `[section]`
/// headers and matches `key =` lines. Keys written as dotted keys or inline tables are not
/// located; the message then names the key without a line.
struct KeyLocator {
    let lines: [Substring]

    init(text: String) { lines = text.split(separator: "\n", omittingEmptySubsequences: false) }

    func line(_ section: String?, _ key: String) -> Int? {
        var current: String?
        for (i, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") && !line.hasPrefix("[[") {
                current = line.dropFirst().prefix { $0 != "]" }.trimmingCharacters(in: .whitespaces)
                if section == nil && current == key { return i + 1 }
                continue
            }
            guard current == section else { continue }
            let name = line.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces).trimmingCharacters(
                in: CharacterSet(charactersIn: "\"'"))
            if name == key && line.contains("=") { return i + 1 }
        }
        return nil
    }
}
