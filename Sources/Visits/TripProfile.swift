import GPSCore

/// A trip's figures gathered a fix at a time in bounded memory: distance, moving time and a
/// time-weighted histogram of speed (0.25 m/s bins up to 400 m/s), from which the median and
/// the 90th percentile come, and with them the mode.
struct TripProfile: Sendable {
    private(set) var first: VisitPoint
    private(set) var last: VisitPoint
    private(set) var fixes = 1
    private(set) var distance = 0.0
    private(set) var movingSeconds = 0.0
    private var histogram: [Double]
    /// Seconds of each activity the phone said (the time to a fix counts for its activity).
    private(set) var said: [MotionActivity: Double] = [:]

    static let binsPerMetrePerSecond = 4.0
    static let bins = 1601

    init(_ p: VisitPoint) {
        first = p
        last = p
        histogram = []
    }

    mutating func add(_ p: VisitPoint) {
        guard p.milliseconds > last.milliseconds else { return }
        let seconds = Double(p.milliseconds - last.milliseconds) / 1000
        let d = Geodesy.haversineDistance(last.coordinate, p.coordinate)
        // A reported speed describes a short step well; over a long one, the distance says more.
        let speed = seconds <= 10 ? (p.speed ?? d / seconds) : d / seconds
        distance += d
        fixes += 1
        last = p
        if let a = p.activity { said[a, default: 0] += seconds }
        guard speed >= 0.5 else { return }
        movingSeconds += seconds
        if histogram.isEmpty { histogram = Array(repeating: 0, count: Self.bins) }
        histogram[Swift.min(Self.bins - 1, Int(speed * Self.binsPerMetrePerSecond))] += seconds
    }

    /// The speed below which `share` of the moving time was spent, m/s.
    func percentile(_ share: Double) -> Double {
        guard movingSeconds > 0 else { return 0 }
        var sum = 0.0
        for (i, s) in histogram.enumerated() {
            sum += s
            if sum >= share * movingSeconds { return (Double(i) + 0.5) / Self.binsPerMetrePerSecond }
        }
        return Double(Self.bins) / Self.binsPerMetrePerSecond
    }

    /// The trip, its mode from the phone's word when it said enough, else from the speeds.
    var trip: Trip {
        let median = percentile(0.5)
        let high = percentile(0.9)
        let bySpeeds = TravelMode.fromSpeeds(
            median: median, high: high, movingSeconds: movingSeconds, distance: distance)
        let total = Double(last.milliseconds - first.milliseconds) / 1000
        let said = bySpeeds == .still ? nil : TravelMode.said(said, total: total, bySpeeds: bySpeeds)
        var trip = Trip(
            start: first.milliseconds, end: last.milliseconds, from: first.coordinate, to: last.coordinate,
            distance: distance, mode: said ?? bySpeeds, movingSeconds: movingSeconds, medianSpeed: median,
            highSpeed: high, fixes: fixes)
        if said != nil { trip.modeFrom = .phone }
        return trip
    }
}

extension Trip {
    /// What was said over a time: an activity from `start` to `end`, ms (Google's activity
    /// segments).
    public struct Said: Equatable, Sendable {
        public var start: Int64
        public var end: Int64
        public var activity: MotionActivity

        public init(start: Int64, end: Int64, activity: MotionActivity) {
            self.start = start
            self.end = end
            self.activity = activity
        }
    }

    /// Gives each trip whose mode its speeds gave the mode of the activities said over it: the
    /// one covering at least half of it (``TravelMode/said(_:total:bySpeeds:)``).
    public static func hear(_ spans: [Said], in trips: inout [Trip]) {
        guard !spans.isEmpty else { return }
        for i in trips.indices where trips[i].modeFrom == .speeds && trips[i].mode != .still {
            var seconds: [MotionActivity: Double] = [:]
            for s in spans where s.end > trips[i].start && s.start < trips[i].end {
                let overlap = min(s.end, trips[i].end) - max(s.start, trips[i].start)
                seconds[s.activity, default: 0] += Double(overlap) / 1000
            }
            if let mode = TravelMode.said(seconds, total: trips[i].seconds, bySpeeds: trips[i].mode) {
                trips[i].mode = mode
                trips[i].modeFrom = .phone
            }
        }
    }
}
