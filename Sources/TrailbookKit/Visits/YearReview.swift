import Foundation
import GPSCore
import TrackModel
import Visits

/// The year in review (or any range): distance by mode, days and nights away from home,
/// countries and cities with the days spent there (where you stayed: a country flown over does
/// not count), the places most visited, the longest trip. Local days in `zone`, or with a
/// gazetteer where each visit was (a day in Tokyo is Tokyo's day; a trip's where it left).
public struct YearReview: Sendable {
    public struct Mode: Sendable, Equatable {
        public var mode: TravelMode
        public var distance: Double
        public var seconds: Double
        public var trips: Int
    }

    public struct Country: Sendable, Equatable {
        public var code: String
        public var name: String
        public var days: Int
    }

    public struct City: Sendable, Equatable {
        public var name: String
        public var country: String
        public var days: Int
    }

    /// Local days with a visit or a trip.
    public var days: Int
    public var visits: Int
    public var trips: Int
    public var byMode: [Mode]
    /// The place suggested as home (or the user's own place named home), when there is one.
    public var home: VisitPlace?
    /// Days with data never at home; nights (03:00 local) not spent at home.
    public var daysAwayFromHome: Int
    public var nightsAwayFromHome: Int
    /// Empty without a gazetteer.
    public var countries: [Country]
    public var cities: [City]
    /// Most time spent first, at most ten.
    public var places: [VisitPlace]
    public var longestTrip: Trip?

    /// `within`: the range looked at, `[from, to)`: a trip over its start or end counts the share
    /// of its distance and time that falls within (docs/TIMELINE.md, "Midnight"), and is one of
    /// the range's trips when it begins there.
    public init(_ f: VisitFindings, zone: TimeZone, within: (from: Int64, to: Int64)? = nil) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        /// The zone each local day was lived in: where its first visit or trip was.
        var dayZones: [CivilDate: TimeZone] = [:]
        /// Each local day a span touches, in the zone of where it was.
        func days(_ a: Int64, _ b: Int64, in there: TimeZone?) -> [CivilDate] {
            let there = there ?? zone
            var out: [CivilDate] = []
            var d = LocalDay.of(a, in: there)
            let last = LocalDay.of(max(a, b), in: there)
            while d <= last {
                out.append(d)
                if dayZones[d] == nil { dayZones[d] = there }
                d = d.adding(days: 1)
            }
            return out
        }
        let placed = !f.localities.isEmpty
        let visitDays = f.visits.map { days($0.start, $0.end, in: placed ? f.zone(of: $0) : nil) }
        var withData = Set<CivilDate>()
        for d in visitDays { withData.formUnion(d) }
        for t in f.trips { withData.formUnion(days(t.start, t.end, in: placed ? f.zone(at: t.start) : nil)) }
        /// 03:00 of day `d` where it was lived.
        func night(_ d: CivilDate) -> Int64 { LocalDay.start(d, in: dayZones[d] ?? zone) + 3 * 3_600_000 }
        self.days = withData.count
        visits = f.visits.count
        let (from, to) = within ?? (.min, .max)
        let begun = f.trips.filter { $0.start >= from && $0.start < to }
        trips = begun.count
        var modes: [TravelMode: Mode] = [:]
        for t in f.trips {
            let share = Self.share(t, from: from, to: to)
            guard share > 0 || t.end == t.start else { continue }
            modes[t.mode, default: Mode(mode: t.mode, distance: 0, seconds: 0, trips: 0)].distance += t.distance * share
            modes[t.mode]!.seconds += t.seconds * share
            if t.start >= from && t.start < to { modes[t.mode]!.trips += 1 }
        }
        byMode = modes.values.filter { $0.mode != .still }.sorted {
            ($0.distance, $0.mode.rawValue) > ($1.distance, $1.mode.rawValue)
        }
        let home =
            f.places.values.first { $0.name?.lowercased() == "home" }
            ?? f.places.values.first { $0.suggestion == "home" }
        self.home = home
        var homeDays = Set<CivilDate>()
        var homeNights = Set<CivilDate>()
        for (v, vDays) in zip(f.visits, visitDays) where v.place == home?.id && home != nil {
            for d in vDays {
                homeDays.insert(d)
                if v.start <= night(d) && night(d) <= v.end { homeNights.insert(d) }
            }
        }
        daysAwayFromHome = home == nil ? 0 : withData.subtracting(homeDays).count
        // A night counts where the data covers it: the first and last day's may lie outside.
        let nights = withData.filter { d in
            let n = night(d)
            return f.visits.contains { $0.start <= n && n <= $0.end }
                || f.trips.contains { $0.start <= n && n <= $0.end }
        }
        nightsAwayFromHome = home == nil ? 0 : nights.subtracting(homeNights).count
        var countryDays: [String: Set<CivilDate>] = [:]
        var cityDays: [String: (country: String, days: Set<CivilDate>)] = [:]
        for (v, vDays) in zip(f.visits, visitDays) {
            guard let id = v.place, let locality = f.localities[id] else { continue }
            for d in vDays {
                countryDays[locality.country, default: []].insert(d)
                cityDays[locality.name + "\u{1F}" + locality.country, default: (locality.country, [])].days.insert(d)
            }
        }
        countries = countryDays.map {
            Country(code: $0.key, name: GazetteerService.countryName($0.key), days: $0.value.count)
        }.sorted { ($0.days, $1.code) > ($1.days, $0.code) }
        cities = cityDays.map {
            City(
                name: String($0.key.split(separator: "\u{1F}")[0]), country: $0.value.country, days: $0.value.days.count
            )
        }.sorted { ($0.days, $1.name) > ($1.days, $0.name) }
        places = Array(f.places.values.sorted { ($0.seconds, -$0.id) > ($1.seconds, -$1.id) }.prefix(10))
        longestTrip = begun.max { ($0.distance, -$0.start) < ($1.distance, -$1.start) }
    }

    /// The part of trip `t`'s time within `[from, to)`, 0 to 1.
    static func share(_ t: Trip, from: Int64, to: Int64) -> Double {
        guard t.end > t.start else { return t.start >= from && t.start < to ? 1 : 0 }
        let inside = min(t.end, to) - max(t.start, from)
        return max(0, min(1, Double(inside) / Double(t.end - t.start)))
    }
}
