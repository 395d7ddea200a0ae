import ArgumentParser
import Foundation
import GPSCore
import TrackStore
import TrailbookKit

/// `trailbook rides`: the stored rides.
struct Rides: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rides",
        abstract: "List stored rides: start, end, points, segments, dropped fixes.",
        discussion: """
            Days are local dates in the configured time zone (time.zone, --time-zone). With a gazetteer \
            (trailbook geocoder import), a day is that of where you were (a day in Tokyo is Tokyo's day) and \
            each ride's times are those of where it began, with their offset (a ride in Tokyo: +09:00).
            """)

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
        /// Start and end as every command prints times for people (`2026-06-14 08:30:00 +02:00`),
        /// in the zone of where the ride began.
        var localStart = ""
        var localEnd = ""
        /// The IANA zone of where the ride began, when the gazetteer gives one (else absent).
        var timeZone: String?

        enum CodingKeys: String, CodingKey {
            case id, device, start, end, points, segments, dropped
            case durationSeconds = "duration_s"
            case timeZone = "time_zone"
        }

        /// `there`: the zone of where the ride began, when the gazetteer gives one.
        init(_ ride: StoredRide, zone: TimeZone, there: TimeZone? = nil) {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = zone
            func time(_ ms: Int64) -> String { formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000)) }
            id = ride.id
            device = ride.device
            start = time(ride.startMilliseconds)
            end = time(ride.endMilliseconds)
            localStart = LocalTime.format(ride.startMilliseconds, zone: there ?? zone)
            localEnd = LocalTime.format(ride.endMilliseconds, zone: there ?? zone)
            timeZone = there?.identifier
            durationSeconds = Double(ride.endMilliseconds - ride.startMilliseconds) / 1000
            points = ride.pointCount
            segments = ride.segmentCount
            dropped = ride.drops
        }

        /// `ride 1  START → END  0h29m  1762 points, 2 segments, 38 dropped`.
        var line: String {
            let minutes = Int(durationSeconds / 60)
            let drops = dropped.values.reduce(0, +)
            return "ride \(id)  \(localStart) → \(localEnd)  \(minutes / 60)h\(String(format: "%02d", minutes % 60))m  "
                + "\(counted(points, "point")), \(counted(segments, "segment")), \(drops) dropped"
        }
    }

    func run() async throws {
        let config = try zoneOptions.loaded()
        let zone = config.timeZone
        let store = try storeOptions.open()
        let filter = try await devices.filter(store, account: user)
        let (from, to, cut) = try await store.read { try days.range(in: zone, store: $0, devices: filter) }
        var rides = try await store.read { try $0.rides(fromMilliseconds: from, toMilliseconds: to, devices: filter) }
        let storedAny = !rides.isEmpty
        // Days are the person's: rides cut around the stays of the timeline (a night at home, a
        // phone lying still, is no ride), as the day page draws them.
        if days.isSet, !rides.isEmpty {
            let (first, last) = days.days(in: zone)
            do {
                rides = try await RideSelection.load(
                    .days(first: first, last: last), store: store, zone: zone, devices: filter,
                    stays: .init(rules: config.pipeline.visits)
                ).rides.map(\.ride)
            } catch QueryError.noRides {
                rides = []
            }
        }
        // Each ride's times in the zone of where it began (a day in Tokyo is written +09:00),
        // with a gazetteer loaded (`trailbook geocoder import`).
        let listed = rides
        let reports = try await store.read { tx in
            var zones = try PlaceZones(store: tx)
            return try listed.map { ride in
                RideReport(ride, zone: zone, there: try zones.zone(of: ride, account: user, store: tx))
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(["rides": reports]), as: UTF8.self))
            return
        }
        if reports.isEmpty, storedAny {
            print(
                "No rides on \(days.words(in: zone)) \(DayZone.words(cut: cut, times: zone)): the points stored then "
                    + "are stays (trailbook visits lists them).")
        } else if reports.isEmpty {
            print(
                days.isSet
                    ? "No rides stored on \(days.words(in: zone)) \(DayZone.words(cut: cut, times: zone)). "
                        + (try await Self.nearestDays(store, filter, from: from, to: to, zone: zone))
                    : "No rides stored yet. Store some with trailbook import FILE.")
        }
        for r in reports { print(r.line) }
    }

    /// Where the rides nearest `[from, to)` are, as a sentence: the local day of the last ride
    /// before and of the first after, or that there are none at all.
    static func nearestDays(_ store: any TrackStoring, _ devices: DeviceFilter, from: Int64, to: Int64, zone: TimeZone)
        async throws -> String
    {
        let (before, after) = try await store.read { tx in
            (
                try tx.rides(fromMilliseconds: .min, toMilliseconds: from, devices: devices).last,
                try tx.rides(fromMilliseconds: to, toMilliseconds: .max, devices: devices).first
            )
        }
        let days = [
            before.map { "\(LocalDay.of($0.startMilliseconds, in: zone)) before" },
            after.map { "\(LocalDay.of($0.startMilliseconds, in: zone)) after" },
        ].compactMap { $0 }
        guard !days.isEmpty else { return "There are none on any day yet: trailbook import FILE stores some." }
        return "The nearest days with rides: " + days.joined(separator: ", ") + " (trailbook rides lists them all)."
    }
}

extension RideSelection {
    /// ``load(_:store:zone:devices:fused:)``, where days without rides say which days nearby have
    /// some, as `rides --day` does (`summary`, `export`).
    static func loadNamingNearest(
        _ scope: Scope, store: any TrackStoring, zone: TimeZone, devices: DeviceFilter, fused: Bool = true,
        stays: StayCut? = StayCut()
    ) async throws -> RideSelection {
        do {
            return try await load(scope, store: store, zone: zone, devices: devices, fused: fused, stays: stays)
        } catch let failure as QueryError {
            guard case .noRides = failure else { throw failure }
            let (first, last): (CivilDate?, CivilDate?)
            switch scope {
            case .ride: throw failure
            case .day(let day): (first, last) = (day, day)
            case .days(let a, let b): (first, last) = (a, b)
            }
            let (from, to, _) = try await store.read {
                try DayZone.range(first: first, last: last, store: $0, devices: devices, zone: zone)
            }
            throw CommandFailure(
                message: failure.description + " "
                    + (try await Rides.nearestDays(store, devices, from: from, to: to, zone: zone)),
                code: .noInput)
        }
    }
}
