import GPSCore

/// The accuracy gate: largest HDOP, fewest satellites, lowest mode, largest error estimate.
/// A fix that does not report a value passes that check.
public struct AccuracyFilter: FixFilter {
    public var maxHDOP: Double?
    public var minSatellites: Int?
    public var minMode: Int
    public var maxErrorMetres: Double?

    public init(maxHDOP: Double?, minSatellites: Int?, minMode: Int, maxErrorMetres: Double?) {
        self.maxHDOP = maxHDOP
        self.minSatellites = minSatellites
        self.minMode = minMode
        self.maxErrorMetres = maxErrorMetres
    }

    public func reasonToDrop(_ fix: Fix, after latest: Fix?) -> DropReason? {
        if let max = maxHDOP, let h = fix.hdop, h > max { return .hdop }
        if let min = minSatellites, let n = fix.satellitesUsed, n < min { return .satellites }
        if fix.mode.rawValue < minMode { return .mode }
        if let max = maxErrorMetres, let e = fix.horizontalError, e > max { return .errorEstimate }
        return nil
    }
}
