import Foundation
import GPSCore

/// Local days: a date in a time zone, as the range of UTC milliseconds it covers.
public enum LocalDay {
    /// The first millisecond of `date` in `zone` (ms since 1970, UTC).
    public static func start(_ date: CivilDate, in zone: TimeZone) -> Int64 {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day))!
        return UTCTimestamp.milliseconds(of: start)
    }

    /// The date in `zone` of the moment `ms` (ms since 1970, UTC).
    public static func of(_ ms: Int64, in zone: TimeZone) -> CivilDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents(
            [.year, .month, .day], from: Date(timeIntervalSince1970: Double(ms) / 1000))
        return CivilDate(unchecked: c.year!, c.month!, c.day!)
    }

    /// `[start, end)` of `date` in `zone`.
    public static func range(_ date: CivilDate, in zone: TimeZone) -> (from: Int64, to: Int64) {
        (start(date, in: zone), start(date.adding(days: 1), in: zone))
    }
}
