import Foundation

/// Daily windows of local time in which fixes are recorded, e.g. "07:00-12:00", overnight
/// "22:00-06:00", optionally only on some weekdays, in a given time zone (daylight saving
/// handled by the zone's rules).
public struct ActiveHours: Equatable, Sendable {
    /// One daily window, minutes after local midnight; `end < start` runs past midnight.
    public struct Window: Equatable, Sendable, CustomStringConvertible {
        public var start: Int
        public var end: Int

        /// Parses "HH:MM-HH:MM" (24-hour clock; "24:00" allowed as an end).
        public init?(_ text: String) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let s = Self.minutes(parts[0], allow24: false),
                let e = Self.minutes(parts[1], allow24: true), s != e
            else { return nil }
            start = s
            end = e
        }

        static func minutes(_ text: Substring, allow24: Bool) -> Int? {
            let hm = text.trimmingCharacters(in: .whitespaces).split(separator: ":")
            guard hm.count == 2, hm[0].count == 2, hm[1].count == 2, let h = Int(hm[0]), let m = Int(hm[1]),
                m >= 0, m < 60, h >= 0, h < 24 || (allow24 && h == 24 && m == 0)
            else { return nil }
            return h * 60 + m
        }

        public var description: String {
            func hhmm(_ v: Int) -> String { String(format: "%02d:%02d", v / 60, v % 60) }
            return hhmm(start) + "-" + hhmm(end)
        }
    }

    public var windows: [Window]
    /// Weekdays the windows start on, 1 = Monday ... 7 = Sunday; empty means every day.
    public var weekdays: Set<Int>
    public var timeZone: TimeZone

    public init(windows: [Window], weekdays: Set<Int> = [], timeZone: TimeZone) {
        self.windows = windows
        self.weekdays = weekdays
        self.timeZone = timeZone
    }

    /// Which occurrence of which window contains the instant, or nil when none does.
    ///
    /// The occurrence is identified by its local start day and window index, so two fixes in
    /// the same occurrence belong together and a fix in the next one starts a new segment.
    public func occurrence(atUnixSeconds t: Double) -> Occurrence? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let date = Date(timeIntervalSince1970: t)
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: date)
        let minuteOfDay = c.hour! * 60 + c.minute!
        let weekday = (c.weekday! + 5) % 7 + 1  // Calendar: 1 = Sunday; here 1 = Monday
        let dayKey = c.year! * 10_000 + c.month! * 100 + c.day!
        for (i, w) in windows.enumerated() {
            if w.start < w.end {
                if minuteOfDay >= w.start && minuteOfDay < w.end && allows(weekday) {
                    return Occurrence(startDay: dayKey, window: i)
                }
            } else {
                if minuteOfDay >= w.start && allows(weekday) {
                    return Occurrence(startDay: dayKey, window: i)
                }
                let previous = weekday == 1 ? 7 : weekday - 1
                if minuteOfDay < w.end && allows(previous) {
                    let yesterday = calendar.date(byAdding: .day, value: -1, to: date)!
                    let y = calendar.dateComponents([.year, .month, .day], from: yesterday)
                    return Occurrence(startDay: y.year! * 10_000 + y.month! * 100 + y.day!, window: i)
                }
            }
        }
        return nil
    }

    private func allows(_ weekday: Int) -> Bool { weekdays.isEmpty || weekdays.contains(weekday) }

    /// One occurrence of a window: the local day it starts on (YYYYMMDD) and the window's index.
    public struct Occurrence: Equatable, Sendable {
        public var startDay: Int
        public var window: Int
    }
}
