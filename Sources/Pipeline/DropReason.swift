/// Why the pipeline dropped a fix. Every dropped fix is counted under exactly one reason.
public enum DropReason: String, CaseIterable, Codable, Sendable, Comparable {
    /// The receiver had no fix (mode 1, or no position).
    case noFix = "no_fix"
    /// Latitude/longitude outside ±90/±180, not finite, or exactly 0/0.
    case badPosition = "bad_position"
    /// No date or time of day.
    case missingTime = "missing_time"
    /// Not later than the last kept fix (a duplicate, or out of order).
    case notLater = "not_later"
    /// Outside the configured daily active hours.
    case outsideActiveHours = "outside_active_hours"
    /// HDOP above the limit.
    case hdop
    /// Fewer satellites than required.
    case satellites
    /// 2D where 3D is required.
    case mode
    /// The receiver's error estimate above the limit.
    case errorEstimate = "error_estimate"
    /// Implied speed from the last kept fix above the limit, and not confirmed by the fixes after it.
    case jump
    /// Sooner than the interval after the last kept fix.
    case interval
    /// Closer than the minimum distance to the last kept fix.
    case minDistance = "min_distance"
    /// A phone's point (`serve`) timed more than ten minutes ahead of the server's clock: a
    /// phone's clock gone wrong (kept, it would make every real point after it late).
    case ahead

    public static func < (a: DropReason, b: DropReason) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
