import GPSCore

/// One point of a track as the statistics see it: a fix and the segment it belongs to.
public struct TrackPoint: Sendable {
    public var fix: Fix
    public var segment: Int64

    public init(fix: Fix, segment: Int64) {
        self.fix = fix
        self.segment = segment
    }

    var milliseconds: Int64 { fix.unixMilliseconds! }
}

/// The thresholds the statistics use; every one is documented in docs/STATISTICS.md.
public struct StatisticsOptions: Sendable {
    /// Smoothed speed at or above which time counts as moving, m/s (1 km/h, gpxpy's threshold).
    public var movingSpeed = 1.0 / 3.6
    /// The shortest interval between two points whose straight-line speed the maximum speed
    /// may not fall below, seconds.
    public var sustainedSeconds = 30.0
    /// Stops shorter than this count as moving time, seconds.
    public var minimumStop = 15.0
    /// Half-width of the centred moving average over speeds, seconds (2: five points at 1 Hz).
    public var speedSmoothing = 2.0
    /// Half-width of the centred moving average over altitudes before climbing, seconds.
    public var altitudeSmoothing = 6.0
    /// Altitude hysteresis for climb and descent, metres (GoldenCheetah's 3 m).
    public var climbHysteresis = 3.0
    /// Split length, metres (1000 for km, 1609.344 for miles).
    public var splitLength = 1000.0
    /// An interval longer than this between consecutive points is a gap, seconds.
    public var gapSeconds = 5.0

    public init() {}
}

/// What a ride (or several) adds up to. Numbers in SI units: metres, seconds, m/s.
public struct RideStatistics: Equatable, Sendable {
    public var points = 0
    public var start: Int64?
    public var end: Int64?
    /// Geodesic distance on WGS-84 along the points; a gap between segments is bridged by the
    /// straight line, as the map draws it.
    public var distance = 0.0
    public var elapsed = 0.0
    public var moving = 0.0
    public var averageMovingSpeed: Double?
    /// The largest speed after a three-point median, so one wild fix does not count.
    public var maxSpeed: Double?
    public var climb = 0.0
    public var descent = 0.0
    public var minAltitude: Double?
    public var maxAltitude: Double?
    public var south: Double?
    public var west: Double?
    public var north: Double?
    public var east: Double?
    public var splits: [Split] = []
    public var quality = Quality()
    /// What the sensors beside the receiver measured (FIT, TCX, GPX extensions): nil when no
    /// point carried the value.
    public var heartRate: SensorRange?
    public var cadence: SensorRange?
    public var power: SensorRange?
    public var temperature: SensorRange?

    public init() {}

    /// The mean, lowest and highest of a sensor's values over the points that carry one.
    public struct SensorRange: Equatable, Sendable {
        public var average: Double
        public var min: Int
        public var max: Int
        /// Points that carried the value.
        public var points: Int

        /// The range of `values`; nil when there are none.
        public init?(_ values: [Int]) {
            guard let lo = values.min(), let hi = values.max() else { return nil }
            average = Double(values.reduce(0, +)) / Double(values.count)
            (min, max, points) = (lo, hi, values.count)
        }
    }

    public struct Split: Equatable, Sendable {
        /// 1-based.
        public var index: Int
        /// Metres in this split (the last one may be shorter: ``isPartial``).
        public var distance: Double
        /// Moving seconds from the split's start to its end (stops left out, as in ``moving``).
        public var time: Double
        /// Seconds from the split's start to its end, stops included.
        public var elapsed: Double
        /// The rest after the last full split length.
        public var isPartial: Bool
        /// Moving speed over the split.
        public var speed: Double { time > 0 ? distance / time : 0 }

        public init(index: Int, distance: Double, time: Double, elapsed: Double, isPartial: Bool = false) {
            self.index = index
            self.distance = distance
            self.time = time
            self.elapsed = elapsed
            self.isPartial = isPartial
        }
    }

    public struct Gap: Equatable, Sendable {
        public var start: Int64
        public var seconds: Double
    }

    public struct Quality: Equatable, Sendable {
        /// Points by fix mode: "2d", "3d".
        public var modes: [String: Int] = [:]
        public var hdopMin: Double?
        public var hdopMedian: Double?
        public var hdopMax: Double?
        public var gaps: [Gap] = []
        public var segments = 0
        /// Dropped fixes by reason (from the store).
        public var drops: [String: Int] = [:]
    }
}

extension RideStatistics {
    /// Statistics of `points` (in time order, each with a time and a position).
    public static func compute(_ points: [TrackPoint], drops: [String: Int] = [:], options: StatisticsOptions = .init())
        -> RideStatistics
    {
        var s = RideStatistics()
        s.quality.drops = drops
        guard let first = points.first, let last = points.last else { return s }
        s.points = points.count
        s.start = first.milliseconds
        s.end = last.milliseconds
        s.elapsed = Double(last.milliseconds - first.milliseconds) / 1000

        // Distance along the points and per-interval distances and times.
        var step = [Double](repeating: 0, count: points.count)
        var cumulative = [Double](repeating: 0, count: points.count)
        for i in 1..<points.count {
            step[i] = Geodesy.ellipsoidalDistance(points[i - 1].fix.coordinate!, points[i].fix.coordinate!)
            cumulative[i] = cumulative[i - 1] + step[i]
        }
        s.distance = cumulative[points.count - 1]

        // Speeds: the receiver's where it reports one, else distance over time; then smoothed.
        var speed = [Double](repeating: 0, count: points.count)
        for i in 0..<points.count {
            if let v = points[i].fix.speed {
                speed[i] = v
            } else if i > 0 {
                let dt = Double(points[i].milliseconds - points[i - 1].milliseconds) / 1000
                speed[i] = dt > 0 ? step[i] / dt : 0
            }
        }
        // Smoothing windows in points, from the typical interval between points.
        let intervals = zip(points.dropFirst(), points).map { Double($0.milliseconds - $1.milliseconds) / 1000 }
            .sorted()
        let typical = intervals.isEmpty ? 1 : max(0.001, intervals[intervals.count / 2])
        func radius(_ seconds: Double) -> Int { Int((seconds / typical).rounded()) }
        let smooth = movingAverage(speed, radius: radius(options.speedSmoothing))
        // The fastest speed after the median (one wild fix cannot set it), and no slower than
        // the straight-line speed over any interval of 30 s or more: that is an average over
        // the interval, so the speed was at least that, whatever speed the points reported (a
        // phone's history a point a minute would otherwise give a maximum below the average).
        let sustained = (1..<max(points.count, 1)).compactMap { i -> Double? in
            let dt = Double(points[i].milliseconds - points[i - 1].milliseconds) / 1000
            return dt >= options.sustainedSeconds ? step[i] / dt : nil
        }
        s.maxSpeed = (speed.indices.map { i in median3(speed, i) } + sustained).max()

        // Moving time: intervals whose smoothed speed is at or above the threshold, plus stops
        // shorter than the minimum stop. Gaps count when the straight line implies moving.
        var stopped = 0.0
        var moving = 0.0
        // Moving seconds up to each point (a short stop counts when the ride goes on), for splits.
        var movingAt = [Double](repeating: 0, count: points.count)
        for i in 1..<points.count {
            let dt = Double(points[i].milliseconds - points[i - 1].milliseconds) / 1000
            let isMoving: Bool
            if dt > options.gapSeconds {
                isMoving = step[i] / dt >= options.movingSpeed
                s.quality.gaps.append(Gap(start: points[i - 1].milliseconds, seconds: dt))
            } else {
                isMoving = smooth[i] >= options.movingSpeed
            }
            if isMoving {
                if stopped > 0 && stopped < options.minimumStop { moving += stopped }
                stopped = 0
                moving += dt
            } else {
                stopped += dt
            }
            movingAt[i] = moving
        }
        if stopped > 0 && stopped < options.minimumStop { moving += stopped }
        s.moving = moving
        s.averageMovingSpeed = moving > 0 ? s.distance / moving : nil

        // Altitude: the points taken while moving (standing still, the altitude only wanders
        // with the receiver's noise), smoothed, then climb and descent with hysteresis.
        let altitudes = points.compactMap(\.fix.altitudeMSL)
        s.minAltitude = altitudes.min()
        s.maxAltitude = altitudes.max()
        let whileMoving = points.indices.compactMap { i in
            smooth[i] >= options.movingSpeed ? points[i].fix.altitudeMSL : nil
        }
        if whileMoving.count >= 2 {
            (s.climb, s.descent) = climbAndDescent(
                movingAverage(whileMoving, radius: radius(options.altitudeSmoothing)),
                hysteresis: options.climbHysteresis)
        }

        // Bounding box.
        let lats = points.map { $0.fix.coordinate!.latitude }
        let lons = points.map { $0.fix.coordinate!.longitude }
        (s.south, s.north, s.west, s.east) = (lats.min(), lats.max(), lons.min(), lons.max())

        // Splits: the time at which each multiple of the split length is passed, interpolated.
        // Each split's time is moving time, interpolated the same way; its elapsed time too.
        var splitStart = Double(first.milliseconds)
        var splitMoving = 0.0
        var splitIndex = 1
        for i in 1..<points.count {
            while cumulative[i] >= Double(splitIndex) * options.splitLength {
                let target = Double(splitIndex) * options.splitLength
                let fraction = step[i] > 0 ? (target - cumulative[i - 1]) / step[i] : 1
                let t0 = Double(points[i - 1].milliseconds)
                let t = t0 + fraction * (Double(points[i].milliseconds) - t0)
                let m = movingAt[i - 1] + fraction * (movingAt[i] - movingAt[i - 1])
                s.splits.append(
                    Split(
                        index: splitIndex, distance: options.splitLength, time: m - splitMoving,
                        elapsed: (t - splitStart) / 1000))
                splitStart = t
                splitMoving = m
                splitIndex += 1
            }
        }
        let rest = s.distance - Double(splitIndex - 1) * options.splitLength
        if rest > 1 {
            s.splits.append(
                Split(
                    index: splitIndex, distance: rest, time: moving - splitMoving,
                    elapsed: (Double(last.milliseconds) - splitStart) / 1000, isPartial: true))
        }

        // Data quality.
        for p in points {
            let key = p.fix.mode == .threeD ? "3d" : p.fix.mode == .twoD ? "2d" : "none"
            s.quality.modes[key, default: 0] += 1
        }
        let hdops = points.compactMap(\.fix.hdop).sorted()
        if !hdops.isEmpty {
            s.quality.hdopMin = hdops.first
            s.quality.hdopMax = hdops.last
            s.quality.hdopMedian = hdops[hdops.count / 2]
        }
        s.quality.segments = Set(points.map(\.segment)).count
        let sensors = points.compactMap(\.fix.sensors)
        s.heartRate = SensorRange(sensors.compactMap(\.heartRate))
        s.cadence = SensorRange(sensors.compactMap(\.cadence))
        s.power = SensorRange(sensors.compactMap(\.power))
        s.temperature = SensorRange(sensors.compactMap(\.temperature))
        return s
    }

    /// Centred moving average over `radius` points on each side (fewer at the ends).
    static func movingAverage(_ values: [Double], radius: Int) -> [Double] {
        guard radius > 0, values.count > 1 else { return values }
        var prefix = [0.0]
        prefix.reserveCapacity(values.count + 1)
        for v in values { prefix.append(prefix.last! + v) }
        return values.indices.map { i in
            let lo = max(0, i - radius)
            let hi = min(values.count - 1, i + radius)
            return (prefix[hi + 1] - prefix[lo]) / Double(hi - lo + 1)
        }
    }

    static func median3(_ v: [Double], _ i: Int) -> Double {
        guard i > 0, i < v.count - 1 else { return min(v[i], v[max(0, i - 1)], v[min(v.count - 1, i + 1)]) }
        return [v[i - 1], v[i], v[i + 1]].sorted()[1]
    }

    /// Climb and descent between confirmed turning points: a rise or fall counts once the
    /// altitude has turned back by `hysteresis` metres, so noise smaller than that never counts
    /// and a real hill counts in full.
    static func climbAndDescent(_ altitudes: [Double], hysteresis h: Double) -> (Double, Double) {
        var climb = 0.0
        var descent = 0.0
        var low = altitudes[0]
        var high = altitudes[0]
        var direction = 0  // 0 undecided, 1 rising, -1 falling
        var anchor = altitudes[0]  // the last confirmed turning point
        var extreme = altitudes[0]  // the furthest point in the current direction
        for a in altitudes.dropFirst() {
            switch direction {
            case 0:
                low = min(low, a)
                high = max(high, a)
                if high - low >= h {
                    direction = a == high ? 1 : -1
                    anchor = a == high ? low : high
                    extreme = a
                }
            case 1:
                if a > extreme {
                    extreme = a
                } else if extreme - a >= h {
                    climb += extreme - anchor
                    anchor = extreme
                    extreme = a
                    direction = -1
                }
            default:
                if a < extreme {
                    extreme = a
                } else if a - extreme >= h {
                    descent += anchor - extreme
                    anchor = extreme
                    extreme = a
                    direction = 1
                }
            }
        }
        if direction == 1 { climb += extreme - anchor }
        if direction == -1 { descent += anchor - extreme }
        return (climb, descent)
    }
}

extension RideStatistics {
    /// The sums (distance, times, climb) and extremes of several rides.
    public static func total(_ list: [RideStatistics]) -> RideStatistics {
        var t = RideStatistics()
        for s in list {
            t.points += s.points
            t.distance += s.distance
            t.elapsed += s.elapsed
            t.moving += s.moving
            t.climb += s.climb
            t.descent += s.descent
            t.start = [t.start, s.start].compactMap { $0 }.min()
            t.end = [t.end, s.end].compactMap { $0 }.max()
            t.maxSpeed = [t.maxSpeed, s.maxSpeed].compactMap { $0 }.max()
            t.minAltitude = [t.minAltitude, s.minAltitude].compactMap { $0 }.min()
            t.maxAltitude = [t.maxAltitude, s.maxAltitude].compactMap { $0 }.max()
            t.south = [t.south, s.south].compactMap { $0 }.min()
            t.west = [t.west, s.west].compactMap { $0 }.min()
            t.north = [t.north, s.north].compactMap { $0 }.max()
            t.east = [t.east, s.east].compactMap { $0 }.max()
            t.quality.modes.merge(s.quality.modes, uniquingKeysWith: +)
            t.quality.drops.merge(s.quality.drops, uniquingKeysWith: +)
            t.quality.gaps += s.quality.gaps
            t.quality.segments += s.quality.segments
            t.quality.hdopMin = [t.quality.hdopMin, s.quality.hdopMin].compactMap { $0 }.min()
            t.quality.hdopMax = [t.quality.hdopMax, s.quality.hdopMax].compactMap { $0 }.max()
        }
        t.averageMovingSpeed = t.moving > 0 ? t.distance / t.moving : nil
        return t
    }
}
