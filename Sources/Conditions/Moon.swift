import Foundation

/// The Moon's apparent geocentric position to about 10″ in longitude and 4″ in latitude
/// (Meeus, chapter 47, with the tables in MoonTerms.swift).
struct Moon {
    /// Apparent ecliptic longitude and latitude, degrees.
    let longitude: Double
    let latitude: Double
    /// Distance between the centres of Earth and Moon, km.
    let distance: Double
    let equatorial: Equatorial

    /// Equatorial horizontal parallax, degrees.
    var parallax: Double { Angle.asin(6_378.14 / distance) }

    init(_ time: AstroTime) {
        let t = time.centuriesTT
        let t2 = t * t
        let t3 = t2 * t
        let t4 = t3 * t
        let meanLongitude = 218.316_447_7 + 481_267.881_234_21 * t - 0.001_578_6 * t2 + t3 / 538_841 - t4 / 65_194_000
        let elongation = 297.850_192_1 + 445_267.111_403_4 * t - 0.001_881_9 * t2 + t3 / 545_868 - t4 / 113_065_000
        let sunAnomaly = 357.529_109_2 + 35_999.050_290_9 * t - 0.000_153_6 * t2 + t3 / 24_490_000
        let moonAnomaly = 134.963_396_4 + 477_198.867_505_5 * t + 0.008_741_4 * t2 + t3 / 69_699 - t4 / 14_712_000
        let argument = 93.272_095_0 + 483_202.017_523_3 * t - 0.003_653_9 * t2 - t3 / 3_526_000 + t4 / 863_310_000
        let a1 = 119.75 + 131.849 * t
        let a2 = 53.09 + 479_264.290 * t
        let a3 = 313.45 + 481_266.484 * t
        let e = 1 - 0.002_516 * t - 0.000_007_4 * t2

        func angle(_ d: Int8, _ m: Int8, _ mp: Int8, _ f: Int8) -> Double {
            Double(d) * elongation + Double(m) * sunAnomaly + Double(mp) * moonAnomaly + Double(f) * argument
        }
        // Terms with the Sun's anomaly shrink with the eccentricity of the Earth's orbit.
        func eccentricity(_ m: Int8) -> Double { m == 0 ? 1 : (abs(m) == 1 ? e : e * e) }

        var sumL = 0.0
        var sumR = 0.0
        for (d, m, mp, f, l, r) in Moon.longitudeDistanceTerms {
            let x = angle(d, m, mp, f)
            let k = eccentricity(m)
            sumL += Double(l) * k * Angle.sin(x)
            sumR += Double(r) * k * Angle.cos(x)
        }
        var sumB = 0.0
        for (d, m, mp, f, b) in Moon.latitudeTerms {
            sumB += Double(b) * eccentricity(m) * Angle.sin(angle(d, m, mp, f))
        }
        sumL += 3958 * Angle.sin(a1) + 1962 * Angle.sin(meanLongitude - argument) + 318 * Angle.sin(a2)
        sumB +=
            -2235 * Angle.sin(meanLongitude) + 382 * Angle.sin(a3) + 175 * Angle.sin(a1 - argument)
            + 175 * Angle.sin(a1 + argument) + 127 * Angle.sin(meanLongitude - moonAnomaly)
            - 115 * Angle.sin(meanLongitude + moonAnomaly)

        let nutation = Nutation(centuries: t)
        longitude = Angle.wrap360(meanLongitude + sumL / 1_000_000 + nutation.longitude)
        latitude = sumB / 1_000_000
        distance = 385_000.56 + sumR / 1000
        equatorial = Equatorial(longitude: longitude, latitude: latitude, obliquity: nutation.obliquity)
    }
}
