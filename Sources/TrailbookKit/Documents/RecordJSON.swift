import Foundation
import GPSCore
import TrackModel

/// A location record as JSON: stable keys, SI units, times in UTC and local (docs/COMMANDS.md).
public struct RecordJSON: Encodable, Sendable {
    public var id: Int64?
    public var time: String
    public var localTime: String
    public var lat: Double
    public var lon: Double
    public var alt: Double?
    public var manual: Bool
    public var notes: [NoteJSON]
    public var photos: [PhotoJSON]
    public var fields: FieldsJSON
    public var conditions: ConditionsObject

    enum CodingKeys: String, CodingKey {
        case id, time, lat, lon, alt, manual, notes, photos, fields, conditions
        case localTime = "local_time"
    }

    public struct NoteJSON: Encodable, Sendable {
        public var id: Int64
        public var text: String
        public var created: String
        public var updated: String
    }

    public struct PhotoJSON: Encodable, Sendable {
        public var sha256: String
        public var path: String
        public var name: String
        public var bytes: Int
        public var taken: String?
    }

    /// Fields as one object; numbers as JSON numbers.
    public struct FieldsJSON: Encodable, Sendable {
        public var fields: [Field]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            for f in fields {
                switch f.value {
                case .number(let n): try c.encode(n, forKey: Key(stringValue: f.key))
                case .text(let t): try c.encode(t, forKey: Key(stringValue: f.key))
                }
            }
        }
    }

    /// Conditions as one object: `{"sun.phase": {"value": "dawn", "source": "computed"}, ...}`.
    public struct ConditionsObject: Encodable, Sendable {
        public var values: [ConditionValue]

        public init(values: [ConditionValue]) { self.values = values }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: FieldsJSON.Key.self)
            for v in values {
                var item = c.nestedContainer(keyedBy: FieldsJSON.Key.self, forKey: FieldsJSON.Key(stringValue: v.key))
                switch v.value {
                case .number(let n): try item.encode(n, forKey: FieldsJSON.Key(stringValue: "value"))
                case .text(let t): try item.encode(t, forKey: FieldsJSON.Key(stringValue: "value"))
                }
                try item.encode(v.source.rawValue, forKey: FieldsJSON.Key(stringValue: "source"))
            }
        }
    }

    public init(_ r: LocationRecord, store: any TrackStoring, zone: TimeZone) {
        let utc = LocalTime.utc
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
        conditions = ConditionsObject(values: r.conditions)
    }
}
