import GPSCore
import Testing

@Suite struct GeodesyTests {
    /// Vincenty's own test line (Flinders Peak to Buninyong, 54 972.271 m) and the WGS-84
    /// length of the first degree of latitude (110 574.389 m).
    @Test func ellipsoidalDistancesMatchPublishedValues() {
        let flinders = Coordinate(
            latitude: -(37 + 57 / 60.0 + 3.72030 / 3600), longitude: 144 + 25 / 60.0 + 29.52440 / 3600)
        let buninyong = Coordinate(
            latitude: -(37 + 39 / 60.0 + 10.15610 / 3600), longitude: 143 + 55 / 60.0 + 35.38390 / 3600)
        #expect(abs(Geodesy.ellipsoidalDistance(flinders, buninyong) - 54_972.271) < 0.001)
        let degree = Geodesy.ellipsoidalDistance(
            Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 1, longitude: 0))
        #expect(abs(degree - 110_574.389) < 0.01)
        #expect(Geodesy.ellipsoidalDistance(flinders, flinders) == 0)
    }

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

    @Test func localDistanceIsHaversineWithinATenthOfAPercentUpToTenKilometres() {
        for latitude in stride(from: -79.0, through: 79, by: 7) {
            for bearing in stride(from: 0.0, to: 360, by: 30) {
                for metres in [1.0, 50, 100, 250, 1000, 10_000] {
                    let a = Coordinate(latitude: latitude, longitude: 179.99)
                    let b = Geodesy.destination(from: a, bearing: bearing, distance: metres)
                    let exact = Geodesy.haversineDistance(a, b)
                    let local = Geodesy.localDistance(a, b)
                    #expect(
                        abs(local - exact) <= exact * 0.001,
                        "\(latitude)° \(bearing)° \(metres) m: \(local) vs \(exact)")
                }
            }
        }
        // Far apart it is no longer exact, but never near a stay's radius.
        let zurich = Coordinate(latitude: 47.37, longitude: 8.54)
        #expect(Geodesy.localDistance(zurich, Coordinate(latitude: 51.47, longitude: -0.45)) > 700_000)
        #expect(Geodesy.localDistance(zurich, Coordinate(latitude: -33.9, longitude: -151.2)) > 1_000_000)
    }
}
