import Conditions
import Foundation
import GPSCore
import Tides

/// `trailbook conditions --json`: every time ISO 8601 UTC to the second, `null` where an event
/// does not happen that local day.
public struct ConditionsJSON: Encodable, Sendable {
    public static let solunarRule =
        "traditional solunar rule (J. A. Knight, 1926): major periods are the 2 h around the moon overhead and "
        + "underfoot, minor periods the 1 h around moonrise and moonset; a folk rule, not a measurement"

    public static let tideNote =
        "predicted from harmonic constants (XTide's data, NOAA's and others' stations); not for navigation"

    let sky: SkyConditions
    let zone: TimeZone
    let day: CivilDate
    let tide: (station: TideStation, moment: TideMoment, day: [TideExtreme])?

    /// `tide`: the configured station's water at the moment and the day's turns (`null` without one).
    public init(
        _ sky: SkyConditions, zone: TimeZone, day: CivilDate,
        tide: (station: TideStation, moment: TideMoment, day: [TideExtreme])? = nil
    ) {
        self.sky = sky
        self.zone = zone
        self.day = day
        self.tide = tide
    }

    /// `2026-06-14T04:31:05Z`, rounded to the second.
    public static func utc(_ date: Date) -> String {
        let ms = Int64((date.timeIntervalSince1970).rounded()) * 1000
        return String(LocalTime.utc(ms).dropLast(5)) + "Z"
    }

    enum Keys: String, CodingKey {
        case at, lat, lon, zone, day, source, sun, moon, solunar, tide
        case station, id, datum, note, state, previous, next, turns, time, type
        case heightM = "height_m"
        case elevationDeg = "elevation_deg"
        case azimuthDeg = "azimuth_deg"
        case rise, set, noon, phase
        case civilDawn = "civil_dawn"
        case civilDusk = "civil_dusk"
        case nauticalDawn = "nautical_dawn"
        case nauticalDusk = "nautical_dusk"
        case upAllDay = "up_all_day"
        case illumination
        case phaseName = "phase_name"
        case phaseAngleDeg = "phase_angle_deg"
        case ageDays = "age_days"
        case distanceKm = "distance_km"
        case upperTransit = "upper_transit"
        case lowerTransit = "lower_transit"
        case rule, now, major, minor, start, end, cause
    }

    public func encode(to encoder: Encoder) throws {
        func round(_ value: Double, _ places: Double) -> Double { (value * places).rounded() / places }
        func time(_ date: Date?) -> String? { date.map(Self.utc) }
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(Self.utc(sky.at), forKey: .at)
        try c.encode(sky.latitude, forKey: .lat)
        try c.encode(sky.longitude, forKey: .lon)
        try c.encode(zone.displayIdentifier, forKey: .zone)
        try c.encode(day.description, forKey: .day)
        try c.encode("computed", forKey: .source)

        var sun = c.nestedContainer(keyedBy: Keys.self, forKey: .sun)
        try sun.encode(round(sky.sun.elevation, 1000), forKey: .elevationDeg)
        try sun.encode(round(sky.sun.azimuth, 1000), forKey: .azimuthDeg)
        try sun.encode(time(sky.sun.rise), forKey: .rise)
        try sun.encode(time(sky.sun.set), forKey: .set)
        try sun.encode(time(sky.sun.noon), forKey: .noon)
        try sun.encode(time(sky.sun.civilDawn), forKey: .civilDawn)
        try sun.encode(time(sky.sun.civilDusk), forKey: .civilDusk)
        try sun.encode(time(sky.sun.nauticalDawn), forKey: .nauticalDawn)
        try sun.encode(time(sky.sun.nauticalDusk), forKey: .nauticalDusk)
        try sun.encode(sky.sun.phase.rawValue, forKey: .phase)
        try sun.encode(sky.sun.upAllDay, forKey: .upAllDay)

        var moon = c.nestedContainer(keyedBy: Keys.self, forKey: .moon)
        try moon.encode(round(sky.moon.elevation, 1000), forKey: .elevationDeg)
        try moon.encode(round(sky.moon.azimuth, 1000), forKey: .azimuthDeg)
        try moon.encode(round(sky.moon.illumination, 1000), forKey: .illumination)
        try moon.encode(sky.moon.phaseName.rawValue, forKey: .phaseName)
        try moon.encode(round(sky.moon.phaseAngle, 100), forKey: .phaseAngleDeg)
        try moon.encode(round(sky.moon.age, 100), forKey: .ageDays)
        try moon.encode(sky.moon.distance.rounded(), forKey: .distanceKm)
        try moon.encode(time(sky.moon.rise), forKey: .rise)
        try moon.encode(time(sky.moon.set), forKey: .set)
        try moon.encode(time(sky.moon.upperTransit), forKey: .upperTransit)
        try moon.encode(time(sky.moon.lowerTransit), forKey: .lowerTransit)

        var solunar = c.nestedContainer(keyedBy: Keys.self, forKey: .solunar)
        try solunar.encode(Self.solunarRule, forKey: .rule)
        try solunar.encode(sky.solunarNow?.rawValue, forKey: .now)
        for kind in [SolunarPeriod.Kind.major, .minor] {
            var list = solunar.nestedUnkeyedContainer(forKey: kind == .major ? .major : .minor)
            for period in sky.solunar where period.kind == kind {
                var item = list.nestedContainer(keyedBy: Keys.self)
                try item.encode(Self.utc(period.start), forKey: .start)
                try item.encode(Self.utc(period.end), forKey: .end)
                try item.encode(period.cause.rawValue, forKey: .cause)
            }
        }

        guard let tide else { return try c.encodeNil(forKey: .tide) }
        var water = c.nestedContainer(keyedBy: Keys.self, forKey: .tide)
        try water.encode(tide.station.name, forKey: .station)
        try water.encode(tide.station.id, forKey: .id)
        try water.encode(tide.station.datum, forKey: .datum)
        try water.encode(Self.tideNote, forKey: .note)
        try water.encode(round(tide.moment.height, 100), forKey: .heightM)
        try water.encode(tide.moment.state.rawValue, forKey: .state)
        func turn(_ e: TideExtreme, in container: inout KeyedEncodingContainer<Keys>) throws {
            try container.encode(Self.utc(e.time), forKey: .time)
            try container.encode(round(e.height, 100), forKey: .heightM)
            try container.encode(e.high ? "high" : "low", forKey: .type)
        }
        for (key, e) in [(Keys.previous, tide.moment.previous), (.next, tide.moment.next)] {
            guard let e else {
                try water.encodeNil(forKey: key)
                continue
            }
            var item = water.nestedContainer(keyedBy: Keys.self, forKey: key)
            try turn(e, in: &item)
        }
        var turns = water.nestedUnkeyedContainer(forKey: .turns)
        for e in tide.day {
            var item = turns.nestedContainer(keyedBy: Keys.self)
            try turn(e, in: &item)
        }
    }
}
