import GPSCore

/// Cuts the kept fixes into rides and segments.
///
/// Gaps and stops are judged on every usable fix (past the validity, active-hours, accuracy
/// and jump checks), not only on kept ones, so thinning by interval or distance never looks
/// like a gap. A new segment starts after a gap longer than
/// ``PipelineConfiguration/segmentGap``, after a disconnect of the source, at a re-anchor after
/// a confirmed jump, and when a fix falls in another occurrence of the active-hours windows.
/// A new ride starts after a gap longer than ``PipelineConfiguration/rideGap``, or when the
/// receiver moves off after staying within ``PipelineConfiguration/stopRadius`` (or twice the
/// fix's horizontal error, when larger) for
/// ``PipelineConfiguration/rideStop`` or longer. Rides and segments are numbered through the
/// whole run, from 1.
struct Segmenter {
    let configuration: PipelineConfiguration
    private(set) var ride = 0
    private(set) var segment = 0
    private var lastUsable: Int64?
    private var lastOccurrence: ActiveHours.Occurrence?
    private var segmentBreak = false
    private var rideBreak = false
    /// Where the receiver stands still: the mean of the fixes since it last moved, so fixes
    /// wandering around it on every side are not taken for moving.
    private var still: StillMean?
    private var stillSince: Int64 = 0

    init(configuration: PipelineConfiguration) { self.configuration = configuration }

    /// The next kept fix starts a new segment (the source disconnected, or a jump was confirmed).
    mutating func breakSegment() { segmentBreak = true }

    /// Notes a usable fix (kept or thinned out): gaps and stops are measured here.
    mutating func observe(_ fix: Fix) {
        let t = fix.unixMilliseconds!
        let here = fix.coordinate!
        if let last = lastUsable {
            let gap = Double(t - last) / 1000
            if gap > configuration.segmentGap { segmentBreak = true }
            if gap > configuration.rideGap { rideBreak = true }
        }
        // Jitter within the fix's own accuracy is not movement: the radius grows to twice it.
        let radius = Swift.max(configuration.stopRadius, 2 * (fix.horizontalError ?? 0))
        let moved = still.map { Geodesy.haversineDistance($0.mean, here) > radius } ?? true
        if rideBreak || moved {
            if !rideBreak, still != nil, let last = lastUsable,
                Double(last - stillSince) / 1000 >= configuration.rideStop
            {
                rideBreak = true
            }
            still = StillMean(here)
            stillSince = t
        } else {
            still!.add(here)
        }
        lastUsable = t
    }

    /// Ride and segment of a kept fix (observed first).
    mutating func assign(_ fix: Fix, occurrence: ActiveHours.Occurrence?) -> (ride: Int, segment: Int) {
        if ride == 0 || rideBreak {
            ride += 1
            segment += 1
        } else if segmentBreak || occurrence != lastOccurrence {
            segment += 1
        }
        rideBreak = false
        segmentBreak = false
        lastOccurrence = occurrence
        return (ride, segment)
    }
}

/// The mean of fixes near each other: their offsets from the first, in degrees, the longitude's
/// taken the short way round (a stop on the antimeridian is not half the world away).
struct StillMean {
    let origin: Coordinate
    private var sum = (latitude: 0.0, longitude: 0.0)
    private var count = 1.0

    init(_ first: Coordinate) { origin = first }

    mutating func add(_ c: Coordinate) {
        var dLon = c.longitude - origin.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        sum.latitude += c.latitude - origin.latitude
        sum.longitude += dLon
        count += 1
    }

    var mean: Coordinate {
        var lon = origin.longitude + sum.longitude / count
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return Coordinate(latitude: origin.latitude + sum.latitude / count, longitude: lon)
    }
}
