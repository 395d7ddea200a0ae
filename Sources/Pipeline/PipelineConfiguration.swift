import Visits

/// Every threshold of the collection rules, with its unit. The defaults are the `ride` preset.
public struct PipelineConfiguration: Equatable, Sendable {
    // Accuracy gate.
    /// Largest HDOP kept (unitless); nil turns the check off.
    public var maxHDOP: Double? = 5
    /// Fewest satellites used; fixes that do not report a count pass.
    public var minSatellites: Int? = 4
    /// Lowest fix mode kept: 2 (2D) or 3 (3D).
    public var minMode: Int = 2
    /// Largest horizontal error estimate kept, metres (GST or gpsd); nil turns it off.
    public var maxErrorMetres: Double? = nil

    // Jumps.
    /// Implied speed from the last kept fix above which a fix is a jump, m/s.
    public var maxSpeed: Double = 50
    /// Consecutive fixes that must agree with each other, away from the last kept one, before
    /// the pipeline accepts that the receiver really moved there (re-anchors).
    public var reanchorAfter: Int = 3

    // Collection.
    /// Keep at most one fix per this many seconds (0: every fix).
    public var interval: Double = 1
    /// Keep a fix only this many metres or more from the last kept one (0: off).
    public var minDistance: Double = 0
    /// Daily active hours; nil records around the clock.
    public var activeHours: ActiveHours? = nil

    // Segments and rides.
    /// A gap between kept fixes longer than this starts a new segment, seconds.
    public var segmentGap: Double = 30
    /// A gap longer than this starts a new ride, seconds.
    public var rideGap: Double = 600
    /// Staying within ``stopRadius`` this long starts a new ride when moving again, seconds.
    public var rideStop: Double = 600
    /// How far a fix may wander and still count as not moving, metres.
    public var stopRadius: Double = 25

    /// The event detector's thresholds (`[events]`).
    public var events = EventRules()
    /// How alerts are delivered (`[alerts]`).
    public var alerts = AlertSettings()
    /// What counts as a visit, and which visits are one place (`[visits]`).
    public var visits = VisitRules()

    public init() {}

    /// `ride`: every second, strict accuracy.
    public static let ride = PipelineConfiguration()

    /// The rules for a phone's points (posted by its app, or its history imported): split into
    /// segments and rides at the `diary` preset's gaps at least. A phone has a position a minute
    /// or so: split at a receiver's 30 s, each would be a segment of its own (a dot on the map,
    /// not a line, and a million segments in a year).
    public var forPhones: PipelineConfiguration {
        var c = self
        c.segmentGap = Swift.max(segmentGap, Self.diary.segmentGap)
        c.rideGap = Swift.max(rideGap, Self.diary.rideGap)
        return c
    }

    /// For a file whose points were kept by these rules once already and that says where its
    /// rides and segments begin (Trailbook's own export): every point kept (no accuracy gate,
    /// jump, interval, distance or active hours), and no gap, stop or jump cutting its segments
    /// and rides: they stay as it says. The events' and visits' rules stay.
    public var asWritten: PipelineConfiguration {
        var c = self
        (c.maxHDOP, c.minSatellites, c.minMode, c.maxErrorMetres) = (nil, nil, 2, nil)
        (c.maxSpeed, c.interval, c.minDistance, c.activeHours) = (.infinity, 0, 0, nil)
        (c.segmentGap, c.rideGap, c.rideStop) = (.infinity, .infinity, .infinity)
        return c
    }

    /// `diary`: one point a minute, looser accuracy, a few metres apart.
    public static var diary: PipelineConfiguration {
        var c = PipelineConfiguration()
        c.interval = 60
        c.maxHDOP = 10
        c.minSatellites = 3
        c.minDistance = 10
        c.segmentGap = 300
        c.rideGap = 1800
        return c
    }
}
