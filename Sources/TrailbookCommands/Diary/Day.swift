import ArgumentParser
import Foundation
import GPSCore
import Pipeline
import TrackStore
import TrailbookKit

/// `trailbook day D`: a day's rides, records and summary; `--summary`/`--edit` set the summary.
struct Day: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "day",
        abstract: "Show a day (where you were, rides, records, notes, photos, summary) or set its summary.",
        discussion: """
            D is a local date (YYYY-MM-DD) in the configured time zone, or today. --summary TEXT sets \
            the day's summary (one text per day; '' removes it); --edit opens it in $VISUAL/$EDITOR.
            """)

    @Argument(help: ArgumentHelp("The local date, YYYY-MM-DD, or today.", valueName: "date"))
    var date: String

    @Option(help: "Set the day's summary ('' removes it).")
    var summary: String?

    @Flag(help: "Edit the day's summary in $VISUAL/$EDITOR.")
    var edit = false

    @Flag(help: "Print one JSON document (keys in docs/COMMANDS.md).")
    var json = false

    @OptionGroup var accountOptions: AccountOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func validate() throws {
        if summary != nil && edit { throw ValidationError("Give --summary or --edit, not both.") }
    }

    struct Report: Encodable {
        var date: String
        var timeZone: String
        /// The zone the day was cut in (where the person was), when it is not `timeZone`.
        var dayZone: String?
        var summary: String?
        var rides: [Rides.RideReport]
        var records: [RecordJSON]
        var visits: [VisitsJSON.VisitEntry]
        var trips: [VisitsJSON.TripEntry]

        enum CodingKeys: String, CodingKey {
            case date, summary, rides, records, visits, trips
            case timeZone = "time_zone"
            case dayZone = "day_zone"
        }
    }

    func run() async throws {
        let config = try zoneOptions.loaded()
        let zone = config.timeZone
        let day = try LocalDate.require(date, option: "", zone: zone)
        if summary != nil || edit {
            let diary = try await accountOptions.diary(storeOptions.openedOrCreated(), zone: zone)
            var text = summary ?? ""
            if summary == nil {
                let old = try await diary.daySummary(day) ?? ""
                text = try await Blocking.runOnConsole { try TextInput.edit(old, what: "the summary") }
            }
            let trimmed = try await diary.setDaySummary(day, text: text)
            print(trimmed.isEmpty ? "summary of \(day) removed" : "summary of \(day) saved")
            return
        }
        let store = try await storeOptions.opened()
        try await show(day, config: config, store: store)
    }

    private func show(_ day: CivilDate, config: TrailbookConfig, store: any TrackStoring) async throws {
        let zone = config.timeZone
        let account = try await accountOptions.account(in: store)
        // The day where the person was (a day in London is London's day), its times in `zone`.
        let (cut, to) = try await store.read { tx in
            (
                try DayZone.of(day, store: tx, devices: DeviceFilter(account: account), zone: zone),
                try DayZone.end(of: day, store: tx, devices: DeviceFilter(account: account), zone: zone)
            )
        }
        let from = LocalDay.start(day, in: cut)
        var found = try await VisitService.find(
            store: store, fromMilliseconds: from, toMilliseconds: to, devices: DeviceFilter(account: account),
            rules: config.pipeline.visits, zone: zone)
        // A ride abroad in the time of where it was (with a gazetteer), as `rides` writes it.
        let (stored, records, text) = try await store.read { tx in
            (
                try tx.rides(fromMilliseconds: from, toMilliseconds: to, devices: DeviceFilter(account: account)),
                try tx.records(fromMilliseconds: from, toMilliseconds: to, account: account),
                try tx.daySummary(day, account: account)
            )
        }
        let rides = stored.map { Rides.RideReport($0, zone: zone, there: found.zone(at: $0.startMilliseconds)) }
        try await found.askStreetNames(config, store: store, account: account)
        if json {
            let whereabouts = VisitsJSON(found, zone: zone)
            try printJSON(
                Report(
                    date: day.description, timeZone: zone.displayIdentifier,
                    dayZone: cut.identifier == zone.identifier ? nil : cut.identifier, summary: text, rides: rides,
                    records: records.map { RecordJSON($0, store: store, zone: zone) }, visits: whereabouts.visits,
                    trips: whereabouts.trips))
            return
        }
        print("\(day) \(DayZone.words(cut: cut, times: zone))")
        if let text {
            print("")
            print(text)
        }
        let movements = found.movements
        if !movements.isEmpty {
            print("")
            for m in movements { print(VisitsJSON.line(m, findings: found, zone: zone)) }
        }
        print("")
        if rides.isEmpty { print("No rides.") }
        for r in rides { print(r.line) }
        print("")
        if records.isEmpty { print("No records.") }
        for r in records { print(RecordText.lines(r, zone: zone, store: store).joined(separator: "\n")) }
    }
}
