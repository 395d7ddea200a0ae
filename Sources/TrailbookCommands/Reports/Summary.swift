import ArgumentParser
import Foundation
import GPSCore
import Reports
import TrackStore
import TrailbookKit

/// `trailbook summary`: distance, time, speed, climb, splits and data quality of rides.
struct Summary: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "summary",
        abstract: "Ride statistics: distance, elapsed and moving time, speeds, climb, splits, data quality.",
        discussion: """
            For one ride (RIDE), or each move of local days (--day, --from/--to) and their total. \
            A day's moves are its kept timeline's (trailbook timeline): their distance and moving time \
            are the timeline's, the share within the days of a move over midnight; their climb, speeds, \
            splits and quality come from the points. A ride's distance is geodesic on WGS-84; moving time counts smoothed speed of at least 1 km/h with \
            stops under 15 s ignored; climb and descent use a 3 m hysteresis on smoothed altitude; \
            max speed is taken after a three-point median. Thresholds and their reasons: \
            docs/STATISTICS.md. --json numbers are SI (metres, seconds, m/s) whatever --units says.
            """)

    enum Units: String, ExpressibleByArgument { case metric, imperial }

    @Argument(help: "A ride's id.")
    var ride: Int64?

    @OptionGroup var days: DayRangeOptions

    @Option(help: "metric (km, km/h, m) or imperial (mi, mph, ft) for the text; splits per km or per mile.")
    var units: Units = .metric

    @Flag(help: "Print one JSON document (keys in docs/COMMANDS.md).")
    var json = false

    @OptionGroup var devices: DeviceOptions
    @Option(
        help:
            "The rides of this account (a server's user, whose phones post to trailbook serve); default: this store's own."
    )
    var user: String?
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func validate() throws {
        if (ride == nil) == !days.isSet { throw ValidationError("Give a ride id, or --day D (or --from D --to D).") }
    }

    func run() async throws {
        let config = try zoneOptions.loaded()
        let zone = config.timeZone
        let store = try storeOptions.open()
        // Days are cut around the stays the visit rules find, as `visits` and the day page find them.
        let selection = try await RideSelection.loadNamingNearest(
            days.scope(ride: ride, zone: zone), store: store, zone: zone,
            devices: try await devices.filter(store, account: user), stays: .init(rules: config.pipeline.visits))
        var options = StatisticsOptions()
        if units == .imperial { options.splitLength = 1609.344 }
        let u = UnitFormatter(units: units)
        // Days are their kept moves, as `year`, `timeline` and the day page count them.
        if let moves = selection.moveStatistics(options) {
            if json { return try printJSON(snakeCase: true, SummaryJSON(moves: moves, zone: zone)) }
            if moves.moves.isEmpty { print("No moves on \(selection.name): stays only.") }
            for (move, s) in moves.moves {
                print(
                    "\(move.mode.rawValue) \(LocalTime.format(s.start!, zone: zone)) → \(LocalTime.format(s.end!, zone: zone))"
                        + (move.id.map { "  (move \($0))" } ?? ""))
                print(u.lines(s).map { "  " + $0 }.joined(separator: "\n"))
            }
            if let total = moves.total {
                print("total of \(counted(moves.moves.count, "move"))")
                print(u.lines(total, splits: false).map { "  " + $0 }.joined(separator: "\n"))
            }
            return
        }
        let statistics = selection.statistics(options)
        if json {
            try printJSON(snakeCase: true, SummaryJSON(statistics, zone: zone))
            return
        }
        for (ride, s) in statistics.rides {
            print(
                "ride \(ride.id)  \(LocalTime.format(s.start!, zone: zone)) → \(LocalTime.format(s.end!, zone: zone))")
            print(u.lines(s).map { "  " + $0 }.joined(separator: "\n"))
        }
        if let total = statistics.total {
            print("total of \(counted(statistics.rides.count, "ride"))")
            print(u.lines(total, splits: false).map { "  " + $0 }.joined(separator: "\n"))
        }
    }
}

/// Human units for the text output.
struct UnitFormatter {
    var units: Summary.Units

    func distance(_ m: Double) -> String {
        units == .metric ? String(format: "%.2f km", m / 1000) : String(format: "%.2f mi", m / 1609.344)
    }

    func speed(_ v: Double) -> String {
        units == .metric ? String(format: "%.1f km/h", v * 3.6) : String(format: "%.1f mph", v / 0.44704)
    }

    func height(_ m: Double) -> String {
        units == .metric ? String(format: "%.0f m", m) : String(format: "%.0f ft", m / 0.3048)
    }

    static func duration(_ s: Double) -> String {
        let t = Int(s.rounded())
        return String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60)
    }

    func lines(_ s: RideStatistics, splits: Bool = true) -> [String] {
        var out = [
            "distance \(distance(s.distance)), elapsed \(Self.duration(s.elapsed)), moving \(Self.duration(s.moving))",
            "average moving speed \(s.averageMovingSpeed.map(speed) ?? "-"), max \(s.maxSpeed.map(speed) ?? "-")",
            "climb \(height(s.climb)), descent \(height(s.descent)), altitude "
                + "\(s.minAltitude.map(height) ?? "-") to \(s.maxAltitude.map(height) ?? "-")",
        ]
        let q = s.quality
        let modes = q.modes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let hdop = q.hdopMin.map { String(format: "HDOP %.1f-%.1f", $0, q.hdopMax ?? $0) } ?? "no HDOP"
        let drops = q.drops.values.reduce(0, +)
        out.append(
            "quality: \(counted(s.points, "point")) (\(modes)), \(hdop), \(counted(q.segments, "segment")), "
                + "\(counted(q.gaps.count, "gap")), "
                + "\(counted(drops, "fix", "fixes")) dropped")
        let sensors = [
            ("heart rate", s.heartRate, "bpm"), ("cadence", s.cadence, "rpm"), ("power", s.power, "W"),
            ("temperature", s.temperature, "°C"),
        ].compactMap { name, r, unit in
            r.map { String(format: "%@ %.0f average, %d-%d %@", name, $0.average, $0.min, $0.max, unit) }
        }
        if !sensors.isEmpty { out.append(sensors.joined(separator: "; ")) }
        if splits && !s.splits.isEmpty {
            let unit = units == .metric ? "km" : "mi"
            out.append(
                "splits (moving time): "
                    + s.splits.map { split in
                        split.isPartial
                            ? "last \(distance(split.distance)) \(Self.duration(split.time))"
                            : "\(unit) \(split.index) \(Self.duration(split.time))"
                    }.joined(separator: ", "))
        }
        return out
    }
}
