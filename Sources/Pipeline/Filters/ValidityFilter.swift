import GPSCore

/// A fix, a plausible position (in range, finite, not exactly 0/0), a date and time, and a time
/// after the latest accepted fix (duplicates and out-of-order fixes are dropped).
public struct ValidityFilter: FixFilter {
    public init() {}

    public func reasonToDrop(_ fix: Fix, after latest: Fix?) -> DropReason? {
        guard fix.mode >= .twoD, let c = fix.coordinate else { return .noFix }
        guard c.isPlausible else { return .badPosition }
        guard let t = fix.unixMilliseconds else { return .missingTime }
        if let previous = latest?.unixMilliseconds, t <= previous { return .notLater }
        return nil
    }
}
