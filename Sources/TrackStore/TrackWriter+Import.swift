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
        _ streams: [ImportStream], places: [ImportedPlace], file: ImportedFile?, replacing earlier: StoredImport? = nil
    ) throws -> ImportOutcome {
        try store.pool.write { db -> ImportOutcome in
            var outcome = ImportOutcome()
            if let earlier { outcome.replacedPoints = try Self.deletePoints(db, of: earlier) }
            var importID: Int64?
            if let file {
                if let earlier {
                    importID = earlier.id
                } else if try ImportRow.filter(Column("sha256") == file.sha256).fetchCount(db) > 0 {
                    // Checked again inside the write: writes are serialised, so this is race-free.
                    outcome.importedMeanwhile = true
                    return outcome
                } else {
                    try ImportRow(
                        sha256: file.sha256, name: file.name, bytes: file.bytes, importedMs: UTCTimestamp.now(),
                        points: 0
                    ).insert(db)
                    importID = db.lastInsertedRowID
                }
            }
            let insert = try db.makeStatement(
                sql: """
                    INSERT OR IGNORE INTO point (key, lat, lon, alt, speed, track, hdop, mode_sats, import_id)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            var range: (start: Int64, end: Int64)?
            var touchedRides = Set<Int64>()
            var touchedSegments = Set<Int64>()
            for stream in streams {
                var addedPerRide: [Int: Int] = [:]
                let added = try Self.insertIntoEmptyRange(db, stream.points, device: device, importID: importID)
                if let added {
                    // Every point with a key went in: each of their rides stored some.
                    outcome.points += added.points
                    if let r = added.range {
                        var ride = -1  // a stream's rides follow each other
                        for p in stream.points where p.ride != ride && PointKey.holds(p.milliseconds) {
                            ride = p.ride
                            addedPerRide[ride] = 1
                        }
                        range = range.map { (Swift.min($0.start, r.start), Swift.max($0.end, r.end)) } ?? r
                    }
                }
                let statement = insert.sqliteStatement
                for p in added == nil ? stream.points[...] : [] {
                    guard PointKey.holds(p.milliseconds) else { continue }  // before 1830 or after 2109: no key
                    sqlite3_reset(statement)
                    p.bind(to: statement, device: device)
                    if let importID {
                        sqlite3_bind_int64(statement, 9, importID)
                    } else {
                        sqlite3_bind_null(statement, 9)
                    }
                    let code = sqlite3_step(statement)
                    guard code == SQLITE_DONE else {
                        throw DatabaseError(
                            resultCode: ResultCode(rawValue: code),
                            message: String(cString: sqlite3_errmsg(db.sqliteConnection)), sql: insert.sql)
                    }
                    guard sqlite3_changes(db.sqliteConnection) > 0 else { continue }
                    outcome.points += 1
                    addedPerRide[p.ride, default: 0] += 1
                    let t = p.milliseconds
                    range = range.map { (Swift.min($0.start, t), Swift.max($0.end, t)) } ?? (t, t)
                }
                for ride in RideExtent.extents(of: stream.points) {
                    let rideID = try Self.claim(db, device: device, start: ride.start, end: ride.end)
                    touchedRides.insert(rideID)
                    for segment in ride.segments {
                        let segmentID = try Self.claim(
                            db, device: device, segmentOf: rideID, start: segment.start, end: segment.end)
                        try db.execute(
                            sql: "UPDATE segment SET ride_id = ? WHERE id = ?", arguments: [rideID, segmentID])
                        touchedSegments.insert(segmentID)
                    }
                    // Drops count once: with the stream that stored points of the ride.
                    guard addedPerRide[ride.number, default: 0] > 0 else { continue }
                    for (reason, count) in stream.drops[ride.number] ?? [:] {
                        try db.execute(
                            sql: """
                                INSERT INTO drop_count (ride_id, reason, count) VALUES (?, ?, ?)
                                ON CONFLICT (ride_id, reason) DO UPDATE SET count = count + excluded.count
                                """,
                            arguments: [rideID, reason, count])
                    }
                }
            }
            try Self.recount(db, device: device, segments: touchedSegments, rides: touchedRides)
            outcome.places = try Self.insertPlaces(db, places)
            outcome.events = try TrackStore.insertEvents(db, streams.flatMap(\.events), device: self.device.rawValue)
            if let importID {
                if outcome.points == 0 && outcome.places == 0 && outcome.events == 0 {
                    try db.execute(sql: "DELETE FROM import WHERE id = ?", arguments: [importID])
                } else {
                    try db.execute(
                        sql:
                            "UPDATE import SET points = ?, start_ms = ?, end_ms = ?, imported_ms = ?, name = ? WHERE id = ?",
                        arguments: [
                            outcome.points, range?.start, range?.end, UTCTimestamp.now(), file?.name, importID,
                        ])
                }
            }
            return outcome
        }
    }

    /// The id of the ride (or, with `ride`, the segment of that ride) that covers `[start, end]`: the stored rows whose ranges
    /// overlap it become one (the earliest keeps its id, takes the others' segments or points and
    /// drop counts, and spans them all), or a new row when none does.
    ///
    /// Stored rows of one table do not overlap each other, so the candidates are the rows that
    /// start inside the range and the last one that starts before it: two index lookups.
    static func claim(
        _ db: Database, device: DeviceID, segmentOf ride: Int64? = nil, start: Int64, end: Int64
    ) throws -> Int64 {
        let table = ride == nil ? "ride" : "segment"
        let d = device.rawValue
        var rows = try Row.fetchAll(
            db,
            sql: """
                SELECT id, start_ms, end_ms FROM \(table) WHERE device_id = ? AND start_ms < ?
                ORDER BY start_ms DESC, id LIMIT 1
                """,
            arguments: [d, start]
        ).filter { ($0["end_ms"] as Int64) >= start }
        rows += try Row.fetchAll(
            db,
            sql:
                "SELECT id, start_ms, end_ms FROM \(table) WHERE device_id = ? AND start_ms >= ? AND start_ms <= ? ORDER BY start_ms, id",
            arguments: [d, start, end])
        guard let keep = rows.first else {
            if let ride {
                try SegmentRow(rideId: ride, deviceId: d, startMs: start, endMs: end, pointCount: 0).insert(db)
            } else {
                try RideRow(deviceId: d, startMs: start, endMs: end, pointCount: 0).insert(db)
            }
            return db.lastInsertedRowID
        }
        let id: Int64 = keep["id"]
        var low = Swift.min(start, keep["start_ms"] as Int64)
        var high = Swift.max(end, keep["end_ms"] as Int64)
        for other in rows.dropFirst() {
            let otherID: Int64 = other["id"]
            low = Swift.min(low, other["start_ms"])
            high = Swift.max(high, other["end_ms"])
            if table == "ride" {
                try db.execute(sql: "UPDATE segment SET ride_id = ? WHERE ride_id = ?", arguments: [id, otherID])
                try db.execute(
                    sql: """
                        INSERT INTO drop_count (ride_id, reason, count)
                        SELECT ?, reason, count FROM drop_count WHERE ride_id = ? AND true
                        ON CONFLICT (ride_id, reason) DO UPDATE SET count = count + excluded.count
                        """,
                    arguments: [id, otherID])
            }
            try db.execute(sql: "DELETE FROM \(table) WHERE id = ?", arguments: [otherID])
        }
        try db.execute(
            sql: "UPDATE \(table) SET start_ms = ?, end_ms = ? WHERE id = ?", arguments: [low, high, id])
        return id
    }

    /// Stores `points` (a stream's, in time order) with one statement for every 128 of them, when
    /// the store holds no point of the writer's device in their time range: then every point
    /// with a key goes in (a second point at the same millisecond is ignored, as the row-by-row
    /// insert ignores it), and what went in is known without asking row by row. Returns how many
    /// were stored and their first and last time, or nil when the range is not empty (the
    /// caller then inserts row by row).
    static func insertIntoEmptyRange(_ db: Database, _ points: [KeptPoint], device: DeviceID, importID: Int64?)
        throws -> (points: Int, range: (start: Int64, end: Int64)?)?
    {
        var first = Int64.max
        var last = Int64.min
        var keyed = 0
        for p in points where PointKey.holds(p.milliseconds) {
            first = Swift.min(first, p.milliseconds)
            last = Swift.max(last, p.milliseconds)
            keyed += 1
        }
        guard keyed > 0 else { return (0, nil) }
        let keys = TrackStore.keyRange(device.rawValue, from: first, to: last + 1)
        guard
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM point WHERE key >= ? AND key < ?)", arguments: keys) == false
        else { return nil }
        let perStatement = 128
        let row = "(?, ?, ?, ?, ?, ?, ?, ?, ?)"
        func statement(rows: Int) throws -> Statement {
            try db.cachedStatement(
                sql:
                    "INSERT OR IGNORE INTO point (key, lat, lon, alt, speed, track, hdop, mode_sats, import_id) VALUES "
                    + Array(repeating: row, count: rows).joined(separator: ", "))
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
                let offset = Int32(k * 9)
                points[next].bind(to: s, device: device, offset: offset)
                next += 1
                if let importID {
                    sqlite3_bind_int64(s, offset + 9, importID)
                } else {
                    sqlite3_bind_null(s, offset + 9)
                }
            }
            let code = sqlite3_step(s)
            guard code == SQLITE_DONE else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code),
                    message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                    sql: insert.sql)
            }
            stored += Int(sqlite3_changes(db.sqliteConnection))
            done += rows
        }
        return (stored, (first, last))
    }

    /// Sets the point counts of `segments` from the points in their ranges, and the ranges and
    /// counts of `rides` from their segments (rows merged away in between are skipped).
    static func recount(_ db: Database, device: DeviceID, segments: Set<Int64>, rides: Set<Int64>) throws {
        // A key is `base + ms` (see PointKey).
        let base = PointKey.key(device: device.rawValue, milliseconds: 0)
        for id in segments.sorted() {
            try db.execute(
                sql: """
                    UPDATE segment SET point_count =
                        (SELECT count(*) FROM point
                         WHERE key >= ? + segment.start_ms AND key <= ? + segment.end_ms)
                    WHERE id = ?
                    """,
                arguments: [base, base, id])
        }
        for id in rides.sorted() {
            try db.execute(
                sql: """
                    UPDATE ride SET
                        start_ms = (SELECT min(start_ms) FROM segment WHERE ride_id = ride.id),
                        end_ms = (SELECT max(end_ms) FROM segment WHERE ride_id = ride.id),
                        point_count = (SELECT sum(point_count) FROM segment WHERE ride_id = ride.id)
                    WHERE id = ? AND EXISTS (SELECT 1 FROM segment WHERE ride_id = ride.id)
                    """,
                arguments: [id])
        }
    }

    /// Removes the points an earlier import stored (not those a record is attached to), shrinking
    /// or removing the segments and rides that held them. Returns how many were removed.
    static func deletePoints(_ db: Database, of earlier: StoredImport) throws -> Int {
        guard let start = earlier.startMilliseconds, let end = earlier.endMilliseconds else { return 0 }
        var removed = 0
        var removal = Removal()
        for device in try TrackStore.deviceIDs(db, .all) {
            let keys = TrackStore.keyRange(device, from: start, to: end + 1)
            try db.execute(
                sql: """
                    DELETE FROM point WHERE key >= ? AND key < ? AND import_id = ?
                    AND \(PointKey.timeSQL) NOT IN
                        (SELECT t FROM record WHERE manual = 0 AND device_id = ? AND t >= ? AND t <= ?)
                    """,
                arguments: keys + [earlier.id, device, start, end])
            removed += db.changesCount
        }
        try TrackStore.shrinkSegmentsAndRides(db, from: start, to: end + 1, into: &removal)
        return removed
    }
}
