import GPSCore

/// Keeps fixes inside the daily active-hours windows (local time of the configured zone).
public struct ActiveHoursFilter: FixFilter {
    public let hours: ActiveHours

    public init(hours: ActiveHours) { self.hours = hours }

    public func reasonToDrop(_ fix: Fix, after latest: Fix?) -> DropReason? {
        guard let ms = fix.unixMilliseconds else { return .missingTime }
        return hours.occurrence(atUnixSeconds: Double(ms) / 1000) == nil ? .outsideActiveHours : nil
    }
}
