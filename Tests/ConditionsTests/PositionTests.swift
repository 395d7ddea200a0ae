import Conditions
import Foundation
import Testing

/// Positions, illumination, twilights and transits against PyEphem (libastro: VSOP87 for the
/// Sun, ELP 2000-82 for the Moon), an independent implementation, at 360 fixed pseudo-random
/// moments 2019–2030 at six places from 64° N to 60° S (Fixtures/ephem-reference.csv, written by
/// Fixtures/make-ephem-reference.py). PyEphem's positions are airless, so the elevations here are
/// compared without refraction, which is checked on its own.
@Suite struct PositionTests {
    struct Row {
        let place: String
        let latitude: Double
        let longitude: Double
        let time: Date
        let values: [String: String]

        func number(_ key: String) -> Double { Double(values[key]!)! }
        func date(_ key: String) -> Date? {
            values[key].flatMap { $0.isEmpty ? nil : try? Date($0, strategy: .iso8601) }
        }
        var utcDay: DateInterval {
            let start = floor(time.timeIntervalSince1970 / 86_400) * 86_400
            return DateInterval(start: Date(timeIntervalSince1970: start), duration: 86_400)
        }
    }

    static let rows: [Row] = {
        let url = Bundle.module.url(forResource: "ephem-reference", withExtension: "csv", subdirectory: "Fixtures")!
        let lines = try! String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let values = Dictionary(uniqueKeysWithValues: zip(header, fields))
            return Row(
                place: values["place"]!, latitude: Double(values["lat"]!)!, longitude: Double(values["lon"]!)!,
                time: try! Date(values["time"]!, strategy: .iso8601), values: values)
        }
    }()

    /// Azimuth difference across north.
    func azimuthDifference(_ a: Double, _ b: Double) -> Double {
        abs((a - b + 540).truncatingRemainder(dividingBy: 360) - 180)
    }

    @Test func sunElevationWithinFiveHundredthsOfADegree() {
        #expect(Self.rows.count == 360)
        var worst = 0.0
        for row in Self.rows {
            let sun = Sky.sunConditions(at: row.time, latitude: row.latitude, longitude: row.longitude, day: row.utcDay)
            let airless = sun.elevation - refraction(elevation: Sky.geometricElevation(apparent: sun.elevation))
            let difference = abs(airless - row.number("sun_alt"))
            worst = max(worst, difference)
            #expect(
                difference <= 0.05,
                "sun elevation at \(row.place) \(row.time): \(airless) against \(row.number("sun_alt"))")
            if row.number("sun_alt") < 89 {
                #expect(
                    azimuthDifference(sun.azimuth, row.number("sun_az")) <= 0.1,
                    "sun azimuth at \(row.place) \(row.time)")
            }
        }
        print("sun elevation: largest difference \(worst)° over \(Self.rows.count) moments")
    }

    @Test func moonPositionAndIllumination() {
        var worstElevation = 0.0
        var worstIllumination = 0.0
        for row in Self.rows {
            let moon = Sky.moonConditions(
                at: row.time, latitude: row.latitude, longitude: row.longitude, day: row.utcDay)
            let airless = moon.elevation - refraction(elevation: Sky.geometricElevation(apparent: moon.elevation))
            worstElevation = max(worstElevation, abs(airless - row.number("moon_alt")))
            #expect(abs(airless - row.number("moon_alt")) <= 0.05, "moon elevation at \(row.place) \(row.time)")
            #expect(
                azimuthDifference(moon.azimuth, row.number("moon_az")) <= 0.2,
                "moon azimuth at \(row.place) \(row.time)")
            worstIllumination = max(worstIllumination, abs(moon.illumination - row.number("moon_fraction")))
            #expect(abs(moon.illumination - row.number("moon_fraction")) <= 0.01, "illumination at \(row.time)")
            #expect(
                azimuthDifference(moon.phaseAngle, row.number("moon_elongation")) <= 0.05, "phase angle at \(row.time)")
        }
        print("moon: largest elevation difference \(worstElevation)°, illumination \(worstIllumination)")
    }

    @Test func twilightsAndTransitsWithinAMinute() {
        var worst = 0.0
        for row in Self.rows {
            let sun = Sky.sunConditions(at: row.time, latitude: row.latitude, longitude: row.longitude, day: row.utcDay)
            let moon = Sky.moonConditions(
                at: row.time, latitude: row.latitude, longitude: row.longitude, day: row.utcDay)
            let pairs: [(String, Date?)] = [
                ("civil_dawn", sun.civilDawn), ("civil_dusk", sun.civilDusk), ("nautical_dawn", sun.nauticalDawn),
                ("nautical_dusk", sun.nauticalDusk), ("moon_upper_transit", moon.upperTransit),
                ("moon_lower_transit", moon.lowerTransit),
            ]
            for (key, computed) in pairs {
                let reference = row.date(key)
                guard let reference, let computed else {
                    #expect(
                        reference == nil && computed == nil,
                        "\(key) at \(row.place) on \(row.utcDay.start): \(String(describing: reference)) against \(String(describing: computed))"
                    )
                    continue
                }
                let difference = abs(computed.timeIntervalSince(reference)) / 60
                worst = max(worst, difference)
                #expect(
                    difference <= 1, "\(key) at \(row.place) on \(row.utcDay.start): \(computed) against \(reference)")
            }
        }
        print("twilights and transits: largest difference \(worst) min")
    }

    @Test func refractionIsAboutHalfADegreeAtTheHorizonAndNoneOverhead() {
        #expect(abs(refraction(elevation: 0) - 0.48) < 0.01)  // NOAA: 1735″ at 0°
        #expect(abs(refraction(elevation: 10) - 0.089) < 0.005)
        #expect(refraction(elevation: 89) == 0)
        // Continuous where the formula changes pieces.
        #expect(abs(refraction(elevation: 5.0001) - refraction(elevation: 4.9999)) < 0.002)
        #expect(abs(refraction(elevation: -0.5749) - refraction(elevation: -0.5751)) < 0.002)
    }

    @Test func phaseNamesCoverTheCycleInEighths() {
        #expect(MoonPhaseName(phaseAngle: 0) == .newMoon)
        #expect(MoonPhaseName(phaseAngle: 350) == .newMoon)
        #expect(MoonPhaseName(phaseAngle: 90) == .firstQuarter)
        #expect(MoonPhaseName(phaseAngle: 180) == .fullMoon)
        #expect(MoonPhaseName(phaseAngle: 250) == .lastQuarter)
        #expect(MoonPhaseName(phaseAngle: 300) == .waningCrescent)
        #expect(Set((0..<360).map { MoonPhaseName(phaseAngle: Double($0)) }).count == 8)
    }
}
