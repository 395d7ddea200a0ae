import GPSCore

/// Reads TCX (Garmin's Training Center Database XML, version 2) as a stream: each `<Activity>`
/// is a track, each `<Track>` of its laps a segment, each `<Trackpoint>` a point with its
/// `<Time>`, `<Position>` (`<LatitudeDegrees>`, `<LongitudeDegrees>`), `<AltitudeMeters>`,
/// `<HeartRateBpm><Value>`, `<Cadence>` and, from the ActivityExtension v2 `<TPX>`, `<Speed>`
/// (m/s) and `<Watts>`. Trackpoints without a position (indoor rides, pauses) are counted and
/// left out ("no position").
public final class TCXReader: TrackFileReader {
    public typealias Failure = XMLScanner.Failure

    private let scanner = EncodedXMLScanner()
    private var checkedRoot = false
    public private(set) var elements = 0
    public private(set) var skipped: [String: Int] = [:]
    /// Laps read.
    public private(set) var laps = 0

    private var path: [String] = []
    private var text = ""
    /// The trackpoint being read and the line it started on.
    private var point: Point?
    private var newActivity = false

    struct Point {
        var line: Int
        var time: Int64?
        var timeUnreadable = false
        var latitude: Double?
        var longitude: Double?
        var altitude: Double?
        var speed: Double?
        var sensors = Sensors()
    }

    public init() {}

    /// Whether `prefix` (the first bytes of a file) looks like TCX.
    public static func looksLikeTCX(_ prefix: UnsafeRawBufferPointer) -> Bool {
        EncodedXMLScanner.looksLike(prefix, element: "TrainingCenterDatabase")
    }

    public func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (TrackItem) throws -> Void) throws {
        try scanner.feed(bytes) { try self.event($0, handle) }
    }

    public func finish(_ handle: (TrackItem) throws -> Void) throws {
        try scanner.finish { try self.event($0, handle) }
    }

    private func skip(_ reason: String) { skipped[reason, default: 0] += 1 }

    private func event(_ event: XMLScanner.Event, _ handle: (TrackItem) throws -> Void) throws {
        switch event {
        case .start(let name, _, let line):
            if !checkedRoot {
                checkedRoot = true
                guard name == "TrainingCenterDatabase" else {
                    throw Failure(line: line, reason: "the root element is <\(name)>, not <TrainingCenterDatabase>")
                }
            }
            path.append(name)
            text = ""
            switch name {
            case "Activity":
                try handle(.track)
                newActivity = true
            case "Lap": laps += 1
            case "Track":
                if !newActivity { try handle(.segment) }
                newActivity = false
            case "Trackpoint": point = Point(line: line)
            default: break
            }
        case .text(let value):
            text += value
        case .end(let name):
            defer {
                text = ""
                path.removeLast()
            }
            guard point != nil else { return }
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            let value = Substring(text).trimmingSpaces
            func number() throws -> Double {
                guard let v = Double(value), v.isFinite else {
                    throw Failure(
                        line: point?.line ?? 0, reason: "<\(name)> holds \"\(value.prefix(40))\", not a finite number")
                }
                return v
            }
            switch name {
            case "Time" where parent == "Trackpoint":
                let ms = UTCTimestamp.milliseconds(value)
                point?.time = ms
                point?.timeUnreadable = ms == nil
            case "LatitudeDegrees": point?.latitude = try number()
            case "LongitudeDegrees": point?.longitude = try number()
            case "AltitudeMeters": point?.altitude = try number()
            case "Value" where parent == "HeartRateBpm": point?.sensors.heartRate = Int(try number().rounded())
            case "Cadence", "RunCadence": point?.sensors.cadence = Int(try number().rounded())
            case "Speed": point?.speed = try number()
            case "Watts": point?.sensors.power = Int(try number().rounded())
            case "Trackpoint": try endPoint(handle)
            default: break
            }
        }
    }

    private func endPoint(_ handle: (TrackItem) throws -> Void) throws {
        guard let p = point else { return }
        point = nil
        elements += 1
        guard let lat = p.latitude, let lon = p.longitude else { return skip("no position") }
        guard TrackValues.inRange(lat, 90), TrackValues.inRange(lon, 180) else { return skip("position out of range") }
        guard let ms = p.time else { return skip(p.timeUnreadable ? "time unreadable" : "no time") }
        var fix = Fix()
        fix.coordinate = Coordinate(latitude: lat, longitude: lon)
        UTCTimestamp.set(ms, on: &fix)
        fix.altitudeMSL = p.altitude
        fix.mode = p.altitude == nil ? .twoD : .threeD
        if let s = p.speed, s >= 0 { fix.speed = s }
        fix.sensors = p.sensors.orNil
        try handle(.point(fix))
    }
}
