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

    public let store: TrackStore
    /// The device whose points this writer stores.
    public let device: DeviceID
    private var rideIDs: [Int: Int64] = [:]
    private var segmentIDs: [Int: Int64] = [:]
    /// Points written by this writer (duplicates not counted).
    public internal(set) var stored = 0

    public init(store: TrackStore, device: DeviceID) {
        self.store = store
        self.device = device
    }

    /// Stores `points` and adds `drops` (run-local ride → reason → count) in one transaction: a
    /// recorder's batch, continuing the rides and segments of the batches before it.
    @discardableResult
    public func write(_ points: [KeptPoint], drops: [Int: [String: Int]] = [:]) throws -> Int {
        var rideIDs = self.rideIDs
        var segmentIDs = self.segmentIDs
        let added = try store.pool.write { db -> Int in
            var added = 0
            let insert = try db.makeStatement(
                sql:
                    "INSERT OR IGNORE INTO point (key, lat, lon, alt, speed, track, hdop, mode_sats) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            )
            // Ranges and counts are gathered here and written once per ride and segment.
            var rideExtent: [Int64: (start: Int64, end: Int64, count: Int)] = [:]
            var segmentExtent: [Int64: (end: Int64, count: Int)] = [:]
            for p in points {
                let t = p.milliseconds
                guard PointKey.holds(t) else { continue }  // before 1830 or after 2109: no key
                guard try Self.insert(p, with: insert, device: device, db) else { continue }  // this millisecond is stored
                added += 1
                // Rides and segments are created by their first stored point, so a log imported
                // twice leaves no empty ones behind.
                // A point inside a stored ride's time range (a log overlapping one imported before)
                // joins that ride, and the segment there if one contains it.
                if rideIDs[p.ride] == nil,
                    let id = try Int64.fetchOne(
                        db, sql: "SELECT id FROM ride WHERE device_id = ? AND start_ms <= ? AND end_ms >= ? LIMIT 1",
                        arguments: [device.rawValue, t, t])
                {
                    rideIDs[p.ride] = id
                }
                if segmentIDs[p.segment] == nil,
                    let id = try Int64.fetchOne(
                        db, sql: "SELECT id FROM segment WHERE device_id = ? AND start_ms <= ? AND end_ms >= ? LIMIT 1",
                        arguments: [device.rawValue, t, t])
                {
                    segmentIDs[p.segment] = id
                }
                let rideID: Int64
                if let id = rideIDs[p.ride] {
                    rideID = id
                } else {
                    try RideRow(deviceId: device.rawValue, startMs: t, endMs: t, pointCount: 0).insert(db)
                    rideID = db.lastInsertedRowID
                    rideIDs[p.ride] = rideID
                }
                let segmentID: Int64
                if let id = segmentIDs[p.segment] {
                    segmentID = id
                } else {
                    try SegmentRow(rideId: rideID, deviceId: device.rawValue, startMs: t, endMs: t, pointCount: 0)
                        .insert(db)
                    segmentID = db.lastInsertedRowID
                    segmentIDs[p.segment] = segmentID
                }
                let r = rideExtent[rideID] ?? (t, t, 0)
                rideExtent[rideID] = (Swift.min(r.start, t), Swift.max(r.end, t), r.count + 1)
                let g = segmentExtent[segmentID] ?? (t, 0)
                segmentExtent[segmentID] = (Swift.max(g.end, t), g.count + 1)
            }
            for (id, e) in segmentExtent {
                try db.execute(
                    sql: "UPDATE segment SET end_ms = max(end_ms, ?), point_count = point_count + ? WHERE id = ?",
                    arguments: [e.end, e.count, id])
            }
            for (id, e) in rideExtent {
                try db.execute(
                    sql: """
                        UPDATE ride SET start_ms = min(start_ms, ?), end_ms = max(end_ms, ?), point_count = point_count + ?
                        WHERE id = ?
                        """,
                    arguments: [e.start, e.end, e.count, id])
            }
            for (ride, reasons) in drops {
                guard let rideID = rideIDs[ride] else { continue }
                for (reason, count) in reasons {
                    try db.execute(
                        sql: """
                            INSERT INTO drop_count (ride_id, reason, count) VALUES (?, ?, ?)
                            ON CONFLICT (ride_id, reason) DO UPDATE SET count = count + excluded.count
                            """,
                        arguments: [rideID, reason, count])
                }
            }
            return added
        }
        self.rideIDs = rideIDs
        self.segmentIDs = segmentIDs
        stored += added
        return added
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
            for text in place.notes { _ = try TrackStore.insertNote(db, id, text) }
            try TrackStore.upsertFields(db, id, place.fields)
            added += 1
        }
        return added
    }
}

extension KeptPoint {
    /// Binds the row's values to the eight parameters of `statement` (key, lat, lon, alt,
    /// speed, track, hdop, mode_sats), the key for `device`, straight through SQLite's C API:
    /// building a boxed argument array per point cost more than SQLite's insert itself.
    /// With `offset`, parameters `offset + 1` to `offset + 8` (a row of a multi-row insert).
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
    }
}
