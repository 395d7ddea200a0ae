import Foundation

/// The Sun's apparent geocentric position to about 0.01° (Meeus, chapter 25, the low-accuracy
/// method; the same equations as NOAA's solar calculator).
struct Sun {
    /// Apparent ecliptic longitude, degrees.
    let longitude: Double
    /// Distance, astronomical units.
    let distance: Double
    let equatorial: Equatorial

    static let kilometresPerAU = 149_597_870.7

    init(_ time: AstroTime) {
        let t = time.centuriesTT
        let meanLongitude = 280.466_46 + 36_000.769_83 * t + 0.000_303_2 * t * t
        let anomaly = 357.529_11 + 35_999.050_29 * t - 0.000_153_7 * t * t
        let eccentricity = 0.016_708_634 - 0.000_042_037 * t - 0.000_000_126_7 * t * t
        let centre =
            (1.914_602 - 0.004_817 * t - 0.000_014 * t * t) * Angle.sin(anomaly)
            + (0.019_993 - 0.000_101 * t) * Angle.sin(2 * anomaly) + 0.000_289 * Angle.sin(3 * anomaly)
        let trueLongitude = meanLongitude + centre
        let trueAnomaly = anomaly + centre
        distance = 1.000_001_018 * (1 - eccentricity * eccentricity) / (1 + eccentricity * Angle.cos(trueAnomaly))
        let node = 125.04 - 1_934.136 * t
        longitude = Angle.wrap360(trueLongitude - 0.005_69 - 0.004_78 * Angle.sin(node))
        let nutation = Nutation(centuries: t)
        // The apparent position uses the true obliquity (Meeus 25.8).
        equatorial = Equatorial(longitude: longitude, latitude: 0, obliquity: nutation.obliquity)
    }
}
