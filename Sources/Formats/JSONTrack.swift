import Foundation
import GPSCore

/// The JSON track format simple trackers write:
/// `{name, link, time, segments: [{coords: [{latitude, longitude, altitude, time}]}], distance, feetClimbed}`.
/// `time` values are ISO 8601 strings; `distance` is in metres and `feetClimbed` in feet, as
/// the format's names say. Trailbook adds `waypoints` (its records, and the stays and moves of days:
/// `{latitude, longitude, altitude, time, name, notes, fields}`), a key the format's other
/// readers pass over.
public enum JSONTrack {
    struct Document: Codable {
        var name: String?
        var link: String?
        var time: String?
        var segments: [Segment]
        var distance: Double?
        var feetClimbed: Double?
        var waypoints: [Place]?
    }

    struct Place: Codable {
        var latitude: Double
        var longitude: Double
        var altitude: Double?
        var time: String
        var name: String
        var notes: [String]?
        var fields: [String: String]?
    }

    struct Segment: Codable {
        var coords: [Coordinate]
    }

    struct Coordinate: Codable {
        var latitude: Double
        var longitude: Double
        var altitude: Double?
        var time: String?
    }

    /// All rides' segments in one document, with the distance and climb given.
    public static func write(_ export: TrackExport, distance: Double, climb: Double) throws -> String {
        let segments = export.rides.flatMap(\.segments).map { segment in
            Segment(
                coords: segment.map { f in
                    Coordinate(
                        latitude: (f.coordinate!.latitude * 1e7).rounded() / 1e7,
                        longitude: (f.coordinate!.longitude * 1e7).rounded() / 1e7,
                        altitude: f.altitudeMSL, time: Exchange.time(f.unixMilliseconds!))
                })
        }
        let start = export.allFixes.first?.unixMilliseconds.map(Exchange.time)
        let places = export.places.map { p in
            Place(
                latitude: p.coordinate.latitude, longitude: p.coordinate.longitude, altitude: p.altitude,
                time: Exchange.time(p.milliseconds), name: p.name, notes: p.notes.isEmpty ? nil : p.notes,
                fields: p.fields.isEmpty ? nil : Dictionary(p.fields.map { ($0.key, $0.value) }) { a, _ in a })
        }
        let document = Document(
            name: export.name, link: nil, time: start, segments: segments, distance: (distance * 10).rounded() / 10,
            feetClimbed: (climb / 0.3048 * 10).rounded() / 10, waypoints: places.isEmpty ? nil : places)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(document), as: UTF8.self) + "\n"
    }

    /// Whether `prefix` looks like this format: a JSON object mentioning "segments".
    public static func looksLikeJSONTrack(_ prefix: UnsafeRawBufferPointer) -> Bool {
        let head = String(decoding: prefix.prefix(65536), as: UTF8.self)
        return head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.first == "{" && head.contains("\"segments\"")
    }

    /// What is wrong with a document, as a clause.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The segments of a document, as fixes (2D, or 3D with an altitude), and its places (those
    /// Trailbook wrote) as waypoints.
    public static func read(_ data: Data) throws(Failure) -> (segments: [[Fix]], places: [TrackItem.Waypoint]) {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch let DecodingError.dataCorrupted(context) {
            throw Failure(description: "it is not valid JSON (\(context.debugDescription))")
        } catch let DecodingError.keyNotFound(key, context) {
            throw Failure(description: "\(path(context.codingPath + [key])) is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            throw Failure(description: "\(path(context.codingPath)) has the wrong type")
        } catch {
            throw Failure(description: "\(error)")
        }
        var segments: [[Fix]] = []
        for (s, segment) in document.segments.enumerated() {
            var fixes: [Fix] = []
            for (i, c) in segment.coords.enumerated() {
                guard c.latitude.isFinite, c.longitude.isFinite, abs(c.latitude) <= 90, abs(c.longitude) <= 180 else {
                    throw Failure(description: "segments[\(s)].coords[\(i)] has a position out of range")
                }
                var fix = Fix()
                fix.coordinate = GPSCore.Coordinate(latitude: c.latitude, longitude: c.longitude)
                fix.altitudeMSL = c.altitude.flatMap { $0.isFinite ? $0 : nil }
                fix.mode = fix.altitudeMSL == nil ? .twoD : .threeD
                if let t = c.time {
                    guard let ms = UTCTimestamp.milliseconds(Substring(t)) else {
                        throw Failure(
                            description: "segments[\(s)].coords[\(i)].time \"\(t.prefix(40))\" is not ISO 8601")
                    }
                    UTCTimestamp.set(ms, on: &fix)
                }
                fixes.append(fix)
            }
            segments.append(fixes)
        }
        var places: [TrackItem.Waypoint] = []
        for (i, p) in (document.waypoints ?? []).enumerated() {
            guard p.latitude.isFinite, p.longitude.isFinite, abs(p.latitude) <= 90, abs(p.longitude) <= 180 else {
                throw Failure(description: "waypoints[\(i)] has a position out of range")
            }
            guard let ms = UTCTimestamp.milliseconds(Substring(p.time)) else {
                throw Failure(description: "waypoints[\(i)].time \"\(p.time.prefix(40))\" is not ISO 8601")
            }
            var fix = Fix()
            fix.coordinate = GPSCore.Coordinate(latitude: p.latitude, longitude: p.longitude)
            fix.altitudeMSL = p.altitude.flatMap { $0.isFinite ? $0 : nil }
            UTCTimestamp.set(ms, on: &fix)
            places.append(
                TrackItem.Waypoint(
                    fix: fix, name: p.name, text: p.notes.map { $0.joined(separator: "\n\n") },
                    fields: (p.fields ?? [:]).sorted { $0.key < $1.key }.map { .init(key: $0.key, value: $0.value) }))
        }
        return (segments, places)
    }

    static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }
}
