import ArgumentParser
import Foundation
import GPSCore
import Pipeline
import TrackModel
import TrailbookKit
import Visits

/// `trailbook visits`: where the person stayed and how they went between, found in the points.
struct VisitsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visits",
        abstract: "Show where you stayed and how you travelled between, found in the stored points.",
        discussion: """
            A visit is a stay within visits.radius (100 m, wider for vaguer fixes) for at least \
            visits.min_duration (5 min); a time without fixes is bridged when you reappear where you \
            were. It runs from the first to the last fix there, never to midnight or the end of the \
            data. Visits at one spot (visits.place_radius) are one place: your own place's name (place \
            add) wins, home and work are suggested from where nights and weekday hours are spent, \
            others are numbered: a place keeps its number from the first time it is found, and a name \
            you give it (trailbook visit name) wins over all. \
            Trips between visits get a mode from their speeds: still, walking, running, cycling, car, \
            train (above 150 km/h), plane; trailbook visit mode and visit place correct a trip or a \
            visit for good. Every device of the account counts.
            """)

    @OptionGroup var range: DayRangeOptions
    @Flag(
        help: """
            Print {"time_zone", "visits": [{"start", "end", "seconds", "lat", "lon", "spread_m", "fixes", "place", \
            "name", "ongoing", "locality"}], "trips": [{"start", "end", "seconds", "mode", "distance_m", "moving_s", \
            "median_speed_mps", "high_speed_mps", "from", "to", "fixes"}], "places": [{"id", "lat", "lon", "visits", \
            "seconds", "name", "suggestion", "locality"}], "points", "passed_over"}; "locality" is \
            {"name", "admin1", "country", "time_zone"} of the gazetteer's nearest populated place, when one is loaded.
            """)
    var json = false
    @Flag(help: "List the places the visits make, most time spent first, instead of the visits.")
    var places = false
    @OptionGroup var devices: DeviceOptions
    @OptionGroup var accountOptions: AccountOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func run() async throws {
        let config = try zoneOptions.loaded()
        let zone = config.timeZone
        let store = try storeOptions.open()
        let filter = try await devices.filter(store, account: accountOptions.user)
        let (from, to, _) = try await store.read { try range.range(in: zone, store: $0, devices: filter) }
        var findings = try await VisitService.find(
            store: store, fromMilliseconds: from, toMilliseconds: to, devices: filter, rules: config.pipeline.visits,
            zone: zone)
        try await findings.askStreetNames(config, store: store, account: accountOptions.user)
        if json { return try printJSON(VisitsJSON(findings, zone: zone)) }
        if places {
            let sorted = findings.places.values.sorted { ($0.seconds, -$0.id) > ($1.seconds, -$1.id) }
            if sorted.isEmpty { print("No visits in that time.") }
            for p in sorted {
                let hours = String(format: "%.1f h", p.seconds / 3600)
                let near = findings.localities[p.id].map { " (\($0.name), \($0.country))" } ?? ""
                print(
                    "\(VisitFindings.name(of: p)): \(p.visits) visit\(p.visits == 1 ? "" : "s"), \(hours), at "
                        + String(format: "%.5f, %.5f", p.center.latitude, p.center.longitude) + near)
            }
            return
        }
        let movements = findings.movements
        if movements.isEmpty {
            print("No visits in that time (\(findings.points) points read, \(zone.displayIdentifier)).")
        }
        // Each visit and trip under the day it began on where it began (a day in Tokyo is
        // Tokyo's day); a flight west that lands on the day before stays under the day it left.
        var day: CivilDate?
        for m in movements {
            let there = (findings.localities.isEmpty ? nil : findings.zone(at: m.start)) ?? zone
            let d = LocalDay.of(m.start, in: there)
            if day.map({ d > $0 }) ?? true {
                print("\(d) (\(there.displayIdentifier))")
                day = d
            }
            print("  " + VisitsJSON.line(m, findings: findings, zone: zone))
        }
    }
}

extension VisitFindings {
    /// With `visits.street_names` set: the addresses of places never asked about, from the
    /// user's own geocoder (a server that does not answer is said on stderr; the listing goes on).
    mutating func askStreetNames(_ config: TrailbookConfig, store: any TrackStoring, account: String?) async throws {
        guard let names = StreetNames(config.streetNames) else { return }
        if let failure = try await names.fill(&self, store: store, account: account) {
            printError("trailbook: \(failure)")
        }
    }
}
