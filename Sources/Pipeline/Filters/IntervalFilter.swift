import GPSCore

/// At most one fix per interval: drops a fix sooner than `interval` seconds after the last kept one.
public struct IntervalFilter: FixFilter {
    /// Seconds; 0 keeps every fix.
    public var interval: Double

    public init(interval: Double) { self.interval = interval }

    public func reasonToDrop(_ fix: Fix, after lastKept: Fix?) -> DropReason? {
        guard let last = lastKept?.unixMilliseconds, let t = fix.unixMilliseconds else { return nil }
        // A millisecond of slack: receivers' 1 s epochs are not always exactly 1000 ms apart.
        return Double(t - last) / 1000 < interval - 0.001 ? .interval : nil
    }
}
