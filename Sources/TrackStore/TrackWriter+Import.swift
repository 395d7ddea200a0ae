import Foundation
import GPSCore
internal import GRDB
internal import GRDBSQLite

/// Imports: a file's streams stored in one transaction, in any order relative to what is stored,
/// as points of the writer's device (rides and segments of other devices are never joined).
///
/// Each stream (a log, one GPX track) was put in time order and run through its own pipeline,
/// so its rides and segments never depend on other files. In the store, a stream's ride joins
/// every stored ride whose time range overlaps its own (from its first to its last kept point),
/// and those rides become one; segments do the same. The rides and segments that come out are
/// the connected pieces of overlapping time ranges, whatever order the files came in.
extension TrackWriter {
    /// Stores a file's streams and places in one transaction, and notes the file when it stored
    /// something (a file that stored nothing can be imported again). With `earlier`, what that
    /// import stored is removed first, in the same transaction (points the user attached a record
    /// to stay).
    public func writeImport(
        _ streams: [ImportStream], places: [ImportedPlace], accountPlaces: ImportedPlaces, file: ImportedFile?,
        replacing earlier: StoredImport? = nil
    ) throws -> ImportOutcome {
        try store.pool.write { db -> ImportOutcome in
            var transaction = try ImportTransaction(db, device: device, file: file, replacing: earlier)
            guard !transaction.outcome.importedMeanwhile else { return transaction.outcome }
            return try transaction.finish(streams, places: places, accountPlaces: accountPlaces)
        }
    }

    /// Begins the import of a file still being read inside a unit of work: the unit's transaction
    /// is the one, so the points wait for the end.
    public func beginImport(file: ImportedFile?, replacing earlier: StoredImport?) -> any ImportWriting {
        DeferredImport(writer: self, file: file, earlier: earlier)
    }
}

extension TrackStore {
    /// Begins the import of a file still being read: a thread of its own holds the write
    /// transaction from now on and stores the points as they are added.
    public func beginImport(device: DeviceID, file: ImportedFile?, replacing earlier: StoredImport?)
        -> any ImportWriting
    {
        ConcurrentImport(pool: databasePool, device: device, file: file, earlier: earlier)
    }
}

extension TrackWriter {

    /// The id of the ride (or, with `ride`, the segment of that ride) that covers `[start, end]`
    /// afterwards, as ``OverlapMerge`` plans it: the stored rows whose ranges overlap it become
    /// one (the earliest keeps its id, takes the others' segments and drop counts, and spans them
    /// all), or a new row when none does. Where `gaps` knows nothing is stored, nothing is read.
    static func claim(
        _ db: Database, device: DeviceID, start: Int64, end: Int64, gaps: inout KnownGaps
    ) throws -> Int64 {
        try claim(db, device: device, segmentOf: nil, start: start, end: end, points: nil, gaps: &gaps).id
    }

    /// ``claim(_:device:start:end:gaps:)`` for a segment of `ride` (or a ride, `ride` nil); a
    /// new segment row made with `points` (how many it stored, when known) has its count from
    /// the start (`counted`), sparing the count of its points afterwards (an import of years of
    /// history makes hundreds of thousands of segments).
    static func claim(
        _ db: Database, device: DeviceID, segmentOf ride: Int64?, start: Int64, end: Int64, points: Int?,
        gaps: inout KnownGaps
    ) throws -> (id: Int64, counted: Bool) {
        let table = ride == nil ? "ride" : "segment"
        let d = device.rawValue
        let plan = try gaps.plan(.init(device: device, segments: ride != nil), start: start, end: end) {
            try overlapping(db, table, device: device, from: start, to: end, withNext: true)
        }
        guard let id = plan.keep else {
            // Cached statements: an import of years of history claims hundreds of thousands.
            if let ride {
                try run(
                    db,
                    "INSERT INTO segment (ride_id, device_id, start_ms, end_ms, point_count) VALUES (?, ?, ?, ?, ?)",
                    ride, d, start, end, Int64(points ?? 0))
            } else {
                try run(
                    db, "INSERT INTO ride (device_id, start_ms, end_ms, point_count) VALUES (?, ?, ?, 0)", d, start, end
                )
            }
            return (db.lastInsertedRowID, ride != nil && points != nil)
        }
        for other in plan.absorbed {
            if ride == nil {
                try db.cachedStatement(sql: "UPDATE segment SET ride_id = ? WHERE ride_id = ?").execute(arguments: [
                    id, other,
                ])
                try db.cachedStatement(
                    sql: """
                        INSERT INTO drop_count (ride_id, reason, count)
                        SELECT ?, reason, count FROM drop_count WHERE ride_id = ? AND true
                        ON CONFLICT (ride_id, reason) DO UPDATE SET count = count + excluded.count
                        """
                ).execute(arguments: [id, other])
            }
            try db.cachedStatement(sql: "DELETE FROM \(table) WHERE id = ?").execute(arguments: [other])
        }
        try run(db, "UPDATE \(table) SET start_ms = ?, end_ms = ? WHERE id = ?", plan.start, plan.end, id)
        if let ride { try run(db, "UPDATE segment SET ride_id = ? WHERE id = ?", ride, id) }
        return (id, false)
    }

    /// Stores `points` (a stream's, in time order) with one statement for every 128 of them, when
    /// the store holds no point of the writer's device in their time range: then every point
    /// with a key goes in (a second point at the same millisecond is ignored, as the row-by-row
    /// insert ignores it), and what went in is known without asking row by row. Returns how many
    /// were stored and their first and last time, or nil when the range is not empty (the
    /// caller then inserts row by row).
    static func insertIntoEmptyRange(
        _ db: Database, _ points: ArraySlice<KeptPoint>, device: DeviceID, importID: Int64?
    )
        throws -> (points: Int, keyed: Int, range: (start: Int64, end: Int64)?)?
    {
        var first = Int64.max
        var last = Int64.min
        var keyed = 0
        for p in points where PointKey.holds(p.milliseconds) {
            first = Swift.min(first, p.milliseconds)
            last = Swift.max(last, p.milliseconds)
            keyed += 1
        }
        guard keyed > 0 else { return (0, 0, nil) }
        let keys = SQLiteUnit.keyRange(device.rawValue, from: first, to: last + 1)
        guard
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM point WHERE key >= ? AND key < ?)", arguments: keys) == false
        else { return nil }
        let perStatement = 128
        let row = "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        func sql(rows: Int) -> String {
            "INSERT OR IGNORE INTO point (\(PointKey.insertColumns), import_id) VALUES "
                + Array(repeating: row, count: rows).joined(separator: ", ")
        }
        // The full statement is made once; only the last, shorter one has a text of its own.
        let full = try db.cachedStatement(sql: sql(rows: perStatement))
        func statement(rows: Int) throws -> Statement {
            rows == perStatement ? full : try db.cachedStatement(sql: sql(rows: rows))
        }
        var stored = 0
        var done = 0
        var next = points.startIndex
        while done < keyed {
            let rows = Swift.min(perStatement, keyed - done)
            let insert = try statement(rows: rows)
            let s = insert.sqliteStatement
            sqlite3_reset(s)
            for k in 0..<rows {
                while !PointKey.holds(points[next].milliseconds) { next += 1 }
                let offset = Int32(k * 10)
                points[next].bind(to: s, device: device, offset: offset)
                next += 1
                if let importID {
                    sqlite3_bind_int64(s, offset + 10, importID)
                } else {
                    sqlite3_bind_null(s, offset + 10)
                }
            }
            try insert.stepOnce(db)
            stored += Int(sqlite3_changes(db.sqliteConnection))
            done += rows
        }
        // The range was empty: every point went in (of two at one millisecond, the first).
        return (stored, keyed, (first, last))
    }

    /// Sets the point counts of `segments` from the points in their ranges, and the ranges and
    /// counts of `rides` from their segments (rows merged away in between are skipped).
    static func recount(_ db: Database, device: DeviceID, segments: Set<Int64>, rides: Set<Int64>) throws {
        // A key is `base + ms` (see PointKey).
        let base = PointKey.key(device: device.rawValue, milliseconds: 0)
        for id in segments.sorted() {
            try run(
                db,
                """
                UPDATE segment SET point_count =
                    (SELECT count(*) FROM point
                     WHERE key >= ? + segment.start_ms AND key <= ? + segment.end_ms)
                WHERE id = ?
                """, base, base, id)
        }
        for id in rides.sorted() {
            try run(
                db,
                """
                UPDATE ride SET
                    start_ms = (SELECT min(start_ms) FROM segment WHERE ride_id = ride.id),
                    end_ms = (SELECT max(end_ms) FROM segment WHERE ride_id = ride.id),
                    point_count = (SELECT sum(point_count) FROM segment WHERE ride_id = ride.id)
                WHERE id = ? AND EXISTS (SELECT 1 FROM segment WHERE ride_id = ride.id)
                """, id)
        }
    }

    /// Removes the points an earlier import stored (not those a record is attached to), shrinking
    /// or removing the segments and rides that held them. Returns how many were removed.
    static func deletePoints(_ db: Database, of earlier: StoredImport) throws -> Int {
        guard let start = earlier.startMilliseconds, let end = earlier.endMilliseconds else { return 0 }
        var removed = 0
        var removal = Removal()
        let devices = try Int64.fetchAll(
            db, sql: "SELECT id FROM device WHERE user_id = (SELECT user_id FROM import WHERE id = ?)",
            arguments: [earlier.id])
        for device in devices {
            let keys = SQLiteUnit.keyRange(device, from: start, to: end + 1)
            try db.execute(
                sql: """
                    DELETE FROM point WHERE key >= ? AND key < ? AND import_id = ?
                    AND \(PointKey.timeSQL) NOT IN
                        (SELECT t FROM record WHERE manual = 0 AND device_id = ? AND t >= ? AND t <= ?)
                    """,
                arguments: keys + [earlier.id, device, start, end])
            removed += db.changesCount
        }
        try SQLiteUnit.shrinkSegmentsAndRides(db, from: start, to: end + 1, into: &removal)
        return removed
    }
}
