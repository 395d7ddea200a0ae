import GPSCore

/// Cuts the kept fixes into rides and segments.
///
/// A new segment starts after a gap longer than ``PipelineConfiguration/segmentGap``, after a
/// disconnect of the source, at a re-anchor after a confirmed jump, and when a fix falls in
/// another occurrence of the active-hours windows. A new ride starts after a gap longer than
/// ``PipelineConfiguration/rideGap``, or when the receiver moves off after staying within
/// ``PipelineConfiguration/stopRadius`` for ``PipelineConfiguration/rideStop`` or longer.
/// Segments are numbered through the whole run, rides too, both from 1.
struct Segmenter {
    let configuration: PipelineConfiguration
    private(set) var ride = 0
    private(set) var segment = 0
    private var lastTime: Int64?
    private var lastOccurrence: ActiveHours.Occurrence?
    private var breakRequested = false
    private var stillAnchor: Coordinate?
    private var stillSince: Int64 = 0

    init(configuration: PipelineConfiguration) { self.configuration = configuration }

    /// The next kept fix starts a new segment (the source disconnected, or a jump was confirmed).
    mutating func breakSegment() { breakRequested = true }

    /// Ride and segment of a kept fix (dated, with a position).
    mutating func assign(_ fix: Fix, occurrence: ActiveHours.Occurrence?) -> (ride: Int, segment: Int) {
        let t = fix.unixMilliseconds!
        let here = fix.coordinate!
        let gap = lastTime.map { Double(t - $0) / 1000 }
        var newRide = gap.map { $0 > configuration.rideGap } ?? true
        // A stop: staying within stopRadius of where it began. Moving off after a long one
        // starts a new ride; a ride started by a gap starts a new stop watch too.
        if newRide || stillAnchor.map({ Geodesy.haversineDistance($0, here) > configuration.stopRadius }) ?? true {
            if !newRide, let last = lastTime, Double(last - stillSince) / 1000 >= configuration.rideStop {
                newRide = true
            }
            stillAnchor = here
            stillSince = t
        }
        if lastTime == nil {
            ride = 1
            segment = 1
        } else {
            let newSegment =
                newRide || gap! > configuration.segmentGap || breakRequested || occurrence != lastOccurrence
            if newRide { ride += 1 }
            if newSegment { segment += 1 }
        }
        breakRequested = false
        lastTime = t
        lastOccurrence = occurrence
        return (ride, segment)
    }
}
