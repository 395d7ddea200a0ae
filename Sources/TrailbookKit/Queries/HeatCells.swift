import Foundation
import GPSCore
import Synchronization
import TrackModel

/// An account's points counted in squares of ``fine`` degrees, for the heat map: counted once
/// per ride and kept in memory, so that a heat map of all time reads only the rides changed
/// since (a ride is counted again when its points, start or end changed). A server keeps one
/// for all its accounts (ride ids are the store's).
public final class HeatCells: Sendable {
    /// The smallest square, degrees (about 220 m), and in the stores' 1e-7 degrees.
    public static let fine = 0.002
    static let fineE7: Int64 = 20_000

    struct Counted {
        var points: Int
        var start: Int64
        var end: Int64
        var cells: [Int64: Int]
    }

    /// Counts by ride id.
    private let counted = Mutex<[Int64: Counted]>([:])

    public init() {}

    /// How many rides' counts are kept.
    var countedRides: Int { counted.withLock { $0.count } }

    /// A square's key: its row from the south pole in the high half, its column from 180° W
    /// in the low.
    public static func key(_ c: Coordinate) -> Int64 {
        let row = (Int64((c.latitude * 1e7).rounded()) + 900_000_000) / fineE7
        let column = (Int64((c.longitude * 1e7).rounded()) + 1_800_000_000) / fineE7
        return row << 32 | column
    }

    /// Counts of `devices`' points in `[from, to)` by square.
    static func count(store: any TrackStoring, devices: DeviceFilter, from: Int64, to: Int64) throws -> [Int64: Int] {
        var cells: [Int64: Int] = [:]
        try store.forEachPoint(fromMilliseconds: from, toMilliseconds: to, devices: devices) { fix in
            if let c = fix.coordinate { cells[key(c), default: 0] += 1 }
        }
        return cells
    }

    /// `account`'s points in `[from, to)` by square of ``fine`` degrees (``key(_:)``): the
    /// rides wholly inside from what was counted before, those across an end counted within it.
    public func cells(account: String, store: any TrackStoring, from: Int64 = .min, to: Int64 = .max) throws
        -> [Int64: Int]
    {
        let rides = try store.rides(fromMilliseconds: from, toMilliseconds: to, devices: DeviceFilter(account: account))
        let known = counted.withLock { all in rides.compactMap { r in all[r.id].map { (r.id, $0) } } }
        let kept = Dictionary(known, uniquingKeysWith: { a, _ in a })
        var total: [Int64: Int] = [:]
        var fresh: [Int64: Counted] = [:]
        for ride in rides {
            let devices = DeviceFilter.account(account, device: ride.device)
            guard ride.startMilliseconds >= from, ride.endMilliseconds < to else {
                // Across an end: only the points within.
                let part = try Self.count(
                    store: store, devices: devices, from: max(from, ride.startMilliseconds),
                    to: min(to, ride.endMilliseconds + 1))
                total.merge(part, uniquingKeysWith: +)
                continue
            }
            if let k = kept[ride.id], k.points == ride.pointCount, k.start == ride.startMilliseconds,
                k.end == ride.endMilliseconds
            {
                total.merge(k.cells, uniquingKeysWith: +)
                continue
            }
            let cells = try Self.count(
                store: store, devices: devices, from: ride.startMilliseconds, to: ride.endMilliseconds + 1)
            fresh[ride.id] = Counted(
                points: ride.pointCount, start: ride.startMilliseconds, end: ride.endMilliseconds, cells: cells)
            total.merge(cells, uniquingKeysWith: +)
        }
        if !fresh.isEmpty { counted.withLock { $0.merge(fresh) { $1 } } }
        return total
    }

    /// `cells` (``key(_:)`` squares) in squares `k` times as large, sorted by row and column.
    public static func coarser(_ cells: [Int64: Int], by k: Int64) -> [PointCell] {
        var out: [Int64: Int] = [:]
        for (key, n) in cells { out[((key >> 32) / k) << 32 | (key & 0xFFFF_FFFF) / k, default: 0] += n }
        return out.keys.sorted().map { PointCell(row: Int($0 >> 32), column: Int($0 & 0xFFFF_FFFF), count: out[$0]!) }
    }
}
