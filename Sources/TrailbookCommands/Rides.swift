import ArgumentParser
import Foundation
import GPSCore
import TrackStore

/// `trailbook rides`: the stored rides.
struct Rides: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rides",
        abstract: "List stored rides: start, end, points, segments, dropped fixes.",
        discussion: "Days are local dates in the configured time zone (time.zone, --time-zone).")

    @OptionGroup var days: DayRangeOptions
    @OptionGroup var devices: DeviceOptions
    @Option(
        help:
            "The points and rides of this account (a server's user, whose phones post to trailbook serve); default: this store's own."
    )
    var user: String?
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    @Flag(help: "Print one JSON document (keys in docs/COMMANDS.md).")
    var json = false

    struct RideReport: Codable {
        var id: Int64
        var device: String
        var start: String
        var end: String
        var durationSeconds: Double
        var points: Int
        var segments: Int
        var dropped: [String: Int]

        enum CodingKeys: String, CodingKey {
            case id, device, start, end, points, segments, dropped
            case durationSeconds = "duration_s"
        }

        init(_ ride: StoredRide, zone: TimeZone) {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = zone
            func time(_ ms: Int64) -> String { formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000)) }
            id = ride.id
            device = ride.device
            start = time(ride.startMilliseconds)
            end = time(ride.endMilliseconds)
            durationSeconds = Double(ride.endMilliseconds - ride.startMilliseconds) / 1000
            points = ride.pointCount
            segments = ride.segmentCount
            dropped = ride.drops
        }

        /// `ride 1  START → END  0h29m  1762 points, 2 segments, 38 dropped`.
        var line: String {
            let minutes = Int(durationSeconds / 60)
            let drops = dropped.values.reduce(0, +)
            return "ride \(id)  \(start) → \(end)  \(minutes / 60)h\(String(format: "%02d", minutes % 60))m  "
                + "\(counted(points, "point")), \(counted(segments, "segment")), \(drops) dropped"
        }
    }

    func run() throws {
        let zone = try zoneOptions.zone()
        let store = try storeOptions.open()
        let (from, to) = days.range(in: zone)
        let rides = try store.rides(
            fromMilliseconds: from, toMilliseconds: to, devices: try devices.filter(store, account: user))
        let reports = rides.map { RideReport($0, zone: zone) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(["rides": reports]), as: UTF8.self))
            return
        }
        if reports.isEmpty {
            print(
                "No rides stored" + (days.isSet ? " on those days." : " yet.")
                    + " Store some with trailbook import FILE.")
        }
        for r in reports { print(r.line) }
    }
}
