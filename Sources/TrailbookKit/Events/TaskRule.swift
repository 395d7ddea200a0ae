import Foundation
import GPSCore

/// When a task is due again: `daily`, `weekly`, or an RFC 5545 RRULE with FREQ (DAILY, WEEKLY,
/// MONTHLY, YEARLY), INTERVAL, BYDAY (for WEEKLY) and UNTIL; at the same local time of day as
/// the occurrence before, in the task's zone (so 08:00 stays 08:00 across a clock change).
public struct TaskRule: Equatable, Sendable {
    public enum Frequency: String, Sendable {
        case daily = "DAILY"
        case weekly = "WEEKLY"
        case monthly = "MONTHLY"
        case yearly = "YEARLY"
    }

    public var frequency: Frequency
    public var interval = 1
    /// Weekdays (1 Sunday ... 7 Saturday, as Calendar counts) for WEEKLY; empty: the occurrence's own.
    public var weekdays: Set<Int> = []
    /// No occurrence after this (ms).
    public var until: Int64?

    static let days = ["SU": 1, "MO": 2, "TU": 3, "WE": 4, "TH": 5, "FR": 6, "SA": 7]

    /// The rule in `text`; nil for an empty text (a task due once).
    public static func parse(_ text: String) throws(ScheduleError) -> TaskRule? {
        let t = text.trimmingCharacters(in: .whitespaces)
        switch t.lowercased() {
        case "": return nil
        case "daily": return TaskRule(frequency: .daily)
        case "weekly": return TaskRule(frequency: .weekly)
        default: break
        }
        var parts: [String: String] = [:]
        for part in t.uppercased().replacingOccurrences(of: "RRULE:", with: "").split(separator: ";") {
            let kv = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard kv.count == 2 else { throw .badRule(text, why: "'\(part)' is not NAME=VALUE") }
            parts[kv[0]] = kv[1]
        }
        guard let f = parts.removeValue(forKey: "FREQ"), let frequency = Frequency(rawValue: f) else {
            throw .badRule(text, why: "FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY")
        }
        var rule = TaskRule(frequency: frequency)
        if let i = parts.removeValue(forKey: "INTERVAL") {
            guard let n = Int(i), n >= 1, n <= 1000 else { throw .badRule(text, why: "INTERVAL must be 1 to 1000") }
            rule.interval = n
        }
        if let days = parts.removeValue(forKey: "BYDAY") {
            guard frequency == .weekly else { throw .badRule(text, why: "BYDAY is known with FREQ=WEEKLY only") }
            for d in days.split(separator: ",") {
                guard let n = Self.days[String(d)] else {
                    throw .badRule(text, why: "'\(d)' is not a weekday (MO...SU)")
                }
                rule.weekdays.insert(n)
            }
        }
        if let u = parts.removeValue(forKey: "UNTIL") {
            let digits = u.filter(\.isNumber)
            guard digits.count >= 8,
                let date = CivilDate(
                    iso: "\(digits.prefix(4))-\(digits.dropFirst(4).prefix(2))-\(digits.dropFirst(6).prefix(2))")
            else { throw .badRule(text, why: "UNTIL must be YYYYMMDD or YYYYMMDDTHHMMSSZ") }
            // The end of that day, UTC: an occurrence that day still counts.
            rule.until = Int64(date.daysSinceEpoch) * 86_400_000 + 86_399_999
        }
        if let other = parts.keys.sorted().first { throw .badRule(text, why: "\(other) is not supported") }
        return rule
    }

    /// The first occurrence after `after`, counting from the occurrence at `from`; nil past UNTIL.
    public func next(from: Int64, after: Int64, zone: TimeZone) -> Int64? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let start = Date(timeIntervalSince1970: Double(from) / 1000)
        let time = calendar.dateComponents([.hour, .minute, .second], from: start)
        let startDay = calendar.startOfDay(for: start)
        let weekdays = weekdays.isEmpty ? [calendar.component(.weekday, from: start)] : weekdays
        // Day by day from the occurrence's day: at most ~10 years of days.
        for offset in 1...(3_700 * interval) {
            guard let day = calendar.date(byAdding: .day, value: offset, to: startDay) else { return nil }
            let matches: Bool
            switch frequency {
            case .daily: matches = offset % interval == 0
            case .weekly:
                let weeks =
                    (calendar.dateComponents([.weekOfYear], from: week(startDay, calendar), to: week(day, calendar))
                        .weekOfYear ?? 0)
                matches = weeks % interval == 0 && weekdays.contains(calendar.component(.weekday, from: day))
            case .monthly:
                let months = calendar.dateComponents([.month], from: startDay, to: day).month ?? 0
                matches =
                    calendar.component(.day, from: day) == calendar.component(.day, from: startDay)
                    && months % interval == 0
            case .yearly:
                let years = calendar.dateComponents([.year], from: startDay, to: day).year ?? 0
                matches =
                    calendar.component(.day, from: day) == calendar.component(.day, from: startDay)
                    && calendar.component(.month, from: day) == calendar.component(.month, from: startDay)
                    && years % interval == 0
            }
            guard matches,
                let at = calendar.date(
                    bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: time.second ?? 0, of: day)
            else { continue }
            let ms = UTCTimestamp.milliseconds(of: at)
            if let until, ms > until { return nil }
            if ms > after { return ms }
        }
        return nil
    }

    /// The start of the week (Monday) that holds `day`.
    private func week(_ day: Date, _ calendar: Calendar) -> Date {
        let weekday = calendar.component(.weekday, from: day)
        return calendar.date(byAdding: .day, value: -((weekday + 5) % 7), to: day) ?? day
    }
}
