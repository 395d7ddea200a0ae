import ArgumentParser
import Foundation
import TrackStore

/// `trailbook records`: location records with their notes, photos and fields.
struct Records: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func run() throws {
        let zone = try zoneOptions.zone()
        let wanted = try conditions.map(FieldArgument.parse)
        let store = try storeOptions.open()
        let (from, to) = days.range(in: zone)
        var list = try store.records(fromMilliseconds: from, toMilliseconds: to, plainPoints: all)
        list = list.filter { r in
            wanted.allSatisfy { w in r.fields.contains { $0.key == w.key && $0.value == w.value } }
        }
        if sort != "time" {
            let key = sort
            func value(_ r: LocationRecord) -> FieldValue? { r.fields.first { $0.key == key }?.value }
            list = list.enumerated().sorted { a, b in
                switch (value(a.element), value(b.element)) {
                case (.number(let x)?, .number(let y)?): if x != y { return x < y }
                case (.number?, .text?): return true
                case (.text?, .number?): return false
                case (.text(let x)?, .text(let y)?):
                    if x != y { return x.localizedStandardCompare(y) == .orderedAscending }
                case (.some, nil): return true
                case (nil, .some): return false
                case (nil, nil): break
                }
                return a.offset < b.offset
            }.map(\.element)
        }
        if reverse { list.reverse() }
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
