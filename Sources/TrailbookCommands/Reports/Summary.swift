import ArgumentParser
import Foundation
import GPSCore
import Reports
import TrackStore

/// `trailbook summary`: distance, time, speed, climb, splits and data quality of rides.
struct Summary: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Ride statistics: distance, elapsed and moving time, speeds, climb, splits, data quality.",
        discussion: """
            For one ride (RIDE), or each ride of local days (--day, --from/--to) and their total. \
            Distance is geodesic on WGS-84; moving time counts smoothed speed of at least 1 km/h with \
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
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func validate() throws {
        if (ride == nil) == !days.isSet { throw ValidationError("Give a ride id, or --day D (or --from D --to D).") }
    }

    func run() throws {
        let zone = try zoneOptions.zone()
        let store = try storeOptions.open()
        let selection = try RideSelection.load(
            ride: ride, days: days, store: store, zone: zone, devices: try devices.filter(store))
        var options = StatisticsOptions()
        if units == .imperial { options.splitLength = 1609.344 }
        let perRide = selection.rides.map { r in
            (r.ride, RideStatistics.compute(r.points, drops: r.ride.drops, options: options))
        }
        let total = RideStatistics.total(perRide.map(\.1))
        if json {
            try printJSON(
                snakeCase: true,
                SummaryJSON(
                    rides: perRide.map { SummaryJSON.Ride(id: $0.0.id, device: $0.0.device, stats: $0.1, zone: zone) },
                    total: perRide.count > 1 ? SummaryJSON.Ride(id: nil, stats: total, zone: zone) : nil))
            return
        }
        let u = UnitFormatter(units: units)
        for (ride, s) in perRide {
            print(
                "ride \(ride.id)  \(LocalTime.format(s.start!, zone: zone)) → \(LocalTime.format(s.end!, zone: zone))")
            print(u.lines(s).map { "  " + $0 }.joined(separator: "\n"))
        }
        if perRide.count > 1 {
            print("total of \(perRide.count) rides")
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
            "quality: \(s.points) points (\(modes)), \(hdop), \(q.segments) segments, \(q.gaps.count) gaps, "
                + "\(drops) fixes dropped")
        if splits && !s.splits.isEmpty {
            let unit = units == .metric ? "km" : "mi"
            out.append(
                "splits: " + s.splits.map { "\(unit) \($0.index) \(Self.duration($0.time))" }.joined(separator: ", "))
        }
        return out
    }
}

/// The documented JSON of `summary` (keys in snake case: `distance_m`, `moving_s`, ...).
struct SummaryJSON: Encodable {
    var rides: [Ride]
    var total: Ride?

    struct Ride: Encodable {
        var id: Int64?
        /// The ride's device (nil for the total).
        var device: String?
        var start: String?
        var end: String?
        var points: Int
        var distanceM: Double
        var elapsedS: Double
        var movingS: Double
        var averageMovingSpeedMps: Double?
        var maxSpeedMps: Double?
        var climbM: Double
        var descentM: Double
        var minAltitudeM: Double?
        var maxAltitudeM: Double?
        var bounds: [String: Double]?
        var splits: [Split]
        var quality: Quality

        struct Split: Encodable {
            var index: Int
            var distanceM: Double
            var timeS: Double
            var speedMps: Double
        }

        struct Quality: Encodable {
            var modes: [String: Int]
            var hdopMin: Double?
            var hdopMedian: Double?
            var hdopMax: Double?
            var segments: Int
            var gaps: [Gap]
            var dropped: [String: Int]
        }

        struct Gap: Encodable {
            var start: String
            var seconds: Double
        }

        init(id: Int64?, device: String? = nil, stats s: RideStatistics, zone: TimeZone) {
            func r(_ v: Double, _ places: Double = 1) -> Double { (v * places).rounded() / places }
            self.id = id
            self.device = device
            start = s.start.map { LocalTime.iso($0, zone: zone) }
            end = s.end.map { LocalTime.iso($0, zone: zone) }
            points = s.points
            distanceM = r(s.distance, 10)
            elapsedS = r(s.elapsed, 10)
            movingS = r(s.moving, 10)
            averageMovingSpeedMps = s.averageMovingSpeed.map { r($0, 1000) }
            maxSpeedMps = s.maxSpeed.map { r($0, 1000) }
            climbM = r(s.climb, 10)
            descentM = r(s.descent, 10)
            minAltitudeM = s.minAltitude.map { r($0, 100) }
            maxAltitudeM = s.maxAltitude.map { r($0, 100) }
            if let so = s.south, let w = s.west, let n = s.north, let e = s.east {
                bounds = ["south": so, "west": w, "north": n, "east": e]
            }
            splits = s.splits.map {
                Split(
                    index: $0.index, distanceM: r($0.distance, 10), timeS: r($0.time, 10),
                    speedMps: r($0.speed, 1000))
            }
            quality = Quality(
                modes: s.quality.modes, hdopMin: s.quality.hdopMin, hdopMedian: s.quality.hdopMedian,
                hdopMax: s.quality.hdopMax, segments: s.quality.segments,
                gaps: s.quality.gaps.map { Gap(start: RecordJSON.utc($0.start), seconds: $0.seconds) },
                dropped: s.quality.drops)
        }
    }
}
