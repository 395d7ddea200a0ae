import Foundation

/// Degrees and radians, and angles brought into a range.
enum Angle {
    static let radiansPerDegree = Double.pi / 180

    static func sin(_ degrees: Double) -> Double { Foundation.sin(degrees * radiansPerDegree) }
    static func cos(_ degrees: Double) -> Double { Foundation.cos(degrees * radiansPerDegree) }
    static func tan(_ degrees: Double) -> Double { Foundation.tan(degrees * radiansPerDegree) }
    static func asin(_ value: Double) -> Double { Foundation.asin(max(-1, min(1, value))) / radiansPerDegree }
    static func atan2(_ y: Double, _ x: Double) -> Double { Foundation.atan2(y, x) / radiansPerDegree }

    /// The angle in [0, 360).
    static func wrap360(_ degrees: Double) -> Double {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : r
    }

    /// The angle in [-180, 180).
    static func wrap180(_ degrees: Double) -> Double { wrap360(degrees + 180) - 180 }
}

/// A moment on the time scales the formulas need: Julian days of Universal Time (for the
/// Earth's rotation) and of Terrestrial Time (for the orbits), Meeus, chapters 7, 10 and 12.
struct AstroTime {
    /// Julian day, UT (UTC is within 0.9 s of UT1, far below what is computed here).
    let julianDayUT: Double
    /// Julian day, TT = UT + ΔT.
    let julianDayTT: Double

    init(_ date: Date) {
        julianDayUT = date.timeIntervalSince1970 / 86_400 + 2_440_587.5
        julianDayTT = julianDayUT + AstroTime.deltaT(julianDayUT: julianDayUT) / 86_400
    }

    /// Julian centuries of TT since J2000.0.
    var centuriesTT: Double { (julianDayTT - 2_451_545) / 36_525 }

    /// Greenwich mean sidereal time in degrees (Meeus 12.4).
    var meanSiderealTime: Double {
        let t = (julianDayUT - 2_451_545) / 36_525
        return Angle.wrap360(
            280.460_618_37 + 360.985_647_366_29 * (julianDayUT - 2_451_545) + 0.000_387_933 * t * t
                - t * t * t / 38_710_000)
    }

    /// ΔT = TT − UT in seconds: the polynomials of Espenak and Meeus (NASA, 2006) for the years
    /// this program meets; a few seconds off for the coming decades, which moves the Moon by
    /// about a second of arc.
    static func deltaT(julianDayUT: Double) -> Double {
        let year = 2000 + (julianDayUT - 2_451_544.5) / 365.25
        switch year {
        case ..<1961:
            let u = (year - 1820) / 100
            return -20 + 32 * u * u
        case ..<1986:
            let t = year - 1975
            return 45.45 + 1.067 * t - t * t / 260 - t * t * t / 718
        case ..<2005:
            let t = year - 2000
            return 63.86 + 0.3345 * t - 0.060_374 * t * t + 0.001_727_5 * t * t * t + 0.000_651_814 * t * t * t * t
                + 0.000_023_735_99 * t * t * t * t * t
        case ..<2050:
            let t = year - 2000
            return 62.92 + 0.322_17 * t + 0.005_589 * t * t
        case ..<2150:
            let u = (year - 1820) / 100
            return -20 + 32 * u * u - 0.5628 * (2150 - year)
        default:
            let u = (year - 1820) / 100
            return -20 + 32 * u * u
        }
    }
}

/// Nutation and the obliquity of the ecliptic to about 0.5″ (Meeus, chapter 22, the short
/// series).
struct Nutation {
    /// Nutation in longitude, degrees.
    let longitude: Double
    /// True obliquity of the ecliptic, degrees.
    let obliquity: Double

    init(centuries t: Double) {
        let node = 125.044_52 - 1_934.136_261 * t
        let sunLongitude = 280.4665 + 36_000.7698 * t
        let moonLongitude = 218.3165 + 481_267.8813 * t
        let dPsi =
            -17.20 * Angle.sin(node) - 1.32 * Angle.sin(2 * sunLongitude) - 0.23 * Angle.sin(2 * moonLongitude)
            + 0.21 * Angle.sin(2 * node)
        let dEpsilon =
            9.20 * Angle.cos(node) + 0.57 * Angle.cos(2 * sunLongitude) + 0.10 * Angle.cos(2 * moonLongitude)
            - 0.09 * Angle.cos(2 * node)
        let mean = 23.439_291_111 - (46.8150 * t + 0.000_59 * t * t - 0.001_813 * t * t * t) / 3600
        longitude = dPsi / 3600
        obliquity = mean + dEpsilon / 3600
    }
}

/// Right ascension and declination, degrees.
struct Equatorial {
    let rightAscension: Double
    let declination: Double

    /// From ecliptic longitude and latitude (Meeus 13.3, 13.4).
    init(longitude: Double, latitude: Double, obliquity: Double) {
        rightAscension = Angle.wrap360(
            Angle.atan2(
                Angle.sin(longitude) * Angle.cos(obliquity) - Angle.tan(latitude) * Angle.sin(obliquity),
                Angle.cos(longitude)))
        declination = Angle.asin(
            Angle.sin(latitude) * Angle.cos(obliquity)
                + Angle.cos(latitude) * Angle.sin(obliquity) * Angle.sin(longitude))
    }
}

/// Altitude and azimuth of a body for an observer (Meeus 13.5, 13.6), azimuth from north
/// through east.
struct Horizontal {
    let altitude: Double
    let azimuth: Double
    /// Local hour angle, degrees in [-180, 180): negative before the body's upper transit.
    let hourAngle: Double

    init(_ position: Equatorial, latitude: Double, longitude: Double, siderealTime: Double) {
        let h = Angle.wrap180(siderealTime + longitude - position.rightAscension)
        hourAngle = h
        altitude = Angle.asin(
            Angle.sin(latitude) * Angle.sin(position.declination)
                + Angle.cos(latitude) * Angle.cos(position.declination) * Angle.cos(h))
        azimuth = Angle.wrap360(
            Angle.atan2(
                Angle.sin(h), Angle.cos(h) * Angle.sin(latitude) - Angle.tan(position.declination) * Angle.cos(latitude)
            )
                + 180)
    }
}

/// Atmospheric refraction for a geometric elevation, degrees: NOAA's solar calculator
/// formula (standard atmosphere), continuous across its pieces.
public func refraction(elevation e: Double) -> Double {
    if e > 85 { return 0 }
    let t = Angle.tan(e)
    let seconds: Double
    if e > 5 {
        seconds = 58.1 / t - 0.07 / (t * t * t) + 0.000_086 / (t * t * t * t * t)
    } else if e > -0.575 {
        seconds = 1735 + e * (-518.2 + e * (103.4 + e * (-12.79 + e * 0.711)))
    } else {
        seconds = -20.774 / t
    }
    return seconds / 3600
}
