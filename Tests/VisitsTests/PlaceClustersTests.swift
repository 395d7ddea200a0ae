import Foundation
import GPSCore
import RideSimulator
import Testing
import Visits

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
}
