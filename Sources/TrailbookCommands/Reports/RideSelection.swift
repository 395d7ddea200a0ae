import ArgumentParser
import Foundation
import GPSCore
import Reports
import TrackStore

/// `RIDE`, `--ride ID`, `--day D` or `--from D --to D`: which stored rides a report covers.
struct RideSelection {
    var rides: [(ride: StoredRide, points: [TrackPoint])]
    /// `[from, to)` covered, ms since 1970 UTC.
    var from: Int64
    var to: Int64
    /// A name for titles: "ride 3", "2026-06-14", "2026-06-01 to 2026-06-14".
    var name: String

    /// Loads the rides; an unknown ride is exit 66, no rides on the days is exit 66 too.
    static func load(
        ride: Int64?, days: DayRangeOptions, store: TrackStore, zone: TimeZone, devices: DeviceFilter = .all
    ) throws -> RideSelection {
        var from: Int64
        var to: Int64
        let name: String
        if let ride {
            guard let range = try store.rideRange(ride) else {
                throw CommandFailure(
                    message: "There is no ride \(ride) in \(store.path); trailbook rides lists them.", code: .noInput)
            }
            (from, to) = (range.start, range.end + 1)
            name = "ride \(ride)"
        } else {
            (from, to) = days.range(in: zone)
            name = days.day ?? "\(days.from ?? "start") to \(days.to ?? "end")"
        }
        var stored = try store.rides(fromMilliseconds: from, toMilliseconds: to, devices: devices)
        if let ride { stored = stored.filter { $0.id == ride } }
        if stored.isEmpty {
            throw CommandFailure(
                message: "No rides stored on \(name) (\(zone.identifier)); trailbook rides lists what is stored.",
                code: .noInput)
        }
        let all = try store.pointsWithSegments(
            fromMilliseconds: stored.map(\.startMilliseconds).min()!,
            toMilliseconds: stored.map(\.endMilliseconds).max()! + 1, devices: devices)
        var byRide: [Int64: [TrackPoint]] = [:]
        for p in all { byRide[p.ride, default: []].append(TrackPoint(fix: p.fix, segment: p.segment)) }
        if ride == nil {
            from = min(from, stored.map(\.startMilliseconds).min()!)
            to = max(to, stored.map(\.endMilliseconds).max()! + 1)
        }
        return RideSelection(rides: stored.map { ($0, byRide[$0.id] ?? []) }, from: from, to: to, name: name)
    }
}
