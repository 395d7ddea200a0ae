import Foundation
import GPSCore
import Visits

/// `trailbook year --json` (keys snake_case, SI units), and the review as lines for a terminal.
public struct YearJSON: Encodable, Sendable {
    struct Mode: Encodable, Sendable {
        let mode: String
        let distanceM: Double
        let seconds: Double
        let trips: Int
    }
    struct Country: Encodable, Sendable {
        let code: String
        let name: String
        let days: Int
    }
    struct City: Encodable, Sendable {
        let name: String
        let country: String
        let days: Int
    }
    struct Place: Encodable, Sendable {
        let id: Int
        let name: String
        let visits: Int
        let seconds: Double
        let locality: String?
    }
    struct LongestTrip: Encodable, Sendable {
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

    public init(
        _ review: YearReview, findings f: VisitFindings, from first: CivilDate, to last: CivilDate, zone: TimeZone
    ) {
        func place(_ p: VisitPlace) -> Place {
            Place(
                id: p.id, name: VisitFindings.name(of: p), visits: p.visits, seconds: p.seconds,
                locality: f.localities[p.id].map { "\($0.name), \($0.country)" })
        }
        from = first.description
        to = last.description
        timeZone = zone.displayIdentifier
        days = review.days
        visits = review.visits
        trips = review.trips
        byMode = review.byMode.map {
            Mode(mode: $0.mode.rawValue, distanceM: $0.distance.rounded(), seconds: $0.seconds, trips: $0.trips)
        }
        home = review.home.map(place)
        daysAwayFromHome = review.daysAwayFromHome
        nightsAwayFromHome = review.nightsAwayFromHome
        countries = review.countries.map { Country(code: $0.code, name: $0.name, days: $0.days) }
        cities = review.cities.map { City(name: $0.name, country: $0.country, days: $0.days) }
        places = review.places.map(place)
        longestTrip = review.longestTrip.map { t in
            let ends = f.localities(of: t)
            return LongestTrip(
                start: LocalTime.utc(t.start), end: LocalTime.utc(t.end), mode: t.mode.rawValue,
                distanceM: t.distance.rounded(), from: ends.from, to: ends.to)
        }
    }

    /// The review as `trailbook year` prints it, under `title` ("2026", "2026-06-01 to 2026-06-14").
    public static func lines(_ review: YearReview, findings f: VisitFindings, title: String, zone: TimeZone)
        -> [String]
    {
        func days(_ n: Int) -> String { n == 1 ? "1 day" : "\(n) days" }
        var lines = [
            "\(title) (\(zone.displayIdentifier)): \(counted(review.days, "day")) with data, "
                + "\(counted(review.visits, "visit")) at \(counted(f.places.count, "place")), "
                + counted(review.trips, "trip")
        ]
        if review.days == 0 { return lines }
        lines.append(
            "By mode: "
                + review.byMode.map {
                    "\($0.mode.rawValue) \(VisitService.distance($0.distance)) "
                        + "(\(DayTimeline.minutes(Int64($0.seconds * 1000))))"
                }.joined(separator: ", "))
        if let home = review.home {
            lines.append(
                "Away from \(VisitFindings.name(of: home)): \(days(review.daysAwayFromHome)) never there, "
                    + "\(review.nightsAwayFromHome == 1 ? "1 night" : "\(review.nightsAwayFromHome) nights") elsewhere")
        } else {
            lines.append("Away from home: no home yet (add a place named home, or stay 3 nights somewhere)")
        }
        if review.countries.isEmpty {
            lines.append("Countries and cities: load a gazetteer first (trailbook geocoder import cities500.zip)")
        } else {
            lines.append("Countries: " + review.countries.map { "\($0.name) \(days($0.days))" }.joined(separator: ", "))
            lines.append(
                "Cities: " + review.cities.prefix(10).map { "\($0.name) \(days($0.days))" }.joined(separator: ", "))
        }
        lines.append(
            "Most time: "
                + (review.places.isEmpty
                    ? "no visits found yet"
                    : review.places.prefix(5).map { p in
                        String(format: "%@ %.1f h", VisitFindings.name(of: p), p.seconds / 3600)
                    }.joined(separator: ", ")))
        if let t = review.longestTrip {
            let ends = f.localities(of: t)
            lines.append(
                "Longest trip: \(LocalTime.format(t.start, zone: zone)) \(t.mode.rawValue) "
                    + VisitService.distance(t.distance)
                    + (ends.from.map { " from \($0)" } ?? "") + (ends.to.map { " to \($0)" } ?? ""))
        }
        return lines
    }
}
