import Foundation
import GPSCore
internal import GRDB

extension TrackStore {

    // MARK: points as places

    /// The newest stored point (of any device).
    public func latestPoint() throws -> Fix? {
        try pool.read { db in
            var newest: Row?
            for device in try Self.deviceIDs(db, .all) {
                guard
                    let row = try Row.fetchOne(
                        db,
                        sql:
                            "SELECT \(PointKey.columns) FROM point WHERE key >= ? AND key < ? ORDER BY key DESC LIMIT 1",
                        arguments: Self.keyRange(device, from: .min, to: .max))
                else { continue }
                if newest.map({ (row["t"] as Int64) > $0["t"] }) ?? true { newest = row }
            }
            return newest.map(Fix.init(storedRow:))
        }
    }

    /// The stored point (of any device) nearest to `ms`, if one lies within `within` ms of it.
    public func nearestPoint(to ms: Int64, within: Int64) throws -> Fix? {
        try pool.read { db in try Self.nearestPoint(db, ms, within)?.fix }
    }

    /// The point nearest to `ms` within `within` ms, with its device; the lower device id wins a tie.
    static func nearestPoint(_ db: Database, _ ms: Int64, _ within: Int64) throws -> (fix: Fix, device: Int64)? {
        var best: (row: Row, device: Int64)?
        for device in try deviceIDs(db, .all) {
            let before = try Row.fetchOne(
                db, sql: "SELECT \(PointKey.columns) FROM point WHERE key >= ? AND key < ? ORDER BY key DESC LIMIT 1",
                arguments: keyRange(device, from: .min, to: ms + 1))
            let after = try Row.fetchOne(
                db, sql: "SELECT \(PointKey.columns) FROM point WHERE key >= ? AND key < ? ORDER BY key LIMIT 1",
                arguments: keyRange(device, from: ms + 1, to: .max))
            for row in [before, after].compactMap({ $0 }) {
                let distance = abs((row["t"] as Int64) - ms)
                if best.map({ distance < abs(($0.row["t"] as Int64) - ms) }) ?? true { best = (row, device) }
            }
        }
        guard let best, abs((best.row["t"] as Int64) - ms) <= within else { return nil }
        return (Fix(storedRow: best.row), best.device)
    }

    // MARK: records

    /// Adds a manual record with what it carries, in one transaction; returns its id.
    public func addRecord(
        milliseconds: Int64, coordinate: Coordinate, altitude: Double?, notes: [String] = [], fields: [Field] = [],
        photos: [Photo] = []
    ) throws -> Int64 {
        try pool.write { db in
            try db.execute(
                sql: "INSERT INTO record (t, lat, lon, alt, manual, created_ms) VALUES (?, ?, ?, ?, 1, ?)",
                arguments: [
                    milliseconds, StoredScale.degrees(coordinate.latitude), StoredScale.degrees(coordinate.longitude),
                    altitude.map(StoredScale.hundredths),
                    UTCTimestamp.now(),
                ])
            let id = db.lastInsertedRowID
            for text in notes { _ = try Self.insertNote(db, id, text) }
            try Self.upsertFields(db, id, fields)
            try Self.insertPhotos(db, id, photos)
            return id
        }
    }

    /// The id of the record at `ms`: an existing record there (manual or not), else a new one for
    /// the stored point at exactly `ms`. Nil when neither exists.
    public func recordID(at ms: Int64) throws -> Int64? {
        try pool.write { db in try Self.recordID(db, at: ms) }
    }

    static func recordID(_ db: Database, at ms: Int64, device: Int64? = nil) throws -> Int64? {
        if let id = try Int64.fetchOne(
            db, sql: "SELECT id FROM record WHERE t = ? ORDER BY manual LIMIT 1", arguments: [ms])
        {
            return id
        }
        // The point at exactly `ms`: of `device`, else of the first device that has one.
        let devices = try device.map { [$0] } ?? deviceIDs(db, .all)
        guard
            let owner = try devices.first(where: { d in
                try Row.fetchOne(
                    db, sql: "SELECT 1 FROM point WHERE key = ?", arguments: [PointKey.key(device: d, milliseconds: ms)]
                )
                    != nil
            })
        else { return nil }
        try db.execute(
            sql: """
                INSERT INTO record (t, lat, lon, alt, manual, created_ms, device_id)
                SELECT ?, lat, lon, alt, 0, ?, ? FROM point WHERE key = ?
                """,
            arguments: [ms, UTCTimestamp.now(), owner, PointKey.key(device: owner, milliseconds: ms)])
        return db.lastInsertedRowID
    }

    /// The record (manual, or a point with something attached) or stored point nearest to `ms`
    /// within `within` ms, as a record id (a point gets its record row now). Nil when nothing is near.
    public func nearestRecordID(to ms: Int64, within: Int64) throws -> Int64? {
        try pool.write { db in
            let record = try Row.fetchOne(
                db, sql: "SELECT id, t FROM record ORDER BY abs(t - ?) LIMIT 1", arguments: [ms])
            let point = try Self.nearestPoint(db, ms, within)
            let recordDistance = record.map { abs(($0["t"] as Int64) - ms) } ?? .max
            let pointDistance = point.map { abs($0.fix.unixMilliseconds! - ms) } ?? .max
            if recordDistance <= within && recordDistance <= pointDistance { return record!["id"] }
            guard let point else { return nil }
            return try Self.recordID(db, at: point.fix.unixMilliseconds!, device: point.device)
        }
    }

    /// One record with everything attached, or nil.
    public func record(_ id: Int64) throws -> LocationRecord? {
        try pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM record WHERE id = ?", arguments: [id]) else {
                return nil
            }
            return try Self.attachments(db, [Self.record(row)]).first
        }
    }

    /// Records in `[from, to)` with everything attached, in time order. With `plainPoints`,
    /// every stored point without a record is listed too (with a nil id).
    public func records(
        fromMilliseconds from: Int64 = .min, toMilliseconds to: Int64 = .max, plainPoints: Bool = false
    ) throws -> [LocationRecord] {
        try pool.read { db in
            var list = try Row.fetchAll(
                db, sql: "SELECT * FROM record WHERE t >= ? AND t < ? ORDER BY t, id", arguments: [from, to]
            ).map(Self.record)
            list = try Self.attachments(db, list)
            if plainPoints {
                var rows: [Row] = []
                for device in try Self.deviceIDs(db, .all) {
                    rows += try Row.fetchAll(
                        db,
                        sql: """
                            SELECT \(PointKey.columns) FROM point p WHERE key >= ? AND key < ?
                              AND NOT EXISTS (
                                SELECT 1 FROM record r WHERE r.device_id = \(device) AND r.t = \(PointKey.timeSQL)
                                AND r.manual = 0)
                            ORDER BY key
                            """,
                        arguments: Self.keyRange(device, from: from, to: to))
                }
                let points = rows.map { row -> LocationRecord in
                    let fix = Fix(storedRow: row)
                    return LocationRecord(
                        id: nil, milliseconds: fix.unixMilliseconds!, coordinate: fix.coordinate!,
                        altitude: fix.altitudeMSL, manual: false)
                }
                list = (list + points).sorted { ($0.milliseconds, $0.id ?? 0) < ($1.milliseconds, $1.id ?? 0) }
            }
            return list
        }
    }

    static func record(_ row: Row) -> LocationRecord {
        let lat: Int64 = row["lat"]
        let lon: Int64 = row["lon"]
        return LocationRecord(
            id: row["id"], milliseconds: row["t"],
            coordinate: Coordinate(latitude: Double(lat) / 1e7, longitude: Double(lon) / 1e7),
            altitude: (row["alt"] as Int64?).map { Double($0) / 100 }, manual: (row["manual"] as Int) != 0)
    }

    /// Fills in notes, photos and fields.
    static func attachments(_ db: Database, _ records: [LocationRecord]) throws -> [LocationRecord] {
        try records.map { r in
            var r = r
            guard let id = r.id else { return r }
            r.notes = try Row.fetchAll(db, sql: "SELECT * FROM note WHERE record_id = ? ORDER BY id", arguments: [id])
                .map(note)
            r.photos = try Row.fetchAll(
                db,
                sql: """
                    SELECT p.* FROM photo p JOIN record_photo rp ON rp.sha256 = p.sha256
                    WHERE rp.record_id = ? ORDER BY p.taken_ms, p.name
                    """,
                arguments: [id]
            ).map { row in
                Photo(
                    sha256: row["sha256"], file: row["file"], bytes: row["bytes"], takenMilliseconds: row["taken_ms"],
                    name: row["name"])
            }
            r.fields = try Row.fetchAll(
                db, sql: "SELECT * FROM field WHERE record_id = ? ORDER BY key", arguments: [id]
            ).map { row in
                let number: Double? = row["number"]
                return Field(key: row["key"], value: number.map(FieldValue.number) ?? .text(row["text"] ?? ""))
            }
            return r
        }
    }

    // MARK: notes

    static func note(_ row: Row) -> Note {
        Note(
            id: row["id"], recordID: row["record_id"], text: row["text"], createdMilliseconds: row["created_ms"],
            updatedMilliseconds: row["updated_ms"])
    }

    static func insertNote(_ db: Database, _ record: Int64, _ text: String) throws -> Note {
        let now = UTCTimestamp.now()
        try db.execute(
            sql: "INSERT INTO note (record_id, text, created_ms, updated_ms) VALUES (?, ?, ?, ?)",
            arguments: [record, text, now, now])
        return Note(
            id: db.lastInsertedRowID, recordID: record, text: text, createdMilliseconds: now,
            updatedMilliseconds: now)
    }

    /// Adds a note to an existing record.
    public func addNote(to record: Int64, text: String) throws -> Note {
        try pool.write { db in try Self.insertNote(db, record, text) }
    }

    public func note(_ id: Int64) throws -> Note? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM note WHERE id = ?", arguments: [id]).map(Self.note)
        }
    }

    /// Replaces a note's text; false when there is no such note.
    public func updateNote(_ id: Int64, text: String) throws -> Bool {
        try pool.write { db in
            try db.execute(
                sql: "UPDATE note SET text = ?, updated_ms = ? WHERE id = ?",
                arguments: [text, UTCTimestamp.now(), id])
            return db.changesCount > 0
        }
    }

    /// Deletes a note for good; returns it, or nil when there is no such note.
    public func deleteNote(_ id: Int64) throws -> Note? {
        let note = try pool.write { db -> Note? in
            guard
                let note = try Row.fetchOne(db, sql: "SELECT * FROM note WHERE id = ?", arguments: [id]).map(Self.note)
            else { return nil }
            try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [id])
            return note
        }
        if note != nil { try checkpoint() }
        return note
    }

    // MARK: fields

    static func upsertFields(_ db: Database, _ record: Int64, _ fields: [Field]) throws {
        for f in fields {
            var text: String?
            var number: Double?
            switch f.value {
            case .text(let t): text = t
            case .number(let n): number = n
            }
            try db.execute(
                sql: """
                    INSERT INTO field (record_id, key, text, number) VALUES (?, ?, ?, ?)
                    ON CONFLICT (record_id, key) DO UPDATE SET text = excluded.text, number = excluded.number
                    """,
                arguments: [record, f.key, text, number])
        }
    }

    /// Sets fields on a record (replacing values of the same keys).
    public func setFields(_ fields: [Field], on record: Int64) throws {
        try pool.write { db in try Self.upsertFields(db, record, fields) }
    }

    /// Removes a field; false when the record has no such key.
    public func removeField(_ key: String, from record: Int64) throws -> Bool {
        let removed = try pool.write { db in
            try db.execute(sql: "DELETE FROM field WHERE record_id = ? AND key = ?", arguments: [record, key])
            return db.changesCount > 0
        }
        if removed { try checkpoint() }
        return removed
    }

    // MARK: photos

    static func insertPhotos(_ db: Database, _ record: Int64, _ photos: [Photo]) throws {
        for p in photos {
            try db.execute(
                sql: "INSERT OR IGNORE INTO photo (sha256, file, bytes, taken_ms, name) VALUES (?, ?, ?, ?, ?)",
                arguments: [p.sha256, p.file, p.bytes, p.takenMilliseconds, p.name])
            try db.execute(
                sql: "INSERT OR IGNORE INTO record_photo (record_id, sha256) VALUES (?, ?)",
                arguments: [record, p.sha256])
        }
    }

    /// Attaches photos already copied into the media folder (``storePhotoFile(_:takenMilliseconds:)``).
    public func attachPhotos(_ photos: [Photo], to record: Int64) throws {
        try pool.write { db in try Self.insertPhotos(db, record, photos) }
    }

    // MARK: day summaries

    public func daySummary(_ day: CivilDate) throws -> String? {
        try pool.read { db in
            try String.fetchOne(db, sql: "SELECT text FROM day_summary WHERE day = ?", arguments: [day.description])
        }
    }

    /// Sets the day's summary; an empty text removes it.
    public func setDaySummary(_ day: CivilDate, text: String) throws {
        try pool.write { db in
            if text.isEmpty {
                try db.execute(sql: "DELETE FROM day_summary WHERE day = ?", arguments: [day.description])
            } else {
                try db.execute(
                    sql: """
                        INSERT INTO day_summary (day, text, updated_ms) VALUES (?, ?, ?)
                        ON CONFLICT (day) DO UPDATE SET text = excluded.text, updated_ms = excluded.updated_ms
                        """,
                    arguments: [day.description, text, UTCTimestamp.now()])
            }
        }
        if text.isEmpty { try checkpoint() }
    }

    /// Moves everything in the WAL into the main file and empties the WAL, so removed content
    /// (zeroed by secure_delete) leaves no copy behind in the log.
    func checkpoint() throws {
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }
}
