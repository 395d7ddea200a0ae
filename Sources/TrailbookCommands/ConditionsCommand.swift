import ArgumentParser
import Conditions
import Foundation
import GPSCore
import TrailbookKit

/// `trailbook conditions`: the Sun, the Moon and the solunar periods at a moment and place.
struct ConditionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conditions",
        abstract: "Show the sun, the moon and the solunar periods at a time and place, computed offline.",
        discussion: """
            Sun: elevation (apparent, with refraction) and azimuth, rise, set, civil and nautical \
            dawn and dusk, solar noon, and the day phase (night, dawn, day, dusk). Moon: elevation, \
            azimuth, illuminated fraction, phase name and angle, age, rise, set, and its transits \
            overhead and underfoot. Solunar periods by the traditional rule. Rise, set and the \
            periods are those of the local day where the place is: in --time-zone when given, else \
            in the zone of the gazetteer's nearest populated place (trailbook geocoder import, \
            within 50 km), else in the config's time.zone (or at the place's mean solar time when that zone is more than 3 h \
            from it). With a tide station in the config (tide.station), the tide there: height, \
            state and the day's high and low waters (not for navigation). Algorithms and accuracy: \
            docs/CONDITIONS.md.
            """)

    @Option(help: ArgumentHelp("The moment: \(LocalTime.accepted).", valueName: "time"))
    var at = "now"
    @Option(help: "Latitude, degrees (north positive).") var lat: Double
    @Option(help: "Longitude, degrees (east positive).") var lon: Double
    @Flag(help: "Print JSON: at, lat, lon, zone, day, sun{...}, moon{...}, solunar{rule, now, major, minor}.")
    var json = false
    @OptionGroup var zoneOptions: ZoneOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if let problem = ConditionsService.problem(latitude: lat, longitude: lon) {
            throw ValidationError("The place is not on Earth: \(problem).")
        }
    }

    func run() async throws {
        // --time-zone as given; else the gazetteer's zone of the place; else the config's, unless
        // the place is far from it (then its own solar time: its day, not a day and a half).
        let zone =
            try await placeZone()
            ?? (zoneOptions.timeZone != nil
                ? zoneOptions.zone()
                : ConditionsService.zone(near: lon, at: UTCTimestamp.now(), configured: try zoneOptions.zone()))
        let ms = try LocalTime.require(at, option: "--at", zone: zone)
        let service = ConditionsService(zone: zone, tide: try zoneOptions.tide())
        let sky = service.sky(at: ms, coordinate: Coordinate(latitude: lat, longitude: lon))
        let day = service.localDay(of: ms).date
        let water = service.tide(at: ms).map { (station: service.tide!, moment: $0.moment, day: $0.day) }
        if json { return try printJSON(ConditionsJSON(sky, zone: zone, day: day, tide: water)) }
        for line in ConditionsText.lines(sky, zone: zone, day: day) { print(line) }
        if let water {
            let turns = water.day.map {
                "\($0.high ? "high" : "low") \(ConditionsText.clock($0.time, zone: zone)) "
                    + String(format: "%.2f m", $0.height)
            }
            print(
                "Tide  \(water.moment.state.rawValue), "
                    + String(format: "%.2f m above %@", water.moment.height, water.station.datum)
                    + " at \(water.station.name) (not for navigation)")
            print("      " + (turns.isEmpty ? "no high or low water this day" : turns.joined(separator: ", ")))
        }
    }
}

extension ConditionsCommand {
    /// The zone of the place from the gazetteer, unless --time-zone says which; nil without a
    /// store (or one that cannot be opened now: the sky needs none), a gazetteer or a populated
    /// place within 50 km.
    func placeZone() async throws -> TimeZone? {
        guard zoneOptions.timeZone == nil, let store = try? storeOptions.openIfItExists(),
            try await store.read({ try $0.hasGazetteer() })
        else { return nil }
        return try await store.read { tx in
            var lookup = GazetteerLookup(store: tx)
            return try lookup.nearest(Coordinate(latitude: lat, longitude: lon)).flatMap {
                TimeZone(identifier: $0.entry.zone)
            }
        }
    }
}

/// The conditions as lines for a terminal, local times in the zone.
enum ConditionsText {
    static func clock(_ date: Date?, zone: TimeZone) -> String {
        date.map { LocalTime.clock(Int64($0.timeIntervalSince1970.rounded()) * 1000, zone: zone) } ?? "—"
    }

    static func lines(_ sky: SkyConditions, zone: TimeZone, day: CivilDate) -> [String] {
        func clock(_ date: Date?) -> String { Self.clock(date, zone: zone) }
        func degrees(_ value: Double) -> String { String(format: "%.1f°", value) }
        let ns = sky.latitude >= 0 ? "N" : "S"
        let ew = sky.longitude >= 0 ? "E" : "W"
        let sun = sky.sun
        let moon = sky.moon
        var lines = [
            "Conditions at \(LocalTime.format(Int64(sky.at.timeIntervalSince1970 * 1000), zone: zone)), "
                + String(format: "%.4f° %@ %.4f° %@", abs(sky.latitude), ns, abs(sky.longitude), ew)
                + " (local day \(day), \(zone.displayIdentifier))",
            "Sun   \(sun.phase.rawValue): elevation \(degrees(sun.elevation)), azimuth \(degrees(sun.azimuth))",
        ]
        if let up = sun.upAllDay {
            lines.append("      " + (up ? "up all day (midnight sun)" : "below the horizon all day (polar night)"))
        }
        lines.append(
            "      nautical dawn \(clock(sun.nauticalDawn)), civil dawn \(clock(sun.civilDawn)), "
                + "rise \(clock(sun.rise)), noon \(clock(sun.noon)), set \(clock(sun.set)), "
                + "civil dusk \(clock(sun.civilDusk)), nautical dusk \(clock(sun.nauticalDusk))")
        lines.append(
            "Moon  \(moon.phaseName.rawValue), \(Int((moon.illumination * 100).rounded())) % lit, "
                + String(format: "%.1f days old", moon.age)
                + ": elevation \(degrees(moon.elevation)), azimuth \(degrees(moon.azimuth))")
        lines.append(
            "      rise \(clock(moon.rise)), set \(clock(moon.set)), overhead \(clock(moon.upperTransit)), "
                + "underfoot \(clock(moon.lowerTransit))")
        let periods = sky.solunar.map {
            "\($0.kind.rawValue) \(clock($0.start))–\(clock($0.end)) (\($0.cause.rawValue))"
        }
        lines.append(
            "Solunar (traditional rule; now: \(sky.solunarNow?.rawValue ?? "none")): "
                + (periods.isEmpty ? "none this day" : periods.joined(separator: ", ")))
        return lines
    }
}
