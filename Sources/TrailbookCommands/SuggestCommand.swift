import ArgumentParser
import Foundation
import GPSCore
import TrailbookKit

/// `trailbook suggest --kind K`: which conditions go with the records of a kind, and when they
/// come again.
struct SuggestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest",
        abstract: "Show which conditions go with the records of a kind, and the coming days that have them.",
        discussion: """
            Every record of the kind is binned by day phase, moon phase (8), solunar period \
            (major, minor, none), pressure trend, tide, wind direction and place, and so is the \
            time out there: the recorded tracks that hold such a record or come within 500 m of \
            where one was logged. A bin's rate is its records per hour out there; its lift, that \
            rate over the overall one. A bin is suggested only with at least 5 records and a rate \
            that chance (Poisson, 0.05 shared among all bins) explains badly: never a claim from \
            three records. Then the windows of the coming days (--days) where the best bins of \
            the conditions that can be computed ahead hold, at the place most records are at. \
            What it computes and what it cannot tell: docs/CONDITIONS.md.
            """)

    @Option(help: "The record kind ([kinds.NAME] in the config).") var kind: String
    @Option(help: "Count only the best quarter of the records by this field of the kind (e.g. weight).")
    var best: String?
    @Option(help: ArgumentHelp("Start of the windows: \(LocalTime.accepted).", valueName: "time"))
    var from = "now"
    @Option(help: "Days of windows to look ahead (1-31).") var days = 7
    @Flag(
        help:
            "Print JSON: {\"suggestions\": [{condition, bin, count, hours, rate, lift, chance}], \"windows\": [{start, end, why}], \"notes\", \"bins\", ...}."
    )
    var json = false
    @OptionGroup var accountOptions: AccountOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func validate() throws {
        guard (1...31).contains(days) else { throw ValidationError("--days must be 1 to 31, not \(days).") }
    }

    func run() async throws {
        let zone = try zoneOptions.zone()
        let start = try LocalTime.require(from, option: "--from", zone: zone)
        let store = try storeOptions.open()
        let service = SuggestService(
            store: store, zone: zone, tide: try zoneOptions.tide(), account: try await accountOptions.account(in: store)
        )
        let report = try await service.suggest(kind: try zoneOptions.kind(kind), best: best, now: start, days: days)
        if json { return try printJSON(SuggestJSON(report)) }
        for line in SuggestText.lines(report, zone: zone) { print(line) }
    }
}

/// The report as lines for a terminal (and the day report), local times in the zone.
public enum SuggestText {
    public static func lines(_ report: SuggestReport, zone: TimeZone) -> [String] {
        var lines = [
            "\(report.counted) of \(counted(report.records, "\(report.kind) record"))"
                + (report.best.map { " (the best quarter by \($0))" } ?? "")
                + String(
                    format: report.basis == .timeOutThere
                        ? " over %.1f h out there: %.2f an hour."
                        : " over the %.1f h of the days they span: %.3f an hour (records alone, the weaker comparison).",
                    report.hours, report.rate)
        ]
        if report.suggestions.isEmpty {
            lines.append("No condition passes the sample rule.")
        } else {
            lines.append("condition    bin               count   hours   rate/h   lift")
            for s in report.suggestions {
                lines.append(
                    s.condition.padding(toLength: 13, withPad: " ", startingAt: 0)
                        + s.bin.padding(toLength: 16, withPad: " ", startingAt: 0)
                        + String(format: "%6d  %6.1f  %7.2f  %5.2f", s.count, s.hours, s.rate, s.lift))
            }
        }
        if !report.windows.isEmpty {
            lines.append("Coming windows" + (report.windowsPlace.map { " at \($0)" } ?? "") + ":")
            for w in report.windows {
                lines.append(
                    "  \(LocalTime.format(w.start, zone: zone))–\(LocalTime.clock(w.end, zone: zone))  "
                        + w.why.joined(separator: ", "))
            }
        }
        lines += report.notes.map { "Note: \($0)." }
        return lines
    }
}
