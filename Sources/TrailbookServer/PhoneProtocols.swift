import Foundation
import GPSCore
import TrackModel
import TrailbookKit

/// What the phone apps send, read into fixes. Units as each app defines them.
enum PhoneProtocols {
    /// A value that is there but unreadable: the request is refused with 400.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// OsmAnd and Traccar Client's query (or form) requests: `id`, `lat`, `lon`, `timestamp`,
    /// `speed`, `bearing`, `altitude`, `accuracy` (metres), `batt`; a missing time is now.
    ///
    /// The two apps give time and speed in different units, and are told apart by the time:
    /// OsmAnd's online tracking fills `{2}` with milliseconds (`System.currentTimeMillis()`) and
    /// `{5}` with `Location.getSpeed()` in m/s, and its default URL sends the accuracy radius as
    /// `hdop={3}` (metres); Traccar Client sends seconds and knots. So a timestamp in milliseconds
    /// (or an `hdop` without `accuracy`) means m/s; seconds mean knots. ISO 8601 times are read as
    /// Traccar's (knots).
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
        var metresPerSecond = query["hdop"] != nil && query["accuracy"] == nil
        if let text = query["timestamp"], !text.isEmpty {
            if let seconds = Double(text) {
                guard seconds.isFinite, abs(seconds) < 1e15 else {
                    throw Malformed(description: "timestamp=\(text.prefix(40)) is not a time")
                }
                // Traccar Client sends seconds; OsmAnd milliseconds.
                if seconds > 1e11 {
                    time = Int64(seconds)
                    metresPerSecond = true
                } else {
                    time = Int64((seconds * 1000).rounded())
                }
            } else if let ms = UTCTimestamp.milliseconds(Substring(text)) {
                time = ms
            } else {
                throw Malformed(description: "timestamp=\(text.prefix(40)) is neither a number nor ISO 8601")
            }
        } else {
            time = now
        }
        UTCTimestamp.set(time, on: &fix)
        fix.speed = try number("speed").map { metresPerSecond ? $0 : $0 * 1852 / 3600 }
        fix.track = try number("bearing")
        fix.altitudeMSL = try number("altitude")
        if let accuracy = try number("accuracy") ?? number("hdop") { accurate(&fix, accuracy) }
        fix.mode = fix.altitudeMSL == nil ? .twoD : .threeD
        return fix
    }

    /// The alarm of a Traccar Client request (`alarm=sos`, its SOS button), at the fix's time and place.
    static func alarm(_ kind: String?, at fix: Fix?) -> [PhoneAlarm] {
        guard let kind = kind?.trimmingCharacters(in: .whitespaces), !kind.isEmpty, kind.count <= 40,
            let ms = fix?.unixMilliseconds
        else { return [] }
        return [PhoneAlarm(kind: kind, milliseconds: ms, coordinate: fix?.coordinate)]
    }

    /// What a phone's request holds: the fixes, the newest battery level (percent), alarms its
    /// user raised, and the entries that are no position (kept as the device's messages, with
    /// their type and body).
    struct Report {
        var fixes: [Fix] = []
        var battery: Double?
        var alarms: [PhoneAlarm] = []
        var kept: [(type: String, body: String, reason: String?)] = []
    }

    /// Overland: `{"locations": [GeoJSON Feature with a Point and properties timestamp (ISO 8601),
    /// altitude, speed (m/s), course, horizontal_accuracy, battery_level (0-1), motion (words)]}`;
    /// the battery of the newest location, in percent.
    ///
    /// A feature that is no position is kept as a message (type `overland.trip` for the summary
    /// Overland adds after a trip, `properties.type` "trip"; `overland.stats` for a tracking-stats
    /// entry, `properties.action`, with or without geometry; `overland.unreadable` with the
    /// reason otherwise): Overland resends a refused batch forever, so one entry must not stop
    /// the rest (GLManager.m in aaronpk/Overland-iOS, `logAction:` and `writeTripToDB:`).
    static func overland(_ body: Data) throws -> Report {
        guard let doc = PhoneJSON.parse(body)?.object else {
            throw Malformed(description: "the body is not a JSON object")
        }
        guard let locations = doc["locations"]?.array else {
            throw Malformed(description: "the body has no \"locations\" array")
        }
        var battery = NewestBattery()
        var report = Report()
        for (i, element) in locations.enumerated() {
            func keep(_ type: String, reason: String? = nil) {
                var entry: [String: PhoneJSON] = ["feature": element]
                if let reason { entry["reason"] = .string(reason) }
                let text = (try? ServerContext.encoder.encode(entry)) ?? Data()
                report.kept.append((type, String(decoding: text, as: UTF8.self), reason))
            }
            guard let feature = element.object else {
                keep("overland.unreadable", reason: "location \(i) is not a JSON object")
                continue
            }
            let properties = feature["properties"]?.object ?? [:]
            if properties["type"]?.string == "trip" {
                keep("overland.trip")
                continue
            }
            if properties["action"] != nil {
                keep("overland.stats")
                continue
            }
            guard let position = feature["geometry"]?["coordinates"]?.array, position.count >= 2,
                let lon = position[0].number, let lat = position[1].number
            else {
                keep("overland.unreadable", reason: "location \(i) has no Point coordinates [lon, lat]")
                continue
            }
            guard let ms = try? time(properties, location: i) else {
                keep("overland.unreadable", reason: "location \(i) has no ISO 8601 timestamp")
                continue
            }
            func number(_ key: String) -> Double? { measure(properties, key) }
            var fix = Self.fix(
                lat: lat, lon: lon, ms: ms, altitude: number("altitude"), speed: number("speed"),
                course: number("course"), accuracy: number("horizontal_accuracy"))
            // CoreMotion's activity, several words at once (GLManager.m's `motion`).
            fix.sensors =
                Sensors(
                    activity: MotionActivity.strongest(
                        properties["motion"]?.array?.compactMap(\.string) ?? [])
                ).orNil
            do {
                try PhoneIngest.check(fix)
            } catch {
                keep("overland.unreadable", reason: error.description)
                continue
            }
            battery.note(level: number("battery_level"), at: ms)
            report.fixes.append(fix)
        }
        report.battery = battery.percent
        return report
    }

    /// Traccar Client's JSON body (`POST /osmand`, `Content-Type: application/json`):
    /// `{"device_id", "location": {"timestamp" (ISO 8601), "coords": {latitude, longitude,
    /// accuracy, speed (m/s), heading, altitude}, "battery": {"level" (0-1)}, "activity": {"type"}}}`; `location` may
    /// also be an array of such objects. Returns the fixes and the newest battery level.
    static func traccarJSON(_ body: Data) throws -> Report {
        guard let doc = PhoneJSON.parse(body)?.object else {
            throw Malformed(description: "the body is not a JSON object")
        }
        let locations: [[String: PhoneJSON]]
        if let one = doc["location"]?.object {
            locations = [one]
        } else if let many = doc["location"]?.array?.map(\.object), !many.contains(where: { $0 == nil }) {
            locations = many.map { $0! }
        } else {
            throw Malformed(description: "the body has no \"location\" object")
        }
        var battery = NewestBattery()
        var alarms: [PhoneAlarm] = []
        let fixes = try locations.enumerated().map { i, location in
            guard let coords = location["coords"]?.object, let lat = coords["latitude"]?.number,
                let lon = coords["longitude"]?.number
            else { throw Malformed(description: "location \(i) has no coords.latitude and coords.longitude") }
            let ms = try time(location, location: i)
            func number(_ key: String) -> Double? { measure(coords, key) }
            battery.note(level: location["battery"]?.object.flatMap { measure($0, "level") }, at: ms)
            var fix = Self.fix(
                lat: lat, lon: lon, ms: ms, altitude: number("altitude"), speed: number("speed"),
                course: number("heading"), accuracy: number("accuracy"))
            // The plugin's activity recognition (`activity.type`: still, on_foot, on_bicycle, ...).
            fix.sensors =
                Sensors(
                    activity: location["activity"]?["type"]?.string.flatMap(MotionActivity.init(word:))
                ).orNil
            // The SOS button's `extras: {alarm: sos}`: the plugin merges extras into the location
            // (its template's own `extras` may hold them too).
            let kind = location["alarm"]?.string ?? location["extras"]?["alarm"]?.string
            alarms += alarm(kind, at: fix)
            return fix
        }
        return Report(fixes: fixes, battery: battery.percent, alarms: alarms)
    }

    /// The `device_id` of a Traccar Client JSON body.
    static func traccarDeviceID(_ body: Data) -> String? {
        PhoneJSON.parse(body)?["device_id"]?.string
    }

    /// What an OwnTracks message says, its body parsed once.
    struct OwnTracksPost {
        var fix: Fix?
        /// Percent.
        var battery: Double?
        var pressure: WeatherReading?
        /// The `_type` of a message kept as it came (``owntracksKept``); nil for a location or another type.
        var keptType: String?
        /// The regions a `waypoint` or `waypoints` message names, as places.
        var places: [Place] = []
    }

    /// OwnTracks HTTP mode: one JSON message; a `location` (`lat`, `lon`, `tst` seconds, `acc`
    /// metres, `alt`, `vel` km/h, `cog`) gives a fix, other types (`transition`, `waypoint`,
    /// `lwt`, ...) none; `batt` is the battery in percent, `p` the phone's barometric pressure in
    /// kPa (a reading in hPa at `tst`, when it is a plausible air pressure, 30 to 110 kPa).
    static func owntracks(_ body: Data) throws -> OwnTracksPost {
        guard let doc = PhoneJSON.parse(body)?.object else {
            throw Malformed(description: "the body is not a JSON object")
        }
        let type = doc["_type"]?.string
        guard type == "location" else {
            return OwnTracksPost(
                keptType: type.flatMap { owntracksKept.contains($0) ? $0 : nil }, places: owntracksPlaces(doc))
        }
        func number(_ key: String) -> Double? { doc[key]?.number }
        guard let lat = number("lat"), let lon = number("lon"), let tst = number("tst") else {
            throw Malformed(description: "a location needs lat, lon and tst")
        }
        guard tst.isFinite, abs(tst) < 1e12 else { throw Malformed(description: "tst \(tst) is not a time") }
        let fix = Self.fix(
            lat: lat, lon: lon, ms: Int64((tst * 1000).rounded()), altitude: number("alt"),
            speed: measure(doc, "vel").map { $0 / 3.6 }, course: measure(doc, "cog"), accuracy: measure(doc, "acc"))
        let pressure = number("p").flatMap { kPa -> WeatherReading? in
            guard kPa.isFinite, (30...110).contains(kPa) else { return nil }
            return WeatherReading(milliseconds: Int64((tst * 1000).rounded()), pressure: kPa * 10)
        }
        return OwnTracksPost(fix: fix, battery: percent(number("batt")), pressure: pressure)
    }

    /// The OwnTracks message types that are kept as they come (not positions).
    static let owntracksKept: Set<String> = ["transition", "waypoint", "waypoints", "lwt"]

    /// The regions of an OwnTracks `waypoint` message (or each of a `waypoints` message's list) as
    /// places: `desc` the name, `lat`/`lon` the centre, `rad` the radius in metres (100 when
    /// missing or 0); entries without a name or a position on Earth are passed over.
    static func owntracksPlaces(_ doc: [String: PhoneJSON]) -> [Place] {
        let entries: [[String: PhoneJSON]]
        switch doc["_type"]?.string {
        case "waypoint": entries = [doc]
        case "waypoints": entries = doc["waypoints"]?.array?.compactMap(\.object) ?? []
        default: return []
        }
        return entries.compactMap { entry in
            guard let name = entry["desc"]?.string?.trimmingCharacters(in: .whitespaces),
                (1...64).contains(name.count), let lat = entry["lat"]?.number, let lon = entry["lon"]?.number
            else { return nil }
            let center = Coordinate(latitude: lat, longitude: lon)
            guard center.isPlausible else { return nil }
            let radius = entry["rad"]?.number ?? 0
            return Place(
                name: name, center: center, radius: radius.isFinite && radius >= 1 ? min(radius, 100_000) : 100,
                source: "owntracks")
        }
    }

    /// A battery level in percent, when it is one.
    static func percent(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value >= 0, value <= 100 else { return nil }
        return value
    }

    /// `batt` of OsmAnd, Traccar Client and GPSLogger, in percent.
    static func battery(_ query: [String: String]) -> Double? { percent(query["batt"].flatMap { Double($0) }) }

    /// GPSLogger for Android, custom URL: `lat`, `lon` (or `longitude`), `time` (ISO 8601) or
    /// `timestamp` (seconds), `alt`, `acc`, `spd` or `s` (m/s), `dir`. The app's default template
    /// is `lat=%LAT&longitude=%LON&time=%TIME&s=%SPD` (PreferenceHelper.java in mendhak/gpslogger).
    static func gpslogger(_ query: [String: String], now: Int64) throws -> Fix {
        var mapped = query
        mapped["lon"] = query["lon"] ?? query["longitude"]
        mapped["hdop"] = nil
        mapped["timestamp"] = query["time"] ?? query["timestamp"]
        mapped["altitude"] = query["alt"]
        mapped["accuracy"] = query["acc"]
        mapped["bearing"] = query["dir"]
        mapped["speed"] = nil
        var fix = try osmand(mapped, now: now)
        if let key = ["spd", "s"].first(where: { query[$0]?.isEmpty == false }), let text = query[key] {
            guard let v = Double(text) else {
                throw Malformed(description: "\(key)=\(text.prefix(40)) is not a number")
            }
            fix.speed = v
        }
        return fix
    }

    /// `Authorization: Basic USER:SECRET`.
    static func basic(_ header: String?) -> (user: String, secret: String)? {
        guard let header, header.hasPrefix("Basic "), let data = Data(base64Encoded: String(header.dropFirst(6))),
            let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    /// The battery level of a batch's newest location.
    struct NewestBattery {
        private var at = Int64.min
        /// Percent, to a tenth.
        private(set) var percent: Double?

        /// A location's level (0-1) at `ms`, kept when it is the newest so far.
        mutating func note(level: Double?, at ms: Int64) {
            guard let level, level <= 1, ms >= at else { return }
            at = ms
            percent = (level * 1000).rounded() / 10
        }
    }

    /// The ISO 8601 `timestamp` of the `location`-th location of a batch, in ms.
    static func time(_ object: [String: PhoneJSON], location i: Int) throws -> Int64 {
        guard let text = object["timestamp"]?.string, let ms = UTCTimestamp.milliseconds(Substring(text)) else {
            throw Malformed(description: "location \(i) has no ISO 8601 timestamp")
        }
        return ms
    }

    /// A number of a JSON object; speeds, courses, accuracies and levels below 0 mean unknown
    /// (iOS sends -1), altitudes may be negative.
    static func measure(_ object: [String: PhoneJSON], _ key: String) -> Double? {
        guard let n = object[key]?.number, n >= 0 || key == "altitude" else { return nil }
        return n
    }

    /// A fix from what a phone sent: position and time, and altitude, speed (m/s), course and
    /// accuracy radius (metres) when known; 3D when it has an altitude.
    static func fix(
        lat: Double, lon: Double, ms: Int64, altitude: Double?, speed: Double?, course: Double?, accuracy: Double?
    ) -> Fix {
        var fix = Fix()
        fix.coordinate = Coordinate(latitude: lat, longitude: lon)
        UTCTimestamp.set(ms, on: &fix)
        fix.altitudeMSL = altitude
        fix.speed = speed
        fix.track = course
        if let accuracy { accurate(&fix, accuracy) }
        fix.mode = altitude == nil ? .twoD : .threeD
        return fix
    }

    /// A phone's accuracy radius as the fix's error estimate (so `accuracy.max_error` applies).
    static func accurate(_ fix: inout Fix, _ metres: Double) {
        guard metres.isFinite, metres >= 0 else { return }
        fix.latitudeError = metres / 2.squareRoot()
        fix.longitudeError = metres / 2.squareRoot()
    }
}
