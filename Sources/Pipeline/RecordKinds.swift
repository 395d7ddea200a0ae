import Foundation

/// A quantity's dimension, and the SI unit it is compared in.
public enum Dimension: String, Sendable {
    case mass, length, temperature

    /// The units people type, with the factor (and offset) to SI: kg, m, K.
    static let units: [String: (Dimension, factor: Double, offset: Double)] = [
        "kg": (.mass, 1, 0), "g": (.mass, 0.001, 0), "mg": (.mass, 1e-6, 0), "t": (.mass, 1000, 0),
        "lb": (.mass, 0.45359237, 0), "lbs": (.mass, 0.45359237, 0), "oz": (.mass, 0.028349523125, 0),
        "m": (.length, 1, 0), "cm": (.length, 0.01, 0), "mm": (.length, 0.001, 0), "km": (.length, 1000, 0),
        "in": (.length, 0.0254, 0), "ft": (.length, 0.3048, 0), "yd": (.length, 0.9144, 0),
        "mi": (.length, 1609.344, 0),
        "k": (.temperature, 1, 0), "c": (.temperature, 1, 273.15), "°c": (.temperature, 1, 273.15),
        "f": (.temperature, 5.0 / 9.0, 459.67 * 5.0 / 9.0), "°f": (.temperature, 5.0 / 9.0, 459.67 * 5.0 / 9.0),
    ]

    /// The SI unit's name.
    public var si: String {
        switch self {
        case .mass: return "kg"
        case .length: return "m"
        case .temperature: return "K"
        }
    }
}

/// A number with the unit it was given in (`5.5lb`, `70 cm`, `12 °C`, `3`), kept as entered and
/// compared in SI.
public struct Quantity: Equatable, Sendable {
    public var value: Double
    /// As typed ("lb", "cm", "" for none).
    public var unit: String
    /// Its dimension, when the unit is one this Trailbook converts.
    public var dimension: Dimension?
    /// The value in SI (kg, m, K), or the number itself for a unit it does not convert.
    public var si: Double

    /// Reads `text`; nil when it does not start with a finite number.
    public init?(_ text: String) {
        let t = text.trimmingCharacters(in: .whitespaces)
        var end = t.startIndex
        for (i, c) in zip(t.indices, t) {
            guard c.isNumber || c == "." || c == "-" || c == "+" || ((c == "e" || c == "E") && i != t.startIndex)
            else { break }
            end = t.index(after: i)
        }
        // "5e" would eat a unit's letter: a trailing e goes back to the unit.
        while end > t.startIndex, Double(t[..<end]) == nil { end = t.index(before: end) }
        guard end > t.startIndex, let v = Double(t[..<end]), v.isFinite else { return nil }
        value = v
        unit = t[end...].trimmingCharacters(in: .whitespaces)
        if let (d, factor, offset) = Dimension.units[unit.lowercased()] {
            dimension = d
            si = v * factor + offset
        } else {
            dimension = nil
            si = v
        }
    }
}

/// A field of a record kind: its type and rules.
public struct KindField: Equatable, Sendable {
    public enum FieldType: String, Sendable, CaseIterable {
        case text, number, mass, length, temperature, choice, bool
        case dateTime = "date-time"

        /// The dimension a quantity of this type must have.
        var dimension: Dimension? {
            switch self {
            case .mass: return .mass
            case .length: return .length
            case .temperature: return .temperature
            default: return nil
            }
        }
    }

    public var name: String
    public var type: FieldType
    public var required = false
    /// The choices (`choice`).
    public var values: [String] = []
    /// Bounds, in the field's dimension (or plain numbers for `number`).
    public var min: Quantity?
    public var max: Quantity?
    /// A `number`'s unit, when it has one ("%", "hPa"): a value in another unit is refused.
    public var unit: String?

    public init(name: String, type: FieldType) {
        self.name = name
        self.type = type
    }

    /// Why `text` does not fit, as a clause ("is not one of pike, perch"); nil when it does.
    public func problem(_ text: String) -> String? {
        switch type {
        case .text: return nil
        case .choice:
            return values.contains(text) ? nil : "\"\(text)\" is not one of \(values.joined(separator: ", "))"
        case .bool:
            return ["true", "false", "yes", "no"].contains(text.lowercased()) ? nil : "\"\(text)\" is not true or false"
        case .dateTime:
            return ISO8601DateFormatter().date(from: text) == nil
                && ISO8601DateFormatter.withFraction.date(from: text) == nil
                ? "\"\(text)\" is not an ISO 8601 date and time (2026-06-14T06:40:00Z)" : nil
        case .number, .mass, .length, .temperature:
            guard let q = Quantity(text) else { return "\"\(text)\" is not a number" }
            if let dimension = type.dimension {
                if q.unit.isEmpty { return "\"\(text)\" has no unit; give one of \(Self.units(dimension))" }
                guard q.dimension == dimension else {
                    return "\"\(q.unit)\" is not a unit of \(dimension.rawValue); use \(Self.units(dimension))"
                }
            } else if let unit, !q.unit.isEmpty, q.unit != unit {
                return "\"\(q.unit)\" is not its unit, \(unit)"
            } else if unit == nil, !q.unit.isEmpty {
                return "\"\(text)\" has a unit; give a plain number"
            }
            if let min, q.si < min.si { return "\(text) is below the minimum \(Self.show(min))" }
            if let max, q.si > max.si { return "\(text) is above the maximum \(Self.show(max))" }
            return nil
        }
    }

    /// The value to sort by: SI for quantities (nil for text, choices, a value that does not read).
    public func sortValue(_ text: String) -> Double? {
        switch type {
        case .number, .mass, .length, .temperature: return Quantity(text)?.si
        case .bool: return ["true", "yes"].contains(text.lowercased()) ? 1 : 0
        case .dateTime:
            return (ISO8601DateFormatter().date(from: text) ?? ISO8601DateFormatter.withFraction.date(from: text))?
                .timeIntervalSince1970
        case .text, .choice: return nil
        }
    }

    static func units(_ d: Dimension) -> String {
        Dimension.units.filter { $0.value.0 == d && !$0.key.hasPrefix("°") && $0.key != "lbs" }.keys.sorted()
            .joined(separator: ", ")
    }

    static func show(_ q: Quantity) -> String {
        let n = q.value == q.value.rounded() && abs(q.value) < 1e15 ? String(Int64(q.value)) : String(q.value)
        return q.unit.isEmpty ? n : "\(n) \(q.unit)"
    }
}

extension ISO8601DateFormatter {
    /// A new one each time (a formatter is not Sendable; checking a field's time is not hot).
    static var withFraction: ISO8601DateFormatter {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f
    }
}

/// A kind of record declared in the config (`[kinds.catch]`): its fields and their rules.
public struct RecordKind: Equatable, Sendable {
    public var name: String
    /// By name.
    public var fields: [KindField]

    public init(name: String, fields: [KindField]) {
        self.name = name
        self.fields = fields.sorted { $0.name < $1.name }
    }

    public func field(_ name: String) -> KindField? { fields.first { $0.name == name } }

    /// The first problem with `values` (field name → text as entered), as a sentence naming the
    /// field and the rule; nil when they fit. Fields the kind does not declare are refused.
    public func problem(_ values: [(key: String, text: String)]) -> String? {
        for (key, text) in values where key != "kind" {
            guard let field = field(key) else {
                return "A \(name) has no field \(key); its fields are \(fields.map(\.name).joined(separator: ", "))."
            }
            if let why = field.problem(text) { return "Field \(key) of a \(name): \(why)." }
        }
        let given = Set(values.map(\.key))
        if let missing = fields.first(where: { $0.required && !given.contains($0.name) }) {
            return "Field \(missing.name) is required for a \(name); give \(missing.name)=VALUE."
        }
        return nil
    }
}
