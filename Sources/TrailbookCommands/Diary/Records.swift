import ArgumentParser
import Foundation
import TrackStore
import TrailbookKit

/// `trailbook records`: location records with their notes, photos and fields.
struct Records: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "records",
        abstract: "List location records with their notes, photos and fields.",
        discussion: """
            Lists the records that carry something: manual ones (trailbook mark) and stored points \
            with a note, photo or field; --all adds every plain stored point. --sort time (default) \
            or a field name: records with that field come first, by its value (numbers as numbers), \
            the others after them in time order. --where KEY=VALUE keeps records whose field equals \
            the value (repeat: all must hold). Days are local dates in the configured time zone.
            """)

    @OptionGroup var days: DayRangeOptions

    @Option(help: ArgumentHelp("time, or a field name.", valueName: "time|field"))
    var sort = "time"

    @Option(
        help: ArgumentHelp(
            "Only records of this kind ([kinds.NAME] in the config); --sort by its fields sorts quantities in SI.",
            valueName: "name"))
    var kind: String?

    @Flag(help: "Reverse the order.")
    var reverse = false

    @Option(
        name: .customLong("where"),
        help: ArgumentHelp("Keep records whose field equals the value.", valueName: "key=value"))
    var conditions: [String] = []

    @Flag(help: "Also list plain stored points.")
    var all = false

    @Flag(help: "Print one JSON document (keys in docs/COMMANDS.md).")
    var json = false

    @OptionGroup var accountOptions: AccountOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func run() async throws {
        let zone = try zoneOptions.zone()
        let wanted = try conditions.map { try FieldArgument.parse($0, option: "--where") }
        let store = try await storeOptions.opened()
        let diary = try await accountOptions.diary(store, zone: zone)
        var query = DiaryService.RecordQuery()
        let (days, user) = (days, accountOptions.user)
        (query.from, query.to) = try await store.read { tx in
            let (from, to, _) = try days.range(in: zone, store: tx, devices: DeviceFilter(account: user))
            return (from, to)
        }
        query.plainPoints = all
        query.conditions = wanted
        query.sortField = sort == "time" ? nil : sort
        query.reverse = reverse
        query.kind = try kind.map { try zoneOptions.kind($0) }
        let list = try await diary.records(query)
        if json {
            try printJSON(["records": list.map { RecordJSON($0, store: store, zone: zone) }])
            return
        }
        if list.isEmpty {
            print(
                "No records" + (days.isSet ? " on those days" : "") + (wanted.isEmpty ? "" : " with those fields")
                    + ". Add one with trailbook mark, or a note to a point with trailbook note add --at TIME.")
        }
        for r in list { print(RecordText.lines(r, zone: zone, store: store).joined(separator: "\n")) }
    }
}
