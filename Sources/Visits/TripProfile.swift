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

    var trip: Trip {
        let median = percentile(0.5)
        let high = percentile(0.9)
        return Trip(
            start: first.milliseconds, end: last.milliseconds, from: first.coordinate, to: last.coordinate,
            distance: distance,
            mode: TravelMode.fromSpeeds(
                median: median, high: high, movingSeconds: movingSeconds, distance: distance),
            movingSeconds: movingSeconds, medianSpeed: median, highSpeed: high, fixes: fixes)
    }
}
