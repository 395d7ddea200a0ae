import Foundation
import GPSCore

/// How a fix is stored: scaled integers (see the `point` table in ``Schema``). Latitude and
/// longitude keep 1e-7 degrees (about 1 cm), altitude centimetres, speed cm/s, track and HDOP
/// hundredths; the date and time are the row's key in milliseconds. Rows are written from
/// ``KeptPoint``; records (`record` table) use the same scales.
public enum StoredScale {
    /// Degrees as the stored integer (1e-7 degrees).
    public static func degrees(_ value: Double) -> Int64 { Int64((value * 1e7).rounded()) }
    /// Metres, m/s, degrees of track or HDOP as the stored integer (hundredths); a value no
    /// integer can hold (not finite, beyond ±9e16) is stored as unknown rather than trapping.
    public static func hundredths(_ value: Double) -> Int64 {
        guard value.isFinite, abs(value) < 9e16 else { return KeptPoint.unknown }
        return Int64((value * 100).rounded())
    }
}

/// A place from an imported file (a GPX waypoint): a manual record with notes and fields.
public struct ImportedPlace: Sendable {
    public var milliseconds: Int64
    public var coordinate: Coordinate
    public var altitude: Double?
    public var notes: [String]
    public var fields: [Field]

    public init(milliseconds: Int64, coordinate: Coordinate, altitude: Double?, notes: [String], fields: [Field]) {
        self.milliseconds = milliseconds
        self.coordinate = coordinate
        self.altitude = altitude
        self.notes = notes
        self.fields = fields
    }
}

/// What an account's export says of places besides its points and records (Dawarich's): the
/// areas its user drew, kept as the account's places, and the places its visits were at, kept
/// as found places with their names (``FoundPlace``), so the stays there are named by them.
public struct ImportedPlaces: Sendable, Equatable {
    public struct Visited: Sendable, Equatable {
        public var name: String
        public var center: Coordinate
        public init(name: String, center: Coordinate) {
            self.name = name
            self.center = center
        }
    }

    public var areas: [Place]
    public var visited: [Visited]
    /// How near a found place is to be the same place (m): the visits' place radius.
    public var radius: Double

    public init(areas: [Place] = [], visited: [Visited] = [], radius: Double = 50) {
        self.areas = areas
        self.visited = visited
        self.radius = radius
    }

    public var isEmpty: Bool { areas.isEmpty && visited.isEmpty }

    /// The visited places to remember: those with no found place of the account within
    /// ``radius`` (`existing`, their centres), nor one earlier in the list.
    public func newFoundPlaces(existing: [Coordinate]) -> [Visited] {
        var known = existing
        var new: [Visited] = []
        for v in visited where !known.contains(where: { Geodesy.haversineDistance($0, v.center) <= radius }) {
            new.append(v)
            known.append(v.center)
        }
        return new
    }
}

/// One kept fix as it will be stored, with its run-local ride and segment numbers: the
/// scaled integers of its `point` row (see ``Schema``), 80 bytes against a ``Fix``'s 280,
/// because an import holds a whole file's points until its one short transaction.
public struct KeptPoint: Sendable {
    /// Where the fix had no altitude, speed, track or HDOP.
    public static let unknown = Int64.min
    /// UTC milliseconds. The other values are the stored integers (``StoredScale``; nil
    /// values are ``unknown``), mode + 4 × satellites in `modeSats`.
    public let milliseconds: Int64
    public let lat: Int64
    public let lon: Int64
    public let alt: Int64
    public let speed: Int64
    public let track: Int64
    public let hdop: Int64
    public let modeSats: Int32
    /// ``Sensors/packed``, or ``unknown`` when the fix had no sensor values.
    public let sensors: Int64
    private let rideNumber: Int32
    private let segmentNumber: Int32
    public var ride: Int { Int(rideNumber) }
    public var segment: Int { Int(segmentNumber) }

    /// `fix` must have a date, a time and a position (the pipeline keeps only those).
    public init(fix: Fix, ride: Int, segment: Int) {
        let c = fix.coordinate!
        func scaled(_ v: Double?) -> Int64 { v.map(StoredScale.hundredths) ?? Self.unknown }
        milliseconds = fix.unixMilliseconds!
        lat = StoredScale.degrees(c.latitude)
        lon = StoredScale.degrees(c.longitude)
        alt = scaled(fix.altitudeMSL)
        speed = scaled(fix.speed)
        track = scaled(fix.track)
        hdop = scaled(fix.hdop)
        let sats = fix.satellitesUsed.map { Swift.min(Swift.max($0, 0), 255) } ?? 0
        modeSats = Int32(fix.mode.rawValue + 4 * sats)
        // The accuracy a phone or an import gave goes with the sensors' values; a receiver's
        // point has its HDOP (and leaves the sensors' table untouched).
        var measured = fix.sensors ?? Sensors()
        if measured.accuracy == nil, fix.hdop == nil, let e = fix.horizontalError, e.isFinite {
            measured.accuracy = Int(Swift.min(Swift.max(e, 0), 32766).rounded())
        }
        sensors = measured.orNil?.packed ?? Self.unknown
        rideNumber = Int32(clamping: ride)
        segmentNumber = Int32(clamping: segment)
    }
}

/// An imported file, noted in the same transaction as its points.
public struct ImportedFile: Sendable {
    public var sha256: String
    public var name: String
    public var bytes: Int

    public init(sha256: String, name: String, bytes: Int) {
        self.sha256 = sha256
        self.name = name
        self.bytes = bytes
    }
}

/// One stream of an imported file: its kept points in time order, with the stream's own ride
/// and segment numbers (from 1), and its drops per ride number and reason.
public struct ImportStream: Sendable {
    /// The points still to store: all of them, or none when they went to an ``ImportWriting``
    /// as they were kept.
    public var points: [KeptPoint]
    /// The stream's rides and segments, from all its points.
    public var extents: [RideExtent]
    public var drops: [Int: [String: Int]]
    /// The events the detector found in the stream (stored in the same transaction).
    public var events: [TrailEvent]
    /// The device the stream's points are stored as, by name, made in the file's account when it
    /// has none of that name (a Google history's phones); nil: the writer's device.
    public var device: String?

    /// A stream with its points (`extents` nil: from them) or the extents of points added to an
    /// ``ImportWriting`` already.
    public init(
        points: [KeptPoint], extents: [RideExtent]? = nil, drops: [Int: [String: Int]], events: [TrailEvent] = [],
        device: String? = nil
    ) {
        self.points = points
        self.extents = extents ?? RideExtent.extents(of: points)
        self.drops = drops
        self.events = events
        self.device = device
    }
}

/// What an import stored.
public struct ImportOutcome: Equatable, Sendable {
    /// Points added (points whose millisecond was already stored are not counted).
    public var points = 0
    /// Records added for places (waypoints).
    public var places = 0
    /// Events added (those already stored are not counted).
    public var events = 0
    /// Places added from the file's areas (``ImportedPlaces/areas``; those of a name the account
    /// has already are not), and found places it named (``ImportedPlaces/visited``).
    public var areas = 0
    public var visitedPlaces = 0
    /// Points of the earlier import of the same file that were removed first (`replacing`).
    public var replacedPoints = 0
    /// Another process imported the same file while this one read it: nothing was written.
    public var importedMeanwhile = false
    /// The file as the store notes it once the unit commits (with ``importedMeanwhile``: as the
    /// other process noted it), read in the import's transaction; nil when no file was given or
    /// it stored nothing (it is not remembered).
    public var stored: StoredImport?

    public init() {}
}

/// A stream's ride as an import stores it: its run-local number, its time range and the ranges
/// of its segments (ms, inclusive), with how many points were kept in each. Every store merges
/// these with the rides and segments it has.
public struct RideExtent: Sendable {
    public var number: Int
    public var start: Int64
    public var end: Int64
    public var segments: [(start: Int64, end: Int64, points: Int)]
    /// The points kept in the ride (those of its segments).
    public var points: Int { segments.reduce(0) { $0 + $1.points } }

    /// The rides and segments of `points` (in time order), with their full time ranges.
    public static func extents(of points: [KeptPoint]) -> [RideExtent] {
        var builder = Builder()
        for p in points { builder.add(p) }
        return builder.rides
    }

    /// The extents of a stream's points taken one at a time (in time order), so the points
    /// need not be kept.
    public struct Builder: Sendable {
        public private(set) var rides: [RideExtent] = []
        private var lastSegment = -1

        public init() {}

        public mutating func add(_ p: KeptPoint) {
            let t = p.milliseconds
            if rides.last?.number != p.ride {
                rides.append(RideExtent(number: p.ride, start: t, end: t, segments: []))
                lastSegment = -1
            }
            let r = rides.count - 1
            rides[r].end = Swift.max(rides[r].end, t)
            rides[r].start = Swift.min(rides[r].start, t)
            if p.segment != lastSegment {
                rides[r].segments.append((t, t, 0))
                lastSegment = p.segment
            }
            let s = rides[r].segments.count - 1
            rides[r].segments[s].end = Swift.max(rides[r].segments[s].end, t)
            rides[r].segments[s].points += 1
        }

        /// Takes the rides before the last (a point of a later ride was added after theirs).
        public mutating func takeDone() -> [RideExtent] {
            guard rides.count > 1 else { return [] }
            let done = Array(rides.dropLast())
            rides.removeFirst(rides.count - 1)
            return done
        }
    }
}
