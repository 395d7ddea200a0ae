import ArgumentParser
import Foundation
import GPSCore
import TrailbookKit

/// `--day D` or `--from D --to D`: local dates in the configured time zone, as a UTC range.
struct DayRangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("One local day.", valueName: "YYYY-MM-DD"))
    var day: String?

    @Option(help: ArgumentHelp("First local day (with --to).", valueName: "YYYY-MM-DD"))
    var from: String?

    @Option(help: ArgumentHelp("Last local day, included (with --from).", valueName: "YYYY-MM-DD"))
    var to: String?

    func validate() throws {
        for (name, value) in [("--day", day), ("--from", from), ("--to", to)] {
            if let value, CivilDate(iso: value) == nil {
                throw ValidationError("\(name) takes a date as YYYY-MM-DD, for example 2026-06-14; got '\(value)'.")
            }
        }
        if day != nil && (from != nil || to != nil) {
            throw ValidationError("Give --day, or --from and --to, not both.")
        }
        if let f = from.flatMap(CivilDate.init(iso:)), let t = to.flatMap(CivilDate.init(iso:)), t < f {
            throw ValidationError("--to must not be before --from.")
        }
    }

    /// Whether any day option was given.
    var isSet: Bool { day != nil || from != nil || to != nil }

    /// `[start, end)` in ms since 1970 UTC for the chosen local days (everything when none).
    func range(in zone: TimeZone) -> (Int64, Int64) {
        let first = (day ?? from).flatMap(CivilDate.init(iso:))
        let last = (day ?? to).flatMap(CivilDate.init(iso:))
        return (
            first.map { LocalDay.start($0, in: zone) } ?? .min,
            last.map { LocalDay.start($0.adding(days: 1), in: zone) } ?? .max
        )
    }

    /// The rides asked for: ride `ride`, else these days.
    func scope(ride: Int64?) -> RideSelection.Scope {
        if let ride { return .ride(ride) }
        if let day = day.flatMap(CivilDate.init(iso:)) { return .day(day) }
        return .days(first: from.flatMap(CivilDate.init(iso:)), last: to.flatMap(CivilDate.init(iso:)))
    }
}
