import Foundation
import GPSCore
import Synchronization
import TrackModel

/// An account's points counted in squares of ``fine`` degrees, for the heat map: counted once
/// per ride and kept in memory, and in the server's ``ViewCache`` when it has one (so the counts
/// outlive the server), so that a heat map of all time reads only the rides changed since (a
/// ride is counted again when its points, start or end changed). A server keeps one for all its
/// accounts (ride ids are the store's).
public final class HeatCells: Sendable {
    /// The smallest square, degrees (about 220 m), and in the stores' 1e-7 degrees.
    public static let fine = 0.002
    static let fineE7: Int64 = 20_000

    typealias RideState = ViewCache.RideState

    /// Counts by ride id, with the state of the ride counted.
    private let counted = Mutex<[Int64: (RideState, [Int64: Int])]>([:])
    /// Where the counts outlive the server (nil: in memory only).
    let cache: ViewCache?

    public init(cache: ViewCache? = nil) { self.cache = cache }

    /// How many rides' counts are kept.
    var countedRides: Int { counted.withLock { $0.count } }
    /// How many rides were counted from the points (not found kept).
    private let counts = Atomic(0)
    var countedFromPoints: Int { counts.load(ordering: .relaxed) }

    /// A square's key: its row from the south pole in the high half, its column from 180° W
    /// in the low.
    public static func key(_ c: Coordinate) -> Int64 {
        let row = (Int64((c.latitude * 1e7).rounded()) + 900_000_000) / fineE7
        let column = (Int64((c.longitude * 1e7).rounded()) + 1_800_000_000) / fineE7
        return row << 32 | column
    }

    /// Counts of `devices`' points in `[from, to)` by square.
    static func count(store: any TrackStoring, devices: DeviceFilter, from: Int64, to: Int64) async throws
        -> [Int64: Int]
    {
        try await store.read {
            var cells: [Int64: Int] = [:]
            try $0.forEachPoint(fromMilliseconds: from, toMilliseconds: to, devices: devices) { fix in
                if let c = fix.coordinate { cells[key(c), default: 0] += 1 }
            }
            return cells
        }
    }

    /// `account`'s points in `[from, to)` by square of ``fine`` degrees (``key(_:)``): the
    /// rides wholly inside from what was counted before, those across an end counted within it.
    public func cells(account: String, store: any TrackStoring, from: Int64 = .min, to: Int64 = .max) async throws
        -> [Int64: Int]
    {
        let rides = try await store.read {
            try $0.rides(fromMilliseconds: from, toMilliseconds: to, devices: DeviceFilter(account: account))
        }
        var kept = counted.withLock { all in
            Dictionary(rides.compactMap { r in all[r.id].map { (r.id, $0) } }, uniquingKeysWith: { a, _ in a })
        }
        let whole = rides.filter { $0.startMilliseconds >= from && $0.endMilliseconds < to }
        if let cache, whole.contains(where: { kept[$0.id]?.0 != RideState($0) }) {
            let filed = try await cache.heat(of: whole.filter { kept[$0.id]?.0 != RideState($0) }.map(\.id))
            kept.merge(filed) { $1 }
            counted.withLock { $0.merge(filed) { $1 } }
        }
        var total: [Int64: Int] = [:]
        var fresh: [Int64: (RideState, [Int64: Int])] = [:]
        for ride in rides {
            let devices = DeviceFilter.account(account, device: ride.device)
            guard ride.startMilliseconds >= from, ride.endMilliseconds < to else {
                // Across an end: only the points within.
                let part = try await Self.count(
                    store: store, devices: devices, from: max(from, ride.startMilliseconds),
                    to: min(to, ride.endMilliseconds + 1))
                total.merge(part, uniquingKeysWith: +)
                continue
            }
            if let (state, cells) = kept[ride.id], state == RideState(ride) {
                total.merge(cells, uniquingKeysWith: +)
                continue
            }
            let cells = try await Self.count(
                store: store, devices: devices, from: ride.startMilliseconds, to: ride.endMilliseconds + 1)
            counts.add(1, ordering: .relaxed)
            fresh[ride.id] = (RideState(ride), cells)
            total.merge(cells, uniquingKeysWith: +)
        }
        if !fresh.isEmpty {
            counted.withLock { $0.merge(fresh) { $1 } }
            try await cache?.keep(heat: fresh)
        }
        return total
    }

    /// Counts and files in the cache the rides of `account` not there yet, without keeping them
    /// in memory (the server does this once it starts). Stops early when `stop` says so;
    /// returns the rides counted.
    @discardableResult
    public func fill(account: String, store: any TrackStoring, stop: () -> Bool = { false }) async throws -> Int {
        guard let cache else { return 0 }
        let rides = try await store.read {
            try $0.rides(
                fromMilliseconds: .min, toMilliseconds: .max, devices: DeviceFilter(account: account))
        }
        let filed = try await cache.heatStates(of: rides.map(\.id))
        var done = 0
        for ride in rides where filed[ride.id] != RideState(ride) {
            if stop() { break }
            let cells = try await Self.count(
                store: store, devices: .account(account, device: ride.device), from: ride.startMilliseconds,
                to: ride.endMilliseconds + 1)
            try await cache.keep(heat: [ride.id: (RideState(ride), cells)])
            done += 1
        }
        return done
    }

    /// `cells` (``key(_:)`` squares) in squares `k` times as large, sorted by row and column.
    public static func coarser(_ cells: [Int64: Int], by k: Int64) -> [PointCell] {
        var out: [Int64: Int] = [:]
        for (key, n) in cells { out[((key >> 32) / k) << 32 | (key & 0xFFFF_FFFF) / k, default: 0] += n }
        return out.keys.sorted().map { PointCell(row: Int($0 >> 32), column: Int($0 & 0xFFFF_FFFF), count: out[$0]!) }
    }
}
