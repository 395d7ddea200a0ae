import Foundation

/// Where the Sun is in its day: `day` while its upper limb is above the horizon (refraction
/// included: centre above −0.833°), `dawn` and `dusk` in civil twilight (centre between −6°
/// and −0.833°, before and after the Sun's upper transit), `night` below −6°.
public enum DayPhase: String, Sendable, Codable, CaseIterable {
    case night, dawn, day, dusk
}

/// The eight traditional names of the Moon's phase, each 45° of elongation wide, centred on
/// new (0°), first quarter (90°), full (180°) and last quarter (270°).
public enum MoonPhaseName: String, Sendable, Codable, CaseIterable {
    case newMoon = "new moon"
    case waxingCrescent = "waxing crescent"
    case firstQuarter = "first quarter"
    case waxingGibbous = "waxing gibbous"
    case fullMoon = "full moon"
    case waningGibbous = "waning gibbous"
    case lastQuarter = "last quarter"
    case waningCrescent = "waning crescent"

    public init(phaseAngle: Double) {
        let index = Int(Angle.wrap360(phaseAngle + 22.5) / 45) % 8
        self = MoonPhaseName.allCases[index]
    }
}

/// The Sun for one moment and its local day.
public struct SunConditions: Sendable, Equatable {
    /// Apparent elevation of the centre (refraction included), degrees.
    public let elevation: Double
    /// Azimuth from north through east, degrees.
    public let azimuth: Double
    public let rise: Date?
    public let set: Date?
    public let civilDawn: Date?
    public let civilDusk: Date?
    public let nauticalDawn: Date?
    public let nauticalDusk: Date?
    /// The upper transit (solar noon).
    public let noon: Date?
    public let phase: DayPhase
    /// When the Sun neither rises nor sets that day: `true` above the horizon all day
    /// (midnight sun), `false` below it (polar night); `nil` on ordinary days.
    public let upAllDay: Bool?
}

/// The Moon for one moment and its local day.
public struct MoonConditions: Sendable, Equatable {
    /// Apparent topocentric elevation of the centre, degrees.
    public let elevation: Double
    public let azimuth: Double
    /// Illuminated fraction of the disc, 0–1.
    public let illumination: Double
    /// Elongation in ecliptic longitude from the Sun, degrees: 0 new, 90 first quarter, 180 full,
    /// 270 last quarter.
    public let phaseAngle: Double
    public let phaseName: MoonPhaseName
    /// Days since the last new moon.
    public let age: Double
    /// Distance between the centres of Earth and Moon, km.
    public let distance: Double
    public let rise: Date?
    public let set: Date?
    /// The Moon on the observer's meridian, overhead and underfoot.
    public let upperTransit: Date?
    public let lowerTransit: Date?
}

/// A solunar period by the traditional rule (J. A. Knight, 1926): major periods two hours long
/// centred on the Moon's upper and lower transits, minor periods one hour long centred on
/// moonrise and moonset. A folk rule, computed exactly; it is not a measurement of anything.
public struct SolunarPeriod: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable { case major, minor }
    public enum Cause: String, Sendable, Codable {
        case moonOverhead = "moon overhead"
        case moonUnderfoot = "moon underfoot"
        case moonrise, moonset
    }
    public let kind: Kind
    public let cause: Cause
    public let start: Date
    public let end: Date
}

/// Sun, Moon and solunar periods at one moment and place, computed offline.
public struct SkyConditions: Sendable, Equatable {
    public let at: Date
    public let latitude: Double
    public let longitude: Double
    /// The local day whose rise, set and periods are listed.
    public let day: DateInterval
    public let sun: SunConditions
    public let moon: MoonConditions
    /// The day's periods in time order.
    public let solunar: [SolunarPeriod]

    /// The period `at` falls in, major before minor (also one centred on the day before or
    /// after); `nil` outside both.
    public let solunarNow: SolunarPeriod.Kind?
}

/// The Sun or the Moon.
public enum Body: String, Sendable, Codable { case sun, moon }

/// A rise or a set.
public struct HorizonEvent: Sendable, Equatable {
    public let time: Date
    public let rising: Bool
}

public enum Sky {
    /// Geometric altitude of the Sun's centre at rise and set: 34′ of refraction and a 16′
    /// semidiameter (USNO's and NOAA's convention).
    static let sunriseAltitude = -0.833

    /// The conditions at `date` for the place, with the events of `day` (the local day holding
    /// `date`; pass any interval, e.g. a UTC day).
    public static func conditions(at date: Date, latitude: Double, longitude: Double, day: DateInterval)
        -> SkyConditions
    {
        let sun = sunConditions(at: date, latitude: latitude, longitude: longitude, day: day)
        let moon = moonConditions(at: date, latitude: latitude, longitude: longitude, day: day)
        return SkyConditions(
            at: date, latitude: latitude, longitude: longitude, day: day, sun: sun, moon: moon,
            solunar: solunarPeriods(moon), solunarNow: solunarKind(at: date, latitude: latitude, longitude: longitude))
    }

    /// Every rise and set of `body` in `interval`, in time order (the Sun's upper limb at the
    /// horizon with standard refraction, the Moon's likewise with its parallax).
    public static func horizonEvents(of body: Body, latitude: Double, longitude: Double, in interval: DateInterval)
        -> [HorizonEvent]
    {
        let start = interval.start.timeIntervalSince1970
        let end = interval.end.timeIntervalSince1970
        let crossings: [Crossing]
        switch body {
        case .sun:
            crossings =
                CrossingSearch.find(from: start, to: end, levels: [sunriseAltitude]) {
                    sunPosition($0, latitude: latitude, longitude: longitude).altitude
                }[0]
        case .moon:
            crossings =
                CrossingSearch.find(from: start, to: end, levels: [0]) {
                    moonAboveHorizon($0, latitude: latitude, longitude: longitude)
                }[0]
        }
        return crossings.map { HorizonEvent(time: Date(timeIntervalSince1970: $0.time), rising: $0.upward) }
    }

    // MARK: - Sun

    static func sunPosition(_ seconds: Double, latitude: Double, longitude: Double) -> Horizontal {
        let time = AstroTime(Date(timeIntervalSince1970: seconds))
        let sun = Sun(time)
        return Horizontal(sun.equatorial, latitude: latitude, longitude: longitude, siderealTime: siderealTime(time))
    }

    static func dayPhase(_ sun: Horizontal) -> DayPhase {
        if sun.altitude >= sunriseAltitude { return .day }
        if sun.altitude < -6 { return .night }
        return sun.hourAngle < 0 ? .dawn : .dusk
    }

    /// The day phase at `date` alone (one solar position, no search for the day's events).
    public static func dayPhase(at date: Date, latitude: Double, longitude: Double) -> DayPhase {
        dayPhase(sunPosition(date.timeIntervalSince1970, latitude: latitude, longitude: longitude))
    }

    public static func sunConditions(at date: Date, latitude: Double, longitude: Double, day: DateInterval)
        -> SunConditions
    {
        let now = sunPosition(date.timeIntervalSince1970, latitude: latitude, longitude: longitude)
        let start = day.start.timeIntervalSince1970
        let end = day.end.timeIntervalSince1970
        let levels = CrossingSearch.find(from: start, to: end, levels: [sunriseAltitude, -6, -12]) {
            sunPosition($0, latitude: latitude, longitude: longitude).altitude
        }
        let transits = CrossingSearch.find(from: start, to: end, levels: [0]) {
            Angle.sin(sunPosition($0, latitude: latitude, longitude: longitude).hourAngle)
        }[0]
        func first(_ crossings: [Crossing], upward: Bool) -> Date? {
            crossings.first { $0.upward == upward }.map { Date(timeIntervalSince1970: $0.time) }
        }
        let phase = dayPhase(now)
        var upAllDay: Bool?
        if levels[0].isEmpty {
            let middle = sunPosition((start + end) / 2, latitude: latitude, longitude: longitude)
            upAllDay = middle.altitude >= sunriseAltitude
        }
        return SunConditions(
            elevation: now.altitude + refraction(elevation: now.altitude), azimuth: now.azimuth,
            rise: first(levels[0], upward: true), set: first(levels[0], upward: false),
            civilDawn: first(levels[1], upward: true), civilDusk: first(levels[1], upward: false),
            nauticalDawn: first(levels[2], upward: true), nauticalDusk: first(levels[2], upward: false),
            noon: first(transits, upward: true), phase: phase, upAllDay: upAllDay)
    }

    // MARK: - Moon

    struct MoonPlace {
        let moon: Moon
        let horizontal: Horizontal
    }

    static func moonPosition(_ seconds: Double, latitude: Double, longitude: Double) -> MoonPlace {
        let time = AstroTime(Date(timeIntervalSince1970: seconds))
        let moon = Moon(time)
        return MoonPlace(
            moon: moon,
            horizontal: Horizontal(
                moon.equatorial, latitude: latitude, longitude: longitude, siderealTime: siderealTime(time)))
    }

    public static func moonConditions(at date: Date, latitude: Double, longitude: Double, day: DateInterval)
        -> MoonConditions
    {
        let seconds = date.timeIntervalSince1970
        let now = moonPosition(seconds, latitude: latitude, longitude: longitude)
        let sun = Sun(AstroTime(date))
        // Geocentric to topocentric altitude: the parallax lowers the Moon by up to a degree.
        let geocentric = now.horizontal.altitude
        let topocentric = geocentric - Angle.asin(Angle.sin(now.moon.parallax) * Angle.cos(geocentric))

        // Phase angle i of the illuminated disc (Meeus 48.2, 48.3).
        let elongation = Foundation.acos(
            max(-1, min(1, Angle.cos(now.moon.latitude) * Angle.cos(now.moon.longitude - sun.longitude))))
        let sunKm = sun.distance * Sun.kilometresPerAU
        let phase = Foundation.atan2(
            sunKm * Foundation.sin(elongation), now.moon.distance - sunKm * Foundation.cos(elongation))
        let illumination = (1 + Foundation.cos(phase)) / 2
        let phaseAngle = Angle.wrap360(now.moon.longitude - sun.longitude)

        let start = day.start.timeIntervalSince1970
        let end = day.end.timeIntervalSince1970
        let horizon = CrossingSearch.find(from: start, to: end, levels: [0]) {
            moonAboveHorizon($0, latitude: latitude, longitude: longitude)
        }[0]
        let transits = CrossingSearch.find(from: start, to: end, levels: [0]) {
            Angle.sin(moonPosition($0, latitude: latitude, longitude: longitude).horizontal.hourAngle)
        }[0]
        func first(_ crossings: [Crossing], upward: Bool) -> Date? {
            crossings.first { $0.upward == upward }.map { Date(timeIntervalSince1970: $0.time) }
        }
        return MoonConditions(
            elevation: topocentric + refraction(elevation: topocentric), azimuth: now.horizontal.azimuth,
            illumination: illumination, phaseAngle: phaseAngle, phaseName: MoonPhaseName(phaseAngle: phaseAngle),
            age: moonAge(seconds: seconds, phaseAngle: phaseAngle), distance: now.moon.distance,
            rise: first(horizon, upward: true), set: first(horizon, upward: false),
            upperTransit: first(transits, upward: true), lowerTransit: first(transits, upward: false))
    }

    /// Degrees the Moon's upper limb is above the horizon, refraction (34′) and parallax
    /// included, from the geocentric altitude (Meeus 15.1: h0 = 0.7275 π − 0°34′).
    static func moonAboveHorizon(_ seconds: Double, latitude: Double, longitude: Double) -> Double {
        let place = moonPosition(seconds, latitude: latitude, longitude: longitude)
        return place.horizontal.altitude - (0.7275 * place.moon.parallax - 34.0 / 60)
    }

    /// Days since the last new moon (elongation 0), by Newton's steps on the elongation.
    static func moonAge(seconds: Double, phaseAngle: Double) -> Double {
        let synodicRate = 360 / 29.530_589  // degrees a day, on average
        var new = seconds - phaseAngle / synodicRate * 86_400
        for _ in 0..<4 {
            let time = AstroTime(Date(timeIntervalSince1970: new))
            let offset = Angle.wrap180(Moon(time).longitude - Sun(time).longitude)
            new -= offset / synodicRate * 86_400
        }
        return (seconds - new) / 86_400
    }

    /// The solunar period `date` falls in, whatever day its centre is on: major when the Moon
    /// transits within an hour of it, else minor when it rises or sets within half an hour.
    public static func solunarKind(at date: Date, latitude: Double, longitude: Double) -> SolunarPeriod.Kind? {
        let instant = DateInterval(start: date, duration: 0)
        return solunarKind(at: date, in: solunarPeriods(latitude: latitude, longitude: longitude, overlapping: instant))
    }

    /// The Moon's phase name at `date` (the same everywhere on Earth).
    public static func moonPhaseName(at date: Date) -> MoonPhaseName {
        let time = AstroTime(date)
        return MoonPhaseName(phaseAngle: Angle.wrap360(Moon(time).longitude - Sun(time).longitude))
    }

    /// Every solunar period that overlaps `interval` (their centres are searched an hour beyond
    /// it), in time order: one search for a whole outing or week instead of one per moment.
    public static func solunarPeriods(latitude: Double, longitude: Double, overlapping interval: DateInterval)
        -> [SolunarPeriod]
    {
        let start = interval.start.timeIntervalSince1970 - 3600
        let end = interval.end.timeIntervalSince1970 + 3600
        let transits = CrossingSearch.find(from: start, to: end, levels: [0]) {
            Angle.sin(moonPosition($0, latitude: latitude, longitude: longitude).horizontal.hourAngle)
        }[0]
        let horizon = CrossingSearch.find(from: start, to: end, levels: [0]) {
            moonAboveHorizon($0, latitude: latitude, longitude: longitude)
        }[0]
        func period(_ crossing: Crossing, _ kind: SolunarPeriod.Kind, _ cause: SolunarPeriod.Cause) -> SolunarPeriod {
            let half: TimeInterval = kind == .major ? 3600 : 1800
            return SolunarPeriod(
                kind: kind, cause: cause, start: Date(timeIntervalSince1970: crossing.time - half),
                end: Date(timeIntervalSince1970: crossing.time + half))
        }
        let periods =
            transits.map { period($0, .major, $0.upward ? .moonOverhead : .moonUnderfoot) }
            + horizon.map { period($0, .minor, $0.upward ? .moonrise : .moonset) }
        return periods.filter { $0.end > interval.start && $0.start < interval.end }.sorted { $0.start < $1.start }
    }

    /// The kind of period `date` falls in among `periods`: major before minor, nil for none.
    public static func solunarKind(at date: Date, in periods: [SolunarPeriod]) -> SolunarPeriod.Kind? {
        let holding = periods.filter { $0.start <= date && date <= $0.end }
        if holding.contains(where: { $0.kind == .major }) { return .major }
        return holding.isEmpty ? nil : .minor
    }

    static func solunarPeriods(_ moon: MoonConditions) -> [SolunarPeriod] {
        var periods: [SolunarPeriod] = []
        func add(_ kind: SolunarPeriod.Kind, _ cause: SolunarPeriod.Cause, _ centre: Date?) {
            guard let centre else { return }
            let half: TimeInterval = kind == .major ? 3600 : 1800
            periods.append(
                SolunarPeriod(
                    kind: kind, cause: cause, start: centre.addingTimeInterval(-half),
                    end: centre.addingTimeInterval(half)))
        }
        add(.major, .moonOverhead, moon.upperTransit)
        add(.major, .moonUnderfoot, moon.lowerTransit)
        add(.minor, .moonrise, moon.rise)
        add(.minor, .moonset, moon.set)
        return periods.sorted { $0.start < $1.start }
    }

    /// The elevation without refraction for an apparent one (a few fixed-point steps).
    public static func geometricElevation(apparent: Double) -> Double {
        var elevation = apparent
        for _ in 0..<6 { elevation = apparent - refraction(elevation: elevation) }
        return elevation
    }

    /// Apparent sidereal time: the mean one plus the equation of the equinoxes.
    static func siderealTime(_ time: AstroTime) -> Double {
        let nutation = Nutation(centuries: time.centuriesTT)
        return time.meanSiderealTime + nutation.longitude * Angle.cos(nutation.obliquity)
    }
}
