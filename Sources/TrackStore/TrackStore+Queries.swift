import Foundation
import GPSCore
internal import GRDB
internal import GRDBSQLite

extension SQLiteStoring {
    /// Rides of `devices` that overlap `[from, to)` (ms since 1970, UTC), oldest first.
    public func rides(
        fromMilliseconds from: Int64 = .min, toMilliseconds to: Int64 = .max, devices: DeviceFilter = .all
    ) throws -> [StoredRide] {
        try pool.read { db in
            // A device's rides do not overlap (``OverlapMerge``): those that overlap the range are
            // the last to start at or before its start and those that start inside it, found by
            // the index on (device_id, start_ms) without reading the rides before (a look a day at
            // a time through years of rides read them all each time).
            var rows: [Row] = []
            for id in try Self.deviceIDs(db, devices) {
                let lower =
                    from == .min
                    ? from
                    : try Int64.fetchOne(
                        db.cachedStatement(sql: "SELECT max(start_ms) FROM ride WHERE device_id = ? AND start_ms <= ?"),
                        arguments: [id, from]) ?? from
                rows += try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT r.id, r.start_ms, r.end_ms, r.point_count, r.device_id, d.name AS device,
                                   (SELECT count(*) FROM segment s WHERE s.ride_id = r.id) AS segments
                            FROM ride r JOIN device d ON d.id = r.device_id
                            WHERE r.device_id = ? AND r.start_ms >= ? AND r.start_ms < ? AND r.end_ms >= ?
                            ORDER BY r.start_ms
                            """),
                    arguments: [id, lower, to, from])
            }
            rows.sort { a, b in
                (a["start_ms"] as Int64, a["device_id"] as Int64) < (b["start_ms"] as Int64, b["device_id"] as Int64)
            }
            return try rows.map { row in
                let id: Int64 = row["id"]
                var drops: [String: Int] = [:]
                for d in try Row.fetchAll(
                    db.cachedStatement(sql: "SELECT reason, count FROM drop_count WHERE ride_id = ?"), arguments: [id])
                {
                    drops[d["reason"]] = d["count"]
                }
                return StoredRide(
                    id: id, device: row["device"], startMilliseconds: row["start_ms"], endMilliseconds: row["end_ms"],
                    pointCount: row["point_count"],
                    segmentCount: row["segments"], drops: drops)
            }
        }
    }

    /// Points of `devices` in `[from, to)` (ms since 1970, UTC), in time order (by device where
    /// two share a millisecond).
    public func points(fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter = .all) throws
        -> [Fix]
    {
        try pool.read { db in
            var fixes: [Fix] = []
            try Self.eachPoint(db, Self.deviceIDs(db, devices), from: from, to: to) { fixes.append($0) }
            return fixes
        }
    }

    /// The points of the devices `ids` in `[from, to)` handed to `body` in time order (where two
    /// share a millisecond, the earlier device's first) as they are read, none kept: a statement
    /// per device, each stepped by hand, the one whose row comes first handed on and stepped.
    static func eachPoint(
        _ db: Database, _ ids: [Int64], from: Int64, to: Int64, _ body: (Fix) throws -> Void
    ) throws {
        var heads: [(statement: Statement, time: Int64)] = []
        defer { for h in heads { sqlite3_reset(h.statement.sqliteStatement) } }
        for device in ids {
            let statement = try pointStatement(db, keyRange(device, from: from, to: to))
            if try step(db, statement) {
                heads.append((statement, sqlite3_column_int64(statement.sqliteStatement, 0)))
            } else {
                sqlite3_reset(statement.sqliteStatement)
            }
        }
        while !heads.isEmpty {
            var pick = 0
            for i in heads.indices.dropFirst() where heads[i].time < heads[pick].time { pick = i }
            let s = heads[pick].statement.sqliteStatement
            try body(Fix(storedStatement: s))
            if try step(db, heads[pick].statement) {
                heads[pick].time = sqlite3_column_int64(s, 0)
            } else {
                sqlite3_reset(s)
                heads.remove(at: pick)
            }
        }
    }

    /// The points as they are read, none kept (several devices' merged as they are read).
    public func forEachPoint(
        fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter, _ body: (Fix) throws -> Void
    ) throws {
        try pool.read { db in try Self.eachPoint(db, Self.deviceIDs(db, devices), from: from, to: to, body) }
    }

    /// Steps the points of one device's key range `[keys.0, keys.1)` in time order, handing
    /// `body` the statement at each row (columns as ``PointKey/columns``). Stepped by hand:
    /// GRDB's row cursor cost a third of a day's reading (docs/BENCHMARKS.md).
    static func eachPoint(_ db: Database, _ keys: StatementArguments, _ body: (OpaquePointer) throws -> Void) throws {
        let statement = try pointStatement(db, keys)
        defer { sqlite3_reset(statement.sqliteStatement) }
        while try step(db, statement) { try body(statement.sqliteStatement) }
    }

    /// A new statement over one device's key range, in time order.
    static func pointStatement(_ db: Database, _ keys: StatementArguments) throws -> Statement {
        let statement = try db.makeStatement(
            sql: "SELECT \(PointKey.columns) FROM point WHERE key >= ? AND key < ? ORDER BY key")
        try statement.setArguments(keys)
        return statement
    }

    /// Steps `statement` by hand: true at a row, false when done.
    static func step(_ db: Database, _ statement: Statement) throws -> Bool {
        let code = sqlite3_step(statement.sqliteStatement)
        if code == SQLITE_DONE { return false }
        guard code == SQLITE_ROW else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code),
                message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: statement.sql)
        }
        return true
    }

    /// Points of a ride, in time order; empty when there is no such ride.
    public func points(ride id: Int64) throws -> [Fix] {
        guard
            let ride = try pool.read({ db in
                try Row.fetchOne(db, sql: "SELECT start_ms, end_ms, device_id FROM ride WHERE id = ?", arguments: [id])
            })
        else { return [] }
        return try pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(PointKey.columns) FROM point WHERE key >= ? AND key < ? ORDER BY key",
                arguments: Self.keyRange(ride["device_id"], from: ride["start_ms"], to: (ride["end_ms"] as Int64) + 1)
            ).map(Fix.init(storedRow:))
        }
    }

}

/// The file's upkeep, outside any unit of work.
extension TrackStore {
    /// `PRAGMA integrity_check`: "ok" for a sound file.
    public func integrityCheck() throws -> String {
        try databasePool.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "no answer" }
    }

    /// Bytes the store takes once checkpointed and vacuumed (the figure "bytes per point" uses).
    public func compactedSize() throws -> Int64 {
        try databasePool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute(sql: "VACUUM")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }
}

extension SQLiteStoring {
    /// Points of `devices` in `[from, to)` with the stored ride and segment each belongs to, in
    /// time order (by device where two share a millisecond). A point belongs to the last segment
    /// of its device that starts at or before it; each device's segments are read once and
    /// walked alongside its points.
    public func pointsWithSegments(
        fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter = .all
    ) throws -> [PlacedPoint] {
        try pool.read { db in
            let names = try Self.deviceNames(db)
            var all: [PlacedPoint] = []
            let ids = try Self.deviceIDs(db, devices)
            for device in ids {
                let name = names[device] ?? ""
                let before = try Row.fetchOne(
                    db,
                    sql: """
                        SELECT id, ride_id, start_ms FROM segment WHERE device_id = ? AND start_ms <= ?
                        ORDER BY start_ms DESC LIMIT 1
                        """,
                    arguments: [device, from])
                let segments =
                    (before.map { [$0] } ?? [])
                    + (try Row.fetchAll(
                        db,
                        sql: """
                            SELECT id, ride_id, start_ms FROM segment WHERE device_id = ? AND start_ms > ? AND start_ms < ?
                            ORDER BY start_ms
                            """,
                        arguments: [device, from, to]))
                let starts: [Int64] = segments.map { $0["start_ms"] }
                var next = 0
                var current: (Int64, Int64)?
                try Self.eachPoint(db, Self.keyRange(device, from: from, to: to)) { s in
                    let t = sqlite3_column_int64(s, 0)
                    while next < starts.count && starts[next] <= t {
                        current = (segments[next]["ride_id"], segments[next]["id"])
                        next += 1
                    }
                    guard let (ride, segment) = current else { return }
                    all.append((Fix(storedStatement: s), ride, segment, name))
                }
            }
            if ids.count > 1 {
                // Stable: a millisecond two devices share keeps the device order.
                all = all.enumerated().sorted {
                    ($0.element.fix.unixMilliseconds!, $0.offset) < ($1.element.fix.unixMilliseconds!, $1.offset)
                }.map(\.element)
            }
            return all
        }
    }

    /// The time range of a stored ride, or nil.
    public func rideRange(_ id: Int64) throws -> (start: Int64, end: Int64)? {
        try pool.read { db in
            try RideRow.fetchOne(db, key: id).map { ($0.startMs, $0.endMs) }
        }
    }
}

extension SQLiteStoring {
    public func importedFiles(account: String?) throws -> [String: StoredImport] {
        try pool.read { db in
            let rows = try ImportRow.fetchAll(
                db, sql: "SELECT * FROM import WHERE \(SQLiteUnit.ofAccount)",
                arguments: [account ?? TrackStore.localUser])
            return Dictionary(rows.map { ($0.sha256, $0.stored) }, uniquingKeysWith: { first, _ in first })
        }
    }
}
