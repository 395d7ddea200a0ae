import Foundation
import GPSCore
import RideSimulator
import Testing
import Visits

/// Stable place ids and the user's corrections over the simulated fortnight's visits and trips.
@Suite struct RememberedTests {
    let zurich = TimeZone(identifier: "Europe/Zurich")!

    func found() -> (visits: [Visit], trips: [Trip]) {
        let movements = StayDetector.movements(Fortnight.simulator().compactMap(VisitPoint.init))
        return (
            movements.compactMap { if case .visit(let v) = $0 { v } else { nil } },
            movements.compactMap { if case .trip(let t) = $0 { t } else { nil } }
        )
    }

    @Test func foundPlacesTakeTheIdsTheyWereRememberedBy() throws {
        var (visits, trips) = found()
        let places = PlaceClusters.assign(&visits, zone: zurich)
        // Home was remembered as 40 (a little off its centre, within the radius), work as 41
        // with the user's name; the canteen is new.
        let home = try #require(places.first { $0.suggestion == "home" })
        let work = try #require(places.first { $0.suggestion == "work" })
        let known = [
            Remembered.Known(
                id: 40, center: Coordinate(latitude: home.center.latitude + 0.0005, longitude: home.center.longitude)),
            Remembered.Known(id: 41, center: work.center, name: "Office"),
            Remembered.Known(id: 42, center: Coordinate(latitude: 0, longitude: 0)),
        ]
        var ids = Remembered.match(places, known: known, radius: 150)
        #expect(ids[home.id] == 40 && ids[work.id] == 41, "\(ids)")
        #expect(ids.count == 2, "only home and work were known: \(ids)")
        // The rest are given new ids (as a store would), then applied.
        var all = known
        for p in places where ids[p.id] == nil {
            ids[p.id] = 100 + p.id
            all.append(.init(id: 100 + p.id, center: p.center))
        }
        let out = Remembered.apply(
            [], visits: &visits, trips: &trips, ids: ids, known: all, userPlaces: [], zone: zurich)
        #expect(Set(out.map(\.id)) == Set(ids.values).subtracting([42]), "\(out.map(\.id))")
        let again = try #require(out.first { $0.id == 40 })
        #expect(again.suggestion == "home" && again.center == known[0].center, "the remembered centre: \(again)")
        #expect(out.first { $0.id == 41 }?.name == "Office", "the user's name for it")
        #expect(out.map(\.visits).reduce(0, +) == visits.count, "every visit counted once")
        #expect(visits.allSatisfy { $0.place.map { $0 >= 40 } == true }, "every visit has a remembered id")
    }

    @Test func correctionsApplyToTheTripOrVisitThatHoldsTheirMoment() throws {
        var (visits, trips) = found()
        let places = PlaceClusters.assign(&visits, zone: zurich)
        let ids = Dictionary(uniqueKeysWithValues: places.map { ($0.id, $0.id) })
        let known = places.map { Remembered.Known(id: $0.id, center: $0.center) }
        let cycle = try #require(trips.first { $0.mode == .cycling })
        let lunch = try #require(visits.first { $0.place == 3 })
        let corrections: [Remembered.Correction] = [
            .mode(at: (cycle.start + cycle.end) / 2, .running),
            .place(at: lunch.start + 60_000, 5),
            // A moment no trip holds, and a place no one knows: nothing happens.
            .mode(at: lunch.start + 60_000, .plane),
            .place(at: cycle.start + 1000, 999),
        ]
        let before = (visits, trips)
        let out = Remembered.apply(
            corrections, visits: &visits, trips: &trips, ids: ids, known: known, userPlaces: [], zone: zurich)
        let corrected = try #require(trips.first { $0.start == cycle.start })
        #expect(corrected.mode == .running && corrected.modeCorrected)
        #expect(trips.filter(\.modeCorrected).count == 1, "one trip changed")
        let moved = try #require(visits.first { $0.start == lunch.start })
        #expect(moved.place == 5 && moved.placeCorrected)
        #expect(visits.filter(\.placeCorrected).count == 1, "one visit moved")
        #expect(
            out.first { $0.id == 3 }?.visits == (places.first { $0.id == 3 }?.visits ?? 0) - 1,
            "the canteen has one visit less")
        #expect(before.0.count == visits.count && before.1.count == trips.count, "nothing added or taken away")
    }
}

/// The phone's word for a trip's mode: its activity over most of the trip, or Google's.
@Suite struct SaidModeTests {
    /// Ten minutes still, a straight ride east at `speed` m/s for `seconds` (a fix every 5 s,
    /// the phone saying `activity` at second i of it), ten minutes still: the trip between.
    func trip(speed: Double, seconds: Int, activity: (Int) -> MotionActivity?) throws -> Trip {
        let t0: Int64 = 1_780_000_000_000
        func point(_ t: Int, metres: Double, speed: Double, _ said: MotionActivity?) -> VisitPoint {
            VisitPoint(
                milliseconds: t0 + Int64(t) * 1000,
                coordinate: Coordinate(latitude: 47, longitude: 8 + metres / 75_800),
                accuracy: 5, speed: speed, activity: said)
        }
        var points: [VisitPoint] = []
        for t in stride(from: 0, to: 600, by: 5) { points.append(point(t, metres: 0, speed: 0, nil)) }
        for i in stride(from: 0, through: seconds, by: 5) {
            points.append(point(600 + i, metres: speed * Double(i), speed: speed, activity(i)))
        }
        for t in stride(from: 5, to: 600, by: 5) {
            points.append(point(600 + seconds + t, metres: speed * Double(seconds), speed: 0, nil))
        }
        let trips = StayDetector.movements(points).compactMap { if case .trip(let t) = $0 { t } else { nil } }
        return try #require(trips.first)
    }

    @Test func thePhonesWordWinsWhenItCoversHalfTheTrip() throws {
        // 6 m/s reads as cycling by speed; a phone in a car says driving.
        let slowCar = try trip(speed: 6, seconds: 600) { _ in .vehicle }
        #expect(slowCar.mode == .car && slowCar.modeFrom == .phone)
        let bike = try trip(speed: 6, seconds: 600) { _ in nil }
        #expect(bike.mode == .cycling && bike.modeFrom == .speeds)
        // A vehicle at train speeds is a train; the phone saying so for a third only: the speeds.
        let train = try trip(speed: 60, seconds: 600) { _ in .vehicle }
        #expect(train.mode == .train && train.modeFrom == .phone)
        let partly = try trip(speed: 6, seconds: 600) { $0 < 200 ? .running : nil }
        #expect(partly.mode == .cycling && partly.modeFrom == .speeds)
        // Still at the lights says nothing about the mode.
        let lights = try trip(speed: 6, seconds: 600) { $0 % 60 < 40 ? .still : .cycling }
        #expect(lights.mode == .cycling && lights.modeFrom == .speeds, "\(lights)")
    }

    @Test func googlesActivitySegmentsGiveTheModeWhereNoPhoneDid() throws {
        var trips = [
            try trip(speed: 6, seconds: 600) { _ in nil }, try trip(speed: 6, seconds: 600) { _ in .cycling },
        ]
        trips[1].start += 3_600_000
        trips[1].end += 3_600_000
        let said = [
            Trip.Said(start: trips[0].start - 60_000, end: trips[0].end - 200_000, activity: .vehicle),
            Trip.Said(start: trips[1].start, end: trips[1].end, activity: .walking),
        ]
        Trip.hear(said, in: &trips)
        #expect(trips[0].mode == .car && trips[0].modeFrom == .phone, "Google's drive covers two thirds")
        #expect(trips[1].mode == .cycling, "the phone's own word is not overruled")
    }
}
