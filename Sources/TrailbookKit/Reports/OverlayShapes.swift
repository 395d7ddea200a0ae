import Foundation
import GPSCore
import Reports
import Synchronization
import TrackModel

/// The overlay of many days as the web app draws it (`/days`), without reading every point of
/// every day on each look: each ride's lines (simplified to each of ``tolerances``), extent,
/// distance and moving time are worked out once and kept in memory, and worked out again when
/// its points, start or end changed. A view draws the lines simplified to the most that stays
/// within half a pixel of its map. A ride across midnight is worked out and kept for the part
/// in each day, as the day pages show it. A server keeps one for all its accounts (ride ids are
/// the store's).
public final class OverlayShapes: Sendable {
    /// A ride's lines (one per segment, at each of ``tolerances``), extent and figures.
    struct Shape: Sendable {
        var lines: [[[Coordinate]]]
        var corners: [Coordinate]
        var distance: Double
        var moving: Double
    }

    struct Kept: Sendable {
        var points: Int
        var start: Int64
        var end: Int64
        var shape: Shape
    }

    /// How far a kept line may stray from the points, metres: from below what a fix is sure of
    /// (for a map of a town) to a pixel of a map of a continent.
    public static let tolerances = [2.0, 20, 200, 2000]

    /// A ride's part in one day: its id and the part's `[from, to)`, ms.
    struct Part: Hashable, Sendable {
        var ride: Int64
        var from: Int64
        var to: Int64
    }

    private let kept = Mutex<[Part: Kept]>([:])

    public init() {}

    /// How many rides' parts are kept.
    var keptParts: Int { kept.withLock { $0.count } }

    /// The part of `ride` in `[from, to)`, read from the store.
    static func shape(_ ride: StoredRide, store: any TrackStoring, account: String?, from: Int64, to: Int64) throws
        -> Shape
    {
        let devices: DeviceFilter = account.map { .account($0, device: ride.device) } ?? .named(ride.device)
        let points = try store.pointsWithSegments(fromMilliseconds: from, toMilliseconds: to, devices: devices)
            .filter { $0.ride == ride.id }.map { TrackPoint(fix: $0.fix, segment: $0.segment) }
        let statistics = RideStatistics.compute(points, drops: ride.drops, options: StatisticsOptions())
        var lines = DayReport.segments(points).map { $0.compactMap(\.fix.coordinate) }.filter { !$0.isEmpty }
        let all = lines.joined()
        let corners =
            all.isEmpty
            ? []
            : [
                Coordinate(latitude: all.map(\.latitude).min()!, longitude: all.map(\.longitude).min()!),
                Coordinate(latitude: all.map(\.latitude).max()!, longitude: all.map(\.longitude).max()!),
            ]
        var levels: [[[Coordinate]]] = []
        for metres in tolerances {
            lines = lines.map { simplified($0, metres: metres) }
            levels.append(lines)
        }
        return Shape(lines: levels, corners: corners, distance: statistics.distance, moving: statistics.moving)
    }

    /// `line` without the points that lie within `metres` of the line through those kept.
    static func simplified(_ line: [Coordinate], metres: Double) -> [Coordinate] {
        guard let origin = line.first, line.count > 2 else { return line }
        let east = 111_320 * cos(origin.latitude * .pi / 180)
        let plane = line.map { c in
            (x: (c.longitude - origin.longitude) * east, y: (c.latitude - origin.latitude) * 110_574)
        }
        return Simplify.indices(plane, tolerance: metres).map { line[$0] }
    }

    /// The days among `days` (local days in `zone`) with rides or records of `devices`, as the
    /// overlay draws them; `link` is where each day's row points.
    public func days(
        _ days: [CivilDate], store: any TrackStoring, zone: TimeZone, devices: DeviceFilter,
        link: (CivilDate) -> String
    ) throws -> [OverlayReport.Day] {
        guard let first = days.first, let last = days.last else { return [] }
        let (from, to) = (LocalDay.start(first, in: zone), LocalDay.start(last.adding(days: 1), in: zone))
        let rides = try store.rides(fromMilliseconds: from, toMilliseconds: to, devices: devices)
        let ids = Set(rides.map(\.id))
        let known = kept.withLock { all in all.filter { ids.contains($0.key.ride) } }
        var fresh: [Part: Kept] = [:]
        var byDay: [CivilDate: [Shape]] = [:]
        for ride in rides {
            let (a, b) = (ride.startMilliseconds, ride.endMilliseconds + 1)
            // The part in each day it touches (all of it, on one day).
            var day = max(LocalDay.of(a, in: zone), first)
            while day <= min(LocalDay.of(b - 1, in: zone), last) {
                defer { day = day.adding(days: 1) }
                let (dayStart, dayEnd) = LocalDay.range(day, in: zone)
                let part = Part(ride: ride.id, from: max(a, dayStart), to: min(b, dayEnd))
                if let k = known[part], k.points == ride.pointCount, k.start == a, k.end == ride.endMilliseconds {
                    byDay[day, default: []].append(k.shape)
                    continue
                }
                let shape = try Self.shape(ride, store: store, account: devices.account, from: part.from, to: part.to)
                fresh[part] = Kept(points: ride.pointCount, start: a, end: ride.endMilliseconds, shape: shape)
                if !shape.corners.isEmpty { byDay[day, default: []].append(shape) }
            }
        }
        if !fresh.isEmpty {
            // What was kept of an older state of these rides goes (a ride a phone is still
            // adding to gets a new part on every look).
            let current = Dictionary(rides.map { ($0.id, $0) }) { a, _ in a }
            kept.withLock { all in
                all = all.filter { key, k in
                    guard let r = current[key.ride] else { return true }
                    return k.points == r.pointCount && k.start == r.startMilliseconds && k.end == r.endMilliseconds
                }
                all.merge(fresh) { $1 }
            }
        }
        var places: [CivilDate: [Coordinate]] = [:]
        for r in try store.records(fromMilliseconds: from, toMilliseconds: to, account: devices.account) {
            places[LocalDay.of(r.milliseconds, in: zone), default: []].append(r.coordinate)
        }
        // The map the view draws (as OverlayReport fits it), and the lines that stay within half a
        // pixel of it.
        let corners = byDay.values.joined().flatMap(\.corners) + places.values.joined()
        let map = MapProjection(
            fitting: corners, width: OverlayReport.mapSize.width, height: OverlayReport.mapSize.height)
        let level = Self.tolerances.lastIndex { $0 <= map.metresPerPixel / 2 } ?? 0
        return try days.compactMap { day -> OverlayReport.Day? in
            let shapes = byDay[day] ?? []
            guard !shapes.isEmpty || places[day] != nil else { return nil }
            return OverlayReport.Day(
                date: day.description, lines: shapes.flatMap { $0.lines[level] },
                distance: shapes.map(\.distance).reduce(0, +),
                moving: shapes.map(\.moving).reduce(0, +), link: link(day),
                summary: try store.daySummary(day, account: devices.account), places: places[day] ?? [])
        }
    }
}
