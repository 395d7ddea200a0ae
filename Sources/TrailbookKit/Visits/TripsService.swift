import Foundation
import GPSCore
import TrackModel
import Visits

/// The account's trips away (``TripsAway``) from its whole timeline, named by their places,
/// as `trailbook trips` gives them.
public struct TripsReport: Encodable, Sendable {
    public struct Journey: Encodable, Sendable {
        public var number: Int
        /// "Lisbon → Porto": the places of its nights (their towns where a gazetteer is loaded) in
        /// the order reached, three at most; a day trip's farthest place.
        public var name: String
        public var start: String
        public var end: String
        public var ongoing: Bool
        /// The local days it touched, and the nights spent away.
        public var days: Int
        public var nights: [String]
        public var places: [String]
        public var countries: [String]
        /// Metres by mode, and how far from home it went (km).
        public var distanceByMode: [String: Int]
        public var farthestKm: Double

        enum CodingKeys: String, CodingKey {
            case number, name, start, end, ongoing, days, nights, places, countries
            case distanceByMode = "distance_m_by_mode"
            case farthestKm = "farthest_km"
        }
    }

    /// The home the trips leave from (its place's name), nil when none is known yet.
    public var home: String?
    public var trips: [Journey]

    /// Finds the account's trips away: home is the place the timeline suggests as home.
    public static func load(store: any TrackStoring, devices: DeviceFilter, rules: VisitRules, zone: TimeZone)
        async throws -> TripsReport
    {
        let found = try await VisitService.find(
            store: store, fromMilliseconds: .min, toMilliseconds: .max, devices: devices, rules: rules, zone: zone)
        guard let home = found.places.values.first(where: { $0.suggestion == "home" }) else {
            return TripsReport(home: nil, trips: [])
        }
        let away = TripsAway.find(
            visits: found.visits, trips: found.trips, home: home.id, homeCenter: home.center, zone: zone)
        let journeys = away.enumerated().map { i, trip -> Journey in
            func name(_ v: Visit) -> String { v.place.flatMap { found.localities[$0]?.name } ?? found.name(of: v) }
            // Named by the places of its nights, in the order reached (three at most); a day trip by the
            // place farthest from home.
            func distinct(_ stays: [Visit]) -> [String] {
                stays.map(name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            }
            let slept = trip.stays.filter { !TripsAway.nightsHeld(by: $0, zone: zone).isEmpty }
            let farthest = trip.stays.max {
                Geodesy.haversineDistance(home.center, $0.center) < Geodesy.haversineDistance(home.center, $1.center)
            }
            let named = slept.isEmpty ? farthest.map { [name($0)] } ?? [] : Array(distinct(slept).prefix(3))
            let ordered = distinct(trip.stays)
            let countries = trip.stays.compactMap { $0.place.flatMap { found.localities[$0]?.country } }
                .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let first = LocalDay.of(trip.start, in: zone)
            let last = LocalDay.of(trip.end, in: zone)
            return Journey(
                number: i + 1, name: named.joined(separator: " → "), start: LocalTime.iso(trip.start, zone: zone),
                end: LocalTime.iso(trip.end, zone: zone), ongoing: trip.ongoing,
                days: last.daysSinceEpoch - first.daysSinceEpoch + 1, nights: trip.nights.map(\.description),
                places: ordered, countries: countries,
                distanceByMode: Dictionary(
                    uniqueKeysWithValues: trip.distanceByMode.map { ($0.key.rawValue, Int($0.value.rounded())) }),
                farthestKm: (trip.farthest / 100).rounded() / 10)
        }
        return TripsReport(home: VisitFindings.name(of: home), trips: journeys)
    }

    /// The lines `trips` prints, newest first.
    public var lines: [String] {
        guard let home else {
            return [
                "No home is known yet, so no trip away: home is learned from nights at one place on three days or "
                    + "more (trailbook visits --places shows it as home)."
            ]
        }
        if trips.isEmpty { return ["No trips away from \(home) yet."] }
        return trips.reversed().map { t in
            let length = t.nights.isEmpty ? "a day" : counted(t.nights.count, "night")
            let modes = t.distanceByMode.sorted { $0.value > $1.value }.map {
                "\(VisitService.distance(Double($0.value))) by \($0.key)"
            }
            return "\(t.number)  \(t.start.prefix(10))  \(t.name)  \(length)\(t.ongoing ? " (not back yet)" : "")"
                + (modes.isEmpty ? "" : " · " + modes.joined(separator: ", "))
        }
    }
}
