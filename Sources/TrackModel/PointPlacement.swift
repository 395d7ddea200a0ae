/// Where a point of any time goes among a device's stored segments and rides: the rule the
/// phones' points follow, whatever order they arrive in (a backlog sent after newer points, a
/// batch sent twice).
///
/// A segment is a run of the device's points whose neighbours in time lie at most
/// ``segmentGap`` apart; a ride, a run whose neighbours lie at most ``rideGap`` apart. A point
/// joins the stored segment that covers its time, or the segment before and after it when the
/// gap to them is short enough, bridging the two into one when it is close to both; rides do the
/// same with the longer gap. Adding a point only ever joins runs (it never makes a gap longer),
/// so the segments and rides that come out are those of the whole set of points, in whatever
/// order they came. Pure: a store fetches the neighbours (``Span``s) and carries out the ``Plan``
/// in its own SQL.
public struct PointPlacement: Equatable, Sendable {
    /// Neighbours farther apart than this are in different segments, ms.
    public var segmentGap: Int64
    /// Neighbours farther apart than this are in different rides (at least ``segmentGap``), ms.
    public var rideGap: Int64

    /// Gaps in seconds, as the collection rules give them (`segments.gap`, `segments.ride_gap`).
    public init(segmentGapSeconds: Double, rideGapSeconds: Double) {
        segmentGap = Int64((segmentGapSeconds * 1000).rounded())
        rideGap = Swift.max(segmentGap, Int64((rideGapSeconds * 1000).rounded()))
    }

    /// A stored segment and the ride it belongs to, with its time range (ms, inclusive).
    public struct Span: Equatable, Sendable {
        public var segment: Int64
        public var ride: Int64
        public var start: Int64
        public var end: Int64

        public init(segment: Int64, ride: Int64, start: Int64, end: Int64) {
            self.segment = segment
            self.ride = ride
            self.start = start
            self.end = end
        }
    }

    /// What to do with one point.
    public struct Plan: Equatable, Sendable {
        /// The segment the point joins; nil: a new segment (of ``ride``).
        public var segment: Int64?
        /// A segment that becomes part of ``segment`` (the one after the point, bridged to the one before).
        public var absorbedSegment: Int64?
        /// The ride the point's segment belongs to; nil: a new ride.
        public var ride: Int64?
        /// A ride that becomes part of ``ride`` (its segments move there).
        public var absorbedRide: Int64?

        public init(
            segment: Int64? = nil, absorbedSegment: Int64? = nil, ride: Int64? = nil, absorbedRide: Int64? = nil
        ) {
            self.segment = segment
            self.absorbedSegment = absorbedSegment
            self.ride = ride
            self.absorbedRide = absorbedRide
        }
    }

    /// The plan for a point at `t` (ms), given the stored segment that starts at or before `t`
    /// (the latest such) and the one that starts after it (the earliest such), of its device.
    public func plan(at t: Int64, before: Span?, after: Span?) -> Plan {
        if let before, before.end >= t { return Plan(segment: before.segment, ride: before.ride) }
        let gapBefore = before.map { t - $0.end }
        let gapAfter = after.map { $0.start - t }
        func within(_ gap: Int64?, _ limit: Int64) -> Bool { gap.map { $0 <= limit } ?? false }
        let segmentBefore = within(gapBefore, segmentGap) ? before : nil
        let segmentAfter = within(gapAfter, segmentGap) ? after : nil
        let rideBefore = within(gapBefore, rideGap) ? before : nil
        let rideAfter = within(gapAfter, rideGap) ? after : nil
        var plan = Plan()
        // The earlier run keeps its id and takes the later one.
        plan.ride = rideBefore?.ride ?? rideAfter?.ride
        if let rideBefore, let rideAfter, rideBefore.ride != rideAfter.ride { plan.absorbedRide = rideAfter.ride }
        plan.segment = segmentBefore?.segment ?? segmentAfter?.segment
        if let segmentBefore, let segmentAfter { plan.absorbedSegment = segmentAfter.segment }
        return plan
    }
}

/// What a batch of placed points adds up to, as both stores count it: the points per segment and
/// per ride (a segment or ride absorbed by a later point's plan hands its count to the one that
/// takes it), and the ride the batch's drops go to, that of its newest point.
public struct PlacementTally: Equatable, Sendable {
    /// Points to add per segment and per ride, once the batch is placed.
    public private(set) var segments: [Int64: Int] = [:]
    public private(set) var rides: [Int64: Int] = [:]
    private var newest: (t: Int64, ride: Int64)?

    public init() {}

    /// Counts a point at `t` placed in `segment` of `ride` by `plan` (whose absorbed rows are gone).
    public mutating func placed(at t: Int64, segment: Int64, ride: Int64, plan: PointPlacement.Plan) {
        if let absorbed = plan.absorbedRide {
            rides[ride, default: 0] += rides.removeValue(forKey: absorbed) ?? 0
            if newest?.ride == absorbed { newest?.ride = ride }
        }
        if let absorbed = plan.absorbedSegment {
            segments[segment, default: 0] += segments.removeValue(forKey: absorbed) ?? 0
        }
        segments[segment, default: 0] += 1
        rides[ride, default: 0] += 1
        if t >= (newest?.t ?? .min) { newest = (t, ride) }
    }

    /// The ride of the newest point placed; nil when none was (the drops then go to the device's
    /// latest ride, which the store looks up).
    public var dropRide: Int64? { newest?.ride }

    public static func == (a: PlacementTally, b: PlacementTally) -> Bool {
        a.segments == b.segments && a.rides == b.rides && a.newest?.t == b.newest?.t && a.newest?.ride == b.newest?.ride
    }
}
