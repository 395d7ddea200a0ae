import ArgumentParser
import Foundation
import GPSCore
import TrackStore
import TrailbookKit

/// `trailbook rm`: remove records, a ride, a day or a time range, for good.
struct Remove: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove records, a ride, a day or a time range for good.",
        discussion: """
            RECORD...: the records and what they carry (a record of a stored point takes the point \
            too). --ride ID: the ride's points, segments, drop counts and the records of its points. \
            --day D: everything of that local day (points, rides, records, notes, photos, fields, \
            the day's summary). --from T --to T: points and records from T up to T. \
            Non-recoverable: SQLite secure_delete overwrites the deleted rows in the file, the \
            write-ahead log is emptied, and photo files no longer used are deleted. Asks on a \
            terminal unless --yes; elsewhere --yes is required.
            """)

    @Argument(help: "Record ids.")
    var records: [String] = []

    @Option(help: "A ride's id.")
    var ride: Int64?

    @Option(help: ArgumentHelp("A local day (\(LocalDate.accepted)).", valueName: "date"))
    var day: String?

    @Option(help: ArgumentHelp("Start of a time range (\(LocalTime.accepted)).", valueName: "time"))
    var from: String?

    @Option(help: ArgumentHelp("End of the time range, excluded.", valueName: "time"))
    var to: String?

    @Flag(help: "Do not ask.")
    var yes = false

    @Flag(help: "Print what was removed as JSON.")
    var json = false

    @OptionGroup var accountOptions: AccountOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func validate() throws {
        let chosen = [!records.isEmpty, ride != nil, day != nil, from != nil || to != nil].filter { $0 }.count
        guard chosen == 1 else {
            throw ValidationError("Give one of: record ids, --ride ID, --day D, or --from T --to T.")
        }
        if (from == nil) != (to == nil) { throw ValidationError("Give --from and --to together.") }
    }

    struct Report: Encodable {
        var points, records, notes, photos, fields, rides: Int
        var daySummaries: Int
        var photoFilesDeleted: Int
        var events: Int

        enum CodingKeys: String, CodingKey {
            case points, records, notes, photos, fields, rides, events
            case daySummaries = "day_summaries"
            case photoFilesDeleted = "photo_files_deleted"
        }
    }

    func run() async throws {
        let zone = try zoneOptions.zone()
        let ids = try records.map(RecordReference.parse)
        // What was typed is checked before the store is opened: a wrong date is said as such.
        let d = try day.map { try LocalDate.require($0, option: "--day", zone: zone) }
        var range: (Int64, Int64)?
        if let from, let to {
            let a = try LocalTime.require(from, option: "--from", zone: zone)
            let b = try LocalTime.require(to, option: "--to", zone: zone)
            guard b > a else { throw CommandFailure(message: "--to must be after --from.", code: .usage) }
            range = (a, b)
        }
        let store = try await storeOptions.opened()
        let diary = try await accountOptions.diary(store, zone: zone)
        let target: DiaryService.RemovalTarget
        let what: String
        if let d {
            target = .day(d)
            let devices = DeviceFilter(account: accountOptions.user)
            let cut = try await store.read { tx in try DayZone.of(d, store: tx, devices: devices, zone: zone) }
            what = "Everything recorded on \(d) \(DayZone.words(cut: cut, times: zone))"
        } else if let (a, b) = range {
            target = .range(from: a, to: b)
            what = "Points and records from \(LocalTime.format(a, zone: zone)) to \(LocalTime.format(b, zone: zone))"
        } else if let ride {
            target = .ride(ride)
            what = "Ride \(ride) with its points and their records"
        } else {
            target = .records(ids)
            what =
                "Record" + (ids.count == 1 ? " " : "s ") + ids.map(String.init).joined(separator: ", ")
                + (ids.count == 1 ? " and what it carries" : " and what they carry")
        }
        var question =
            "\(what) will be removed for good:\n"
            + (try await diary.preview(target)).map { "  " + $0 }.joined(separator: "\n")
        if case .records(let ids) = target {
            var notes: [Int64] = []
            for id in ids { notes += try await diary.record(id).notes.map(\.id) }
            if !notes.isEmpty {
                question +=
                    "\n(To remove only the note" + (notes.count == 1 ? ": " : "s: ") + "trailbook note rm "
                    + notes.map(String.init).joined(separator: " ") + ".)"
            }
        }
        try await Blocking.runOnConsole { [question, yes] in try Confirmation.require(question, yes: yes) }
        let removal = try await diary.remove(target)
        let report = Report(
            points: removal.points, records: removal.records, notes: removal.notes, photos: removal.photos,
            fields: removal.fields, rides: removal.rides, daySummaries: removal.daySummaries,
            photoFilesDeleted: removal.photoFilesDeleted, events: removal.events)
        if json {
            try printJSON(report)
        } else {
            print(
                "Removed \(counted(report.points, "point")), \(counted(report.rides, "ride")), "
                    + "\(counted(report.records, "record")), \(counted(report.notes, "note")), "
                    + "\(counted(report.photos, "photo link")) (\(counted(report.photoFilesDeleted, "photo file")) deleted), "
                    + "\(counted(report.fields, "field")), \(counted(report.events, "event"))"
                    + (day == nil ? "." : ", \(counted(report.daySummaries, "day summary", "day summaries")).")
            )
        }
    }
}
