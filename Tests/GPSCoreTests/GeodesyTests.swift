import GPSCore
import Testing

@Suite struct GeodesyTests {
    @Test func oneDegreeOfLatitude() {
        let d = Geodesy.haversineDistance(Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 0))
        #expect(abs(d - 111_195) < 1)
    }

    @Test func destinationInvertsDistanceAndBearing() {
        let start = Coordinate(latitude: 47.3769, longitude: 8.5417)
        for bearing in stride(from: 0.0, to: 360, by: 45) {
            let end = Geodesy.destination(from: start, bearing: bearing, distance: 1000)
            #expect(abs(Geodesy.haversineDistance(start, end) - 1000) < 1e-6)
            let back = Geodesy.bearing(from: start, to: end)
            #expect(min(abs(back - bearing), 360 - abs(back - bearing)) < 1e-3)
        }
    }

    @Test func plausibility() {
        #expect(Coordinate(latitude: 0, longitude: 0).isPlausible == false)
        #expect(Coordinate(latitude: 91, longitude: 0).isPlausible == false)
        #expect(Coordinate(latitude: .nan, longitude: 0).isPlausible == false)
        #expect(Coordinate(latitude: -33.9, longitude: 151.2).isPlausible)
    }
}
