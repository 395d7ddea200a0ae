import GPSCore

/// A trip a source already knew: Google's activity segment (`activitySegment`, Timeline.json's
/// `activity`), with its hours, its ends, the distance Google gave and the activity. Where no
/// point tells the trip (a segment that carries only its start and end), it is a trip all the
/// same, with the mode of its activity.
public struct SaidTrip: Equatable, Sendable {
    /// ms since 1970 UTC.
    public var start: Int64
    public var end: Int64
    public var from: Coordinate
    /// Nil when the source gave only where it began.
    public var to: Coordinate?
    /// Metres, as the source said; nil: the straight line from `from` to `to`.
    public var distance: Double?
    public var activity: MotionActivity?

    public init(
        start: Int64, end: Int64, from: Coordinate, to: Coordinate?, distance: Double? = nil,
        activity: MotionActivity? = nil
    ) {
        self.start = start
        self.end = end
        self.from = from
        self.to = to
        self.distance = distance
        self.activity = activity
    }

    /// The trip's mode: its activity's (``TravelMode/said(_:total:bySpeeds:)``: a vehicle is a
    /// car unless its speed says a train or a plane), else what its straight-line speed says.
    public var mode: TravelMode {
        let seconds = Double(end - start) / 1000
        let metres = metres
        let speed = seconds > 0 ? metres / seconds : 0
        let bySpeeds = TravelMode.fromSpeeds(median: speed, high: speed, movingSeconds: seconds, distance: metres)
        guard let activity, activity != .still else { return bySpeeds }
        return TravelMode.said([activity: seconds], total: seconds, bySpeeds: bySpeeds) ?? bySpeeds
    }

    /// How far apart in time a segment's end and a visit's may be and still meet: 15 minutes.
    public static let neighbourGap: Int64 = 900_000

    /// Its length, metres: the source's, else the straight line between its ends.
    public var metres: Double { distance ?? to.map { Geodesy.haversineDistance(from, $0) } ?? 0 }

    /// Adds each of `said` that the points did not tell as a trip of its own: one that no found
    /// trip and no visit covers for half its time or more (a found trip gets the activity's mode
    /// from ``Trip/hear(_:in:)`` instead; a visit there says the person stayed). `trips` stay in
    /// time order.
    /// A segment that carried one end only (its other end the place it started at: `from` and
    /// `to` the same) takes the missing end from the visit that ends where it begins or begins
    /// where it ends (within ``neighbourGap``), else the one it has.
    public static func merge(_ said: [SaidTrip], visits: [Visit], trips: inout [Trip]) {
        let found = trips
        for var s in said where s.end > s.start {
            if s.to == nil || s.to == s.from {
                let before = visits.last { $0.end <= s.start + neighbourGap && $0.end >= s.start - neighbourGap }
                let after = visits.first { $0.start >= s.end - neighbourGap && $0.start <= s.end + neighbourGap }
                if s.to == nil {
                    s.to = after?.center ?? s.from
                } else if let before, before.center != s.to {
                    s.from = before.center
                } else if let after, after.center != s.from {
                    s.to = after.center
                }
            }
            func covered(_ spans: [(Int64, Int64)]) -> Bool {
                let time = spans.reduce(Int64(0)) { $0 + max(0, min($1.1, s.end) - max($1.0, s.start)) }
                return 2 * time >= s.end - s.start
            }
            guard !covered(found.map { ($0.start, $0.end) }), !covered(visits.map { ($0.start, $0.end) }) else {
                continue
            }
            let seconds = Double(s.end - s.start) / 1000
            let speed = s.metres / seconds
            trips.append(
                Trip(
                    start: s.start, end: s.end, from: s.from, to: s.to ?? s.from, distance: s.metres, mode: s.mode,
                    movingSeconds: seconds, medianSpeed: speed, highSpeed: speed, fixes: 0,
                    modeFrom: s.activity == nil ? .speeds : .phone))
        }
        trips.sort { $0.start < $1.start }
    }
}
