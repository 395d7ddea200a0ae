import Foundation

/// A "Rise and Set for the Sun/Moon for One Year" table of the US Naval Observatory's
/// Astronomical Applications Department (times in UT, to the minute). Each day holds the
/// events printed for it: a time, nothing (no such event that day), or the whole day above
/// (`****`) or below (`----`) the horizon.
struct USNOTable {
    enum Entry: Equatable {
        case time(Date)
        case upAllDay
        case downAllDay
    }

    struct Day {
        let start: Date
        var rises: [Entry] = []
        var sets: [Entry] = []
    }

    let latitude: Double
    let longitude: Double
    let year: Int
    let days: [Day]

    init(fixture name: String) throws {
        let url = Bundle.module.url(forResource: name, withExtension: "txt", subdirectory: "Fixtures")!
        let lines = try String(contentsOf: url, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map(String.init)
        // "Location: W081 00, N29 00        Rise and Set for the Sun for 2019"
        let location = lines.first { $0.hasPrefix("Location:") }!
        let fields = location.dropFirst("Location:".count).split(separator: " ", omittingEmptySubsequences: true)
        func angle(_ degrees: Substring, _ minutes: Substring) -> Double {
            let sign: Double = degrees.hasPrefix("W") || degrees.hasPrefix("S") ? -1 : 1
            let digits = degrees.drop { !$0.isNumber }
            return sign * (Double(digits)! + Double(minutes.trimmingCharacters(in: .punctuationCharacters))! / 60)
        }
        longitude = angle(fields[0], fields[1])
        latitude = angle(fields[2], fields[3])
        year = Int(location.split(separator: " ").first { $0.count == 4 && Int($0) != nil }!)!

        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var byDate: [Date: Day] = [:]
        for line in lines {
            let chars = Array(line)
            guard chars.count >= 2, let dayOfMonth = Int(String(chars[0..<2])) else { continue }
            for month in 0..<12 {
                guard
                    let start = calendar.date(
                        from: DateComponents(year: year, month: month + 1, day: dayOfMonth)),
                    calendar.component(.month, from: start) == month + 1
                else { continue }
                func entry(at column: Int) -> Entry? {
                    guard chars.count >= column + 4 else { return nil }
                    let text = String(chars[column..<column + 4])
                    switch text {
                    case "****": return .upAllDay
                    case "----": return .downAllDay
                    case "    ": return nil
                    default:
                        let hours = Int(text.prefix(2))!
                        let minutes = Int(text.suffix(2))!
                        return .time(start.addingTimeInterval(TimeInterval(hours * 3600 + minutes * 60)))
                    }
                }
                var day = byDate[start] ?? Day(start: start)
                if let rise = entry(at: 4 + 11 * month) { day.rises.append(rise) }
                if let set = entry(at: 9 + 11 * month) { day.sets.append(set) }
                byDate[start] = day
            }
        }
        days = byDate.values.sorted { $0.start < $1.start }
    }
}
