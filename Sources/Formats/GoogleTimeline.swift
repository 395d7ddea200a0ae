import Foundation
import GPSCore

/// Google's location history, in the four shapes people hold it (see locationhistoryformat.com
/// for the fields):
///
/// - Takeout's `Records.json`: `{"locations": [{latitudeE7, longitudeE7, accuracy, altitude,
///   velocity, heading, timestamp | timestampMs, deviceTag, activity: [{activity: [{type,
///   confidence}]}], ...}]}`, the raw positions (the surest guess of the first `activity` entry
///   becomes the point's ``Sensors/activity``).
/// - Takeout's Semantic Location History (`2021/2021_MARCH.json`): `{"timelineObjects":
///   [{placeVisit} | {activitySegment}]}`, with `duration.startTimestamp` (or `...Ms`) and the
///   activity's `simplifiedRawPath.points[]` (`latE7`, `lngE7`, time).
/// - The Android on-device export `Timeline.json`: `{"semanticSegments": [{startTime, endTime,
///   timelinePath | visit | activity}], "rawSignals": [{position: {LatLng, ...}}]}`, positions
///   written `"47.3769°, 8.5417°"`.
/// - The iOS export `location-history.json`: an array of `{startTime, endTime, visit | activity |
///   timelinePath}`, positions written `"geo:47.3769,8.5417"` and path times as minutes after
///   the start.
///
/// ``Reader`` streams any of them through a ``JSONScanner``: raw positions become fixes (each
/// part of the file a stream of its own), visits and activities become ``Record``s. Every element
/// read is counted, and so is every one left out, with why.
public enum GoogleTimeline {
    public enum Format: String, Sendable {
        case records = "Google Records.json"
        case semantic = "Google Semantic Location History"
        case android = "Google Timeline.json (Android)"
        case ios = "Google location-history.json (iOS)"
    }

    /// What the reader hands over, in file order.
    public enum Item {
        /// A new stream of positions begins.
        case stream
        /// The positions that follow are of this device (Records.json's `deviceTag`; nil: none).
        case device(Int64?)
        case fix(Fix)
        case record(Record)
    }

    /// A visit to a place, or a journey between two.
    public struct Record: Sendable, Equatable {
        public enum Kind: String, Sendable { case visit, activity }
        public var kind: Kind
        /// UTC milliseconds.
        public var start: Int64
        public var end: Int64?
        /// The place visited, or where the activity began.
        public var coordinate: Coordinate
        /// Where the activity ended.
        public var endCoordinate: Coordinate?
        public var name: String?
        public var address: String?
        public var placeID: String?
        /// HOME, WORK, TYPE_SEARCHED_ADDRESS, ...
        public var semanticType: String?
        /// WALKING, IN_BUS, CYCLING, ... (`IN_PASSENGER_VEHICLE` and `in passenger vehicle` both
        /// occur; kept as written).
        public var activityType: String?
        /// Metres.
        public var distance: Double?
        /// Google's confidence in the place or activity, 0 to 1.
        public var probability: Double?
    }

    /// What is wrong with a file, as a clause.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Which of the four `prefix` (a file's first bytes) looks like, if any.
    public static func format(of prefix: UnsafeRawBufferPointer) -> Format? {
        let head = String(decoding: prefix.prefix(65536), as: UTF8.self)
        let first = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }.first
        if first == "{" {
            if head.contains("\"locations\"") && head.contains("E7\"") { return .records }
            if head.contains("\"timelineObjects\"") { return .semantic }
            if head.contains("\"semanticSegments\"") || head.contains("\"rawSignals\"") { return .android }
        } else if first == "[" {
            if head.contains("\"startTime\"") && head.contains("geo:") { return .ios }
        }
        return nil
    }

    /// Reads a file fed in chunks.
    public final class Reader {
        private var scanner = JSONScanner()
        private var handler = Handler()

        public init() {}

        /// The format, once the document's top level has been read.
        public var format: Format? { handler.format }
        /// Elements read: positions, visits and activities.
        public var elements: Int { handler.elements }
        /// Elements left out, by reason ("no position", "no time", "position out of range").
        public var skipped: [String: Int] { handler.skipped }

        /// Reads `bytes`, handing each whole item to `take`.
        public func feed(_ bytes: UnsafeRawBufferPointer, _ take: (Item) throws -> Void) throws {
            do {
                try scanner.feed(bytes, &handler)
            } catch let failure as JSONScanner.Failure {
                throw Failure(description: "it is not valid JSON (\(failure))")
            }
            try drain(take)
        }

        /// Ends the file.
        public func finish(_ take: (Item) throws -> Void) throws {
            do {
                try scanner.finish(&handler)
            } catch let failure as JSONScanner.Failure {
                throw Failure(description: "it is not valid JSON (\(failure))")
            }
            try drain(take)
            if handler.format == nil {
                throw Failure(description: "it is JSON but none of Google's location history formats")
            }
        }

        private func drain(_ take: (Item) throws -> Void) throws {
            if let problem = handler.problem { throw Failure(description: problem) }
            for item in handler.items { try take(item) }
            handler.items.removeAll(keepingCapacity: true)
        }
    }
}

extension GoogleTimeline {
    /// The keys the formats use (others are skipped with all they hold).
    enum Key: String, CaseIterable {
        case none = ""
        case locations, latitudeE7, longitudeE7, accuracy, altitude, velocity, heading, timestamp, timestampMs
        case deviceTag, confidence
        case timelineObjects, placeVisit, activitySegment, location, duration, startTimestamp, endTimestamp
        case startTimestampMs, endTimestampMs, name, address, placeId, semanticType, startLocation, endLocation
        case distance, activityType, simplifiedRawPath, points, latE7, lngE7, accuracyMeters
        case semanticSegments, rawSignals, startTime, endTime, timelinePath, point, time, visit, topCandidate
        case placeID, placeLocation, latLng, activity, start, end, distanceMeters, type, probability, position
        case latLngUpper = "LatLng"
        case altitudeMeters, speedMetersPerSecond, durationMinutesOffsetFromStartTime
        case waypointPath, waypoints, travelMode, otherCandidateLocations, activities

        /// Keys by their length in bytes, for a lookup that makes no string.
        static let byLength: [[(Key, [UInt8])]] = {
            var table = [[(Key, [UInt8])]](repeating: [], count: 64)
            for k in allCases where k != .none { table[k.rawValue.utf8.count].append((k, Array(k.rawValue.utf8))) }
            return table
        }()

        init(_ raw: UnsafeRawBufferPointer) {
            self = .none
            guard raw.count < 64 else { return }
            for (key, bytes) in Self.byLength[raw.count] where bytes.withUnsafeBytes({ $0.elementsEqual(raw) }) {
                self = key
                return
            }
        }
    }

    /// What an open container is, from its parent and the key it was opened under.
    enum Role {
        case skip, root, iosList
        // Records.json
        case records, record
        /// A location's `activity` list, one of its entries, its `activity` guesses, one guess.
        case recordActivities, recordActivity, recordGuesses, recordGuess
        // Semantic Location History
        case objects, object, placeVisit, visitLocation, duration, activitySegment, startLocation, endLocation
        case rawPath, rawPoints, rawPoint
        /// An activity's `waypointPath`, its `waypoints`, one of them (positions without times).
        case waypointPath, waypoints, waypoint
        /// A visit's `otherCandidateLocations`, one of them; an activity's `activities` guesses, one.
        case candidates, candidate, guesses, guessEntry
        // Timeline.json and location-history.json
        case segments, segment, path, pathPoint, visit, visitCandidate, placeLocation
        case activity, activityStart, activityEnd, activityCandidate
        case signals, signal, position
    }

    /// A position being read: a location record, a path point, a raw signal.
    struct Position {
        var latitude: Double?
        var longitude: Double?
        var milliseconds: Int64?
        var accuracy: Double?
        var altitude: Double?
        var speed: Double?
        var heading: Double?
        /// Minutes after the segment's start (iOS path points).
        var offsetMinutes: Double?
        /// The phone that recorded it (Records.json).
        var deviceTag: Int64?
        /// What the phone's activity recognition guessed most surely (Records.json's first
        /// `activity` entry), and how surely (0-100).
        var activity: MotionActivity?
        var activityConfidence = -1.0
        /// `activity` entries opened so far: only the first (nearest the fix) is read.
        var activityEntries = 0
        /// The text had a position that could not be read.
        var unreadable = false
    }

    /// A semantic segment or timeline object being read.
    struct Segment {
        var start: Int64?
        var end: Int64?
        var path: [Position] = []
        var visit: Record?
        var activity: Record?
        var visitPosition = Position()
        var startPosition = Position()
        var endPosition = Position()
        var isVisit = false
        var isActivity = false
        /// A waypoint path's first and last positions, its mode and distance.
        var firstWaypoint = Position()
        var lastWaypoint = Position()
        var travelMode: String?
        var pathDistance: Double?
        /// The first of a visit's other candidate locations; the surest of an activity's guesses.
        var candidatePosition = Position()
        var candidates = 0
        var guessedType: String?
        var guesses = 0
    }

    struct Handler: JSONHandler {
        var format: Format?
        var items: [Item] = []
        var elements = 0
        var skipped: [String: Int] = [:]
        /// Set when the document is JSON but not what its format says it is.
        var problem: String?

        private var roles: [Role] = []
        /// The key whose value comes next in the innermost object.
        private var key = Key.none
        private var position = Position()
        private var segment = Segment()
        private var signalHadPosition = false
        /// The device of the last position handed over (``Item/device(_:)`` when it changes).
        private var lastTag: Int64?
        /// The activity guess being read: its word and confidence.
        private var guess: (type: String?, confidence: Double?) = (nil, nil)

        private mutating func skip(_ reason: String) { skipped[reason, default: 0] += 1 }

        mutating func token(_ token: JSONScanner.Token, _ bytes: UnsafeRawBufferPointer) throws {
            switch token {
            case .key:
                key = Key(bytes)
            case .objectStart, .arrayStart:
                open(isObject: token == .objectStart)
                key = .none
            case .objectEnd, .arrayEnd:
                close(roles.removeLast())
                key = .none
            default:
                value(token, bytes)
                key = .none
            }
        }

        private mutating func open(isObject: Bool) {
            let parent = roles.last
            let role: Role
            switch (parent, key, isObject) {
            case (nil, _, true): role = .root
            case (nil, _, false):
                role = .iosList
                format = .ios
                items.append(.stream)
            case (.root?, .locations, false):
                role = .records
                format = .records
                items.append(.stream)
            case (.records?, _, true):
                role = .record
                position = Position()
            case (.record?, .activity, false): role = .recordActivities
            case (.recordActivities?, _, true):
                role = .recordActivity
                position.activityEntries += 1
            case (.recordActivity?, .activity, false) where position.activityEntries == 1: role = .recordGuesses
            case (.recordGuesses?, _, true):
                role = .recordGuess
                guess = (nil, nil)
            case (.root?, .timelineObjects, false):
                role = .objects
                format = .semantic
                items.append(.stream)
            case (.objects?, _, true):
                role = .object
                segment = Segment()
            case (.object?, .placeVisit, true):
                role = .placeVisit
                segment.isVisit = true
            case (.object?, .activitySegment, true):
                role = .activitySegment
                segment.isActivity = true
            case (.placeVisit?, .location, true): role = .visitLocation
            case (.placeVisit?, .duration, true), (.activitySegment?, .duration, true): role = .duration
            case (.activitySegment?, .startLocation, true): role = .startLocation
            case (.activitySegment?, .endLocation, true): role = .endLocation
            case (.activitySegment?, .simplifiedRawPath, true): role = .rawPath
            case (.activitySegment?, .waypointPath, true): role = .waypointPath
            case (.waypointPath?, .waypoints, false): role = .waypoints
            case (.waypoints?, _, true):
                role = .waypoint
                position = Position()
            case (.placeVisit?, .otherCandidateLocations, false): role = .candidates
            case (.candidates?, _, true):
                role = .candidate
                segment.candidates += 1
            case (.activitySegment?, .activities, false): role = .guesses
            case (.guesses?, _, true):
                role = .guessEntry
                segment.guesses += 1
            case (.rawPath?, .points, false): role = .rawPoints
            case (.rawPoints?, _, true):
                role = .rawPoint
                position = Position()
            case (.root?, .semanticSegments, false):
                role = .segments
                format = .android
                items.append(.stream)
            case (.segments?, _, true), (.iosList?, _, true):
                role = .segment
                segment = Segment()
            case (.segment?, .timelinePath, false): role = .path
            case (.path?, _, true):
                role = .pathPoint
                position = Position()
            case (.segment?, .visit, true):
                role = .visit
                segment.isVisit = true
            case (.visit?, .topCandidate, true): role = .visitCandidate
            case (.visitCandidate?, .placeLocation, true): role = .placeLocation
            case (.segment?, .activity, true):
                role = .activity
                segment.isActivity = true
            case (.activity?, .start, true): role = .activityStart
            case (.activity?, .end, true): role = .activityEnd
            case (.activity?, .topCandidate, true): role = .activityCandidate
            case (.root?, .rawSignals, false):
                role = .signals
                format = .android
                items.append(.stream)
            case (.signals?, _, true):
                role = .signal
                signalHadPosition = false
            case (.signal?, .position, true):
                role = .position
                signalHadPosition = true
                position = Position()
            default: role = .skip
            }
            roles.append(role)
        }

        private mutating func close(_ role: Role) {
            switch role {
            case .record, .rawPoint, .position: emit(position)
            case .recordGuess:
                if let word = guess.type, let said = MotionActivity(word: word),
                    (guess.confidence ?? 0) > position.activityConfidence
                {
                    (position.activity, position.activityConfidence) = (said, guess.confidence ?? 0)
                }
            case .pathPoint: segment.path.append(position)
            case .waypoint:
                if segment.firstWaypoint.latitude == nil { segment.firstWaypoint = position }
                segment.lastWaypoint = position
            case .object, .segment: endSegment()
            case .signal where !signalHadPosition:
                // A Wi-Fi scan or an activity guess: read, but not a position.
                elements += 1
                skip("not a position")
            default: break
            }
        }

        private mutating func value(_ token: JSONScanner.Token, _ raw: UnsafeRawBufferPointer) {
            guard let role = roles.last else {
                problem = "it is JSON but none of Google's location history formats"
                return
            }
            func number() -> Double? {
                if token == .number { return JSONValue.double(raw) }
                if token == .string, let v = Double(JSONValue.string(raw)), v.isFinite { return v }
                return nil
            }
            func e7() -> Double? {
                if token == .number, let v = JSONValue.integer(raw) { return Double(v) / 1e7 }
                return number().map { $0 / 1e7 }
            }
            // ISO 8601, or Unix seconds or milliseconds as a number or a string (exports differ).
            func time() -> Int64? {
                if token == .number { return TrackValues.milliseconds(unix: JSONValue.double(raw)) }
                guard token == .string else { return nil }
                return UTCTimestamp.milliseconds(raw)
                    ?? Double(JSONValue.string(raw)).flatMap(TrackValues.milliseconds(unix:))
            }
            func milliseconds() -> Int64? {
                if token == .number { return JSONValue.integer(raw) }
                if token == .string { return JSONValue.integer(raw) ?? UTCTimestamp.milliseconds(raw) }
                return nil
            }
            func text() -> String? { token == .string ? JSONValue.string(raw) : nil }
            switch (role, key) {
            case (.record, .latitudeE7), (.visitLocation, .latitudeE7), (.startLocation, .latitudeE7),
                (.endLocation, .latitudeE7), (.rawPoint, .latE7), (.waypoint, .latE7):
                set(latitude: e7(), role)
            case (.candidate, .latitudeE7) where segment.candidates == 1:
                segment.candidatePosition.latitude = e7()
            case (.candidate, .longitudeE7) where segment.candidates == 1:
                segment.candidatePosition.longitude = e7()
            case (.waypointPath, .travelMode): segment.travelMode = text()
            case (.waypointPath, .distanceMeters): segment.pathDistance = number()
            case (.guessEntry, .activityType) where segment.guesses == 1: segment.guessedType = text()
            case (.record, .longitudeE7), (.visitLocation, .longitudeE7), (.startLocation, .longitudeE7),
                (.endLocation, .longitudeE7), (.rawPoint, .lngE7), (.waypoint, .lngE7):
                set(longitude: e7(), role)
            case (.record, .timestamp), (.rawPoint, .timestamp), (.pathPoint, .time), (.position, .timestamp):
                position.milliseconds = time()
                if position.milliseconds == nil { position.unreadable = position.unreadable || token != .null }
            case (.record, .timestampMs), (.rawPoint, .timestampMs):
                position.milliseconds = milliseconds()
            case (.record, .accuracy), (.rawPoint, .accuracyMeters), (.position, .accuracyMeters):
                position.accuracy = number()
            case (.record, .altitude), (.position, .altitudeMeters): position.altitude = number()
            case (.record, .velocity), (.position, .speedMetersPerSecond): position.speed = number()
            case (.record, .heading): position.heading = number()
            case (.record, .deviceTag): position.deviceTag = token == .number ? JSONValue.integer(raw) : nil
            case (.recordGuess, .type): guess.type = text()
            case (.recordGuess, .confidence): guess.confidence = number()
            case (.duration, .startTimestamp), (.segment, .startTime): segment.start = time()
            case (.duration, .endTimestamp), (.segment, .endTime): segment.end = time()
            case (.duration, .startTimestampMs): segment.start = milliseconds()
            case (.duration, .endTimestampMs): segment.end = milliseconds()
            case (.visitLocation, .name): record(\.name, text())
            case (.visitLocation, .address): record(\.address, text())
            case (.visitLocation, .placeId), (.visitCandidate, .placeId), (.visitCandidate, .placeID):
                record(\.placeID, text())
            case (.visitLocation, .semanticType), (.visitCandidate, .semanticType): record(\.semanticType, text())
            case (.visitCandidate, .probability), (.activityCandidate, .probability):
                if role == .visitCandidate {
                    segment.visit = with(segment.visit) { $0.probability = number() }
                } else {
                    segment.activity = with(segment.activity) { $0.probability = number() }
                }
            case (.activitySegment, .distance), (.activity, .distanceMeters):
                segment.activity = with(segment.activity) { $0.distance = number() }
            case (.activitySegment, .activityType), (.activityCandidate, .type):
                segment.activity = with(segment.activity) { $0.activityType = text() }
            case (.pathPoint, .point), (.placeLocation, .latLng), (.visitCandidate, .placeLocation),
                (.activityStart, .latLng), (.activity, .start), (.activityEnd, .latLng), (.activity, .end),
                (.position, .latLngUpper):
                let parsed = raw.isEmpty || token != .string ? nil : Self.latLng(raw)
                var target = Position()
                if let parsed {
                    (target.latitude, target.longitude) = parsed
                } else {
                    target.unreadable = true
                }
                switch (role, key) {
                case (.pathPoint, _), (.position, _):
                    (position.latitude, position.longitude, position.unreadable) =
                        (target.latitude, target.longitude, target.unreadable)
                case (.placeLocation, _), (.visitCandidate, _): segment.visitPosition = target
                case (.activityStart, _), (.activity, .start): segment.startPosition = target
                default: segment.endPosition = target
                }
            case (.pathPoint, .durationMinutesOffsetFromStartTime): position.offsetMinutes = number()
            default: break
            }
        }

        /// Sets a latitude on what the role reads.
        private mutating func set(latitude: Double?, _ role: Role) {
            switch role {
            case .visitLocation: segment.visitPosition.latitude = latitude
            case .startLocation: segment.startPosition.latitude = latitude
            case .endLocation: segment.endPosition.latitude = latitude
            default: position.latitude = latitude
            }
        }

        private mutating func set(longitude: Double?, _ role: Role) {
            switch role {
            case .visitLocation: segment.visitPosition.longitude = longitude
            case .startLocation: segment.startPosition.longitude = longitude
            case .endLocation: segment.endPosition.longitude = longitude
            default: position.longitude = longitude
            }
        }

        private mutating func record(_ field: WritableKeyPath<Record, String?>, _ value: String?) {
            segment.visit = with(segment.visit) { $0[keyPath: field] = value }
        }

        /// `record`, or a new visit, changed by `change`.
        private func with(_ record: Record?, _ change: (inout Record) -> Void) -> Record {
            var r = record ?? Record(kind: .visit, start: 0, coordinate: Coordinate(latitude: 0, longitude: 0))
            change(&r)
            return r
        }

        /// "47.3769°, 8.5417°" (Android) or "geo:47.3769,8.5417" (iOS).
        static func latLng(_ raw: UnsafeRawBufferPointer) -> (Double, Double)? {
            var text = JSONValue.string(raw)
            if text.hasPrefix("geo:") { text.removeFirst(4) }
            let parts = text.replacingOccurrences(of: "°", with: "").split(separator: ",")
            guard parts.count == 2,
                let lat = Double(parts[0].trimmingCharacters(in: .whitespaces)),
                let lon = Double(parts[1].trimmingCharacters(in: .whitespaces))
            else { return nil }
            return (lat, lon)
        }

        /// Checks a position's coordinate: nil (and the reason counted) when it has none usable.
        private mutating func coordinate(of p: Position) -> Coordinate? {
            guard let lat = p.latitude, let lon = p.longitude else {
                skip(p.unreadable ? "position unreadable" : "no position")
                return nil
            }
            guard lat.isFinite, lon.isFinite, abs(lat) <= 90, abs(lon) <= 180, !(lat == 0 && lon == 0) else {
                skip("position out of range")
                return nil
            }
            return Coordinate(latitude: lat, longitude: lon)
        }

        /// Hands over a position as a fix, or counts why it is left out.
        private mutating func emit(_ p: Position) {
            elements += 1
            guard let c = coordinate(of: p) else { return }
            guard let ms = p.milliseconds else {
                skip(p.unreadable ? "time unreadable" : "no time")
                return
            }
            var fix = Fix()
            fix.coordinate = c
            UTCTimestamp.set(ms, on: &fix)
            if let a = p.altitude, a.isFinite {
                fix.altitudeMSL = a
                fix.mode = .threeD
            } else {
                fix.mode = .twoD
            }
            if let s = p.speed, s.isFinite, s >= 0 { fix.speed = s }
            if let h = p.heading, h.isFinite, h >= 0, h <= 360 { fix.track = h }
            if let a = p.accuracy, a.isFinite, a >= 0 {
                fix.latitudeError = a / 2.squareRoot()
                fix.longitudeError = a / 2.squareRoot()
            }
            if let said = p.activity { fix.sensors = Sensors(activity: said) }
            if p.deviceTag != lastTag {
                items.append(.device(p.deviceTag))
                lastTag = p.deviceTag
            }
            items.append(.fix(fix))
        }

        /// Hands over a segment's path points, visit and activity.
        private mutating func endSegment() {
            for var p in segment.path {
                if p.milliseconds == nil, let offset = p.offsetMinutes, let start = segment.start {
                    p.milliseconds = start + Int64((offset * 60_000).rounded())
                }
                emit(p)
            }
            if segment.isVisit {
                var visit = segment.visit ?? with(nil) { _ in }
                visit.kind = .visit
                // Without a location, the place Google thought likeliest after it (as Dawarich reads
                // it, Freika/dawarich app/services/google_maps/semantic_history_importer.rb @ed3bb4fb).
                let place =
                    coordinate(ofQuietly: segment.visitPosition) == nil
                        && coordinate(ofQuietly: segment.candidatePosition) != nil
                    ? segment.candidatePosition : segment.visitPosition
                if let c = placed(place) {
                    visit.coordinate = c
                    visit.end = segment.end
                    visit.start = segment.start!
                    items.append(.record(visit))
                }
            }
            if segment.isActivity {
                var activity = segment.activity ?? with(nil) { _ in }
                activity.kind = .activity
                // Older files leave `startLocation` and `endLocation` empty: the waypoint path
                // begins and ends it, its travel mode (or the surest of `activities`) is its
                // mode, its length the distance.
                if activity.activityType == nil { activity.activityType = segment.guessedType ?? segment.travelMode }
                if activity.distance == nil { activity.distance = segment.pathDistance }
                func or(_ p: Position, _ waypoint: Position) -> Position {
                    coordinate(ofQuietly: p) == nil && coordinate(ofQuietly: waypoint) != nil ? waypoint : p
                }
                // A segment may carry only its end: it is placed there (its start is the visit
                // before it, as the timeline reads it).
                let endPosition = or(segment.endPosition, segment.lastWaypoint)
                let end = coordinate(ofQuietly: endPosition)
                let startPosition = or(segment.startPosition, segment.firstWaypoint)
                let start =
                    coordinate(ofQuietly: startPosition) == nil && end != nil ? endPosition : startPosition
                if let c = placed(start) {
                    activity.coordinate = c
                    activity.endCoordinate = end
                    activity.end = segment.end
                    activity.start = segment.start!
                    items.append(.record(activity))
                }
            }
            segment = Segment()
        }

        /// A visit's or activity's place, when it and the segment's start time are known.
        private mutating func placed(_ p: Position) -> Coordinate? {
            elements += 1
            guard let c = coordinate(of: p) else { return nil }
            guard segment.start != nil else {
                skip("no time")
                return nil
            }
            return c
        }

        private func coordinate(ofQuietly p: Position) -> Coordinate? {
            guard let lat = p.latitude, let lon = p.longitude, abs(lat) <= 90, abs(lon) <= 180 else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }
    }
}
