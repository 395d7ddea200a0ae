import Foundation
import GPSCore

/// What the phone apps send, read into fixes. Units as each app defines them.
enum PhoneProtocols {
    /// A value that is there but unreadable: the request is refused with 400.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// OsmAnd / Traccar Client: `id`, `lat`, `lon`, `timestamp` (seconds, milliseconds or ISO
    /// 8601), `speed` (knots), `bearing`, `altitude`, `accuracy` (metres), `batt`. A missing
    /// time is now.
    static func osmand(_ query: [String: String], now: Int64) throws -> Fix {
        func number(_ key: String) throws -> Double? {
            guard let text = query[key], !text.isEmpty else { return nil }
            guard let value = Double(text) else {
                throw Malformed(description: "\(key)=\(text.prefix(40)) is not a number")
            }
            return value
        }
        guard let lat = try number("lat"), let lon = try number("lon") else {
            throw Malformed(description: "lat and lon are required")
        }
        var fix = Fix()
        fix.coordinate = Coordinate(latitude: lat, longitude: lon)
        let time: Int64
        if let text = query["timestamp"], !text.isEmpty {
            if let seconds = Double(text) {
                // Traccar sends seconds; some clients milliseconds.
                time = seconds > 1e11 ? Int64(seconds) : Int64((seconds * 1000).rounded())
            } else if let ms = UTCTimestamp.milliseconds(Substring(text)) {
                time = ms
            } else {
                throw Malformed(description: "timestamp=\(text.prefix(40)) is neither a number nor ISO 8601")
            }
        } else {
            time = now
        }
        UTCTimestamp.set(time, on: &fix)
        fix.speed = try number("speed").map { $0 * 1852 / 3600 }  // knots
        fix.track = try number("bearing")
        fix.altitudeMSL = try number("altitude")
        if let accuracy = try number("accuracy") { accurate(&fix, accuracy) }
        fix.mode = fix.altitudeMSL == nil ? .twoD : .threeD
        return fix
    }

    /// Overland: `{"locations": [GeoJSON Feature with a Point and properties timestamp (ISO 8601),
    /// altitude, speed (m/s), course, horizontal_accuracy]}`.
    static func overland(_ body: Data) throws -> [Fix] {
        guard let doc = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            throw Malformed(description: "the body is not a JSON object")
        }
        guard let locations = doc["locations"] as? [[String: Any]] else {
            throw Malformed(description: "the body has no \"locations\" array")
        }
        return try locations.enumerated().map { i, feature in
            guard let geometry = feature["geometry"] as? [String: Any],
                let position = geometry["coordinates"] as? [Any], position.count >= 2,
                let lon = (position[0] as? NSNumber)?.doubleValue, let lat = (position[1] as? NSNumber)?.doubleValue
            else { throw Malformed(description: "location \(i) has no Point coordinates [lon, lat]") }
            let properties = feature["properties"] as? [String: Any] ?? [:]
            guard let text = properties["timestamp"] as? String, let ms = UTCTimestamp.milliseconds(Substring(text))
            else { throw Malformed(description: "location \(i) has no ISO 8601 timestamp") }
            func number(_ key: String) -> Double? {
                guard let n = (properties[key] as? NSNumber)?.doubleValue, n >= 0 || key == "altitude" else {
                    return nil
                }
                return n
            }
            var fix = Fix()
            fix.coordinate = Coordinate(latitude: lat, longitude: lon)
            UTCTimestamp.set(ms, on: &fix)
            fix.altitudeMSL = number("altitude")
            fix.speed = number("speed")
            fix.track = number("course")
            if let accuracy = number("horizontal_accuracy") { accurate(&fix, accuracy) }
            fix.mode = fix.altitudeMSL == nil ? .twoD : .threeD
            return fix
        }
    }

    /// A phone's accuracy radius as the fix's error estimate (so `accuracy.max_error` applies).
    static func accurate(_ fix: inout Fix, _ metres: Double) {
        guard metres.isFinite, metres >= 0 else { return }
        fix.latitudeError = metres / 2.squareRoot()
        fix.longitudeError = metres / 2.squareRoot()
    }
}
