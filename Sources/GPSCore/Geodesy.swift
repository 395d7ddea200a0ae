import Foundation

/// Distances and bearings on the Earth, for short hops between consecutive fixes.
public enum Geodesy {
    /// Mean Earth radius in metres (IUGG R1).
    public static let meanEarthRadius = 6_371_008.8

    /// Great-circle distance in metres between two coordinates (haversine on the mean sphere).
    ///
    /// Within 0.5% of the WGS-84 geodesic everywhere; the track statistics that need better
    /// use the ellipsoidal formula.
    public static func haversineDistance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let p1 = a.latitude * .pi / 180
        let p2 = b.latitude * .pi / 180
        let dp = p2 - p1
        let dl = (b.longitude - a.longitude) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * meanEarthRadius * asin(min(1, sqrt(h)))
    }

    /// The distance between two points a few kilometres apart, metres, on a plane at their mean
    /// latitude (equirectangular): within 0.1 % of ``haversineDistance(_:_:)`` up to 10 km below
    /// 80° of latitude (GeodesyTests); farther apart it errs more, but stays far above any radius
    /// of metres. One cosine instead of six trigonometric calls, for the comparison with a radius
    /// a stay detector makes at every fix.
    public static func localDistance(_ a: Coordinate, _ b: Coordinate) -> Double {
        let dp = (b.latitude - a.latitude) * .pi / 180
        // Longitudes within ±180° differ by at most 360°: one turn brings the difference within ±180°.
        var degrees = b.longitude - a.longitude
        if degrees > 180 { degrees -= 360 } else if degrees < -180 { degrees += 360 }
        let dl = degrees * .pi / 180
        let x = dl * cos((a.latitude + b.latitude) * .pi / 360)
        return meanEarthRadius * (dp * dp + x * x).squareRoot()
    }

    /// WGS-84 semi-major axis (m) and flattening.
    public static let wgs84A = 6_378_137.0
    public static let wgs84F = 1 / 298.257_223_563

    /// Geodesic distance in metres on the WGS-84 ellipsoid (Vincenty's inverse formula, which
    /// converges for all but nearly antipodal points; those fall back to the sphere).
    public static func ellipsoidalDistance(_ a: Coordinate, _ b: Coordinate) -> Double {
        if a == b { return 0 }
        let f = wgs84F
        let semiMinor = wgs84A * (1 - f)
        let u1 = atan((1 - f) * tan(a.latitude * .pi / 180))
        let u2 = atan((1 - f) * tan(b.latitude * .pi / 180))
        let l = (b.longitude - a.longitude) * .pi / 180
        let (sinU1, cosU1, sinU2, cosU2) = (sin(u1), cos(u1), sin(u2), cos(u2))
        var lambda = l
        for _ in 0..<200 {
            let sinLambda = sin(lambda)
            let cosLambda = cos(lambda)
            let sinSigma = sqrt(
                (cosU2 * sinLambda) * (cosU2 * sinLambda)
                    + (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda) * (cosU1 * sinU2 - sinU1 * cosU2 * cosLambda))
            if sinSigma == 0 { return 0 }
            let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            let sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            let cos2Alpha = 1 - sinAlpha * sinAlpha
            let cos2SigmaM = cos2Alpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cos2Alpha
            let c = f / 16 * cos2Alpha * (4 + f * (4 - 3 * cos2Alpha))
            let previous = lambda
            lambda =
                l + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 {
                let uSquared = cos2Alpha * (wgs84A * wgs84A - semiMinor * semiMinor) / (semiMinor * semiMinor)
                let bigA = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
                let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
                let deltaSigma =
                    bigB * sinSigma
                    * (cos2SigmaM + bigB / 4
                        * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - bigB / 6 * cos2SigmaM
                            * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
                return semiMinor * bigA * (sigma - deltaSigma)
            }
        }
        return haversineDistance(a, b)
    }

    /// Initial bearing in degrees true (0...360) from `a` towards `b`.
    public static func bearing(from a: Coordinate, to b: Coordinate) -> Double {
        let p1 = a.latitude * .pi / 180
        let p2 = b.latitude * .pi / 180
        let dl = (b.longitude - a.longitude) * .pi / 180
        let y = sin(dl) * cos(p2)
        let x = cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl)
        let deg = atan2(y, x) * 180 / .pi
        return deg < 0 ? deg + 360 : deg
    }

    /// The point `distance` metres from `start` along `bearing` degrees true (sphere).
    public static func destination(from start: Coordinate, bearing: Double, distance: Double) -> Coordinate {
        let d = distance / meanEarthRadius
        let t = bearing * .pi / 180
        let p1 = start.latitude * .pi / 180
        let l1 = start.longitude * .pi / 180
        let p2 = asin(sin(p1) * cos(d) + cos(p1) * sin(d) * cos(t))
        let l2 = l1 + atan2(sin(t) * sin(d) * cos(p1), cos(d) - sin(p1) * sin(p2))
        var lon = l2 * 180 / .pi
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return Coordinate(latitude: p2 * 180 / .pi, longitude: lon)
    }
}
