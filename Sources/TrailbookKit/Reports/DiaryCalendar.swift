import Foundation
import GPSCore
import TrackModel
import Visits

/// How much was recorded on each local day of a year: the use case behind the server's
/// `/calendar`. A ride counts on the day it starts; the time moving, on the days the kept moves
/// were made in (a move over midnight by its share of each).
public struct DiaryCalendar: Sendable, Equatable {
    /// One day's amounts.
    public struct Day: Sendable, Equatable {
        public var rides = 0
        /// The time moving, seconds: that of the kept moves (docs/TIMELINE.md) when the account's
        /// timeline answers; else the time the rides cover from first to last point, where time two
        /// devices recorded at once counts once.
        public var seconds = 0.0
        public var points = 0
        public var records = 0

        public init() {}

        /// 0 (nothing) to 4 (three hours or more), for shading: a record alone is 1.
        public var level: Int {
            switch seconds {
            case 10800.0...: return 4
            case 3600.0...: return 3
            case 900.0...: return 2
            case 1.0...: return 1
            default: return rides > 0 || records > 0 ? 1 : 0
            }
        }
    }

    public var year: Int
    public var days: [CivilDate: Day]

    /// The year's days with something recorded by the `devices` (and records of their account),
    /// in `zone`; with a gazetteer, a ride counts on its day where it began and a record on its
    /// day where it was (a ride in Tokyo on Tokyo's day, as `trailbook day` cuts it). With
    /// `rules` (the `[visits]` settings) and a kept timeline made with them, a day's time is its
    /// moving time (``TimelineKeeper``).
    public static func load(
        _ year: Int, store: any TrackStoring, zone: TimeZone, devices: DeviceFilter, rules: VisitRules? = nil
    ) async throws -> DiaryCalendar {
        // The year's moves as every reader has them (the user's edits applied), when kept.
        let (from, to) = (
            LocalDay.start(CivilDate(unchecked: year, 1, 1), in: zone) - margin,
            LocalDay.start(CivilDate(unchecked: year + 1, 1, 1), in: zone) + margin
        )
        var moves: [Trip]?
        if let rules, try await store.read({ try TimelineKeeper.answers($0, to: to, devices: devices, rules: rules) }) {
            moves = try await VisitService.find(
                store: store, fromMilliseconds: from, toMilliseconds: to, devices: devices, rules: rules, zone: zone
            ).trips
        }
        return try await store.read { [moves] in try load(year, in: $0, zone: zone, devices: devices, moves: moves) }
    }

    /// Local days run at most 14 hours either side of UTC's.
    static let margin: Int64 = 15 * 3_600_000

    /// ``load(_:store:zone:devices:rules:)`` in a read unit, with the year's `moves` (nil: a day's
    /// time is what its rides cover).
    static func load(
        _ year: Int, in store: any StoreReading, zone: TimeZone, devices: DeviceFilter, moves: [Trip]? = nil
    ) throws -> DiaryCalendar {
        var zones = try PlaceZones(store: store)
        let margin: Int64 = zones.isLoaded ? Self.margin : 0
        let from = LocalDay.start(CivilDate(unchecked: year, 1, 1), in: zone) - margin
        let to = LocalDay.start(CivilDate(unchecked: year + 1, 1, 1), in: zone) + margin
        var days: [CivilDate: Day] = [:]
        var spans: [CivilDate: [(Int64, Int64)]] = [:]
        for ride in try store.rides(fromMilliseconds: from, toMilliseconds: to, devices: devices)
        where (from..<to).contains(ride.startMilliseconds) {
            let there = try zones.zone(of: ride, account: devices.account, store: store) ?? zone
            let day = LocalDay.of(ride.startMilliseconds, in: there)
            guard day.year == year else { continue }
            days[day, default: Day()].rides += 1
            spans[day, default: []].append((ride.startMilliseconds, ride.endMilliseconds))
            days[day, default: Day()].points += ride.pointCount
        }
        if let moves {
            // Each move on the local days of where it began, with its share of each.
            for (day, figures) in try TimelineKeeper.byDay(moves, zone: { try zones.zone(at: $0.from) ?? zone })
            where day.year == year {
                days[day, default: Day()].seconds += figures.moving
            }
        } else {
            for (day, list) in spans { days[day]?.seconds = Double(covered(list)) / 1000 }
        }
        for record in try store.records(fromMilliseconds: from, toMilliseconds: to, account: devices.account) {
            let there = try zones.zone(at: record.coordinate) ?? zone
            let day = LocalDay.of(record.milliseconds, in: there)
            if day.year == year { days[day, default: Day()].records += 1 }
        }
        return DiaryCalendar(year: year, days: days)
    }

    /// The time `spans` (`[start, end]`, ms) cover together, ms.
    static func covered(_ spans: [(Int64, Int64)]) -> Int64 {
        var total: Int64 = 0
        var reach = Int64.min
        for (a, b) in spans.sorted(by: { $0.0 < $1.0 }) where b > reach {
            total += b - max(a, reach)
            reach = b
        }
        return total
    }
}
