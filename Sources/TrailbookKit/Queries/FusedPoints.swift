import GPSCore
import Reports
import TrackModel
import Visits

/// A person's points with their sources' overlaps taken out (``SourceFusion``): what every
/// listing of a day or a range of an account reads, so a phone and a receiver on one ride, or
/// Google's raw locations and its semantic paths of the same hours, count once. The stored
/// points stay as they came.
enum FusedPoints {
    /// Whether `devices` may span several devices (and so needs fusing).
    static func spansDevices(_ devices: DeviceFilter) -> Bool {
        switch devices {
        case .all, .account(_, device: nil): true
        case .named, .account: false
        }
    }

    /// The points of `placed` (in time order) that fusion keeps. Where a ride lost points to a
    /// better source between two it kept, the kept part after the hole is a segment of its own
    /// (a negative id, never a stored one), so no line or distance crosses the time it lost.
    static func fuse(_ placed: [PlacedPoint]) -> [PlacedPoint] {
        // One device: nothing to fuse, nothing to allocate.
        guard let first = placed.first?.device, placed.contains(where: { $0.device != first }) else { return placed }
        var sources: [String: Int] = [:]
        let points = placed.map { p in
            let source =
                sources[p.device]
                ?? {
                    sources[p.device] = sources.count
                    return sources.count - 1
                }()
            return SourceFusion.Point(
                milliseconds: p.fix.unixMilliseconds ?? 0, source: source, error: SourceFusion.error(of: p.fix))
        }
        guard sources.count > 1 else { return placed }
        let kept = SourceFusion().kept(points)
        var out: [PlacedPoint] = []
        out.reserveCapacity(placed.count)
        // Per ride: the stored segment of its last kept point, the id its kept points get, and
        // whether it lost a point since.
        var rides: [Int64: (stored: Int64, id: Int64, lost: Bool)] = [:]
        var next: Int64 = -1
        for (p, keep) in zip(placed, kept) {
            guard keep else {
                rides[p.ride]?.lost = true
                continue
            }
            var q = p
            if let r = rides[p.ride], r.stored == p.segment {
                q.segment = r.lost ? next : r.id
                if r.lost { next -= 1 }
            }
            rides[p.ride] = (p.segment, q.segment, false)
            out.append(q)
        }
        return out
    }

    /// The points of `devices` in `[from, to)` handed to `body` in time order, fused when they
    /// are of several devices (read whole then, two days at most at a time by the callers); a
    /// range of one device's rides is read as it comes, keeping none. `mayFuse` false: the
    /// caller knows one device at most has rides there (no look at the rides of each range).
    static func forEach(
        store: any StoreReading, from: Int64, to: Int64, devices: DeviceFilter, mayFuse: Bool = true,
        _ body: (Fix) throws -> Void
    ) throws {
        if mayFuse, spansDevices(devices),
            Set(try store.rides(fromMilliseconds: from, toMilliseconds: to, devices: devices).map(\.device)).count > 1
        {
            for p in fuse(try store.pointsWithSegments(fromMilliseconds: from, toMilliseconds: to, devices: devices)) {
                try body(p.fix)
            }
        } else {
            try store.forEachPoint(fromMilliseconds: from, toMilliseconds: to, devices: devices, body)
        }
    }

    /// The distance (m) and moving time (s) of `devices` in `[from, to)` over their fused points:
    /// for a day whose rides of several devices overlap, where adding each ride's own would count
    /// the shared time twice.
    static func figures(
        store: any StoreReading, from: Int64, to: Int64, devices: DeviceFilter, stays: [RideParts.Stay] = []
    ) throws -> (distance: Double, moving: Double) {
        let rides = try store.rides(fromMilliseconds: from, toMilliseconds: to, devices: devices)
        var byRide: [Int64: [TrackPoint]] = [:]
        for p in fuse(try store.pointsWithSegments(fromMilliseconds: from, toMilliseconds: to, devices: devices)) {
            byRide[p.ride, default: []].append(TrackPoint(fix: p.fix, segment: p.segment))
        }
        // A stay is no part of a ride (``RideSelection/moving(_:stays:)``).
        let parts = RideSelection.moving(rides.compactMap { r in byRide[r.id].map { (r, $0) } }, stays: stays)
        var (distance, moving) = (0.0, 0.0)
        for (ride, points) in parts {
            let statistics = RideStatistics.compute(points, drops: ride.drops, options: StatisticsOptions())
            distance += statistics.distance
            moving += statistics.moving
        }
        return (distance, moving)
    }

    /// Whether two of `spans` (`[from, to)` with their device) of different devices overlap.
    static func overlap(_ spans: [(from: Int64, to: Int64, device: String)]) -> Bool {
        let sorted = spans.sorted { $0.from < $1.from }
        var reach: [String: Int64] = [:]
        for s in sorted {
            if reach.contains(where: { $0.key != s.device && $0.value > s.from }) { return true }
            reach[s.device] = max(reach[s.device] ?? .min, s.to)
        }
        return false
    }
}
