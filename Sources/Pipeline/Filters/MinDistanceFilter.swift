import GPSCore

/// Drops a fix closer than `metres` to the last kept one.
public struct MinDistanceFilter: FixFilter {
    /// Metres; 0 turns the filter off.
    public var metres: Double

    public init(metres: Double) { self.metres = metres }

    public func reasonToDrop(_ fix: Fix, after lastKept: Fix?) -> DropReason? {
        guard metres > 0, let a = lastKept?.coordinate, let b = fix.coordinate else { return nil }
        return Geodesy.haversineDistance(a, b) < metres ? .minDistance : nil
    }
}
