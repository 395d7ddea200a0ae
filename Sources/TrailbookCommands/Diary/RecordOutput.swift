import Foundation
import GPSCore
import TrackStore

/// Location records as JSON (stable keys, SI units) and as text.
struct RecordJSON: Encodable {
    var id: Int64?
    var time: String
    var localTime: String
    var lat: Double
    var lon: Double
    var alt: Double?
    var manual: Bool
    var notes: [NoteJSON]
    var photos: [PhotoJSON]
    var fields: FieldsJSON

    enum CodingKeys: String, CodingKey {
        case id, time, lat, lon, alt, manual, notes, photos, fields
        case localTime = "local_time"
    }

    struct NoteJSON: Encodable {
        var id: Int64
        var text: String
        var created: String
        var updated: String
    }

    struct PhotoJSON: Encodable {
        var sha256: String
        var path: String
        var name: String
        var bytes: Int
        var taken: String?
    }

    /// Fields as one object; numbers as JSON numbers.
    struct FieldsJSON: Encodable {
        var fields: [Field]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            for f in fields {
                switch f.value {
                case .number(let n): try c.encode(n, forKey: Key(stringValue: f.key))
                case .text(let t): try c.encode(t, forKey: Key(stringValue: f.key))
                }
            }
        }
    }

    init(_ r: LocationRecord, store: TrackStore, zone: TimeZone) {
        func utc(_ ms: Int64) -> String { Self.utc(ms) }
        id = r.id
        time = utc(r.milliseconds)
        localTime = LocalTime.iso(r.milliseconds, zone: zone)
        lat = (r.coordinate.latitude * 1e7).rounded() / 1e7
        lon = (r.coordinate.longitude * 1e7).rounded() / 1e7
        alt = r.altitude
        manual = r.manual
        notes = r.notes.map {
            NoteJSON(
                id: $0.id, text: $0.text, created: utc($0.createdMilliseconds), updated: utc($0.updatedMilliseconds))
        }
        photos = r.photos.map {
            PhotoJSON(
                sha256: $0.sha256, path: store.mediaDirectory + "/" + $0.file, name: $0.name, bytes: $0.bytes,
                taken: $0.takenMilliseconds.map(utc))
        }
        fields = FieldsJSON(fields: r.fields)
    }

    /// `2026-06-14T06:31:05.000Z`.
    static func utc(_ ms: Int64) -> String {
        var fix = Fix()
        UTCTimestamp.set(ms, on: &fix)
        let t = fix.timeOfDay!
        return String(
            format: "%@T%02d:%02d:%02d.%03dZ", fix.date!.description, t / 3_600_000, t / 60_000 % 60, t / 1000 % 60,
            t % 1000)
    }
}

enum RecordText {
    /// `record 5  2026-06-14 08:31:05  47.37690 8.54170  manual` then notes, photos, fields indented.
    static func lines(_ r: LocationRecord, zone: TimeZone, store: TrackStore) -> [String] {
        let id = r.id.map { "record \($0)" } ?? "point"
        let place = String(format: "%.6f %.6f", r.coordinate.latitude, r.coordinate.longitude)
        var lines = [
            "\(id)  \(LocalTime.format(r.milliseconds, zone: zone))  \(place)" + (r.manual ? "  (marked)" : "")
        ]
        for n in r.notes {
            let text = n.text.split(separator: "\n", omittingEmptySubsequences: false)
            lines.append("  note \(n.id): " + (text.first.map(String.init) ?? ""))
            lines += text.dropFirst().map { "    " + $0 }
        }
        for p in r.photos { lines.append("  photo \(p.name): \(store.mediaDirectory)/\(p.file)") }
        if !r.fields.isEmpty { lines.append("  " + r.fields.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")) }
        return lines
    }
}

/// Prints one JSON document.
func printJSON<T: Encodable>(snakeCase: Bool = false, _ value: T) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    if snakeCase { encoder.keyEncodingStrategy = .convertToSnakeCase }
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
