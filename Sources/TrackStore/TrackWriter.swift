import Foundation
import GPSCore
internal import GRDB
internal import GRDBSQLite

/// Writes kept fixes into the store, in batches, one transaction each.
///
/// The pipeline numbers rides and segments within one run (1, 2, ...); the writer creates the
/// stored ride and segment rows the first time a number appears and keeps their ranges and
/// counts up to date. A point whose millisecond is already stored is skipped (re-importing a
/// log stores nothing twice), and a new ride or segment whose first point falls inside a stored
/// one's time range continues that stored ride or segment.
public final class TrackWriter {
    public typealias KeptPoint = TrackModel.KeptPoint
    public typealias ImportedPlace = TrackModel.ImportedPlace
    public typealias ImportedFile = TrackModel.ImportedFile
    public typealias ImportStream = TrackModel.ImportStream
    public typealias ImportOutcome = TrackModel.ImportOutcome

    /// The unit of work it writes in.
    let store: any SQLiteStoring
    /// The device whose points this writer stores.
    public let device: DeviceID
    /// The stored rides and segments of the run's numbers.
    public var numbering = RunNumbering()
    /// Points written by this writer (duplicates not counted).
    public internal(set) var stored = 0

    public init(store: some SQLiteStoring, device: DeviceID) {
        self.store = store
        self.device = device
    }

    /// Stores `points` and adds `drops` (run-local ride → reason → count) in one transaction: a
    /// recorder's batch, continuing the rides and segments of the batches before it
    /// (``RunNumbering``).
    @discardableResult
    public func write(_ points: [KeptPoint], drops: [Int: [String: Int]] = [:]) throws -> Int {
        var numbering = self.numbering
        let d = device.rawValue
        let added = try store.pool.write { db -> Int in
            let insert = try db.cachedStatement(
                sql:
                    "INSERT OR IGNORE INTO point (\(PointKey.insertColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
            // Before 1830 or after 2109 a point has no key; a millisecond the device has is skipped.
            let fresh = try points.filter {
                try PointKey.holds($0.milliseconds) && Self.insert($0, with: insert, device: device, db)
            }
            let times = fresh.map(\.milliseconds)
            func stored(_ table: String) throws -> [StoredRange] {
                guard let first = times.min(), let last = times.max() else { return [] }
                return try Self.overlapping(db, table, device: device, from: first, to: last)
            }
            let plan = numbering.plan(
                fresh: fresh, drops: drops, storedRides: try stored("ride"), storedSegments: try stored("segment"))
            var madeRides: [Int64] = []
            for t in plan.newRides {
                try RideRow(deviceId: d, startMs: t, endMs: t, pointCount: 0).insert(db)
                madeRides.append(db.lastInsertedRowID)
            }
            var madeSegments: [Int64] = []
            for s in plan.newSegments {
                try SegmentRow(
                    rideId: s.ride.id(madeRides), deviceId: d, startMs: s.start, endMs: s.start, pointCount: 0
                )
                .insert(db)
                madeSegments.append(db.lastInsertedRowID)
            }
            for (table, extents, made) in [("segment", plan.segments, madeSegments), ("ride", plan.rides, madeRides)] {
                for (row, e) in extents {
                    try db.execute(
                        sql: """
                            UPDATE \(table) SET start_ms = min(start_ms, ?), end_ms = max(end_ms, ?),
                                point_count = point_count + ? WHERE id = ?
                            """,
                        arguments: [e.start, e.end, e.count, row.id(made)])
                }
            }
            for (ride, reasons) in plan.drops {
                for (reason, count) in reasons {
                    try Self.addDrops(db, ride: ride.id(madeRides), reason: reason, count: count)
                }
            }
            numbering.settle(plan, madeRides: madeRides, madeSegments: madeSegments)
            return fresh.count
        }
        self.numbering = numbering
        stored += added
        return added
    }

    /// The device's rows of `table` (ride or segment) that may overlap `[start, end]`: the one
    /// that starts last before it and those that start inside it (stored rows of one table do not
    /// overlap each other). Two index lookups.
    static func overlapping(
        _ db: Database, _ table: String, device: DeviceID, from start: Int64, to end: Int64, withNext: Bool = false
    ) throws -> [StoredRange] {
        let d = device.rawValue
        let sql = "SELECT id, start_ms, end_ms FROM \(table) WHERE device_id = ? AND start_ms"
        var rows =
            try Row.fetchAll(
                db.cachedStatement(sql: sql + " < ? ORDER BY start_ms DESC, id LIMIT 1"), arguments: [d, start])
            + Row.fetchAll(
                db.cachedStatement(sql: sql + " >= ? AND start_ms <= ? ORDER BY start_ms, id"),
                arguments: [d, start, end])
        if withNext {
            // The first row after the range (``KnownGaps`` learns where the empty time ends).
            rows += try Row.fetchAll(
                db.cachedStatement(sql: sql + " > ? ORDER BY start_ms, id LIMIT 1"), arguments: [d, end])
        }
        return rows.map { StoredRange(id: $0[0], start: $0[1], end: $0[2]) }
    }

    /// Adds `count` drops for `reason` to a ride's.
    static func addDrops(_ db: Database, ride: Int64, reason: String, count: Int) throws {
        try db.cachedStatement(
            sql: """
                INSERT INTO drop_count (ride_id, reason, count) VALUES (?, ?, ?)
                ON CONFLICT (ride_id, reason) DO UPDATE SET count = count + excluded.count
                """
        ).execute(arguments: [ride, reason, count])
    }

    /// Runs the cached statement `sql` with integer `values`, bound without GRDB's arguments (an
    /// import of years of history runs the statements of its rides and segments a million times).
    static func run(_ db: Database, _ sql: String, _ values: Int64...) throws {
        let cached = try db.cachedStatement(sql: sql)
        let statement = cached.sqliteStatement
        sqlite3_reset(statement)
        for (i, v) in values.enumerated() { sqlite3_bind_int64(statement, Int32(i + 1), v) }
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: sql)
        }
    }

    /// Inserts one point with `insert` (the `INSERT OR IGNORE INTO point` of eight parameters);
    /// returns whether it went in (false: the device has that millisecond).
    static func insert(_ p: KeptPoint, with insert: Statement, device: DeviceID, _ db: Database) throws -> Bool {
        let statement = insert.sqliteStatement
        sqlite3_reset(statement)
        p.bind(to: statement, device: device)
        let code = sqlite3_step(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: insert.sql)
        }
        return sqlite3_changes(db.sqliteConnection) > 0
    }

    /// Adds `places` as manual records in the diary of `device`'s account; the same place (same
    /// time and position) is stored once. Returns how many were added.
    /// Adds the areas of `accountPlaces` as the device's account's places (a name it has already
    /// is left as it is) and remembers its visited places that no found place is near, named;
    /// returns how many of each.
    static func insertAccountPlaces(_ db: Database, _ accountPlaces: ImportedPlaces, device: Int64) throws -> (
        areas: Int, visited: Int
    ) {
        guard !accountPlaces.isEmpty,
            let user = try Int64.fetchOne(db, sql: "SELECT user_id FROM device WHERE id = ?", arguments: [device])
        else { return (0, 0) }
        var areas = 0
        for place in accountPlaces.areas {
            try db.execute(
                sql: """
                    INSERT INTO place (user_id, name, lat, lon, radius_m, polygon, source, created_ms)
                    VALUES (?, ?, ?, ?, ?, NULL, ?, ?) ON CONFLICT (user_id, name) DO NOTHING
                    """,
                arguments: [
                    user, place.name, place.center.latitude, place.center.longitude, place.radius, place.source,
                    UTCTimestamp.now(),
                ])
            areas += db.changesCount
        }
        let existing = try Row.fetchAll(
            db, sql: "SELECT lat, lon FROM found_place WHERE user_id = ?", arguments: [user]
        ).map { Coordinate(latitude: $0["lat"], longitude: $0["lon"]) }
        let new = accountPlaces.newFoundPlaces(existing: existing)
        var number =
            try Int64.fetchOne(
                db, sql: "SELECT coalesce(max(number), 0) FROM found_place WHERE user_id = ?", arguments: [user]) ?? 0
        let now = UTCTimestamp.now()
        for v in new {
            number += 1
            try db.execute(
                sql: "INSERT INTO found_place (user_id, lat, lon, created_ms, number, name) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [user, v.center.latitude, v.center.longitude, now, number, v.name])
        }
        return (areas, new.count)
    }

    static func insertPlaces(_ db: Database, _ places: [ImportedPlace], device: Int64) throws -> Int {
        guard !places.isEmpty,
            let user = try Int64.fetchOne(db, sql: "SELECT user_id FROM device WHERE id = ?", arguments: [device])
        else { return 0 }
        var added = 0
        for place in places {
            let lat = StoredScale.degrees(place.coordinate.latitude)
            let lon = StoredScale.degrees(place.coordinate.longitude)
            guard
                try Row.fetchOne(
                    db, sql: "SELECT 1 FROM record WHERE user_id = ? AND manual = 1 AND t = ? AND lat = ? AND lon = ?",
                    arguments: [user, place.milliseconds, lat, lon]) == nil
            else { continue }
            try db.execute(
                sql: "INSERT INTO record (t, lat, lon, alt, manual, created_ms, user_id) VALUES (?, ?, ?, ?, 1, ?, ?)",
                arguments: [
                    place.milliseconds, lat, lon, place.altitude.map(StoredScale.hundredths), UTCTimestamp.now(), user,
                ])
            let id = db.lastInsertedRowID
            for text in place.notes { _ = try SQLiteUnit.insertNote(db, id, text) }
            try SQLiteUnit.upsertFields(db, id, place.fields)
            added += 1
        }
        return added
    }
}

extension KeptPoint {
    /// Binds the row's values to the nine parameters of `statement` (``PointKey/insertColumns``:
    /// key, lat, lon, alt, speed, track, hdop, mode_sats, sensors), the key for `device`, straight
    /// through SQLite's C API: building a boxed argument array per point cost more than SQLite's
    /// insert itself. With `offset`, parameters `offset + 1` to `offset + 9` (a row of a multi-row
    /// insert).
    func bind(to statement: OpaquePointer, device: DeviceID, offset: Int32 = 0) {
        func bind(_ index: Int32, _ value: Int64) {
            let index = index + offset
            if value == Self.unknown {
                sqlite3_bind_null(statement, index)
            } else {
                sqlite3_bind_int64(statement, index, value)
            }
        }
        bind(1, PointKey.key(device: device.rawValue, milliseconds: milliseconds))
        bind(2, lat)
        bind(3, lon)
        bind(4, alt)
        bind(5, speed)
        bind(6, track)
        bind(7, hdop)
        bind(8, Int64(modeSats))
        bind(9, sensors)
    }
}
