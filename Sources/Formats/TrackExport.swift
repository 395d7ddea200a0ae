import Foundation
import GPSCore

/// What an export holds: rides made of segments of fixes, and places (records) with what the
/// user attached to them. Built by the command from the store; the writers only see values.
public struct TrackExport: Sendable {
    public var name: String
    public var rides: [Ride]
    public var places: [Place]

    public init(name: String, rides: [Ride], places: [Place]) {
        self.name = name
        self.rides = rides
        self.places = places
    }

    public struct Ride: Sendable {
        public var id: Int64
        /// Each segment's fixes in time order (each with a time and a position).
        public var segments: [[Fix]]

        public init(id: Int64, segments: [[Fix]]) {
            self.id = id
            self.segments = segments
        }
    }

    /// A location record with a note, photos or fields.
    /// A record's fields as one text, a `key=value` line each (a value's line breaks as spaces),
    /// as the CSV export writes them and ``CSVTrackReader`` reads them back.
    public static func fieldLines(_ fields: [(key: String, value: String)]) -> String {
        fields.map { $0.key + "=" + $0.value.split(whereSeparator: \.isNewline).joined(separator: " ") }
            .joined(separator: "\n")
    }

    public struct Place: Sendable {
        public var id: Int64
        public var milliseconds: Int64
        public var coordinate: Coordinate
        public var altitude: Double?
        public var notes: [String]
        /// Paths (or URLs) of the photos.
        public var photos: [String]
        /// Fields as text, in key order.
        public var fields: [(key: String, value: String)]

        public init(
            id: Int64, milliseconds: Int64, coordinate: Coordinate, altitude: Double?, notes: [String],
            photos: [String], fields: [(key: String, value: String)]
        ) {
            self.id = id
            self.milliseconds = milliseconds
            self.coordinate = coordinate
            self.altitude = altitude
            self.notes = notes
            self.photos = photos
            self.fields = fields
        }

        /// What people call the place: its field `name`, else the first line of its first note
        /// (up to 60 characters), else "record ID"; a stay or move an export writes (field
        /// `trailbook`): its place's name, else "stay", or its activity.
        public var name: String {
            func field(_ key: String) -> String? { fields.first { $0.key == key }?.value }
            if let name = field("name"), !name.isEmpty { return name }
            if let kind = field("trailbook") {
                return field("place") ?? (kind == "visit" ? "stay" : field("activity_type") ?? "move")
            }
            if let text = notes.first.flatMap(Self.firstLine) {
                return text.count > 60 ? String(text.prefix(59)) + "…" : text
            }
            return "record \(id)"
        }

        /// The first line of `text` that is not blank, trimmed.
        public static func firstLine(_ text: String) -> String? {
            text.split(whereSeparator: \.isNewline).lazy.map { $0.trimmingCharacters(in: .whitespaces) }
                .first { !$0.isEmpty }
        }

        /// The notes and fields as one text.
        var description: String {
            (notes + (fields.isEmpty ? [] : [fields.map { "\($0.key): \($0.value)" }.joined(separator: "\n")]))
                .joined(separator: "\n\n")
        }
    }

    var allFixes: [Fix] { rides.flatMap { $0.segments.joined() } }
}

/// Text helpers shared by the writers.
enum Exchange {
    /// `&`, `<`, `>`, `"`, `'` escaped for XML text and attributes; other control characters
    /// (not allowed in XML 1.0) dropped.
    static func xml(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\r", "\t": out.unicodeScalars.append(scalar)
            default:
                if scalar.value >= 0x20 && scalar.value != 0xFFFE && scalar.value != 0xFFFF {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// `2026-06-14T06:30:01Z`, with `.250` when the time has milliseconds.
    static func time(_ ms: Int64) -> String {
        var fix = Fix()
        UTCTimestamp.set(ms, on: &fix)
        let t = fix.timeOfDay!
        let base = String(
            format: "%@T%02d:%02d:%02d", fix.date!.description, t / 3_600_000, t / 60_000 % 60, t / 1000 % 60)
        return base + (t % 1000 == 0 ? "Z" : String(format: ".%03dZ", t % 1000))
    }

    /// Degrees with 7 decimals (about 1 cm), trailing zeros removed.
    static func degrees(_ v: Double) -> String { trimmed(String(format: "%.7f", v)) }

    /// Metres with 2 decimals, trailing zeros removed.
    static func metres(_ v: Double) -> String { trimmed(String(format: "%.2f", v)) }

    static func trimmed(_ s: String) -> String {
        guard s.contains(".") else { return s }
        var t = Substring(s)
        while t.last == "0" { t = t.dropLast() }
        if t.last == "." { t = t.dropLast() }
        return t == "-0" ? "0" : String(t)
    }

    /// A JSON string literal.
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

/// JSON text for the commands' hand-written JSON lines.
public enum JSONText {
    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String { Exchange.json(text) }
}
