import Foundation
import GPSCore

/// `trailbook suggest --json`: the passing bins best first, the coming windows, the notes, and
/// the whole table behind them. Rates are records per hour out there; times ISO 8601 UTC.
public struct SuggestJSON: Encodable, Sendable {
    struct Bin: Encodable {
        let condition: String
        let bin: String
        let count: Int
        let hours: Double
        let rate: Double
        let lift: Double
        let chance: Double
    }
    struct Window: Encodable {
        let start: String
        let end: String
        let why: String
    }
    struct Place: Encodable {
        let lat: Double
        let lon: Double
        let place: String?
    }
    let kind: String
    let best: String?
    let records: Int
    let counted: Int
    let hours: Double
    let rate: Double
    let basis: String
    let rule: String
    let suggestions: [Bin]
    let windows: [Window]
    let windowsAt: Place?
    let notes: [String]
    let bins: [Bin]

    public init(_ report: SuggestReport) {
        func rounded(_ value: Double, _ places: Double = 1000) -> Double { (value * places).rounded() / places }
        func bin(_ s: Suggestion) -> Bin {
            Bin(
                condition: s.condition, bin: s.bin, count: s.count, hours: rounded(s.hours, 100), rate: rounded(s.rate),
                lift: rounded(s.lift, 100), chance: Double(String(format: "%.3g", s.chance)) ?? s.chance)
        }
        kind = report.kind
        best = report.best
        records = report.records
        counted = report.counted
        hours = rounded(report.hours, 100)
        rate = rounded(report.rate)
        basis = report.basis.rawValue
        rule = SuggestJSON.rule
        suggestions = report.suggestions.map(bin)
        windows = report.windows.map {
            Window(start: LocalTime.utc($0.start), end: LocalTime.utc($0.end), why: $0.why.joined(separator: "; "))
        }
        windowsAt = report.windowsAt.map { Place(lat: $0.latitude, lon: $0.longitude, place: report.windowsPlace) }
        notes = report.notes
        bins = report.bins.map(bin)
    }

    /// The sample rule, in words.
    public static let rule =
        "a bin is suggested when it holds at least \(SuggestService.minimumCount) records and its rate is above "
        + "the overall one by more than chance explains (Poisson, 0.05 shared among all bins looked at)"

    enum CodingKeys: String, CodingKey {
        case kind, best, records, counted, hours, rate, basis, rule, suggestions, windows
        case windowsAt = "windows_at"
        case notes, bins
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(best, forKey: .best)  // null when all records count
        try c.encode(records, forKey: .records)
        try c.encode(counted, forKey: .counted)
        try c.encode(hours, forKey: .hours)
        try c.encode(rate, forKey: .rate)
        try c.encode(basis, forKey: .basis)
        try c.encode(rule, forKey: .rule)
        try c.encode(suggestions, forKey: .suggestions)
        try c.encode(windows, forKey: .windows)
        try c.encode(windowsAt, forKey: .windowsAt)
        try c.encode(notes, forKey: .notes)
        try c.encode(bins, forKey: .bins)
    }
}
