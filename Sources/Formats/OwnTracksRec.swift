import Foundation
import GPSCore

/// The files OwnTracks Recorder keeps per user, device and month (`rec/USER/DEVICE/2024-06.rec`):
/// a line per message, `TIME<tab>TOPIC<tab>JSON`, where TIME is ISO 8601 UTC, TOPIC is `*`
/// (padded with spaces) or the MQTT topic, and JSON the message the phone published. Location
/// messages (`"_type": "location"`) carry `lat`, `lon`, `tst` (Unix seconds), `acc` (m), `alt`
/// (m), `vel` (km/h) and `cog` (°). Transitions (entering or leaving a region, published on the
/// topic `.../event`) and waypoints (a region defined on the phone) are places: waypoints with
/// what they say as fields (the booklet's `docs/tech/json.md`, `_type=transition` and
/// `_type=waypoint`). The other types (`lwt`, cards, status, commands) are counted and left out.
public enum OwnTracksRec {
    /// Whether `prefix` (a file's first bytes) starts like such a file: each whole line of it a
    /// time, a tab, a topic, a tab and a payload, and one payload at least a JSON object (a month
    /// may begin with a message of another topic whose payload is not JSON: the Recorder writes
    /// what it got).
    public static func looksLikeRec(_ prefix: UnsafeRawBufferPointer) -> Bool {
        let head = String(decoding: prefix.prefix(4096), as: UTF8.self)
        var lines = head.split(separator: "\n").prefix(16)
        // The last line of the prefix may be cut short.
        if lines.count > 1, prefix.count >= 4096 { lines.removeLast() }
        var json = false
        for line in lines {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, UTCTimestamp.milliseconds(fields[0]) != nil else { return false }
            json = json || fields[2].drop(while: { $0 == " " }).first == "{"
        }
        return json
    }

    /// Reads a file fed in chunks, a line at a time.
    public final class Reader {
        /// Lines read (each a message, blank ones aside).
        public private(set) var elements = 0
        /// Lines left out, by reason ("not a location", "no position", "no time",
        /// "position out of range", "line unreadable").
        public private(set) var skipped: [String: Int] = [:]
        private var partial: [UInt8] = []
        /// The scanner of each line's payload, kept from line to line.
        private var scanner = JSONScanner()
        /// The transitions and waypoints read, in file order.
        public private(set) var places: [TrackItem.Waypoint] = []

        public init() {}

        /// Reads `bytes`, handing each location to `take` as a fix.
        public func feed(_ bytes: UnsafeRawBufferPointer, _ take: (Fix) throws -> Void) throws {
            var start = 0
            for i in 0..<bytes.count where bytes[i] == 0x0A {
                if partial.isEmpty {
                    try line(UnsafeRawBufferPointer(rebasing: bytes[start..<i]), take)
                } else {
                    partial.append(contentsOf: bytes[start..<i])
                    try partial.withUnsafeBytes { try line($0, take) }
                    partial.removeAll(keepingCapacity: true)
                }
                start = i + 1
            }
            partial.append(contentsOf: bytes[start...])
            if partial.count > JSONScanner.maxTokenBytes {
                skip("line unreadable")
                partial.removeAll()
            }
        }

        /// Ends the file (a last line without a newline is read too).
        public func finish(_ take: (Fix) throws -> Void) throws {
            if !partial.isEmpty { try partial.withUnsafeBytes { try line($0, take) } }
            partial.removeAll()
        }

        private func skip(_ reason: String) { skipped[reason, default: 0] += 1 }

        private func line(_ raw: UnsafeRawBufferPointer, _ take: (Fix) throws -> Void) throws {
            var end = raw.count
            while end > 0 && (raw[end - 1] == 0x0D || raw[end - 1] == 0x20) { end -= 1 }
            guard end > 0 else { return }
            elements += 1
            // TIME \t TOPIC \t JSON
            guard let tab1 = raw[0..<end].firstIndex(of: 0x09),
                let tab2 = raw[(tab1 + 1)..<end].firstIndex(of: 0x09)
            else {
                skip("line unreadable")
                return
            }
            // A payload that is not JSON (a message of another topic, kept as the Recorder got it).
            guard raw[(tab2 + 1)..<end].first(where: { $0 != 0x20 }) == UInt8(ascii: "{") else {
                skip("not a location")
                return
            }
            var message = Message()
            scanner.reset()
            do {
                try scanner.feed(UnsafeRawBufferPointer(rebasing: raw[(tab2 + 1)..<end]), &message)
                try scanner.finish(&message)
            } catch {
                skip("line unreadable")
                return
            }
            guard message.type == "location" || message.type == "transition" || message.type == "waypoint" else {
                skip("not a location")
                return
            }
            guard let lat = message.lat, let lon = message.lon else {
                skip("no position")
                return
            }
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180 else {
                skip("position out of range")
                return
            }
            let lineTime = UTCTimestamp.milliseconds(UnsafeRawBufferPointer(rebasing: raw[0..<tab1]))
            guard let ms = message.tst.map({ Int64(($0 * 1000).rounded()) }) ?? lineTime else {
                skip("no time")
                return
            }
            var fix = Fix()
            fix.coordinate = Coordinate(latitude: lat, longitude: lon)
            UTCTimestamp.set(ms, on: &fix)
            if message.type != "location" { return places.append(OwnTracksRec.place(message, at: fix)) }
            fix.altitudeMSL = message.alt
            fix.mode = message.alt == nil ? .twoD : .threeD
            if let v = message.vel, v >= 0 { fix.speed = v / 3.6 }
            if let c = message.cog, c >= 0, c <= 360 { fix.track = c }
            if let a = message.acc, a >= 0 {
                fix.latitudeError = a / 2.squareRoot()
                fix.longitudeError = a / 2.squareRoot()
            }
            try take(fix)
        }
    }

    /// What a transition or waypoint says: a note ("Entered Home", "Region Home, 100 m") and the
    /// fields `owntracks` (its type), `region` (`desc`), `event` (`enter`, `leave`), `trigger`
    /// (`t`: `c` a circular region, `b` a beacon, `l` a location update), `radius_m` (`rad`).
    static func place(_ m: Message, at fix: Fix) -> TrackItem.Waypoint {
        var fields = [TrackItem.Waypoint.Field(key: "owntracks", value: m.type ?? "")]
        func add(_ key: String, _ value: String?) {
            if let value, !value.isEmpty { fields.append(.init(key: key, value: value)) }
        }
        add("region", m.desc)
        add("event", m.event)
        add("trigger", m.trigger)
        add("radius_m", m.rad.map { String(format: "%g", $0) })
        let region = m.desc ?? "a region"
        let note =
            m.type == "waypoint"
            ? "Region " + region + (m.rad.map { String(format: ", %g m", $0) } ?? "")
            : (m.event == "leave" ? "Left " : m.event == "enter" ? "Entered " : "At ") + region
        return TrackItem.Waypoint(fix: fix, text: note, fields: fields)
    }

    /// The keys of a message's top level that a location, transition or waypoint needs.
    struct Message: JSONHandler {
        var type: String?
        var desc: String?
        var event: String?
        var trigger: String?
        var rad: Double?
        var lat: Double?
        var lon: Double?
        var tst: Double?
        var acc: Double?
        var alt: Double?
        var vel: Double?
        var cog: Double?
        private var depth = 0
        private var key = Key.other

        /// The keys read, told from their bytes without making a string of each.
        enum Key {
            case type, desc, event, trigger, rad, lat, lon, tst, acc, alt, vel, cog, other

            init(_ raw: UnsafeRawBufferPointer) {
                switch raw.count {
                case 1: self = JSONValue.equals(raw, "t") ? .trigger : .other
                case 3:
                    switch (raw[0], raw[1], raw[2]) {
                    case (0x6C, 0x61, 0x74): self = .lat  // lat
                    case (0x6C, 0x6F, 0x6E): self = .lon  // lon
                    case (0x74, 0x73, 0x74): self = .tst  // tst
                    case (0x61, 0x63, 0x63): self = .acc  // acc
                    case (0x61, 0x6C, 0x74): self = .alt  // alt
                    case (0x76, 0x65, 0x6C): self = .vel  // vel
                    case (0x63, 0x6F, 0x67): self = .cog  // cog
                    case (0x72, 0x61, 0x64): self = .rad  // rad
                    default: self = .other
                    }
                case 4: self = JSONValue.equals(raw, "desc") ? .desc : .other
                case 5:
                    self =
                        JSONValue.equals(raw, "_type") ? .type : JSONValue.equals(raw, "event") ? .event : .other
                default: self = .other
                }
            }
        }

        mutating func token(_ token: JSONScanner.Token, _ bytes: UnsafeRawBufferPointer) throws {
            switch token {
            case .objectStart, .arrayStart: depth += 1
            case .objectEnd, .arrayEnd: depth -= 1
            case .key: if depth == 1 { key = Key(bytes) }
            default:
                guard depth == 1 else { return }
                let number: Double? =
                    token == .number
                    ? JSONValue.double(bytes) : token == .string ? Double(JSONValue.string(bytes)) : nil
                switch key {
                case .type: type = token == .string ? JSONValue.string(bytes) : nil
                case .desc: desc = token == .string ? JSONValue.string(bytes) : nil
                case .event: event = token == .string ? JSONValue.string(bytes) : nil
                case .trigger: trigger = token == .string ? JSONValue.string(bytes) : nil
                case .rad: rad = number
                case .lat: lat = number
                case .lon: lon = number
                case .tst: tst = number
                case .acc: acc = number
                case .alt: alt = number
                case .vel: vel = number
                case .cog: cog = number
                case .other: break
                }
                key = .other
            }
        }
    }
}
