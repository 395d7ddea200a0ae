import GPSCore

/// The thresholds of visit and trip detection (`[visits]`), with their units. The defaults are
/// those of the stay-point literature (Li et al. 2008, Zheng et al. 2009: about 100-200 m and
/// 5-30 min) at their tight end, so a quick coffee counts.
public struct VisitRules: Equatable, Sendable {
    /// How far a fix may be from the stay's centre and still be there, metres; a fix whose own
    /// accuracy is worse widens it to that accuracy.
    public var radius: Double = 100
    /// The shortest stay that is a visit, seconds.
    public var minDuration: Double = 300
    /// The longest time without a fix bridged when the person reappears where they were,
    /// seconds: a phone that sleeps through the night at home gives one visit.
    public var maxGap: Double = 86_400
    /// Fixes less accurate than this (their horizontal error, metres) are not looked at.
    public var maxAccuracy: Double = 250
    /// Visits whose centres are this close are the same place, metres.
    public var placeRadius: Double = 150

    public init() {}
}

/// How the person travelled between two visits.
public enum TravelMode: String, Sendable, CaseIterable, Codable {
    case still, walking, running, cycling, car, train, plane

    /// The mode a speed profile suggests: the typical (median) and the high (90th percentile)
    /// moving speed, m/s, time-weighted. Thresholds: walking below 2 m/s typical; running 2-4 m/s
    /// steady (the high speed below 5); cycling below 8 typical and 12 high; a car up to 42 high
    /// (150 km/h); a train up to 100 high (360 km/h); faster is a plane.
    public static func fromSpeeds(median: Double, high: Double, movingSeconds: Double, distance: Double) -> TravelMode {
        if movingSeconds < 60 || distance < 200 { return .still }
        if median < 2, high < 3 { return .walking }
        if median < 2 { return high < 5 ? .walking : high < 12 ? .cycling : .car }
        if median < 4, high < 5 { return .running }
        if median < 8, high < 12 { return .cycling }
        if high < 42 { return .car }
        if high < 100 { return .train }
        return .plane
    }

    /// The mode the phone said (its activity over the trip, time-weighted, `seconds` of each
    /// against the trip's `total`): the activity other than still that covers at least half the
    /// trip; a vehicle is a car unless the speeds say a train or a plane. Nil when the phone said
    /// too little.
    public static func said(_ seconds: [MotionActivity: Double], total: Double, bySpeeds: TravelMode) -> TravelMode? {
        let moving = seconds.filter { $0.key != .still && $0.value > 0 }
        guard let (top, covered) = moving.max(by: { ($0.value, $0.key.rawValue) < ($1.value, $1.key.rawValue) }),
            total > 0, covered >= 0.5 * total
        else { return nil }
        switch top {
        case .walking: return .walking
        case .running: return .running
        case .cycling: return .cycling
        case .vehicle: return [.car, .train, .plane].contains(bySpeeds) ? bySpeeds : .car
        case .train: return .train
        case .plane: return .plane
        case .still: return nil
        }
    }
}

/// Where a trip's mode comes from.
public enum ModeSource: String, Sendable {
    /// The speed profile (``TravelMode/fromSpeeds(median:high:movingSeconds:distance:)``).
    case speeds
    /// The phone's activity recognition, or Google's activity of the time.
    case phone
    /// The user's correction.
    case you
}

/// One fix as the detector sees it.
public struct VisitPoint: Equatable, Sendable {
    /// ms since 1970 UTC.
    public var milliseconds: Int64
    public var coordinate: Coordinate
    /// Horizontal error, metres, when the fix said.
    public var accuracy: Double?
    /// Speed over ground the fix reported, m/s.
    public var speed: Double?
    /// What the phone said the person was doing.
    public var activity: MotionActivity?

    public init(
        milliseconds: Int64, coordinate: Coordinate, accuracy: Double? = nil, speed: Double? = nil,
        activity: MotionActivity? = nil
    ) {
        self.milliseconds = milliseconds
        self.coordinate = coordinate
        self.accuracy = accuracy
        self.speed = speed
        self.activity = activity
    }

    /// A stored fix with a time and a position; nil otherwise.
    public init?(_ fix: Fix) {
        guard let ms = fix.unixMilliseconds, let c = fix.coordinate else { return nil }
        self.init(
            milliseconds: ms, coordinate: c, accuracy: fix.horizontalError, speed: fix.speed,
            activity: fix.sensors?.activity)
    }
}

/// A stay: where the person was from `start` to `end` (the first and last fix there).
public struct Visit: Equatable, Sendable {
    public var start: Int64
    public var end: Int64
    /// The mean of the fixes there.
    public var center: Coordinate
    /// Root mean square distance of those fixes from the centre, metres.
    public var spread: Double
    public var fixes: Int
    /// The last stay of the data: the person may still be there.
    public var ongoing = false
    /// The place it belongs to (``PlaceClusters``); nil until assigned.
    public var place: Int?
    /// The user said which place it was (``Remembered``).
    public var placeCorrected = false
    /// Its row's id in the account's kept timeline; nil when it was worked out on reading.
    public var id: Int64?

    public init(
        start: Int64, end: Int64, center: Coordinate, spread: Double, fixes: Int, ongoing: Bool = false,
        place: Int? = nil, placeCorrected: Bool = false
    ) {
        (self.start, self.end, self.center, self.spread, self.fixes, self.ongoing) =
            (start, end, center, spread, fixes, ongoing)
        (self.place, self.placeCorrected) = (place, placeCorrected)
    }

    public var seconds: Double { Double(end - start) / 1000 }
}

/// The way from one visit to the next: from the last fix of the one to the first of the other.
public struct Trip: Equatable, Sendable {
    public var start: Int64
    public var end: Int64
    public var from: Coordinate
    public var to: Coordinate
    /// Along the fixes, metres.
    public var distance: Double
    public var mode: TravelMode
    /// Time spent faster than 0.5 m/s, seconds.
    public var movingSeconds: Double
    /// Typical (median) and high (90th percentile) moving speed, m/s, time-weighted.
    public var medianSpeed: Double
    public var highSpeed: Double
    public var fixes: Int
    /// Where the mode comes from: the speeds, the phone, or the user (``Remembered``).
    public var modeFrom = ModeSource.speeds
    /// Its row's id in the account's kept timeline; nil when it was worked out on reading.
    public var id: Int64?
    /// The user gave the mode.
    public var modeCorrected: Bool { modeFrom == .you }

    public init(
        start: Int64, end: Int64, from: Coordinate, to: Coordinate, distance: Double, mode: TravelMode,
        movingSeconds: Double, medianSpeed: Double, highSpeed: Double, fixes: Int, modeFrom: ModeSource = .speeds
    ) {
        (self.start, self.end, self.from, self.to, self.distance, self.mode) = (start, end, from, to, distance, mode)
        (self.movingSeconds, self.medianSpeed, self.highSpeed, self.fixes, self.modeFrom) =
            (movingSeconds, medianSpeed, highSpeed, fixes, modeFrom)
    }

    public var seconds: Double { Double(end - start) / 1000 }
}

/// What the detector finds, in time order.
public enum Movement: Equatable, Sendable {
    case visit(Visit)
    case trip(Trip)

    public var start: Int64 {
        switch self {
        case .visit(let v): v.start
        case .trip(let t): t.start
        }
    }
}
