import Foundation
import GPSCore
internal import GRDB

extension SQLiteStoring {

    // MARK: points as places

    /// The newest stored point of `devices`.
    public func latestPoint(devices: DeviceFilter) throws -> Fix? {
        try pool.read { db in
            var newest: Row?
            for device in try Self.deviceIDs(db, devices) {
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

    /// The stored point of `devices` nearest to `ms`, if one lies within `within` ms of it.
    public func nearestPoint(to ms: Int64, within: Int64, devices: DeviceFilter) throws -> Fix? {
        try pool.read { db in try Self.nearestPoint(db, ms, within, devices)?.fix }
    }

    /// The point of `devices` nearest to `ms` within `within` ms, with its device; the lower
    /// device id wins a tie.
    static func nearestPoint(_ db: Database, _ ms: Int64, _ within: Int64, _ devices: DeviceFilter) throws -> (
        fix: Fix, device: Int64
    )? {
        var best: (row: Row, device: Int64)?
        for device in try deviceIDs(db, devices) {
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

    /// Adds a manual record to the account's diary with what it carries, in one transaction;
    /// returns its id, or nil when there is no such account.
    public func addRecord(
        milliseconds: Int64, coordinate: Coordinate, altitude: Double?, notes: [String] = [], fields: [Field] = [],
        photos: [Photo] = [], account: String?
    ) throws -> Int64? {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return nil }
            try RecordRow(
                t: milliseconds, lat: StoredScale.degrees(coordinate.latitude),
                lon: StoredScale.degrees(coordinate.longitude), alt: altitude.map(StoredScale.hundredths), manual: true,
                createdMs: UTCTimestamp.now(), userId: user
            ).insert(db)
            let id = db.lastInsertedRowID
            for text in notes { _ = try Self.insertNote(db, id, text) }
            try Self.upsertFields(db, id, fields)
            try Self.insertPhotos(db, id, photos)
            return id
        }
    }

    /// The id of the record at `ms` in the account's diary: an existing record there (manual or
    /// not), else a new one for the point of `device` at exactly `ms`. Nil when neither exists.
    static func recordID(_ db: Database, at ms: Int64, device: Int64, user: Int64) throws -> Int64? {
        if let id = try Int64.fetchOne(
            db, sql: "SELECT id FROM record WHERE user_id = ? AND t = ? ORDER BY manual LIMIT 1", arguments: [user, ms])
        {
            return id
        }
        guard
            try Row.fetchOne(
                db, sql: "SELECT 1 FROM point WHERE key = ?",
                arguments: [PointKey.key(device: device, milliseconds: ms)])
                != nil
        else { return nil }
        try db.execute(
            sql: """
                INSERT INTO record (t, lat, lon, alt, manual, created_ms, device_id, user_id)
                SELECT ?, lat, lon, alt, 0, ?, ?, ? FROM point WHERE key = ?
                """,
            arguments: [ms, UTCTimestamp.now(), device, user, PointKey.key(device: device, milliseconds: ms)])
        return db.lastInsertedRowID
    }

    /// The account's record (manual, or a point with something attached) or stored point nearest
    /// to `ms` within `within` ms, as a record id (a point gets its record row now). Nil when
    /// nothing is near.
    public func nearestRecordID(to ms: Int64, within: Int64, account: String?) throws -> Int64? {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return nil }
            let record = try Row.fetchOne(
                db, sql: "SELECT id, t FROM record WHERE user_id = ? ORDER BY abs(t - ?) LIMIT 1",
                arguments: [user, ms])
            let point = try Self.nearestPoint(db, ms, within, DeviceFilter(account: account))
            let recordDistance = record.map { abs(($0["t"] as Int64) - ms) } ?? .max
            let pointDistance = point.map { abs($0.fix.unixMilliseconds! - ms) } ?? .max
            if recordDistance <= within && recordDistance <= pointDistance { return record!["id"] }
            guard let point else { return nil }
            return try Self.recordID(db, at: point.fix.unixMilliseconds!, device: point.device, user: user)
        }
    }

    /// `user_id = <the account's id>`, with the account's name as its one argument.
    static var ofAccount: String { "user_id = (SELECT id FROM user WHERE name = ?)" }

    /// Runs `body` in one write transaction when record `id` is in the account's diary; whether it is.
    func writeOwned(_ id: Int64, _ account: String?, _ body: (Database) throws -> Void) throws -> Bool {
        try pool.write { db in
            guard try Self.owns(db, id, account) else { return false }
            try body(db)
            return true
        }
    }

    /// Whether record `id` is in the account's diary.
    static func owns(_ db: Database, _ id: Int64, _ account: String?) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT 1 FROM record WHERE id = ? AND \(ofAccount)",
            arguments: [id, account ?? TrackStore.localUser])
            ?? false
    }

    /// One record of the account's diary with everything attached, or nil.
    public func record(_ id: Int64, account: String?) throws -> LocationRecord? {
        try pool.read { db in
            guard
                let row = try RecordRow.fetchOne(
                    db, sql: "SELECT * FROM record WHERE id = ? AND \(Self.ofAccount)",
                    arguments: [id, account ?? TrackStore.localUser])
            else { return nil }
            return try Self.attachments(db, [row.record]).first
        }
    }

    /// The account's records in `[from, to)` with everything attached, in time order. With
    /// `plainPoints`, every point of its devices without a record is listed too (with a nil id).
    public func records(
        fromMilliseconds from: Int64 = .min, toMilliseconds to: Int64 = .max, plainPoints: Bool = false,
        account: String?
    ) throws -> [LocationRecord] {
        try pool.read { db in
            var list = try RecordRow.fetchAll(
                db, sql: "SELECT * FROM record WHERE \(Self.ofAccount) AND t >= ? AND t < ? ORDER BY t, id",
                arguments: [account ?? TrackStore.localUser, from, to]
            ).map(\.record)
            list = try Self.attachments(db, list)
            if plainPoints {
                var rows: [Row] = []
                for device in try Self.deviceIDs(db, DeviceFilter(account: account)) {
                    rows += try Row.fetchAll(
                        db,
                        sql: """
                            SELECT \(PointKey.columns) FROM point WHERE key >= ? AND key < ?
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

    /// Adds a note to a record of the account's diary; nil when it has no such record.
    public func addNote(to record: Int64, text: String, account: String?) throws -> Note? {
        try pool.write { db in
            guard try Self.owns(db, record, account) else { return nil }
            return try Self.insertNote(db, record, text)
        }
    }

    /// A note on a record of the account's diary.
    static func note(_ db: Database, _ id: Int64, _ account: String?) throws -> NoteRow? {
        try NoteRow.fetchOne(
            db, sql: "SELECT * FROM note WHERE id = ? AND record_id IN (SELECT id FROM record WHERE \(ofAccount))",
            arguments: [id, account ?? TrackStore.localUser])
    }

    public func note(_ id: Int64, account: String?) throws -> Note? {
        try pool.read { db in try Self.note(db, id, account)?.note }
    }

    /// Replaces a note's text; false when the account has no such note.
    public func updateNote(_ id: Int64, text: String, account: String?) throws -> Bool {
        try pool.write { db in
            guard var row = try Self.note(db, id, account) else { return false }
            (row.text, row.updatedMs) = (text, UTCTimestamp.now())
            try row.update(db)
            return true
        }
    }

    /// Deletes a note for good; returns it, or nil when the account has no such note.
    public func deleteNote(_ id: Int64, account: String?) throws -> Note? {
        let note = try pool.write { db -> Note? in
            guard let row = try Self.note(db, id, account) else { return nil }
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

    /// Sets fields on a record of the account's diary (replacing values of the same keys);
    /// false when it has no such record.
    @discardableResult
    public func setFields(_ fields: [Field], on record: Int64, account: String?) throws -> Bool {
        try writeOwned(record, account) { db in try Self.upsertFields(db, record, fields) }
    }

    /// Sets condition values on a record of the account's diary (replacing values of the same
    /// keys); false when it has no such record.
    @discardableResult
    public func setConditions(_ values: [ConditionValue], on record: Int64, account: String?) throws -> Bool {
        try writeOwned(record, account) { db in
            for value in values { try ConditionRow(record: record, value).insert(db, onConflict: .replace) }
        }
    }

    public func addWeatherReadings(_ readings: [WeatherReading], account: String?) throws -> Int {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return 0 }
            var added = 0
            for r in readings {
                let key: [String: (any DatabaseValueConvertible)?] = [
                    "user_id": user, "t": r.milliseconds, "device_id": r.device?.rawValue ?? 0,
                ]
                if try !WeatherRow.exists(db, key: key) { added += 1 }
                try WeatherRow(r, user: user).insert(db, onConflict: .replace)
            }
            return added
        }
    }

    public func weatherReadings(fromMilliseconds from: Int64, toMilliseconds to: Int64, account: String?) throws
        -> [WeatherReading]
    {
        try pool.read { db in
            try WeatherRow.fetchAll(
                db,
                sql: "SELECT * FROM weather_reading WHERE \(Self.ofAccount) AND t >= ? AND t < ? ORDER BY t, device_id",
                arguments: [account ?? TrackStore.localUser, from, to])
        }.map(\.reading)
    }

    /// Removes a field from a record of the account's diary; false when it has no such key.
    public func removeField(_ key: String, from record: Int64, account: String?) throws -> Bool {
        let removed = try pool.write { db in
            try Self.owns(db, record, account) && FieldRow.deleteOne(db, key: ["record_id": record, "key": key])
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

    /// Attaches photos already copied into the media folder (``storePhotoFile(_:takenMilliseconds:)``)
    /// to a record of the account's diary; false when it has no such record.
    @discardableResult
    public func attachPhotos(_ photos: [Photo], to record: Int64, account: String?) throws -> Bool {
        try writeOwned(record, account) { db in try Self.insertPhotos(db, record, photos) }
    }

    // MARK: day summaries

    public func daySummary(_ day: CivilDate, account: String?) throws -> String? {
        try pool.read { db in
            try String.fetchOne(
                db, sql: "SELECT text FROM day_summary WHERE \(Self.ofAccount) AND day = ?",
                arguments: [account ?? TrackStore.localUser, day.description])
        }
    }

    /// Sets the day's summary in the account's diary; an empty text removes it. False when there
    /// is no such account.
    @discardableResult
    public func setDaySummary(_ day: CivilDate, text: String, account: String?) throws -> Bool {
        let done = try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return false }
            if text.isEmpty {
                try DaySummaryRow.deleteOne(db, key: ["user_id": user, "day": day.description])
            } else {
                try DaySummaryRow(userId: user, day: day.description, text: text, updatedMs: UTCTimestamp.now())
                    .insert(db, onConflict: .replace)
            }
            return true
        }
        if text.isEmpty && done { try checkpoint() }
        return done
    }

    /// Moves everything in the WAL into the main file and empties the WAL, so removed content
    /// (zeroed by secure_delete) leaves no copy behind in the log.
    /// Once the unit has committed: a checkpoint cannot run in a transaction.
    func checkpoint() throws {
        let store = pool.store
        pool.afterCommit { try? store.checkpoint() }
    }
}

extension TrackStore {
    func checkpoint() throws {
        try databasePool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
    }
}
