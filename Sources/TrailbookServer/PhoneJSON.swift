import Foundation

/// A JSON value as a phone sent it, read with `JSONDecoder`: a number is a number and `true` is
/// a boolean (no Foundation objects whose type code tells them apart), and an entry that is no
/// position can be kept exactly as it came (written back with sorted keys).
enum PhoneJSON: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([PhoneJSON])
    case object([String: PhoneJSON])

    /// The JSON document `data` holds; nil when it holds none.
    static func parse(_ data: Data) -> PhoneJSON? { try? JSONDecoder().decode(PhoneJSON.self, from: data) }

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let value = try? c.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? c.decode(Double.self) {
            self = .number(value)
        } else if let value = try? c.decode(String.self) {
            self = .string(value)
        } else if let value = try? c.decode([PhoneJSON].self) {
            self = .array(value)
        } else {
            self = .object(try c.decode([String: PhoneJSON].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let value): try c.encode(value)
        case .number(let value): try c.encode(value)
        case .string(let value): try c.encode(value)
        case .array(let value): try c.encode(value)
        case .object(let value): try c.encode(value)
        }
    }

    /// The member `key` of an object; nil for a missing key or a value that is no object.
    subscript(key: String) -> PhoneJSON? { object?[key] }

    var object: [String: PhoneJSON]? {
        if case .object(let value) = self { value } else { nil }
    }

    var array: [PhoneJSON]? {
        if case .array(let value) = self { value } else { nil }
    }

    var number: Double? {
        if case .number(let value) = self { value } else { nil }
    }

    var string: String? {
        if case .string(let value) = self { value } else { nil }
    }
}
