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
            try RecordRow(
                t: milliseconds, lat: StoredScale.degrees(coordinate.latitude),
                lon: StoredScale.degrees(coordinate.longitude), alt: altitude.map(StoredScale.hundredths), manual: true,
                createdMs: UTCTimestamp.now()
            ).insert(db)
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
            guard let row = try RecordRow.fetchOne(db, key: id) else { return nil }
            return try Self.attachments(db, [row.record]).first
        }
    }

    /// Records in `[from, to)` with everything attached, in time order. With `plainPoints`,
    /// every stored point without a record is listed too (with a nil id).
    public func records(
        fromMilliseconds from: Int64 = .min, toMilliseconds to: Int64 = .max, plainPoints: Bool = false
    ) throws -> [LocationRecord] {
        try pool.read { db in
            var list = try RecordRow.fetchAll(
                db, sql: "SELECT * FROM record WHERE t >= ? AND t < ? ORDER BY t, id", arguments: [from, to]
            ).map(\.record)
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

    /// Fills in notes, photos and fields.
    static func attachments(_ db: Database, _ records: [LocationRecord]) throws -> [LocationRecord] {
        try records.map { r in
            var r = r
            guard let id = r.id else { return r }
            r.notes = try NoteRow.filter(Column("record_id") == id).order(Column("id")).fetchAll(db).map(\.note)
            r.photos = try PhotoRow.fetchAll(
                db,
                sql: """
                    SELECT p.* FROM photo p JOIN record_photo rp ON rp.sha256 = p.sha256
                    WHERE rp.record_id = ? ORDER BY p.taken_ms, p.name
                    """,
                arguments: [id]
            ).map(\.photo)
            r.fields = try FieldRow.filter(Column("record_id") == id).order(Column("key")).fetchAll(db).map(\.field)
            r.conditions = try ConditionRow.filter(Column("record_id") == id).order(Column("key")).fetchAll(db)
                .map(\.condition)
            return r
        }
    }

    // MARK: notes

    static func insertNote(_ db: Database, _ record: Int64, _ text: String) throws -> Note {
        let now = UTCTimestamp.now()
        var row = NoteRow(recordId: record, text: text, createdMs: now, updatedMs: now)
        try row.insert(db)
        row.id = db.lastInsertedRowID
        return row.note
    }

    /// Adds a note to an existing record.
    public func addNote(to record: Int64, text: String) throws -> Note {
        try pool.write { db in try Self.insertNote(db, record, text) }
    }

    public func note(_ id: Int64) throws -> Note? {
        try pool.read { db in
            try NoteRow.fetchOne(db, key: id)?.note
        }
    }

    /// Replaces a note's text; false when there is no such note.
    public func updateNote(_ id: Int64, text: String) throws -> Bool {
        try pool.write { db in
            guard var row = try NoteRow.fetchOne(db, key: id) else { return false }
            (row.text, row.updatedMs) = (text, UTCTimestamp.now())
            try row.update(db)
            return true
        }
    }

    /// Deletes a note for good; returns it, or nil when there is no such note.
    public func deleteNote(_ id: Int64) throws -> Note? {
        let note = try pool.write { db -> Note? in
            guard let row = try NoteRow.fetchOne(db, key: id) else { return nil }
            try row.delete(db)
            return row.note
        }
        if note != nil { try checkpoint() }
        return note
    }

    // MARK: fields

    static func upsertFields(_ db: Database, _ record: Int64, _ fields: [Field]) throws {
        for f in fields { try FieldRow(record: record, f).insert(db, onConflict: .replace) }
    }

    /// Sets fields on a record (replacing values of the same keys).
    public func setFields(_ fields: [Field], on record: Int64) throws {
        try pool.write { db in try Self.upsertFields(db, record, fields) }
    }

    /// Sets condition values on a record (replacing values of the same keys).
    public func setConditions(_ values: [ConditionValue], on record: Int64) throws {
        try pool.write { db in
            for value in values { try ConditionRow(record: record, value).insert(db, onConflict: .replace) }
        }
    }

    public func addWeatherReadings(_ readings: [WeatherReading]) throws -> Int {
        try pool.write { db in
            var added = 0
            for r in readings {
                if try !WeatherRow.exists(db, key: ["t": r.milliseconds, "device_id": r.device?.rawValue ?? 0]) {
                    added += 1
                }
                try WeatherRow(r).insert(db, onConflict: .replace)
            }
            return added
        }
    }

    public func weatherReadings(fromMilliseconds from: Int64, toMilliseconds to: Int64) throws -> [WeatherReading] {
        try pool.read { db in
            try WeatherRow.filter(Column("t") >= from && Column("t") < to).order(Column("t"), Column("device_id"))
                .fetchAll(db)
        }.map(\.reading)
    }

    /// Removes a field; false when the record has no such key.
    public func removeField(_ key: String, from record: Int64) throws -> Bool {
        let removed = try pool.write { db in
            try FieldRow.deleteOne(db, key: ["record_id": record, "key": key])
        }
        if removed { try checkpoint() }
        return removed
    }

    // MARK: photos

    static func insertPhotos(_ db: Database, _ record: Int64, _ photos: [Photo]) throws {
        for p in photos {
            try PhotoRow(p).insert(db, onConflict: .ignore)
            try RecordPhotoRow(recordId: record, sha256: p.sha256).insert(db, onConflict: .ignore)
        }
    }

    /// Attaches photos already copied into the media folder (``storePhotoFile(_:takenMilliseconds:)``).
    public func attachPhotos(_ photos: [Photo], to record: Int64) throws {
        try pool.write { db in try Self.insertPhotos(db, record, photos) }
    }

    // MARK: day summaries

    public func daySummary(_ day: CivilDate) throws -> String? {
        try pool.read { db in
            try DaySummaryRow.fetchOne(db, key: day.description)?.text
        }
    }

    /// Sets the day's summary; an empty text removes it.
    public func setDaySummary(_ day: CivilDate, text: String) throws {
        try pool.write { db in
            if text.isEmpty {
                try DaySummaryRow.deleteOne(db, key: day.description)
            } else {
                try DaySummaryRow(day: day.description, text: text, updatedMs: UTCTimestamp.now()).insert(
                    db, onConflict: .replace)
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
