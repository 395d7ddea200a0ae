import Foundation
import GPSCore

/// A stored ride.
public struct StoredRide: Equatable, Sendable {
    public var id: Int64
    /// The name of the device that recorded it.
    public var device: String
    /// First and last point, ms since 1970 (UTC).
    public var startMilliseconds: Int64
    public var endMilliseconds: Int64
    public var pointCount: Int
    public var segmentCount: Int
    /// Dropped fixes by reason.
    public var drops: [String: Int]

    public init(
        id: Int64, device: String, startMilliseconds: Int64, endMilliseconds: Int64, pointCount: Int, segmentCount: Int,
        drops: [String: Int]
    ) {
        self.id = id
        self.device = device
        self.startMilliseconds = startMilliseconds
        self.endMilliseconds = endMilliseconds
        self.pointCount = pointCount
        self.segmentCount = segmentCount
        self.drops = drops
    }
}

/// A stored point with the ride and segment it belongs to and its device's name.
public typealias PlacedPoint = (fix: Fix, ride: Int64, segment: Int64, device: String)

/// A file imported earlier.
public struct StoredImport: Equatable, Sendable {
    public var id: Int64
    public var name: String
    public var importedMilliseconds: Int64
    /// Points it stored.
    public var points: Int
    /// The time range of those points (nil for imports made before Trailbook kept it, or for
    /// a file that stored only waypoints).
    public var startMilliseconds: Int64?
    public var endMilliseconds: Int64?

    public init(
        id: Int64, name: String, importedMilliseconds: Int64, points: Int, startMilliseconds: Int64?,
        endMilliseconds: Int64?
    ) {
        self.id = id
        self.name = name
        self.importedMilliseconds = importedMilliseconds
        self.points = points
        self.startMilliseconds = startMilliseconds
        self.endMilliseconds = endMilliseconds
    }
}

/// What a running `record` writes about itself every second, in the `recorder` table (one row
/// per device it records).
public struct RecorderStatus: Equatable, Sendable {
    public var pid: Int32
    /// The receiver or gpsd it reads, for people.
    public var source: String
    public var startedMilliseconds: Int64
    public var heartbeatMilliseconds: Int64
    /// The time of the last fix with a position, and when it was seen (both ms since 1970, UTC).
    public var lastFixMilliseconds: Int64?
    public var lastFixSeenMilliseconds: Int64?
    public var paused: Bool
    /// The device's name (filled in when read back).
    public var device: String?

    public init(
        pid: Int32, source: String, startedMilliseconds: Int64, heartbeatMilliseconds: Int64, paused: Bool
    ) {
        self.pid = pid
        self.source = source
        self.startedMilliseconds = startedMilliseconds
        self.heartbeatMilliseconds = heartbeatMilliseconds
        self.paused = paused
    }
}
