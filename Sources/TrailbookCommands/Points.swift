import ArgumentParser
import Foundation
import TrackStore
import TrailbookKit

/// `trailbook points`: the stored points of a ride or a day.
struct Points: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "points",
        abstract: "Print stored points of a ride or of local days, as CSV or JSON Lines.",
        discussion: """
            Columns: those of trailbook decode, then ride and segment (stored ids), heart_rate, cadence, power and \
            temperature (a bike computer's sensors), accuracy (m, as a phone or an imported file gave it), and activity (what the phone's motion recognition said: still, \
            walking, running, cycling, vehicle, train, plane); JSON Lines add device.
            """)

    enum Format: String, ExpressibleByArgument { case csv, jsonl }

    @Option(help: "The ride's id (see trailbook rides).")
    var ride: Int64?

    @OptionGroup var days: DayRangeOptions
    @OptionGroup var devices: DeviceOptions
    @Option(
        help:
            "The points and rides of this account (a server's user, whose phones post to trailbook serve); default: this store's own."
    )
    var user: String?
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    @Option(help: "csv or jsonl.")
    var format: Format = .csv

    func validate() throws {
        if (ride == nil) == !days.isSet { throw ValidationError("Give --ride ID, or --day D (or --from D --to D).") }
    }

    func run() async throws {
        let store = try storeOptions.open()
        let filter = try await devices.filter(store, account: user)
        let from: Int64
        let to: Int64
        if let ride {
            guard let range = try await store.read({ try $0.rideRange(ride) }) else {
                throw CommandFailure(
                    message: "There is no ride \(ride) in \(store.path); trailbook rides lists them.", code: .noInput)
            }
            (from, to) = (range.start, range.end + 1)
        } else {
            (from, to, _) = try await store.read {
                try days.range(in: try zoneOptions.zone(), store: $0, devices: filter)
            }
        }
        var out = OutputBuffer()
        if format == .csv { out.appendCSVHeader(extra: ["ride", "segment"] + SensorColumns.names) }
        for p in try await store.read({
            try $0.pointsWithSegments(fromMilliseconds: from, toMilliseconds: to, devices: filter)
        })
        where ride.map({ p.ride == $0 }) ?? true {
            if format == .csv {
                out.appendCSVRow(
                    p.fix, extra: [Int(p.ride), Int(p.segment)] + SensorColumns.values(p.fix.sensors),
                    text: SensorColumns.texts(p.fix.sensors))
            } else {
                out.appendJSONLine(
                    p.fix,
                    extra: [("ride", Int(p.ride)), ("segment", Int(p.segment))] + SensorColumns.keyed(p.fix.sensors),
                    text: SensorColumns.keyedTexts(p.fix.sensors) + [("device", p.device)])
            }
            try out.flushIfFull()
        }
        try out.flush()
    }
}
