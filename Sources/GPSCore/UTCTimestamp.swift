import Foundation

/// ISO 8601 timestamps as milliseconds since 1970-01-01T00:00:00Z.
public enum UTCTimestamp {
    /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…][Z|±HH:MM|±HHMM|±HH]` (a space instead of `T` too, and
    /// a space before `±HHMM` or `UTC` as Ruby writes a time). Without a zone the time is taken as
    /// UTC, as GPX requires. Nil for anything else.
    public static func milliseconds(_ text: Substring) -> Int64? {
        var text = text
        return text.withUTF8 { milliseconds(UnsafeRawBufferPointer($0)) }
    }

    /// The same, from the text's UTF-8 bytes (no copy: for readers that scan bytes).
    public static func milliseconds(_ b: UnsafeRawBufferPointer) -> Int64? {
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var n = 0
            for i in from..<(from + count) {
                guard b[i] >= 48 && b[i] <= 57 else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        guard b.count >= 19, b[4] == 45, b[7] == 45, b[10] == 84 || b[10] == 32 || b[10] == 116, b[13] == 58,
            b[16] == 58,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let date = CivilDate(year: year, month: month, day: day),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        var i = 19
        var millis = 0
        if i < b.count && (b[i] == 46 || b[i] == 44) {  // fraction: keep milliseconds, round the rest away
            i += 1
            var digits = 0
            while i < b.count, b[i] >= 48 && b[i] <= 57 {
                if digits < 3 { millis = millis * 10 + Int(b[i] - 48) }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<max(digits, 3) { millis *= 10 }
        }
        var offsetMinutes = 0
        // Ruby's `Time#to_s` (Dawarich's fixtures, other Rails apps' exports) writes the zone after
        // a space: "2025-03-24 20:07:24 +0100", "2025-03-24 19:07:24 UTC".
        if i + 1 < b.count, b[i] == 32, b[i + 1] == 43 || b[i + 1] == 45 || b[i + 1] == 85 { i += 1 }
        if i + 3 == b.count, b[i] == 85, b[i + 1] == 84, b[i + 2] == 67 { i += 3 }  // UTC
        if i < b.count {
            switch b[i] {
            case 90, 122:  // Z
                i += 1
            case 43, 45:  // + or -
                let sign = b[i] == 43 ? 1 : -1
                guard let h = number(i + 1, 2), h <= 23 else { return nil }
                i += 3
                var m = 0
                if i < b.count {
                    if b[i] == 58 { i += 1 }
                    guard let mm = number(i, 2), mm < 60 else { return nil }
                    m = mm
                    i += 2
                }
                offsetMinutes = sign * (h * 60 + m)
            default:
                return nil
            }
        }
        guard i == b.count else { return nil }
        let seconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return (seconds - Int64(offsetMinutes * 60)) * 1000 + Int64(millis)
    }

    /// Sets `fix`'s UTC date and time of day from milliseconds since 1970.
    public static func set(_ milliseconds: Int64, on fix: inout Fix) {
        let days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
        fix.date = CivilDate(daysSinceEpoch: Int(days))
        fix.timeOfDay = Int(milliseconds - days * 86_400_000)
    }
}

extension UTCTimestamp {
    /// `date` as milliseconds since 1970, UTC.
    public static func milliseconds(of date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// The current time as milliseconds since 1970, UTC.
    public static func now() -> Int64 { milliseconds(of: Date()) }
}
