import Foundation
import GPSCore

/// Reads KML 2.2 (Google Earth's format; a KMZ is a zip holding one) as a stream:
///
/// - a `<gx:Track>` is a track of `<when>` times and `<gx:coord>` positions ("lon lat alt"),
///   paired in order; the tracks of a `<gx:MultiTrack>` are the segments of one track;
/// - a `<Placemark>` with a `<Point>` and a `<TimeStamp>` is a point, one of the file's stream of
///   single points; with a `<TimeSpan>`, the place held from its `<begin>` to its `<end>`: two
///   points, there at both. Trailbook's own records (style `#record`) come back as waypoints with
///   their name and description;
/// - a `<Placemark>` with a `<LineString>` (or several in a `<MultiGeometry>`, the segments of one
///   track) and a `<TimeSpan>` is a track of every vertex, spread evenly from `<begin>` to `<end>`
///   (a logger writes its positions at a steady pace: a position written again is time spent
///   there); Traccar's export, a line named by the range it was asked for
///   (`yyyy-MM-dd HH:mm - yyyy-MM-dd HH:mm` in the server's zone, traccar/traccar
///   src/main/java/org/traccar/reports/KmlExportProvider.java @7ae819e8), is read the same way
///   in ``zone``. A move of Google Maps' Timeline (a line with a `Category`, named by its mode)
///   is timed by the distance along it instead, its first position (written twice) once; with a
///   `<TimeStamp>` only a line's first position has a time, the rest is counted ("one time for a
///   line"); with no time, all are ("no time");
/// - a Placemark of Google Maps' Timeline (its `<ExtendedData>` has a `Category`) is also a
///   waypoint with what Google knew as fields (`google` visit or activity, `name`, `until`,
///   `category`, `distance_m`, `address`), as the semantic location history's are kept.
///
/// A track holds its times until its positions come (KML writes all `<when>` before the
/// `<gx:coord>`s): memory grows with the longest track, not with the file.
public final class KMLReader: TrackFileReader {
    public typealias Failure = XMLScanner.Failure

    private let scanner = EncodedXMLScanner()
    private var checkedRoot = false
    public private(set) var elements = 0
    public private(set) var skipped: [String: Int] = [:]
    /// The zone of times written without one (the range in a Traccar line's name).
    public var zone = TimeZone(identifier: "UTC")!
    /// The placemarks and tracks read, and whether any held a point, a line or a track (not only
    /// polygons): what a file that gave nothing was instead (``whatItHeld``).
    public private(set) var placemarks = 0
    public private(set) var tracks = 0
    public private(set) var pointsOrLines = false

    /// Elements open, by local name.
    private var path: [String] = []
    private var text = ""
    /// The placemark being read.
    private var placemark: Placemark?
    /// The track being read: its times, then its positions.
    private var times: [Int64?] = []
    private var coords: [(Coordinate, Double?)?] = []
    private var inMultiTrack = false
    private var multiTrackStarted = false
    /// Whether the last item handed over was a point of the stream of single points.
    private var inPointStream = false

    struct Placemark {
        var name: String?
        var description: String?
        var address: String?
        var style: String?
        var time: Int64?
        /// A `<TimeSpan>`'s end (its `<begin>` is `time`), and as written.
        var end: Int64?
        var endText: String?
        var timeUnreadable = false
        var point: (Coordinate, Double?)?
        var pointUnreadable = false
        var hasPoint = false
        /// The positions of each `<LineString>` (nil: unreadable).
        var lines: [[(Coordinate, Double?)?]] = []
        /// `<ExtendedData>`'s `<Data name="...">` values, in file order.
        var data: [(name: String, value: String)] = []
        var dataName: String?
    }

    public init() {}

    /// Whether `prefix` (the first bytes of a file) looks like KML: XML with a `<kml` element.
    public static func looksLikeKML(_ prefix: UnsafeRawBufferPointer) -> Bool {
        EncodedXMLScanner.looksLike(prefix, element: "kml")
    }

    public func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (TrackItem) throws -> Void) throws {
        try scanner.feed(bytes) { try self.event($0, handle) }
    }

    public func finish(_ handle: (TrackItem) throws -> Void) throws {
        try scanner.finish { try self.event($0, handle) }
    }

    private func skip(_ reason: String, _ count: Int = 1) {
        guard count > 0 else { return }
        skipped[reason, default: 0] += count
    }

    private func event(_ event: XMLScanner.Event, _ handle: (TrackItem) throws -> Void) throws {
        switch event {
        case .start(let name, let attributes, let line):
            if !checkedRoot {
                checkedRoot = true
                guard name == "kml" else {
                    throw Failure(line: line, reason: "the root element is <\(name)>, not <kml>")
                }
            }
            path.append(name)
            text = ""
            switch name {
            case "Placemark":
                placemark = Placemark()
                placemarks += 1
            case "Point", "LineString": pointsOrLines = true
            case "Data": placemark?.dataName = attributes["name"]
            case "MultiTrack":
                inMultiTrack = true
                multiTrackStarted = false
            case "Track":
                tracks += 1
                pointsOrLines = true
                times.removeAll(keepingCapacity: true)
                coords.removeAll(keepingCapacity: true)
            default: break
            }
        case .text(let value):
            text += value
        case .end(let name):
            defer {
                text = ""
                path.removeLast()
            }
            let parent = path.count >= 2 ? path[path.count - 2] : ""
            let value = Substring(text).trimmingSpaces
            switch name {
            case "when" where parent == "Track":
                elements += 1
                times.append(UTCTimestamp.milliseconds(value))
            case "coord" where parent == "Track":
                coords.append(Self.position(value.split(whereSeparator: { $0 == " " || $0 == "\t" })))
            case "when" where parent == "TimeStamp", "begin" where parent == "TimeSpan":
                guard placemark != nil, placemark?.time == nil else { break }
                let ms = UTCTimestamp.milliseconds(value)
                placemark?.time = ms
                placemark?.timeUnreadable = ms == nil
            case "end" where parent == "TimeSpan":
                guard placemark != nil, placemark?.end == nil else { break }
                placemark?.end = UTCTimestamp.milliseconds(value)
                placemark?.endText = String(value)
            case "coordinates" where parent == "Point":
                guard placemark != nil, path.count >= 3, path[path.count - 3] == "Placemark" else {
                    // A point of a MultiGeometry: no time of its own.
                    elements += 1
                    skip("no time")
                    break
                }
                placemark?.hasPoint = true
                let position = Self.position(value.split(separator: ","))
                placemark?.point = position
                placemark?.pointUnreadable = position == nil
            case "coordinates" where parent == "LineString" && placemark != nil:
                placemark?.lines.append(
                    value.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).map {
                        Self.position($0.split(separator: ","))
                    })
            case "coordinates" where parent == "LineString" || parent == "LinearRing":
                let n = value.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).count
                elements += n
                skip("no time", n)
            case "name" where parent == "Placemark": placemark?.name = value.isEmpty ? nil : String(value)
            case "description" where parent == "Placemark":
                placemark?.description = value.isEmpty ? nil : String(value)
            case "styleUrl" where parent == "Placemark": placemark?.style = String(value)
            case "address" where parent == "Placemark": placemark?.address = value.isEmpty ? nil : String(value)
            case "value" where parent == "Data":
                if let key = placemark?.dataName { placemark?.data.append((key, String(value))) }
            case "Data": placemark?.dataName = nil
            case "Track": try endTrack(handle)
            case "MultiTrack": inMultiTrack = false
            case "Placemark": try endPlacemark(handle)
            default: break
            }
        }
    }

    /// What a file that gave no point or place held instead, as a clause ("a KML of areas ..."),
    /// as Dawarich tells them apart (Freika/dawarich app/services/kml/importer.rb @0664f935).
    public var whatItHeld: String {
        if placemarks == 0 && tracks == 0 {
            return "a KML document with no placemarks or tracks (styles only, or empty)"
        }
        if !pointsOrLines { return "a KML of areas (polygons) only, with no points, paths or tracks" }
        return "a KML of places or paths without times (saved places or a planned route, not a location history)"
    }

    /// "lon,lat[,alt]" (or the same with spaces, as in `<gx:coord>`) as a position; nil when it
    /// is not two or three finite numbers within range.
    static func position<S: StringProtocol>(_ parts: [S]) -> (Coordinate, Double?)? {
        guard parts.count == 2 || parts.count == 3,
            let lon = Double(Substring(parts[0]).trimmingSpaces), let lat = Double(Substring(parts[1]).trimmingSpaces),
            TrackValues.inRange(lat, 90), TrackValues.inRange(lon, 180)
        else { return nil }
        let alt = parts.count == 3 ? Double(Substring(parts[2]).trimmingSpaces) : nil
        if parts.count == 3 && !(alt?.isFinite ?? false) { return nil }
        return (Coordinate(latitude: lat, longitude: lon), alt)
    }

    private func endTrack(_ handle: (TrackItem) throws -> Void) throws {
        inPointStream = false
        if inMultiTrack && multiTrackStarted {
            try handle(.segment)
        } else {
            try handle(.track)
            multiTrackStarted = inMultiTrack
        }
        let paired = min(times.count, coords.count)
        for i in 0..<paired {
            guard let position = coords[i] else {
                skip("position unreadable")
                continue
            }
            guard let ms = times[i] else {
                skip("time unreadable")
                continue
            }
            var fix = Fix()
            fix.coordinate = position.0
            fix.altitudeMSL = position.1
            fix.mode = position.1 == nil ? .twoD : .threeD
            UTCTimestamp.set(ms, on: &fix)
            try handle(.point(fix))
        }
        // A track with more times than positions (or the reverse) lies: the rest is counted.
        skip("no position", times.count - paired)
        elements += max(0, coords.count - times.count)
        skip("no time", coords.count - paired)
        times.removeAll(keepingCapacity: true)
        coords.removeAll(keepingCapacity: true)
    }

    private func endPlacemark(_ handle: (TrackItem) throws -> Void) throws {
        guard let p = placemark else { return }
        placemark = nil
        if !p.lines.isEmpty { return try endLines(p, handle) }
        guard p.hasPoint else { return }
        elements += 1
        guard let position = p.point else { return skip("position unreadable") }
        guard let ms = p.time else { return skip(p.timeUnreadable ? "time unreadable" : "no time") }
        var fix = Fix()
        fix.coordinate = position.0
        fix.altitudeMSL = position.1
        fix.mode = position.1 == nil ? .twoD : .threeD
        UTCTimestamp.set(ms, on: &fix)
        if p.style == "#record" {
            try handle(.waypoint(.init(fix: fix, name: p.name, text: p.description)))
            return
        }
        if let said = Self.said(p, at: fix, lines: []) { try handle(.waypoint(said)) }
        if !inPointStream {
            try handle(.track)
            inPointStream = true
        }
        try handle(.point(fix))
        // A place held for a while: there at its end too.
        if let end = p.end, end > ms {
            UTCTimestamp.set(end, on: &fix)
            try handle(.point(fix))
        }
    }

    /// A placemark's lines: timed from its `<TimeSpan>` (or the range its name gives), each
    /// vertex in turn, or by the distance along them for a move of Google's Timeline.
    private func endLines(_ p: Placemark, _ handle: (TrackItem) throws -> Void) throws {
        let count = p.lines.map(\.count).reduce(0, +)
        elements += count
        let unreadable = p.lines.joined().filter { $0 == nil }.count
        skip("position unreadable", unreadable)
        let google = p.data.contains { $0.name == "Category" && !$0.value.isEmpty }
        // Google writes a move's first position twice: once is its start.
        let lines = p.lines.map { line in
            line.compactMap { $0 }.reduce(into: [(Coordinate, Double?)]()) { kept, position in
                if !google || kept.last?.0 != position.0 { kept.append(position) }
            }
        }.filter { !$0.isEmpty }
        let positions = lines.map(\.count).reduce(0, +)
        skip("repeated position", count - unreadable - positions)
        var (begin, end) = (p.time, p.end)
        if begin == nil, !p.timeUnreadable, let range = p.name.flatMap(namedRange) { (begin, end) = range }
        guard let begin, positions > 0 else {
            return skip(p.timeUnreadable ? "time unreadable" : "no time", positions)
        }
        func fix(_ position: (Coordinate, Double?), _ ms: Int64) -> Fix {
            var fix = Fix()
            fix.coordinate = position.0
            fix.altitudeMSL = position.1
            fix.mode = position.1 == nil ? .twoD : .threeD
            UTCTimestamp.set(ms, on: &fix)
            return fix
        }
        if let said = Self.said(p, at: fix(lines[0][0], begin), lines: lines) { try handle(.waypoint(said)) }
        inPointStream = false
        try handle(.track)
        guard let end, end >= begin else {
            try handle(.point(fix(lines[0][0], begin)))
            return skip("one time for a line", positions - 1)
        }
        // Each position's share of the span: its index, or (Google's moves) its distance along.
        var along: [[Double]] = []
        var total = 0.0
        for line in lines {
            var distances: [Double] = []
            for (i, position) in line.enumerated() {
                if i > 0 { total += Geodesy.haversineDistance(line[i - 1].0, position.0) }
                distances.append(total)
            }
            along.append(distances)
        }
        var index = 0
        for (l, line) in lines.enumerated() {
            if l > 0 { try handle(.segment) }
            for (i, position) in line.enumerated() {
                let share =
                    google && total > 0
                    ? along[l][i] / total : positions > 1 ? Double(index) / Double(positions - 1) : 0
                try handle(.point(fix(position, begin + Int64((Double(end - begin) * share).rounded()))))
                index += 1
            }
        }
    }

    /// The range a Traccar line is named by ("2026-05-23 16:55 - 2026-05-23 16:57", wall
    /// clock times in ``zone``), in milliseconds; nil for any other name.
    func namedRange(_ name: String) -> (Int64, Int64)? {
        let parts = name.split(separator: " - ", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        func utc(_ wall: Substring) -> Int64? {
            let text = wall.trimmingSpaces
            guard text.count == 16, let local = UTCTimestamp.milliseconds(Substring(text + ":00Z")) else { return nil }
            let guess = Date(timeIntervalSince1970: Double(local) / 1000)
            let first = zone.secondsFromGMT(for: guess)
            let offset = zone.secondsFromGMT(for: guess.addingTimeInterval(-Double(first)))
            return local - Int64(offset) * 1000
        }
        guard let from = utc(parts[0]), let to = utc(parts[1]), to >= from else { return nil }
        return (from, to)
    }

    /// What Google Maps' Timeline knew of a placemark (its `Category` data), as a waypoint: a
    /// visit (a point) or an activity (lines), with its name, end, category and distance.
    static func said(_ p: Placemark, at fix: Fix, lines: [[(Coordinate, Double?)]]) -> TrackItem.Waypoint? {
        guard let category = p.data.first(where: { $0.name == "Category" })?.value, !category.isEmpty else {
            return nil
        }
        var fields = [TrackItem.Waypoint.Field(key: "google", value: lines.isEmpty ? "visit" : "activity")]
        func add(_ key: String, _ value: String?) {
            if let value, !value.isEmpty { fields.append(.init(key: key, value: value)) }
        }
        if lines.isEmpty { add("name", p.name) }
        add("address", p.address)
        add("category", category)
        if !lines.isEmpty { add("distance_m", p.data.first { $0.name == "Distance" }?.value) }
        if let end = p.end, let start = fix.unixMilliseconds, end >= start { add("until", p.endText) }
        if let last = lines.last?.last?.0 {
            add("end_latitude", String(last.latitude))
            add("end_longitude", String(last.longitude))
        }
        return TrackItem.Waypoint(fix: fix, text: p.description, fields: fields)
    }
}
