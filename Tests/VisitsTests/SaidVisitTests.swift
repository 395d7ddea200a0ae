import Foundation
import GPSCore
import RideSimulator
import Testing

@testable import Visits

/// What Google knew of a day, kept: its visits count for their hours and name their places.
@Suite struct SaidVisitTests {
    let office = Coordinate(latitude: 47.3900, longitude: 8.5150)
    let park = Coordinate(latitude: 47.3430, longitude: 8.5050)
    let t0: Int64 = 1_780_000_000_000

    func minutes(_ m: Int) -> Int64 { t0 + Int64(m) * 60_000 }

    /// A phone with fixes at the office until 10:00 and again from 14:00, nothing in between:
    /// what the points alone say is a four-hour trip; Google knew the person was in the park.
    @Test func aVisitWithoutPointsIsAVisitForItsHoursNotATrip() {
        let steps: [HistorySimulator.Step] = [
            .stay(seconds: 3600), .move(to: park, speed: 1.4, mode: "walking", darkShare: 1),
            .dark(seconds: 4 * 3600), .move(to: office, speed: 1.4, mode: "walking", darkShare: 1),
            .stay(seconds: 3600),
        ]
        var day = HistorySimulator(start: office, startMilliseconds: t0, steps: steps)
        day.seed = 5
        let movements = StayDetector.movements(day.compactMap(VisitPoint.init))
        var visits = movements.compactMap { if case .visit(let v) = $0 { v } else { nil } }
        var trips = movements.compactMap { if case .trip(let t) = $0 { t } else { nil } }
        let truth = day.truth
        let inPark = truth.first { $0.mode == nil && Geodesy.haversineDistance($0.at, park) < 10 }!
        // The points alone: no visit in the park.
        #expect(!visits.contains { Geodesy.haversineDistance($0.center, park) < 100 })
        let said = SaidVisit(
            start: inPark.start, end: inPark.end, coordinate: park, name: "Rieterpark", placeID: "ChIJpark")
        SaidVisit.merge([said], visits: &visits, trips: &trips)
        let there = visits.filter { Geodesy.haversineDistance($0.center, park) < 100 }
        #expect(there.map(\.start) == [inPark.start] && there.map(\.end) == [inPark.end])
        #expect(!trips.contains { $0.start < inPark.end && $0.end > inPark.start && $0.end - $0.start > 3_600_000 })
        #expect(visits.map(\.start) == visits.map(\.start).sorted())
    }

    @Test func aFoundVisitKeepsItsTimesAndTakesGooglesName() {
        var visits = [
            Visit(start: minutes(0), end: minutes(50), center: office, spread: 10, fixes: 50, place: 1),
            Visit(start: minutes(70), end: minutes(130), center: park, spread: 10, fixes: 60, place: 2),
        ]
        var trips: [Trip] = []
        let said = [
            SaidVisit(start: minutes(-5), end: minutes(52), coordinate: office, name: "Office", placeID: "ChIJoffice"),
            SaidVisit(start: minutes(68), end: minutes(131), coordinate: park, name: "Rieterpark"),
            // A short one inside the office visit does not rename it.
            SaidVisit(start: minutes(20), end: minutes(25), coordinate: office, name: "Canteen"),
        ]
        SaidVisit.merge(said, visits: &visits, trips: &trips)
        #expect(visits.count == 2 && visits[0].start == minutes(0) && visits[1].end == minutes(130))
        #expect(SaidVisit.names(said, visits: visits) == [1: "Office", 2: "Rieterpark"])
    }

    @Test func aTripMostlyOutsideGooglesVisitsStays() {
        var visits: [Visit] = []
        var trips = [
            Trip(
                start: minutes(0), end: minutes(60), from: office, to: park, distance: 5000, mode: .cycling,
                movingSeconds: 3000, medianSpeed: 4, highSpeed: 6, fixes: 300)
        ]
        SaidVisit.merge(
            [SaidVisit(start: minutes(40), end: minutes(90), coordinate: park, name: "Rieterpark")], visits: &visits,
            trips: &trips)
        #expect(trips.count == 1, "20 of its 60 minutes were in the visit")
        #expect(visits.count == 1)
    }
}

/// Google's activity segments with only their ends: trips of their own, with their activity's mode.
@Suite struct SaidTripTests {
    let basel = Coordinate(latitude: 47.5476, longitude: 7.5897)
    let zurich = Coordinate(latitude: 47.3779, longitude: 8.5403)
    let t0: Int64 = 1_780_000_000_000

    @Test func aSegmentWithOnlyItsEndsIsATripByItsActivity() {
        var visits = [
            Visit(start: t0 - 3_600_000, end: t0, center: basel, spread: 0, fixes: 0),
            Visit(start: t0 + 3_600_000, end: t0 + 7_200_000, center: zurich, spread: 0, fixes: 0),
        ]
        var trips: [Trip] = []
        let train = SaidTrip(
            start: t0, end: t0 + 3_600_000, from: basel, to: zurich, distance: 86_000, activity: .train)
        SaidVisit.merge([], visits: &visits, trips: &trips)
        SaidTrip.merge([train], visits: visits, trips: &trips)
        #expect(trips.count == 1)
        #expect(trips.first?.mode == .train && trips.first?.distance == 86_000 && trips.first?.modeFrom == .phone)
        // Cycling, by bicycle; a vehicle at train speed over a long way is a train; no activity: the speed's.
        #expect(
            SaidTrip(start: t0, end: t0 + 1_800_000, from: basel, to: zurich, distance: 9000, activity: .cycling).mode
                == .cycling)
        #expect(SaidTrip(start: t0, end: t0 + 1_500_000, from: basel, to: zurich, activity: .vehicle).mode == .train)
        #expect(SaidTrip(start: t0, end: t0 + 3_600_000, from: basel, to: zurich, distance: 80_000).mode == .car)
    }

    @Test func aSegmentThePointsToldIsNotAddedAgain() {
        let found = Trip(
            start: t0, end: t0 + 3_600_000, from: basel, to: zurich, distance: 87_000, mode: .car,
            movingSeconds: 3500, medianSpeed: 25, highSpeed: 38, fixes: 360)
        var trips = [found]
        let said = SaidTrip(start: t0 + 60_000, end: t0 + 3_500_000, from: basel, to: zurich, activity: .train)
        SaidTrip.merge([said], visits: [], trips: &trips)
        #expect(trips == [found])
        // A stay the points saw there: no trip either.
        var none: [Trip] = []
        SaidTrip.merge(
            [said], visits: [Visit(start: t0, end: t0 + 3_600_000, center: basel, spread: 10, fixes: 60)], trips: &none)
        #expect(none.isEmpty)
    }
}
