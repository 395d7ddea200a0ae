import Foundation
import GPSCore
import Testing

@testable import Visits

/// Trips away found from a week's stays and moves: a day at work and a day trip nearby are none; a
/// day trip to another city, a journey of three nights by plane and train, a night at a friend's
/// are each one; a journey not back yet is ongoing.
@Suite struct TripsAwayTests {
    static let zone = TimeZone(identifier: "Europe/Zurich")!
    static let (home, work, bern, milan, lisbon, porto, friend) = (
        Coordinate(latitude: 47.3769, longitude: 8.5417), Coordinate(latitude: 47.39, longitude: 8.51),
        Coordinate(latitude: 46.948, longitude: 7.4474), Coordinate(latitude: 45.4642, longitude: 9.19),
        Coordinate(latitude: 38.7223, longitude: -9.1393), Coordinate(latitude: 41.1579, longitude: -8.6291),
        Coordinate(latitude: 47.40, longitude: 8.60)
    )

    /// `HH:MM` on 2026-06-`day`, Zurich time, as ms.
    static func t(_ day: Int, _ clock: String) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = clock.split(separator: ":").compactMap { Int($0) }
        let date = calendar.date(
            from: DateComponents(year: 2026, month: 6, day: day, hour: parts[0], minute: parts[1]))!
        return Int64(date.timeIntervalSince1970 * 1000)
    }

    /// The week: stays (place, where, from, to) and the moves between them (mode, metres).
    static func week() -> (visits: [Visit], trips: [Trip]) {
        let stays: [(Int, Coordinate, Int64, Int64)] = [
            (1, home, t(1, "00:00"), t(1, "07:30")), (2, work, t(1, "07:50"), t(1, "17:00")),
            (1, home, t(1, "17:20"), t(2, "07:00")), (3, bern, t(2, "08:00"), t(2, "16:00")),
            (1, home, t(2, "17:00"), t(3, "06:00")), (4, milan, t(3, "09:30"), t(3, "18:00")),
            (1, home, t(3, "21:30"), t(4, "05:00")), (5, lisbon, t(4, "09:00"), t(6, "09:00")),
            (6, porto, t(6, "12:00"), t(7, "08:00")), (1, home, t(7, "13:00"), t(8, "20:00")),
            (7, friend, t(8, "20:30"), t(9, "08:00")), (1, home, t(9, "08:30"), t(9, "23:00")),
        ]
        let visits = stays.map { Visit(start: $0.2, end: $0.3, center: $0.1, spread: 20, fixes: 100, place: $0.0) }
        let modes: [(TravelMode, Double)] = [
            (.car, 3_000), (.car, 3_000), (.train, 95_000), (.train, 95_000), (.train, 220_000), (.train, 220_000),
            (.plane, 1_700_000), (.train, 300_000), (.plane, 1_400_000), (.walking, 3_000), (.walking, 3_000),
        ]
        let trips = zip(visits, visits.dropFirst()).enumerated().map { i, pair in
            Trip(
                start: pair.0.end, end: pair.1.start, from: pair.0.center, to: pair.1.center, distance: modes[i].1,
                mode: modes[i].0, movingSeconds: Double(pair.1.start - pair.0.end) / 1000, medianSpeed: 10,
                highSpeed: 20, fixes: 50)
        }
        return (visits, trips)
    }

    @Test func aWeeksTripsAway() {
        let (visits, trips) = Self.week()
        let found = TripsAway.find(visits: visits, trips: trips, home: 1, homeCenter: Self.home, zone: Self.zone)
        #expect(found.count == 3, "\(found.map { $0.stays.map(\.place) })")
        guard found.count == 3 else { return }
        // Milan for the day: no night, 220 km away.
        #expect(found[0].stays.map(\.place) == [4] && found[0].nights.isEmpty)
        #expect(found[0].start == Self.t(3, "06:00") && found[0].end == Self.t(3, "21:30"))
        #expect(found[0].farthest > 200_000 && found[0].distanceByMode == [.train: 440_000])
        // Lisbon and Porto: three nights, by plane and train.
        let journey = found[1]
        #expect(journey.stays.map(\.place) == [5, 6])
        #expect(journey.nights.map(\.description) == ["2026-06-05", "2026-06-06", "2026-06-07"])
        #expect(journey.distanceByMode == [.plane: 3_100_000, .train: 300_000])
        #expect(journey.start == Self.t(4, "05:00") && journey.end == Self.t(7, "13:00") && !journey.ongoing)
        #expect(journey.farthest > 1_600_000)
        // A night at a friend's, 4 km away, is a night away.
        #expect(found[2].stays.map(\.place) == [7] && found[2].nights.map(\.description) == ["2026-06-09"])
    }

    /// Data that ends away: the journey is not over yet.
    @Test func aJourneyNotBackYetIsOngoing() {
        let (visits, trips) = Self.week()
        let cut = Array(visits.prefix(9))
        let found = TripsAway.find(visits: cut, trips: trips, home: 1, homeCenter: Self.home, zone: Self.zone)
        let last = found.last
        #expect(last?.ongoing == true && last?.stays.map(\.place) == [5, 6], "\(found.map(\.ongoing))")
        #expect(last?.end == Self.t(7, "08:00"))
    }
}
