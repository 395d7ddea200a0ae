import ArgumentParser
import Foundation
import GPSCore
import TrailbookKit

/// `trailbook year`: the year in review, or any range, from the visits and trips in the points.
struct YearCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "year",
        abstract: "Review a year (or any range): distance by mode, time away, countries, cities, places.",
        discussion: """
            Built from the visits and trips trailbook visits finds in the points: the distance and time by \
            mode, the days with data never at home and the nights (03:00) not spent there (home: your \
            place named home, else the suggested one), the countries and cities with the days you stayed \
            there (from the gazetteer, trailbook geocoder import; a country flown over does not count), \
            the ten places with the most time, and the longest trip. Local days in the time zone.
            """)

    @Argument(help: "The year, e.g. 2026 (default: this year).") var year: Int?
    @OptionGroup var range: DayRangeOptions
    @Flag(
        help: """
            Print {"from", "to", "time_zone", "days", "visits", "trips", "by_mode": [{"mode", "distance_m", \
            "seconds", "trips"}], "home", "days_away_from_home", "nights_away_from_home", "countries": [{"code", \
            "name", "days"}], "cities": [{"name", "country", "days"}], "places": [{"id", "name", "visits", \
            "seconds", "locality"}], "longest_trip"}.
            """)
    var json = false
    @OptionGroup var devices: DeviceOptions
    @OptionGroup var accountOptions: AccountOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func validate() throws {
        if year != nil && range.isSet { throw ValidationError("Give a year, or --day / --from and --to, not both.") }
        if let year, !(1970...9999).contains(year) { throw ValidationError("The year must be from 1970 to 9999.") }
    }

    func run() async throws {
        let config = try zoneOptions.loaded()
        let zone = config.timeZone
        let first: CivilDate
        let last: CivilDate
        if range.isSet {
            let (a, b) = range.days(in: zone)
            guard let a, let b else { throw ValidationError("Give both --from and --to (or --day).") }
            (first, last) = (a, b)
        } else {
            let y = year ?? LocalDay.of(UTCTimestamp.now(), in: zone).year
            (first, last) = (CivilDate(year: y, month: 1, day: 1)!, CivilDate(year: y, month: 12, day: 31)!)
        }
        let store = try storeOptions.open()
        let filter = try await devices.filter(store, account: accountOptions.user)
        let (from, to, _) = try await store.read {
            try DayZone.range(first: first, last: last, store: $0, devices: filter, zone: zone)
        }
        let findings = try await VisitService.find(
            store: store, fromMilliseconds: from, toMilliseconds: to, devices: filter, rules: config.pipeline.visits,
            zone: zone)
        let review = YearReview(findings, zone: zone, within: (from, to))
        if json {
            return try printJSON(
                snakeCase: true, YearJSON(review, findings: findings, from: first, to: last, zone: zone))
        }
        let title = range.isSet ? "\(first) to \(last)" : "\(first.year)"
        for line in YearJSON.lines(review, findings: findings, title: title, zone: zone) { print(line) }
    }
}
