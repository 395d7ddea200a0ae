import GPSCore

/// Reads GeoJSON (RFC 7946) as a stream of features, a FeatureCollection or a single Feature:
///
/// - a `Point` (or each position of a `MultiPoint`) with a time in its properties (`time`,
///   `timestamp`, `datetime`, `date`, `when` or `recorded_at`: ISO 8601, or Unix seconds or milliseconds),
///   its altitude there too (`altitude`, `elevation`) when the position has none
///   is a point of the file's stream of single points, with `speed` (m/s), `course`/`bearing`
///   and `accuracy` (m) when the properties have them;
/// - a `LineString` or `MultiLineString` whose positions have their times in the properties
///   (`times` or `coordTimes`, nested as the lines are, or `coordinateProperties.times`) is a
///   track, each line a segment;
/// - a position may carry its time as a fourth value (`[lon, lat, alt, time]`, Unix seconds or
///   milliseconds from 2000 on; as Dawarich reads it, Freika/dawarich app/services/geojson/params.rb
///   @114a4b81), used where the properties give the position none (a smaller fourth value is a
///   measure, not a time);
/// - Trailbook's own records (`"kind": "record"`) come back as waypoints with their name, notes
///   and fields.
///
/// A position is `[lon, lat]` or `[lon, lat, alt]`, numbers or numbers written as strings. Other geometries (polygons) are counted and
/// left out. One feature is held at a time: memory grows with the largest feature, not the file.
public final class GeoJSONReader: TrackFileReader {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    private var scanner = JSONScanner()
    private var handler = Handler()

    public var elements: Int { handler.elements }
    public var skipped: [String: Int] { handler.skipped }

    public init() {}

    /// Whether `prefix` looks like GeoJSON: a JSON object whose text names a Feature or a
    /// FeatureCollection as its `type`.
    public static func looksLikeGeoJSON(_ prefix: UnsafeRawBufferPointer) -> Bool {
        let head = String(decoding: prefix.prefix(65536), as: UTF8.self)
        guard head.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "{" else { return false }
        // Keys come in any order: the first feature's geometry may come before any "type".
        let compact = head.filter { !$0.isWhitespace }
        return compact.contains("\"type\":\"FeatureCollection\"") || compact.contains("\"type\":\"Feature\"")
            || compact.contains("\"features\":[{") || compact.contains("\"geometry\":{")
    }

    public func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (TrackItem) throws -> Void) throws {
        do {
            try scanner.feed(bytes, &handler)
        } catch let failure as JSONScanner.Failure {
            throw Failure(description: "it is not valid JSON (\(failure))")
        }
        try drain(handle)
    }

    public func finish(_ handle: (TrackItem) throws -> Void) throws {
        do {
            try scanner.finish(&handler)
        } catch let failure as JSONScanner.Failure {
            throw Failure(description: "it is not valid JSON (\(failure))")
        }
        try drain(handle)
        if !handler.isGeoJSON {
            throw Failure(description: "it is JSON but not a GeoJSON Feature or FeatureCollection")
        }
    }

    private func drain(_ handle: (TrackItem) throws -> Void) throws {
        for item in handler.items { try handle(item) }
        handler.items.removeAll(keepingCapacity: true)
    }

    struct Position {
        var longitude: Double
        var latitude: Double
        var altitude: Double?
        /// A fourth value: the position's time (Unix seconds or milliseconds).
        var time: Double? = nil
        var readable: Bool
        var inRange: Bool { TrackValues.inRange(latitude, 90) && TrackValues.inRange(longitude, 180) }
    }

    /// A time as read: a time, nothing (`null`), or text that is not a time.
    enum Time {
        case at(Int64)
        case none, unreadable
    }

    /// One feature's geometry and properties, gathered until the feature ends.
    struct Feature {
        var geometryType: String?
        var hasGeometry = false
        var positions: [Position] = []
        /// Where each line ends in `positions`.
        var lineEnds: [Int] = []
        var numbers: [Double] = []
        var numbersReadable = true
        var times: [Time] = []
        var time: Time = .none
        var speed: Double?
        var course: Double?
        var accuracy: Double?
        /// A point's altitude in its properties (when its position has none), metres.
        var altitude: Double?
        var kind: String?
        var name: String?
        var notes: [String] = []
        var fields: [TrackItem.Waypoint.Field] = []
    }

    struct Handler: JSONHandler {
        enum Kind {
            case root, features, feature, geometry, coordinates, properties, coordinateProperties, times, notes
            case fields, other
        }
        struct Frame {
            var kind: Kind
            /// Coordinates: numbers and positions directly inside.
            var numbers = 0
            var positions = 0
        }

        var stack: [Frame] = []
        var key = ""
        var feature = Feature()
        /// The document's `type`: GeoJSON's are "FeatureCollection" and "Feature".
        var rootType: String?
        /// Whether a `features` array or a feature was read.
        var sawFeatures = false
        var isGeoJSON: Bool { rootType == "FeatureCollection" || rootType == "Feature" || sawFeatures }
        var items: [TrackItem] = []
        var elements = 0
        var skipped: [String: Int] = [:]
        /// Whether the last item handed over was a point of the stream of single points.
        var inPointStream = false

        mutating func skip(_ reason: String, _ count: Int = 1) {
            guard count > 0 else { return }
            skipped[reason, default: 0] += count
        }

        mutating func token(_ token: JSONScanner.Token, _ bytes: UnsafeRawBufferPointer) throws {
            switch token {
            case .key:
                key = JSONValue.string(bytes)
            case .objectStart, .arrayStart:
                let kind = child(of: stack.last?.kind, key: key, array: token == .arrayStart)
                stack.append(Frame(kind: kind))
                if kind == .feature { feature = Feature() }
                if kind == .features { sawFeatures = true }
                key = ""
            case .objectEnd, .arrayEnd:
                let frame = stack.removeLast()
                end(frame)
                key = ""
            default:
                value(token, bytes)
                key = ""
            }
        }

        /// What a container opened under `parent` at `key` holds.
        func child(of parent: Kind?, key: String, array: Bool) -> Kind {
            guard let parent else { return array ? .other : .root }
            switch (parent, key) {
            case (.root, "features") where array: return .features
            case (.features, _) where !array: return .feature
            case (.root, "geometry"), (.feature, "geometry"): return array ? .other : .geometry
            case (.root, "properties"), (.feature, "properties"): return array ? .other : .properties
            case (.geometry, "coordinates") where array: return .coordinates
            case (.coordinates, _) where array: return .coordinates
            case (.properties, "times"), (.properties, "coordTimes"), (.coordinateProperties, "times"):
                return array ? .times : .other
            case (.times, _) where array: return .times
            case (.properties, "coordinateProperties") where !array: return .coordinateProperties
            case (.properties, "notes") where array: return .notes
            case (.properties, "fields") where !array: return .fields
            default: return .other
            }
        }

        mutating func end(_ frame: Frame) {
            switch frame.kind {
            case .coordinates:
                if frame.numbers > 0 {
                    // A position: [lon, lat] or [lon, lat, alt].
                    let n = feature.numbers
                    let readable = feature.numbersReadable && (2...4).contains(n.count) && n.allSatisfy(\.isFinite)
                    feature.positions.append(
                        Position(
                            longitude: n[0], latitude: n.count > 1 ? n[1] : .nan, altitude: n.count > 2 ? n[2] : nil,
                            time: n.count > 3 ? n[3] : nil, readable: readable))
                    feature.numbers.removeAll(keepingCapacity: true)
                    feature.numbersReadable = true
                    if stack.last?.kind == .coordinates { stack[stack.count - 1].positions += 1 }
                } else if frame.positions > 0 {
                    feature.lineEnds.append(feature.positions.count)
                } else if frame.numbers == 0 && frame.positions == 0 && stack.last?.kind == .coordinates {
                    // An empty array where a position belongs.
                    feature.positions.append(Position(longitude: .nan, latitude: .nan, readable: false))
                    stack[stack.count - 1].positions += 1
                }
            case .geometry:
                feature.hasGeometry = true
            case .feature:
                emit()
            case .root:
                // A single Feature (not a collection) is the document itself.
                if rootType == "Feature" || rootType == nil && !sawFeatures && feature.hasGeometry { emit() }
            default: break
            }
        }

        mutating func value(_ token: JSONScanner.Token, _ bytes: UnsafeRawBufferPointer) {
            guard let kind = stack.last?.kind else { return }
            switch kind {
            case .coordinates:
                stack[stack.count - 1].numbers += 1
                if let n = Self.number(token, bytes) {
                    // Numbers, or numbers written as strings (Dawarich's export of late 2024 to
                    // mid 2025 wrote its decimal columns so).
                    feature.numbers.append(n)
                } else {
                    feature.numbers.append(.nan)
                    feature.numbersReadable = false
                }
            case .times:
                feature.times.append(time(token, bytes))
            case .geometry:
                if key == "type", token == .string { feature.geometryType = JSONValue.string(bytes) }
                if key == "coordinates", token == .null { feature.hasGeometry = false }
            case .root, .feature:
                if key == "geometry", token == .null { feature.hasGeometry = false }
                if kind == .root, key == "type", token == .string { rootType = JSONValue.string(bytes) }
            case .properties:
                let number = Self.number(token, bytes)
                switch key {
                case "time", "timestamp", "datetime", "date", "when", "recorded_at":
                    if case .none = feature.time { feature.time = time(token, bytes) }
                case "speed": feature.speed = number
                case "course", "bearing", "heading": feature.course = number
                case "accuracy": feature.accuracy = number
                case "altitude", "elevation": feature.altitude = number
                case "kind": feature.kind = token == .string ? JSONValue.string(bytes) : nil
                case "name": feature.name = token == .string ? JSONValue.string(bytes) : nil
                default: break
                }
            case .notes:
                if token == .string { feature.notes.append(JSONValue.string(bytes)) }
            case .fields:
                guard !key.isEmpty, token != .null else { return }
                let text: String
                switch token {
                case .true: text = "true"
                case .false: text = "false"
                default: text = JSONValue.string(bytes)
                }
                feature.fields.append(.init(key: key, value: text))
            default: break
            }
        }

        /// A number, or a string that holds one ("47.3769"); nil for anything else.
        static func number(_ token: JSONScanner.Token, _ bytes: UnsafeRawBufferPointer) -> Double? {
            switch token {
            case .number: return JSONValue.double(bytes)
            case .string: return Double(JSONValue.string(bytes))
            default: return nil
            }
        }

        func time(_ token: JSONScanner.Token, _ bytes: UnsafeRawBufferPointer) -> Time {
            switch token {
            case .null: return .none
            case .number: return TrackValues.milliseconds(unix: JSONValue.double(bytes)).map(Time.at) ?? .unreadable
            case .string:
                return TrackValues.milliseconds(text: Substring(JSONValue.string(bytes))).map(Time.at) ?? .unreadable
            default: return .unreadable
            }
        }

        /// A position read, with its time, as a fix; nil (and counted as left out, and why) when
        /// either is missing or cannot be used.
        mutating func usable(_ p: Position, _ time: Time) -> Fix? {
            elements += 1
            guard p.readable else {
                skip("position unreadable")
                return nil
            }
            guard p.inRange else {
                skip("position out of range")
                return nil
            }
            guard case .at(let ms) = time else {
                skip(time.isUnreadable ? "time unreadable" : "no time")
                return nil
            }
            var fix = Fix()
            fix.coordinate = Coordinate(latitude: p.latitude, longitude: p.longitude)
            fix.altitudeMSL = p.altitude
            fix.mode = p.altitude == nil ? .twoD : .threeD
            UTCTimestamp.set(ms, on: &fix)
            return fix
        }

        /// Hands over the feature just read.
        mutating func emit() {
            sawFeatures = true
            defer { feature = Feature() }
            let f = feature
            guard f.hasGeometry, let type = f.geometryType else {
                elements += 1
                skip("no position")
                return
            }
            switch type {
            case "Point", "MultiPoint":
                let single = f.positions.count == 1
                for (i, p) in f.positions.enumerated() {
                    guard var fix = usable(p, i < f.times.count ? f.times[i] : single ? f.time.or(p) : p.timeOfItsOwn)
                    else {
                        continue
                    }
                    if single {
                        if fix.altitudeMSL == nil, let h = f.altitude, h.isFinite {
                            fix.altitudeMSL = h
                            fix.mode = .threeD
                        }
                        if let s = f.speed, s >= 0 { fix.speed = s }
                        if let c = f.course, c >= 0, c <= 360 { fix.track = c }
                        if let a = f.accuracy, a >= 0 {
                            fix.latitudeError = a / 2.squareRoot()
                            fix.longitudeError = a / 2.squareRoot()
                        }
                    }
                    if single && f.kind == "record" {
                        items.append(
                            .waypoint(
                                .init(
                                    fix: fix, name: f.name,
                                    text: f.notes.isEmpty ? nil : f.notes.joined(separator: "\n\n"),
                                    fields: f.fields)))
                        continue
                    }
                    if !inPointStream {
                        items.append(.track)
                        inPointStream = true
                    }
                    items.append(.point(fix))
                }
            case "LineString", "MultiLineString":
                inPointStream = false
                items.append(.track)
                var start = 0
                for end in f.lineEnds where end > start {
                    if start > 0 { items.append(.segment) }
                    for i in start..<end {
                        let p = f.positions[i]
                        if let fix = usable(p, i < f.times.count ? f.times[i] : p.timeOfItsOwn) {
                            items.append(.point(fix))
                        }
                    }
                    start = end
                }
            default:
                elements += 1
                skip("not a point or line")
            }
        }
    }
}

extension GeoJSONReader.Time {
    var isUnreadable: Bool {
        if case .unreadable = self { return true }
        return false
    }

    /// This time, or where there is none, the position's own.
    func or(_ p: GeoJSONReader.Position) -> Self {
        if case .none = self { return p.timeOfItsOwn }
        return self
    }
}

extension GeoJSONReader.Position {
    /// The time a fourth value gives: Unix seconds or milliseconds from 2000 on; a smaller one is
    /// a measure along the line (GeoJSON's "M"), not a time.
    var timeOfItsOwn: GeoJSONReader.Time {
        guard let time, time >= 946_684_800 else { return .none }
        return TrackValues.milliseconds(unix: time).map(GeoJSONReader.Time.at) ?? .unreadable
    }
}
