import Foundation
import GPSCore
import Reports

/// Times as people type and read them: ISO 8601 with a zone (`2026-06-14T06:31:05Z`,
/// `...+02:00`), local `YYYY-MM-DD HH:MM[:SS]` (or with `T`), local `HH:MM[:SS]` (today), a
/// date alone (``LocalDate``: its local midnight), or `now`; local times are in the zone given.
public enum LocalTime {
    /// The accepted forms, for help texts and error sentences.
    public static let accepted =
        "ISO 8601 (2026-06-14T08:31:05+02:00), local YYYY-MM-DD H:MM[:SS], local H:MM[:SS] for today, "
        + "a date (its midnight), or now"

    /// ms since 1970 UTC; nil when the text is none of the accepted forms.
    public static func parse(_ text: String, zone: TimeZone, now: Date = Date()) -> Int64? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t == "now" { return UTCTimestamp.milliseconds(of: now) }
        if case .success(let day) = LocalDate.parse(t, zone: zone, now: now) { return LocalDay.start(day, in: zone) }
        let last = t.last
        if last == "Z" || last == "z" || t.dropFirst(10).contains("+") || t.dropFirst(11).contains("-") {
            return UTCTimestamp.milliseconds(Substring(t))
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var date: CivilDate
        var clock: Substring
        if t.count > 10, let d = CivilDate(iso: String(t.prefix(10))),
            t.dropFirst(10).first == " "
                || t.dropFirst(10).first == "T"
        {
            date = d
            clock = t.dropFirst(11)
        } else {
            date = today(in: zone, now: now)
            clock = Substring(t)
        }
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        // The hour may have one digit (`9:00`), minutes and seconds two.
        guard parts.count == 2 || parts.count == 3, (1...2).contains(parts[0].count),
            parts.dropFirst().allSatisfy({ $0.count == 2 }),
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let h = Int(parts[0]), let m = Int(parts[1]), h < 24, m < 60
        else { return nil }
        let s = parts.count == 3 ? Int(parts[2])! : 0
        guard s < 60 else { return nil }
        let components = DateComponents(
            year: date.year, month: date.month, day: date.day, hour: h, minute: m, second: s)
        guard let instant = calendar.date(from: components) else { return nil }
        return UTCTimestamp.milliseconds(of: instant)
    }

    /// Why `text` is not a time, as a clause: the date in it that does not exist, or the forms.
    public static func problem(_ text: String, zone: TimeZone) -> String {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.count >= 10, case .failure(let problem) = LocalDate.parse(String(t.prefix(10)), zone: zone),
            problem != .notADate
        {
            return "\(problem)"
        }
        return "use \(accepted)"
    }

    /// The local date of `now` in `zone`.
    public static func today(in zone: TimeZone, now: Date = Date()) -> CivilDate {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day], from: now)
        return CivilDate(year: c.year!, month: c.month!, day: c.day!)!
    }

    /// `2026-06-14 08:31:05 +02:00` in `zone`, with the zone's offset at that moment (`UTC` when
    /// it is zero), so a time is never read in the wrong zone.
    public static func format(_ ms: Int64, zone: TimeZone) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let date = Date(timeIntervalSince1970: Double(ms) / 1000)
        return f.string(from: date) + " " + offset(zone.secondsFromGMT(for: date))
    }

    /// `08:31` in `zone`.
    public static func clock(_ ms: Int64, zone: TimeZone) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = "HH:mm"
        return f.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    /// `17:50` when `ms` is on `now`'s day in `zone`, `Tue 17 Nov 17:50` when it is not: a
    /// moment a reader places without a date only when it is today.
    public static func since(_ ms: Int64, zone: TimeZone, now: Int64) -> String {
        guard LocalDay.of(ms, in: zone) != LocalDay.of(now, in: zone) else { return clock(ms, zone: zone) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = "EEE d MMM HH:mm"
        return f.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    /// `08:31` in `there`, with its offset when that differs from `listing`'s then (`19:59+01:00`):
    /// a time where it happened, in a list whose other times are `listing`'s.
    public static func clock(_ ms: Int64, there: TimeZone, listing: TimeZone) -> String {
        let date = Date(timeIntervalSince1970: Double(ms) / 1000)
        let offset = there.secondsFromGMT(for: date)
        guard offset != listing.secondsFromGMT(for: date) else { return clock(ms, zone: there) }
        return clock(ms, zone: there) + ReportStyle.offset(offset)
    }

    /// `+02:00`, `-03:30`, or `UTC` for zero.
    static func offset(_ seconds: Int) -> String {
        if seconds == 0 { return "UTC" }
        let minutes = abs(seconds) / 60
        let hh = minutes / 60 < 10 ? "0\(minutes / 60)" : "\(minutes / 60)"
        let mm = minutes % 60 < 10 ? "0\(minutes % 60)" : "\(minutes % 60)"
        return (seconds < 0 ? "-" : "+") + hh + ":" + mm
    }

    /// ISO 8601 with the zone's offset: `2026-06-14T08:31:05+02:00`.
    public static func iso(_ ms: Int64, zone: TimeZone) -> String {
        let f = ISO8601DateFormatter()
        f.timeZone = zone
        return f.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    /// `2026-06-14T06:31:05.000Z`.
    public static func utc(_ ms: Int64) -> String {
        var fix = Fix()
        UTCTimestamp.set(ms, on: &fix)
        let t = fix.timeOfDay!
        return String(
            format: "%@T%02d:%02d:%02d.%03dZ", fix.date!.description, t / 3_600_000, t / 60_000 % 60, t / 1000 % 60,
            t % 1000)
    }

    /// A duration for people, to the minute: `0 min`, `45 min`, `2 h 05 min`.
    public static func hoursAndMinutes(_ seconds: Double) -> String {
        let minutes = Int((max(0, seconds) / 60).rounded())
        return minutes < 60 ? "\(minutes) min" : String(format: "%d h %02d min", minutes / 60, minutes % 60)
    }

    /// A duration typed as `90`, `90s`, `15m`, `2h`, `1h30m` or `1d`, in seconds.
    public static func duration(_ text: String) -> Double? {
        var total = 0.0
        var number = ""
        var sawUnit = false
        for c in text {
            if c.isNumber || c == "." {
                number.append(c)
                continue
            }
            guard let n = Double(number), let unit = ["s": 1.0, "m": 60, "h": 3600, "d": 86400][String(c)] else {
                return nil
            }
            total += n * unit
            number = ""
            sawUnit = true
        }
        if !number.isEmpty {
            guard !sawUnit, let n = Double(number) else { return nil }
            total += n
        }
        return total > 0 ? total : nil
    }
}
