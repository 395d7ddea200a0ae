import ArgumentParser
import Foundation
import GPSCore
import TrailbookKit
import Visits

/// `trailbook year`: the year in review, or any range, from the visits and trips in the points.
struct YearCommand: ParsableCommand {
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

    struct Output: Encodable {
        struct Mode: Encodable {
            let mode: String
            let distanceM: Double
            let seconds: Double
            let trips: Int
        }
        struct Country: Encodable {
            let code: String
            let name: String
            let days: Int
        }
        struct City: Encodable {
            let name: String
            let country: String
            let days: Int
        }
        struct Place: Encodable {
            let id: Int
            let name: String
            let visits: Int
            let seconds: Double
            let locality: String?
        }
        struct LongestTrip: Encodable {
            let start: String
            let end: String
            let mode: String
            let distanceM: Double
            let from: String?
            let to: String?
        }
        let from: String
        let to: String
        let timeZone: String
        let days: Int
        let visits: Int
        let trips: Int
        let byMode: [Mode]
        let home: Place?
        let daysAwayFromHome: Int
        let nightsAwayFromHome: Int
        let countries: [Country]
        let cities: [City]
        let places: [Place]
        let longestTrip: LongestTrip?
    }

    func run() throws {
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
        let findings = try VisitService.find(
            store: store, fromMilliseconds: LocalDay.start(first, in: zone),
            toMilliseconds: LocalDay.start(last.adding(days: 1), in: zone),
            devices: try devices.filter(store, account: accountOptions.user), rules: config.pipeline.visits, zone: zone)
        let review = YearReview(findings, zone: zone)
        func place(_ p: VisitPlace) -> Output.Place {
            Output.Place(
                id: p.id, name: VisitFindings.name(of: p), visits: p.visits, seconds: p.seconds,
                locality: findings.localities[p.id].map { "\($0.name), \($0.country)" })
        }
        let longest = review.longestTrip.map { t in
            let ends = findings.localities(of: t)
            return Output.LongestTrip(
                start: LocalTime.utc(t.start), end: LocalTime.utc(t.end), mode: t.mode.rawValue,
                distanceM: t.distance.rounded(), from: ends.from, to: ends.to)
        }
        if json {
            return try printJSON(
                snakeCase: true,
                Output(
                    from: first.description, to: last.description, timeZone: zone.displayIdentifier, days: review.days,
                    visits: review.visits, trips: review.trips,
                    byMode: review.byMode.map {
                        Output.Mode(
                            mode: $0.mode.rawValue, distanceM: $0.distance.rounded(), seconds: $0.seconds,
                            trips: $0.trips)
                    },
                    home: review.home.map(place), daysAwayFromHome: review.daysAwayFromHome,
                    nightsAwayFromHome: review.nightsAwayFromHome,
                    countries: review.countries.map { Output.Country(code: $0.code, name: $0.name, days: $0.days) },
                    cities: review.cities.map { Output.City(name: $0.name, country: $0.country, days: $0.days) },
                    places: review.places.map(place), longestTrip: longest))
        }
        let title = range.isSet ? "\(first) to \(last)" : "\(first.year)"
        print(
            "\(title) (\(zone.displayIdentifier)): \(review.days) days with data, \(review.visits) visits at "
                + "\(findings.places.count) places, \(review.trips) trips")
        if review.days == 0 { return }
        print(
            "By mode: "
                + review.byMode.map {
                    "\($0.mode.rawValue) \(VisitService.distance($0.distance)) (\(DayTimeline.minutes(Int64($0.seconds * 1000))))"
                }.joined(separator: ", "))
        if let home = review.home {
            print(
                "Away from \(VisitFindings.name(of: home)): \(days(review.daysAwayFromHome)) never there, "
                    + "\(review.nightsAwayFromHome == 1 ? "1 night" : "\(review.nightsAwayFromHome) nights") elsewhere")
        } else {
            print("Away from home: no home yet (add a place named home, or stay 3 nights somewhere)")
        }
        if review.countries.isEmpty {
            print("Countries and cities: load a gazetteer first (trailbook geocoder import cities500.zip)")
        } else {
            print("Countries: " + review.countries.map { "\($0.name) \(days($0.days))" }.joined(separator: ", "))
            print("Cities: " + review.cities.prefix(10).map { "\($0.name) \(days($0.days))" }.joined(separator: ", "))
        }
        print(
            "Most time: "
                + review.places.prefix(5).map { p in
                    String(format: "%@ %.1f h", VisitFindings.name(of: p), p.seconds / 3600)
                }.joined(separator: ", "))
        if let t = review.longestTrip, let longest {
            print(
                "Longest trip: \(LocalTime.format(t.start, zone: zone)) \(t.mode.rawValue) "
                    + VisitService.distance(t.distance)
                    + (longest.from.map { " from \($0)" } ?? "") + (longest.to.map { " to \($0)" } ?? ""))
        }
    }

    func days(_ n: Int) -> String { n == 1 ? "1 day" : "\(n) days" }
}
