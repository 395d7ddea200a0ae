import Foundation
import GPSCore

/// Dates as people type them: `YYYY-MM-DD`, `today` or `yesterday` (in the zone given). The one
/// reader of dates for every command and route, so every `--day`, `--from` and `--to` takes the
/// same forms and says the same thing about a date that does not exist.
public enum LocalDate {
    public static let accepted = "YYYY-MM-DD, today or yesterday"

    /// Why a text is not a date.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// Not one of the accepted forms.
        case notADate
        /// A month that does not exist ("2026-13-01").
        case noSuchMonth(Int)
        /// A day the month does not have ("2026-02-30").
        case noSuchDay(year: Int, month: Int, day: Int)

        /// A clause: "February 2026 has no 30th".
        public var description: String {
            switch self {
            case .notADate: return "give \(LocalDate.accepted)"
            case .noSuchMonth(let month): return "there is no month \(month)"
            case .noSuchDay(let year, let month, let day):
                let name = DateFormatter().standaloneMonthSymbols[month - 1]
                return "\(name) \(year) has no \(ordinal(day))"
            }
        }
    }

    /// The date `text` names; `today` and `yesterday` are dates in `zone`.
    public static func parse(_ text: String, zone: TimeZone, now: Date = Date()) -> Result<CivilDate, Problem> {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t == "today" { return .success(LocalTime.today(in: zone, now: now)) }
        if t == "yesterday" { return .success(LocalTime.today(in: zone, now: now).adding(days: -1)) }
        let parts = t.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return .failure(.notADate) }
        guard (1...12).contains(m) else { return .failure(.noSuchMonth(m)) }
        guard let date = CivilDate(year: y, month: m, day: d) else {
            return .failure(.noSuchDay(year: y, month: m, day: d))
        }
        return .success(date)
    }

    /// `1st`, `2nd`, `3rd`, `30th`, `31st`.
    static func ordinal(_ n: Int) -> String {
        let suffix: String
        switch (n % 10, n % 100) {
        case (1, let h) where h != 11: suffix = "st"
        case (2, let h) where h != 12: suffix = "nd"
        case (3, let h) where h != 13: suffix = "rd"
        default: suffix = "th"
        }
        return "\(n)\(suffix)"
    }
}
