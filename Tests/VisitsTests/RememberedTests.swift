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
