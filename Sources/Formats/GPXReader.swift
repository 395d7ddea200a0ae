import GPSCore

/// Reads GPX 1.0 and 1.1 as a stream: track segments and their points as ``Fix`` values, and
/// waypoints. Routes (planned, without times) are counted and skipped.
public final class GPXReader: TrackFileReader {
    /// What the file holds, in document order: a `<trk>` is a track, a `<trkseg>` a segment.
    public typealias Item = TrackItem
    /// A `<wpt>`.
    public typealias Waypoint = TrackItem.Waypoint

    /// What is wrong with the file, on which line.
    public typealias Failure = XMLScanner.Failure

    private let scanner = EncodedXMLScanner()
    /// Routes skipped.
    public private(set) var routes = 0
    /// Track points and waypoints read (a point that cannot be read is an error, not skipped).
    public private(set) var elements = 0
    public var skipped: [String: Int] { [:] }
    /// Whether the root element was `<gpx>` (checked on the first element).
    private var checkedRoot = false
    /// The point or waypoint being read, with the line it started on.
    private var current: (fix: Fix, line: Int, isWaypoint: Bool)?
    /// Elements open (depth), and the depth of the point being read: its own values are its
    /// children, not elements of the same local name nested deeper (geocaching GPX puts a
    /// `<groundspeak:name>` inside `<groundspeak:cache>`).
    private var depth = 0
    private var pointDepth = 0
    private var waypoint = Waypoint(fix: Fix())
    /// The key of the `<trailbook:field>` being read.
    private var fieldKey: String?
    private var text = ""

    public init() {}

    /// Whether `prefix` (the first bytes of a file) looks like GPX: XML with a `<gpx` element.
    public static func looksLikeGPX(_ prefix: UnsafeRawBufferPointer) -> Bool {
        EncodedXMLScanner.looksLike(prefix, element: "gpx")
    }

    public func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (Item) throws -> Void) throws {
        try scanner.feed(bytes) { try self.event($0, handle) }
    }

    public func finish(_ handle: (Item) throws -> Void) throws {
        try scanner.finish { try self.event($0, handle) }
    }

    private func event(_ event: XMLScanner.Event, _ handle: (Item) throws -> Void) throws {
        switch event {
        case .start(let name, let attributes, let line):
            depth += 1
            if !checkedRoot {
                checkedRoot = true
                guard name == "gpx" else {
                    throw Failure(line: line, reason: "the root element is <\(name)>, not <gpx>")
                }
            }
            text = ""
            switch name {
            case "trk": try handle(.track)
            case "trkseg": try handle(.segment)
            case "rte": routes += 1
            case "trkpt", "wpt":
                var fix = Fix()
                fix.coordinate = Coordinate(
                    latitude: try Self.degrees(attributes["lat"], "lat", of: name, line: line, limit: 90),
                    longitude: try Self.degrees(attributes["lon"], "lon", of: name, line: line, limit: 180))
                current = (fix, line, name == "wpt")
                pointDepth = depth
                waypoint = Waypoint(fix: Fix())
            case "link":
                if current?.isWaypoint == true, depth == pointDepth + 1, waypoint.link == nil {
                    waypoint.link = attributes["href"]
                }
            case "field":
                fieldKey = current?.isWaypoint == true && depth == pointDepth + 2 ? attributes["key"] : nil
            default: break
            }
        case .text(let value):
            text += value
        case .end(let name):
            defer {
                text = ""
                depth -= 1
            }
            guard var point = current else { return }
            let value = text.trimmingCharacters(in: " \t\r\n")
            // Speed, course, heart rate, cadence, air temperature (and power) may sit in an
            // extension (Garmin's TrackPointExtension v2); every other value is a child of the
            // point itself.
            let child = depth == pointDepth + 1
            guard
                child || depth == pointDepth || ["speed", "course", "field", "hr", "cad", "atemp", "power"].contains(name)
            else { return }
            switch name {
            case "trkpt", "wpt":
                if point.fix.mode == .unknown { point.fix.mode = point.fix.altitudeMSL == nil ? .twoD : .threeD }
                current = nil
                elements += 1
                if point.isWaypoint {
                    waypoint.fix = point.fix
                    try handle(.waypoint(waypoint))
                } else {
                    try handle(.point(point.fix))
                }
                return
            case "ele": point.fix.altitudeMSL = try Self.number(value, name, point.line)
            case "time":
                guard let ms = UTCTimestamp.milliseconds(Substring(value)) else {
                    throw Failure(
                        line: point.line,
                        reason:
                            "the <time> \"\(value.prefix(40))\" is not an ISO 8601 time such as 2026-06-14T06:30:01Z")
                }
                UTCTimestamp.set(ms, on: &point.fix)
            case "speed": point.fix.speed = try Self.number(value, name, point.line)
            case "course": point.fix.track = try Self.number(value, name, point.line)
            case "hr", "cad", "atemp", "power":
                let v = Int(try Self.number(value, name, point.line).rounded())
                var sensors = point.fix.sensors ?? Sensors()
                switch name {
                case "hr": sensors.heartRate = v
                case "cad": sensors.cadence = v
                case "atemp": sensors.temperature = v
                default: sensors.power = v
                }
                point.fix.sensors = sensors
            case "hdop": point.fix.hdop = try Self.number(value, name, point.line)
            case "vdop": point.fix.vdop = try Self.number(value, name, point.line)
            case "pdop": point.fix.pdop = try Self.number(value, name, point.line)
            case "sat": point.fix.satellitesUsed = Int(value)
            case "fix":
                switch value {
                case "none": point.fix.mode = .noFix
                case "2d": point.fix.mode = .twoD
                case "3d", "dgps", "pps": point.fix.mode = .threeD
                default: break
                }
            case "name": waypoint.name = value.isEmpty ? nil : value
            case "field":
                if let key = fieldKey, !key.isEmpty { waypoint.fields.append(.init(key: key, value: value)) }
                fieldKey = nil
            case "desc", "cmt":
                if !value.isEmpty {
                    waypoint.text = waypoint.text.map { $0 + "\n\n" + value } ?? value
                }
            default: break
            }
            current = point
        }
    }

    private static func number(_ text: String, _ name: String, _ line: Int) throws(Failure) -> Double {
        guard let value = Double(text), value.isFinite else {
            throw Failure(line: line, reason: "<\(name)> holds \"\(text.prefix(40))\", not a finite number")
        }
        return value
    }

    private static func degrees(
        _ text: String?, _ attribute: String, of element: String, line: Int, limit: Double
    ) throws(Failure) -> Double {
        guard let text else { throw Failure(line: line, reason: "<\(element)> has no \(attribute) attribute") }
        guard let value = Double(text.trimmingCharacters(in: " \t")), value.isFinite, abs(value) <= limit else {
            throw Failure(
                line: line,
                reason: "<\(element)> has \(attribute)=\"\(text.prefix(40))\", not a number within ±\(Int(limit))")
        }
        return value
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        let chars = Set(set)
        var s = Substring(self)
        while let f = s.first, chars.contains(f) { s = s.dropFirst() }
        while let l = s.last, chars.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
