/// One position report of a receiver: everything known about one epoch.
///
/// Every field is optional because receivers report different subsets; a field is nil
/// when no sentence of the epoch carried it. Units are SI unless the name says otherwise.
public struct Fix: Equatable, Sendable {
    /// UTC date of the epoch, when known (from RMC/ZDA, a rollover, a back-fill or `--date`).
    public var date: CivilDate?
    /// UTC time of day in milliseconds since midnight, 0..<86_401_000 (leap second allowed).
    public var timeOfDay: Int?
    /// No fix, 2D or 3D.
    public var mode: FixMode = .unknown
    /// How the position was obtained (GGA quality indicator), when reported.
    public var quality: FixQuality?
    /// Position, WGS-84; nil when the epoch has no valid position.
    public var coordinate: Coordinate?
    /// Altitude above mean sea level in metres.
    public var altitudeMSL: Double?
    /// Geoid separation in metres: height of the geoid above the WGS-84 ellipsoid.
    public var geoidSeparation: Double?
    /// Speed over ground in metres per second.
    public var speed: Double?
    /// Course over ground in degrees true, 0..<360.
    public var track: Double?
    /// Horizontal dilution of precision (unitless).
    public var hdop: Double?
    /// Vertical dilution of precision (unitless).
    public var vdop: Double?
    /// Position dilution of precision (unitless).
    public var pdop: Double?
    /// Satellites used in the solution.
    public var satellitesUsed: Int?
    /// Satellites in view, summed over constellations.
    public var satellitesInView: Int?
    /// 1-sigma latitude error estimate in metres (GST).
    public var latitudeError: Double?
    /// 1-sigma longitude error estimate in metres (GST).
    public var longitudeError: Double?
    /// 1-sigma altitude error estimate in metres (GST).
    public var altitudeError: Double?
    /// What the sensors beside the receiver measured at this moment (a bike computer's heart
    /// rate, cadence, power and temperature); nil when none did.
    public var sensors: Sensors?

    public init() {}

    /// Altitude above the WGS-84 ellipsoid in metres, when both parts are known.
    public var altitudeHAE: Double? {
        guard let msl = altitudeMSL, let sep = geoidSeparation else { return nil }
        return msl + sep
    }

    /// Estimated horizontal error in metres: the root sum of squares of the latitude and
    /// longitude estimates (a receiver's GST, a phone's accuracy), else the accuracy stored with
    /// the point (``Sensors/accuracy``).
    public var horizontalError: Double? {
        guard let la = latitudeError, let lo = longitudeError else { return sensors?.accuracy.map(Double.init) }
        return (la * la + lo * lo).squareRoot()
    }

    /// Milliseconds since 1970-01-01T00:00:00Z, when date and time are known.
    public var unixMilliseconds: Int64? {
        guard let date, let timeOfDay else { return nil }
        return Int64(date.daysSinceEpoch) * 86_400_000 + Int64(timeOfDay)
    }

    /// Whether the fix carries a usable position (2D or 3D with a coordinate).
    public var hasPosition: Bool { mode >= .twoD && coordinate != nil }
}

/// What a bike computer or a watch measured beside the position: each value nil when its sensor
/// gave none. Stored packed in one integer per point.
public struct Sensors: Equatable, Sendable {
    /// Heart rate, beats per minute (0-254).
    public var heartRate: Int?
    /// Cadence, revolutions (or strides) per minute (0-254).
    public var cadence: Int?
    /// Power, watts (0-65534).
    public var power: Int?
    /// Temperature, whole degrees Celsius (-127-127).
    public var temperature: Int?
    /// What the phone's motion recognition said the person was doing.
    public var activity: MotionActivity?
    /// The horizontal accuracy the source reported, whole metres (0-32766): a phone's `acc` or
    /// `accuracy`, Google's `accuracy`; kept for points without an HDOP, which says as much for a
    /// receiver's.
    public var accuracy: Int?

    public init(
        heartRate: Int? = nil, cadence: Int? = nil, power: Int? = nil, temperature: Int? = nil,
        activity: MotionActivity? = nil, accuracy: Int? = nil
    ) {
        self.heartRate = heartRate
        self.cadence = cadence
        self.power = power
        self.temperature = temperature
        self.activity = activity
        self.accuracy = accuracy
    }

    /// Nil when no value is known, so a fix without sensors stays without.
    public var orNil: Sensors? { self == Sensors() ? nil : self }

    /// The values packed in one integer, as the stores keep them: heart rate in bits 0-7,
    /// cadence 8-15, power 16-31, temperature + 128 in 32-39, and in bits 40-43 which of the four
    /// are known; the activity's number in bits 44-47 (0: none); the accuracy + 1 in bits 48-62
    /// (0: none). Values beyond their range are clamped to it.
    public var packed: Int64 {
        var v: Int64 = 0
        if let a = accuracy { v |= Int64(min(max(a, 0), 32766) + 1) << 48 }
        if let h = heartRate { v |= Int64(min(max(h, 0), 255)) | 1 << 40 }
        if let c = cadence { v |= Int64(min(max(c, 0), 255)) << 8 | 1 << 41 }
        if let p = power { v |= Int64(min(max(p, 0), 65535)) << 16 | 1 << 42 }
        if let t = temperature { v |= Int64(min(max(t, -128), 127) + 128) << 32 | 1 << 43 }
        if let a = activity { v |= Int64(a.rawValue) << 44 }
        return v
    }

    /// The values of ``packed``.
    public init(packed v: Int64) {
        self.init()
        if v & 1 << 40 != 0 { heartRate = Int(v & 0xFF) }
        if v & 1 << 41 != 0 { cadence = Int(v >> 8 & 0xFF) }
        if v & 1 << 42 != 0 { power = Int(v >> 16 & 0xFFFF) }
        if v & 1 << 43 != 0 { temperature = Int(v >> 32 & 0xFF) - 128 }
        activity = MotionActivity(rawValue: Int(v >> 44 & 0xF))
        let a = Int(v >> 48 & 0x7FFF)
        if a > 0 { accuracy = a - 1 }
    }
}

/// What a phone's motion recognition says the person is doing, in the words of the apps that
/// send it: Overland's `motion` (walking, running, cycling, driving, stationary: CoreMotion's
/// activity), Traccar Client's `activity.type` (still, on_foot, walking, running, on_bicycle,
/// in_vehicle), Google's `activityType` (WALKING, IN_PASSENGER_VEHICLE, IN_TRAIN, FLYING, ...).
public enum MotionActivity: Int, Sendable, CaseIterable, CustomStringConvertible {
    case still = 1
    case walking, running, cycling, vehicle, train, plane

    public var description: String {
        switch self {
        case .still: "still"
        case .walking: "walking"
        case .running: "running"
        case .cycling: "cycling"
        case .vehicle: "vehicle"
        case .train: "train"
        case .plane: "plane"
        }
    }

    /// The activity an app's word names (any case); nil for a word that names none (unknown,
    /// tilting).
    public init?(word: String) {
        switch word.lowercased() {
        case "still", "stationary": self = .still
        case "walking", "walk", "on_foot", "hiking": self = .walking
        case "running": self = .running
        case "cycling", "on_bicycle", "in_bicycle", "bicycle": self = .cycling
        case "driving", "drive", "automotive", "in_vehicle", "in_passenger_vehicle", "in_car", "in_bus", "in_taxi",
            "motorcycling", "in_road_vehicle":
            self = .vehicle
        case "in_train", "in_subway", "in_tram", "in_rail_vehicle": self = .train
        case "flying": self = .plane
        default: return nil
        }
    }

    /// The strongest of several words said at once (Overland sends `["driving", "stationary"]`
    /// at a red light): a vehicle over cycling over running over walking over still.
    public static func strongest(_ words: [String]) -> MotionActivity? {
        let said = words.compactMap(MotionActivity.init(word:))
        let order: [MotionActivity] = [.plane, .train, .vehicle, .cycling, .running, .walking, .still]
        return order.first { said.contains($0) }
    }
}
