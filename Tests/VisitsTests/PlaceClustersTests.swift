import Foundation
import GPSCore
import RideSimulator
import Testing

@testable import Visits

@Suite struct PlaceClustersTests {
    @Test func aFortnightsVisitsMakeItsPlacesWithHomeAndWork() throws {
        let movements = StayDetector.movements(Fortnight.simulator().compactMap(VisitPoint.init))
        var visits = movements.compactMap { if case .visit(let v) = $0 { v } else { nil } }
        let office = Place(name: "Office", center: Fortnight.work, radius: 80)
        let places = PlaceClusters.assign(
            &visits, userPlaces: [office], zone: try #require(TimeZone(identifier: "Europe/Zurich")))
        // home, work, canteen, park, friend, café, Konstanz, its lakeside, two airports, hotel, museum.
        #expect(places.count == 12, "\(places.map(\.center))")
        #expect(visits.allSatisfy { $0.place != nil })
        func place(near c: Coordinate) -> VisitPlace? {
            places.first { Geodesy.haversineDistance($0.center, c) < 30 }
        }
        let home = try #require(place(near: Fortnight.home))
        let work = try #require(place(near: Fortnight.work))
        #expect(home.suggestion == "home" && home.id == 1, "the first place visited is 1")
        #expect(work.suggestion == "work" && work.name == "Office", "the user's own name wins")
        #expect(places.filter { $0.suggestion != nil }.count == 2)
        #expect(
            place(near: Fortnight.canteen)?.visits == 9, "lunch on nine working days (not on the Friday of the flight)")
        #expect(place(near: Fortnight.zurichAirport)?.visits == 2)
        // The same visits again give the same numbers.
        var again = movements.compactMap { if case .visit(let v) = $0 { v } else { nil } }
        #expect(PlaceClusters.assign(&again, zone: .gmt).map(\.id) == places.map(\.id))
        #expect(again.map(\.place) == visits.map(\.place))
    }

    /// Each visit joins the place a look at every place would have given it (the nearest within
    /// the radius, the first made of two as near), wherever on Earth: around towns, near a pole,
    /// across the antimeridian, at radii from 20 m to 2 km.
    @Test(arguments: [
        (47.37, 8.54, 150.0), (78.22, 15.65, 150.0), (-16.5, 179.999, 300.0), (0.0, -179.9995, 20.0),
        (-89.9, 0.0, 200.0), (89.95, 120.0, 150.0),
    ])
    func theGridFindsWhatALookAtEveryPlaceFinds(_ lat: Double, _ lon: Double, _ radius: Double) {
        var generator = SystemRandomNumberGenerator()
        var visits: [Visit] = []
        // Clusters a few radii apart, each visited again and again with some spread, in time order.
        let spots = (0..<40).map { _ in
            (Double.random(in: -0.02...0.02, using: &generator), Double.random(in: -0.02...0.02, using: &generator))
        }
        for k in 0..<1500 {
            let (dlat, dlon) = spots[Int.random(in: 0..<spots.count, using: &generator)]
            let jitter = radius / 111_000 * 0.8
            var lo = lon + dlon + Double.random(in: -jitter...jitter, using: &generator)
            if lo > 180 { lo -= 360 }
            if lo < -180 { lo += 360 }
            let la = Swift.max(-90, Swift.min(90, lat + dlat * 0.1 + Double.random(in: -jitter...jitter)))
            let start = Int64(k) * 3_600_000
            visits.append(
                Visit(
                    start: start, end: start + Int64.random(in: 300_000...7_200_000),
                    center: Coordinate(latitude: la, longitude: lo),
                    spread: 10, fixes: 10))
        }
        var rules = VisitRules()
        rules.placeRadius = radius
        var fast = visits
        let places = PlaceClusters.assign(&fast, rules: rules, zone: .gmt)
        // The look at every place, as the assignment was written first.
        var slow = visits
        var centres: [(center: Coordinate, seconds: Double)] = []
        for i in slow.indices {
            var best: (index: Int, distance: Double)?
            for (j, p) in centres.enumerated() {
                let d = Geodesy.haversineDistance(p.center, slow[i].center)
                if d <= radius, d < best?.distance ?? .infinity { best = (j, d) }
            }
            let weight = Swift.max(slow[i].seconds, 1)
            if let best {
                let p = centres[best.index]
                let total = p.seconds + weight
                centres[best.index] = (
                    Coordinate(
                        latitude: (p.center.latitude * p.seconds + slow[i].center.latitude * weight) / total,
                        longitude: (p.center.longitude * p.seconds + slow[i].center.longitude * weight) / total),
                    total
                )
                slow[i].place = best.index + 1
            } else {
                centres.append((slow[i].center, weight))
                slow[i].place = centres.count
            }
        }
        #expect(places.count == centres.count)
        let differ = fast.indices.first { fast[$0].place != slow[$0].place }
        #expect(
            differ == nil,
            "visit \(differ ?? -1): \(differ.map { "\(fast[$0].center) \(String(describing: fast[$0].place)) against \(String(describing: slow[$0].place))" } ?? "")"
        )
        #expect(places.count > 1 && places.count < visits.count / 5, "\(places.count) places")
    }
}
