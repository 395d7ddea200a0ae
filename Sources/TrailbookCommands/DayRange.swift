import ArgumentParser
import Foundation
import GPSCore
import TrackModel
import TrailbookKit

/// `--day D` or `--from D --to D`: local dates (in the configured time zone, or where the person
/// was with a gazetteer), as a UTC range.
struct DayRangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("One local day (\(LocalDate.accepted)).", valueName: "date"))
    var day: String?

    @Option(help: ArgumentHelp("First local day (with --to).", valueName: "date"))
    var from: String?

    @Option(help: ArgumentHelp("Last local day, included (with --from).", valueName: "date"))
    var to: String?

    func validate() throws {
        // The forms are checked here; today and yesterday are read in the zone when used.
        let utc = TimeZone(identifier: "UTC")!
        for (name, value) in [("--day", day), ("--from", from), ("--to", to)] {
            if let value { try LocalDate.check(value, option: name) }
        }
        if day != nil && (from != nil || to != nil) {
            throw ValidationError("Give --day, or --from and --to, not both.")
        }
        if let from, let to, let first = try? LocalDate.parse(from, zone: utc).get(),
            let last = try? LocalDate.parse(to, zone: utc).get(), last < first
        {
            throw ValidationError("--to must not be before --from.")
        }
    }

    /// The days asked for as a person reads them, with today and yesterday resolved in `zone`:
    /// "2026-11-27", "2026-06-01 to 2026-06-14", "those days".
    func words(in zone: TimeZone) -> String {
        let (first, last) = days(in: zone)
        switch (first, last) {
        case (let a?, let b?) where a == b: return a.description
        case (let a?, let b?): return "\(a) to \(b)"
        case (let a?, nil): return "\(a) or later"
        case (nil, let b?): return "\(b) or earlier"
        case (nil, nil): return "those days"
        }
    }

    /// Whether any day option was given.
    var isSet: Bool { day != nil || from != nil || to != nil }

    /// The first and last day asked for (nil: open), in `zone`.
    func days(in zone: TimeZone) -> (first: CivilDate?, last: CivilDate?) {
        func date(_ text: String?) -> CivilDate? {
            text.flatMap { try? LocalDate.parse($0, zone: zone).get() }
        }
        return (date(day ?? from), date(day ?? to))
    }

    /// `[start, end)` in ms since 1970 UTC for the chosen local days (everything when none), the
    /// days cut where the person was (``DayZone``: with a gazetteer, a day in Tokyo is Tokyo's
    /// day), and the zone the first day is cut in.
    func range(in zone: TimeZone, store: any StoreReading, devices: DeviceFilter) throws -> (
        from: Int64, to: Int64, cut: TimeZone
    ) {
        let (first, last) = days(in: zone)
        return try DayZone.range(first: first, last: last, store: store, devices: devices, zone: zone)
    }

    /// The rides asked for: ride `ride`, else these days.
    func scope(ride: Int64?, zone: TimeZone) -> RideSelection.Scope {
        if let ride { return .ride(ride) }
        let (first, last) = days(in: zone)
        if day != nil, let first { return .day(first) }
        return .days(first: first, last: last)
    }
}
