import Foundation
import GPSCore

/// Dawarich's export of a user's whole account, in its two layouts (Freika/dawarich
/// `app/services/users/export_data.rb` @8ad0b20d and `import_data/v2_handler.rb` @3c8ea2d3):
///
/// - the first, a zip holding `data.json`: one object whose `counts` come first, then
///   `settings`, `areas`, `imports`, `exports`, `trips`, `stats`, `notifications`, `points`,
///   `visits` and `places`, each an array;
/// - the second, a zip holding `manifest.json` and a JSON object per line in `points/YYYY/YYYY-MM.jsonl`
///   and `visits/YYYY/YYYY-MM.jsonl` (and in files of the other kinds, which hold no place in time).
///
/// A point (`export_data/points.rb` @0a42eb1b) has `timestamp` (Unix seconds), `latitude` and
/// `longitude` (numbers, or decimals written as strings) or only `lonlat` (`POINT(lon lat)`),
/// `altitude` (m), `velocity` (m/s, written as a string), `accuracy` (m). A visit
/// (`export_data/visits.rb` @3e475d8f) has `started_at`, `ended_at` (ISO 8601), `name`,
/// `status` (`suggested`, `confirmed`, `declined`) and a `place_reference` with the place's
/// `name`, `latitude` and `longitude`. Points are a stream of fixes; a visit with a place, not
/// declined, is a waypoint with the fields `dawarich` (`visit`), `name`, `place`, `status` and
/// `until`, read as what Dawarich knew of the day.
///
/// The account's areas (`export_data/areas.rb` @dd246797: `name`, `latitude`, `longitude`,
/// `radius` in metres, 100 where none, as `import_data/areas.rb` @031104cd reads it) are its
/// places; its places (`export_data/places.rb` @dd246797: `name`, `latitude`, `longitude`,
/// `city`, `country`, ...) are where its visits were, kept with their names; its trips
/// (`export_data/trips.rb` @36e42643: `name`, `started_at`, `ended_at`, ...; one without any of
/// the three is left out, as `import_data/trips.rb` @031104cd leaves it) are waypoints with the
/// fields `dawarich` (`trip`), `name`, `until` and `end_latitude`/`end_longitude`, placed where
/// its `path` (`LINESTRING (lon lat, ...)`) begins (one without a path is counted and left
/// out). In the second layout they are `areas.jsonl`, `places.jsonl` and
/// `trips.jsonl`, an object a line.
public enum DawarichExport {
    /// A named place of the account (an area, or a place its visits were at).
    public struct NamedPlace: Equatable, Sendable {
        public var name: String
        public var coordinate: Coordinate
        /// An area's radius (m); nil for a visited place.
        public var radius: Double?
    }

    /// Whether `head` (a file's first bytes) is such a file: `data.json` (it begins with
    /// `{"counts":`), or a month of points or visits (its first line an object with `lonlat` and
    /// `timestamp`, or with `started_at` and `place_reference`).
    public static func looksLikeDawarich(_ head: UnsafeRawBufferPointer) -> Bool {
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        let start = text.drop { $0 == " " || $0 == "\n" || $0 == "\r" || $0 == "\t" || $0 == "\u{FEFF}" }
        if isManifest(head) { return false }
        if start.hasPrefix(#"{"counts":{"#) { return text.contains(#""points":"#) }
        guard start.first == "{" else { return false }
        let line = start.prefix { $0 != "\n" }
        return line.contains(#""lonlat":"#) && line.contains(#""timestamp":"#)
            || line.contains(#""started_at":"#) && line.contains(#""place_reference":"#)
            || isAccountLine(line)
    }

    /// A line of `areas.jsonl` (a name, a place and a radius), `places.jsonl` (a name, a place and
    /// when it was reverse geocoded) or `trips.jsonl` (a name, a start and an end, and the
    /// trip's own columns).
    static func isAccountLine(_ line: Substring) -> Bool {
        func has(_ key: String) -> Bool { line.contains("\"\(key)\":") }
        let placed = has("name") && has("latitude") && has("longitude")
        return placed && has("radius") && has("created_at")
            || placed && has("reverse_geocoded_at")
            || has("name") && has("started_at") && has("ended_at")
                && (has("path") || has("distance") || has("visited_countries"))
    }

    /// Whether `head` is the second layout's `manifest.json` (which lists the files, no places).
    public static func isManifest(_ head: UnsafeRawBufferPointer) -> Bool {
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        return text.contains(#""dawarich_version""#) && text.contains(#""format_version""#)
    }

    /// Reads either layout's file fed in chunks: its points as fixes, its visits as waypoints.
    public final class Reader {
        private var scanner: JSONScanner?
        private var handler = Handler()
        private var head: [UInt8] = []
        /// Points and visits read.
        public var elements: Int { handler.elements }
        /// Those left out, by reason ("no time", "no position", "visit declined", ...).
        public var skipped: [String: Int] { handler.skipped }
        /// The visits read, in file order.
        public var visits: [TrackItem.Waypoint] { handler.visits }
        /// The areas and places read, and the trips (waypoints with the fields `dawarich`,
        /// `name` and `until`).
        public var areas: [NamedPlace] { handler.areas }
        public var places: [NamedPlace] { handler.places }
        public var trips: [TrackItem.Waypoint] { handler.trips }

        public init() {}

        /// Reads `bytes`, handing each point to `take` as a fix.
        public func feed(_ bytes: UnsafeRawBufferPointer, _ take: (Fix) throws -> Void) throws {
            if scanner == nil {
                // The layout is told from the first bytes: held until there are enough of them.
                head.append(contentsOf: bytes)
                guard head.drop(while: Self.isSpace).count >= 12 else { return }
                try begin(take)
                return
            }
            handler.fixes.removeAll(keepingCapacity: true)
            try scanner!.feed(bytes, &handler)
            for f in handler.fixes { try take(f) }
        }

        /// Ends the file: one cut short is an error.
        public func finish(_ take: (Fix) throws -> Void) throws {
            if scanner == nil {
                guard head.contains(where: { !Self.isSpace($0) }) else { return }
                try begin(take)
            }
            handler.fixes.removeAll(keepingCapacity: true)
            try scanner!.finish(&handler)
            for f in handler.fixes { try take(f) }
        }

        /// `data.json` is one document whose points and visits are two levels down; a month of
        /// the second layout is an object per line.
        private func begin(_ take: (Fix) throws -> Void) throws {
            let start = head.drop(while: { Self.isSpace($0) || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF })
            let whole = String(decoding: start.prefix(12), as: UTF8.self).hasPrefix(#"{"counts":"#)
            scanner = JSONScanner(sequence: !whole)
            handler.itemDepth = whole ? 3 : 1
            let bytes = head
            head = []
            handler.fixes.removeAll(keepingCapacity: true)
            try bytes.withUnsafeBytes { try scanner!.feed($0, &handler) }
            for f in handler.fixes { try take(f) }
        }

        private static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 }
    }

    /// What one point or visit says, as it is read.
    struct Item {
        var timestamp: Int64?
        var timeUnreadable = false
        var latitude: Double?
        var longitude: Double?
        var lonlat: String?
        var altitude: Double?
        var velocity: Double?
        var accuracy: Double?
        var startedAt: String?
        var endedAt: String?
        var name: String?
        var status: String?
        var placeName: String?
        var placeLatitude: Double?
        var placeLongitude: Double?
        var radius: Double?
        var path: String?
        var hasPlaceReference = false
        var hasRadius = false
        var reverseGeocoded = false
    }

    struct Handler: JSONHandler {
        /// Where a point or visit object opens: 3 in `data.json` (root, section, item), 1 in a
        /// month's lines.
        var itemDepth = 3
        var depth = 0
        /// The key last read at each depth (1-based), the first few levels.
        var keys = [String](repeating: "", count: 6)
        var item = Item()
        var elements = 0
        var skipped: [String: Int] = [:]
        var fixes: [Fix] = []
        var visits: [TrackItem.Waypoint] = []
        var areas: [NamedPlace] = []
        var places: [NamedPlace] = []
        var trips: [TrackItem.Waypoint] = []

        /// The `data.json` section being read (`points`, `visits`, ...); nil in a month's lines.
        var section: String? { itemDepth == 3 ? keys[1] : nil }
        static let sections: Set<String> = ["points", "visits", "areas", "places", "trips"]
        var inItem: Bool { depth >= itemDepth && (section.map(Self.sections.contains) ?? true) }

        mutating func token(_ token: JSONScanner.Token, _ bytes: UnsafeRawBufferPointer) throws {
            switch token {
            case .objectStart, .arrayStart:
                depth += 1
                if depth == itemDepth, token == .objectStart { item = Item() }
                if depth < keys.count { keys[depth] = "" }
            case .objectEnd, .arrayEnd:
                if depth == itemDepth, token == .objectEnd, inItem { emit() }
                depth -= 1
            case .key:
                if depth < keys.count { keys[depth] = JSONValue.string(bytes) }
                if depth == itemDepth, inItem {
                    switch keys[depth] {
                    case "place_reference": item.hasPlaceReference = true
                    case "radius": item.hasRadius = true
                    case "reverse_geocoded_at", "geodata": item.reverseGeocoded = true
                    default: break
                    }
                }
            default:
                guard inItem else { return }
                value(token, bytes)
            }
        }

        mutating func value(_ token: JSONScanner.Token, _ bytes: UnsafeRawBufferPointer) {
            func number() -> Double? {
                switch token {
                case .number: return JSONValue.double(bytes)
                case .string: return Double(JSONValue.string(bytes).trimmingCharacters(in: .whitespaces))
                default: return nil
                }
            }
            func text() -> String? { token == .string ? JSONValue.string(bytes) : nil }
            if depth == itemDepth + 1 {
                guard keys[itemDepth] == "place_reference" else { return }
                switch keys[depth] {
                case "name": item.placeName = text()
                case "latitude": item.placeLatitude = number()
                case "longitude": item.placeLongitude = number()
                default: break
                }
                return
            }
            guard depth == itemDepth else { return }
            switch keys[depth] {
            case "timestamp":
                switch token {
                case .number: item.timestamp = TrackValues.milliseconds(unix: JSONValue.double(bytes))
                case .string: item.timestamp = TrackValues.milliseconds(text: Substring(JSONValue.string(bytes)))
                default: break
                }
                item.timeUnreadable = item.timestamp == nil && token != .null
            case "latitude": item.latitude = number()
            case "longitude": item.longitude = number()
            case "lonlat": item.lonlat = text()
            case "altitude": item.altitude = number()
            case "velocity": item.velocity = number()
            case "accuracy": item.accuracy = number()
            case "started_at": item.startedAt = text()
            case "ended_at": item.endedAt = text()
            case "name": item.name = text()
            case "status": item.status = text()
            case "radius": item.radius = number()
            case "path": item.path = text()
            default: break
            }
        }

        mutating func skip(_ reason: String) { skipped[reason, default: 0] += 1 }

        /// `POINT(lon lat)` as a coordinate.
        static func point(_ wkt: String) -> (latitude: Double, longitude: Double)? {
            guard let open = wkt.firstIndex(of: "("), let close = wkt.lastIndex(of: ")"), open < close,
                wkt[..<open].trimmingCharacters(in: .whitespaces).uppercased().hasSuffix("POINT")
            else { return nil }
            let parts = wkt[wkt.index(after: open)..<close].split(separator: " ")
            guard parts.count >= 2, let lon = Double(parts[0]), let lat = Double(parts[1]) else { return nil }
            return (lat, lon)
        }

        /// Hands over the point or visit just read.
        mutating func emit() {
            let kind: String
            if let section {
                kind = section
            } else if item.hasRadius {
                kind = "areas"
            } else if item.startedAt != nil {
                kind = item.hasPlaceReference || item.status != nil ? "visits" : "trips"
            } else {
                kind = item.reverseGeocoded && item.timestamp == nil && item.name != nil ? "places" : "points"
            }
            elements += 1
            switch kind {
            case "visits": return emitVisit()
            case "areas", "places": return emitPlace(area: kind == "areas")
            case "trips": return emitTrip()
            default: break
            }
            let position =
                item.latitude.flatMap { lat in item.longitude.map { (latitude: lat, longitude: $0) } }
                ?? item.lonlat.flatMap(Self.point)
            guard let position else { return skip("no position") }
            guard TrackValues.inRange(position.latitude, 90), TrackValues.inRange(position.longitude, 180) else {
                return skip("position out of range")
            }
            guard let ms = item.timestamp else { return skip(item.timeUnreadable ? "time unreadable" : "no time") }
            var fix = Fix()
            fix.coordinate = Coordinate(latitude: position.latitude, longitude: position.longitude)
            UTCTimestamp.set(ms, on: &fix)
            fix.altitudeMSL = item.altitude
            fix.mode = item.altitude == nil ? .twoD : .threeD
            if let v = item.velocity, v >= 0, v.isFinite { fix.speed = v }
            if let a = item.accuracy, a >= 0, a.isFinite {
                fix.latitudeError = a / 2.squareRoot()
                fix.longitudeError = a / 2.squareRoot()
            }
            fixes.append(fix)
        }

        /// An area (its radius 100 m where it has none, as Dawarich reads it) or a visited place.
        mutating func emitPlace(area: Bool) {
            guard let name = item.name, !name.isEmpty else {
                return skip(area ? "area without a name" : "place without a name")
            }
            guard let lat = item.latitude, let lon = item.longitude else { return skip("no position") }
            guard TrackValues.inRange(lat, 90), TrackValues.inRange(lon, 180) else {
                return skip("position out of range")
            }
            let place = NamedPlace(
                name: name, coordinate: Coordinate(latitude: lat, longitude: lon),
                radius: area ? (item.radius.flatMap { $0 > 0 ? $0 : nil } ?? 100) : nil)
            if area { areas.append(place) } else { places.append(place) }
        }

        /// A trip: named, with a start and an end, or left out (as Dawarich leaves it out).
        mutating func emitTrip() {
            guard let name = item.name, !name.isEmpty,
                let start = item.startedAt.flatMap({ UTCTimestamp.milliseconds(Substring($0)) }),
                let end = item.endedAt, let ms = UTCTimestamp.milliseconds(Substring(end)), ms >= start
            else { return skip("trip without a name, start or end") }
            guard let path = item.path.flatMap(Self.lineEnds) else { return skip("trip without a path") }
            var fix = Fix()
            fix.coordinate = path.first
            fix.mode = .twoD
            UTCTimestamp.set(start, on: &fix)
            trips.append(
                TrackItem.Waypoint(
                    fix: fix, text: "Trip: \(name)",
                    fields: [
                        .init(key: "dawarich", value: "trip"), .init(key: "name", value: name),
                        .init(key: "until", value: end), .init(key: "end_latitude", value: String(path.last.latitude)),
                        .init(key: "end_longitude", value: String(path.last.longitude)),
                    ]))
        }

        /// The first and last positions of `LINESTRING (lon lat, lon lat, ...)` (a SRID prefix
        /// allowed); nil when it has none in range.
        static func lineEnds(_ wkt: String) -> (first: Coordinate, last: Coordinate)? {
            guard let open = wkt.firstIndex(of: "("), let close = wkt.lastIndex(of: ")"), open < close,
                wkt[..<open].uppercased().contains("LINESTRING")
            else { return nil }
            let pairs = wkt[wkt.index(after: open)..<close].split(separator: ",")
            let positions = pairs.compactMap { pair -> Coordinate? in
                let parts = pair.split(separator: " ")
                guard parts.count >= 2, let lon = Double(parts[0]), let lat = Double(parts[1]),
                    TrackValues.inRange(lat, 90), TrackValues.inRange(lon, 180)
                else { return nil }
                return Coordinate(latitude: lat, longitude: lon)
            }
            guard let first = positions.first, let last = positions.last else { return nil }
            return (first, last)
        }

        mutating func emitVisit() {
            guard item.status != "declined" else { return skip("visit declined") }
            guard let lat = item.placeLatitude, let lon = item.placeLongitude,
                TrackValues.inRange(lat, 90), TrackValues.inRange(lon, 180)
            else { return skip("visit without a place") }
            guard let start = item.startedAt.flatMap({ UTCTimestamp.milliseconds(Substring($0)) }) else {
                return skip("no time")
            }
            var fix = Fix()
            fix.coordinate = Coordinate(latitude: lat, longitude: lon)
            fix.mode = .twoD
            UTCTimestamp.set(start, on: &fix)
            var fields = [TrackItem.Waypoint.Field(key: "dawarich", value: "visit")]
            func add(_ key: String, _ value: String?) {
                if let value, !value.isEmpty { fields.append(.init(key: key, value: value)) }
            }
            add("name", item.name ?? item.placeName)
            if item.placeName != item.name { add("place", item.placeName) }
            add("status", item.status)
            if let end = item.endedAt, let ms = UTCTimestamp.milliseconds(Substring(end)), ms >= start {
                add("until", end)
            }
            visits.append(TrackItem.Waypoint(fix: fix, fields: fields))
        }
    }
}
