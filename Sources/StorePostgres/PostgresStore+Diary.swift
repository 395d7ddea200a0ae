import Foundation
import GPSCore
import PostgresNIO
import TrackModel

extension PostgresStoring {
    // MARK: records

    public func addRecord(
        milliseconds: Int64, coordinate: Coordinate, altitude: Double?, notes: [String], fields: [Field],
        photos: [Photo], account: String?
    ) throws -> Int64? {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return nil }
            let id = try PostgresUnit.insertRecord(
                session, t: milliseconds, lat: StoredScale.degrees(coordinate.latitude),
                lon: StoredScale.degrees(coordinate.longitude), alt: altitude.map(StoredScale.hundredths), user: user)
            for text in notes { _ = try PostgresUnit.insertNote(session, id, text) }
            try PostgresUnit.upsertFields(session, id, fields)
            try PostgresUnit.insertPhotos(session, id, photos)
            return id
        }
    }

    static func insertRecord(_ session: Session, t: Int64, lat: Int64, lon: Int64, alt: Int64?, user: Int64) throws
        -> Int64
    {
        try session.value(
            """
            INSERT INTO record (t, lat, lon, alt, manual, created_ms, user_id)
            VALUES (\(t), \(lat), \(lon), \(alt), true, \(UTCTimestamp.now()), \(user)) RETURNING id
            """, as: Int64.self)!
    }

    /// Adds the areas of `accountPlaces` as the device's account's places (a name it has already
    /// is left as it is) and remembers its visited places that no found place is near, named;
    /// returns how many of each (as the SQLite store does).
    static func insertAccountPlaces(_ session: Session, _ accountPlaces: ImportedPlaces, device: Int64) throws -> (
        areas: Int, visited: Int
    ) {
        guard !accountPlaces.isEmpty,
            let user = try session.value("SELECT user_id FROM device WHERE id = \(device)", as: Int64.self)
        else { return (0, 0) }
        let now = UTCTimestamp.now()
        var areas = 0
        for place in accountPlaces.areas {
            areas += try session.execute(
                """
                INSERT INTO place (user_id, name, lat, lon, radius_m, polygon, source, created_ms)
                VALUES (\(user), \(place.name), \(place.center.latitude), \(place.center.longitude), \(place.radius),
                    NULL, \(place.source), \(now))
                ON CONFLICT (user_id, name) DO NOTHING
                """)
        }
        // The account's row locked first, so two writers number one after the other.
        _ = try session.execute("SELECT id FROM account WHERE id = \(user) FOR UPDATE")
        let existing = try session.query("SELECT lat, lon FROM found_place WHERE user_id = \(user)").map {
            Coordinate(latitude: try $0.get("lat"), longitude: try $0.get("lon"))
        }
        let new = accountPlaces.newFoundPlaces(existing: existing)
        if !new.isEmpty {
            _ = try session.execute(
                """
                INSERT INTO found_place (user_id, lat, lon, created_ms, number, name)
                SELECT \(user), lat, lon, \(now),
                    n + (SELECT coalesce(max(number), 0) FROM found_place WHERE user_id = \(user)), name
                FROM unnest(\(new.map(\.center.latitude))::double precision[],
                    \(new.map(\.center.longitude))::double precision[], \(new.map(\.name))::text[])
                    WITH ORDINALITY AS c (lat, lon, name, n)
                """)
        }
        return (areas, new.count)
    }

    /// Adds `places` as manual records in the diary of `device`'s account; the same place (time
    /// and position) is stored once.
    static func insertPlaces(_ session: Session, _ places: [ImportedPlace], device: Int64) throws -> Int {
        guard !places.isEmpty,
            let user = try session.value("SELECT user_id FROM device WHERE id = \(device)", as: Int64.self)
        else { return 0 }
        var added = 0
        for place in places {
            let lat = StoredScale.degrees(place.coordinate.latitude)
            let lon = StoredScale.degrees(place.coordinate.longitude)
            guard
                try session.query(
                    """
                    SELECT 1 FROM record
                    WHERE user_id = \(user) AND manual AND t = \(place.milliseconds) AND lat = \(lat) AND lon = \(lon)
                    """
                ).isEmpty
            else { continue }
            let id = try insertRecord(
                session, t: place.milliseconds, lat: lat, lon: lon, alt: place.altitude.map(StoredScale.hundredths),
                user: user)
            for text in place.notes { _ = try insertNote(session, id, text) }
            try upsertFields(session, id, place.fields)
            added += 1
        }
        return added
    }

    /// The id of the record at `ms` in the account's diary: one there (manual or not), else a new
    /// one for the point of `device` at exactly `ms`.
    static func recordID(_ session: Session, at ms: Int64, device: Int64, user: Int64) throws -> Int64? {
        if let id = try session.value(
            "SELECT id FROM record WHERE user_id = \(user) AND t = \(ms) ORDER BY manual LIMIT 1", as: Int64.self)
        {
            return id
        }
        return try session.value(
            """
            INSERT INTO record (t, lat, lon, alt, manual, created_ms, device_id, user_id)
            SELECT t, lat, lon, alt, false, \(UTCTimestamp.now()), device_id, \(user) FROM position
            WHERE device_id = \(device) AND t = \(ms)
            RETURNING id
            """, as: Int64.self)
    }

    public func nearestRecordID(to ms: Int64, within: Int64, account: String?) throws -> Int64? {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return nil }
            let record = try session.query(
                "SELECT id, t FROM record WHERE user_id = \(user) ORDER BY abs(t - \(ms)), id LIMIT 1"
            ).first
            let point = try Self.nearestPoint(session, ms, within, DeviceFilter(account: account))
            let recordDistance = try record.map { abs(try $0.get("t", as: Int64.self) - ms) } ?? .max
            let pointDistance = point.map { abs($0.fix.unixMilliseconds! - ms) } ?? .max
            if let record, recordDistance <= within && recordDistance <= pointDistance { return try record.get("id") }
            guard let point else { return nil }
            return try Self.recordID(
                session, at: point.fix.unixMilliseconds!, device: point.device, user: user)
        }
    }

    /// Runs `body` in one write transaction when record `id` is in the account's diary; whether it is.
    func writeOwned(_ id: Int64, _ account: String?, _ body: (Session) throws -> Void) throws -> Bool {
        try write { session in
            guard try PostgresUnit.owns(session, id, account) else { return false }
            try body(session)
            return true
        }
    }

    /// Whether record `id` is in the account's diary.
    static func owns(_ session: Session, _ id: Int64, _ account: String?) throws -> Bool {
        try !session.query(
            """
            SELECT 1 FROM record WHERE id = \(id)
            AND user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser))
            """
        ).isEmpty
    }

    public func record(_ id: Int64, account: String?) throws -> LocationRecord? {
        try read { session in
            guard
                let row = try session.query(
                    """
                    SELECT * FROM record WHERE id = \(id)
                    AND user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser))
                    """
                ).first
            else { return nil }
            return try PostgresUnit.attachments(session, [try PostgresUnit.locationRecord(row)]).first
        }
    }

    public func records(fromMilliseconds from: Int64, toMilliseconds to: Int64, plainPoints: Bool, account: String?)
        throws -> [LocationRecord]
    {
        try read { session in
            var list = try session.query(
                """
                SELECT * FROM record WHERE user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser))
                AND t >= \(from) AND t < \(to) ORDER BY t, id
                """
            ).map(PostgresUnit.locationRecord)
            list = try PostgresUnit.attachments(session, list)
            if plainPoints {
                let ids = try PostgresUnit.deviceIDs(session, DeviceFilter(account: account))
                let points = try session.query(
                    """
                    SELECT \(unescaped: PostgresStore.positionColumns) FROM position p
                    WHERE p.device_id = ANY(\(ids)) AND p.t >= \(from) AND p.t < \(to)
                      AND NOT EXISTS (SELECT 1 FROM record r WHERE r.device_id = p.device_id AND r.t = p.t AND NOT r.manual)
                    ORDER BY p.t, p.device_id
                    """
                ).map { row -> LocationRecord in
                    let fix = try PostgresStore.fix(row)
                    return LocationRecord(
                        id: nil, milliseconds: fix.unixMilliseconds!, coordinate: fix.coordinate!,
                        altitude: fix.altitudeMSL, manual: false)
                }
                list = (list + points).sorted { ($0.milliseconds, $0.id ?? 0) < ($1.milliseconds, $1.id ?? 0) }
            }
            return list
        }
    }

    static func locationRecord(_ row: PostgresRandomAccessRow) throws -> LocationRecord {
        let lat = try row.get("lat", as: Int64.self)
        let lon = try row.get("lon", as: Int64.self)
        return LocationRecord(
            id: try row.get("id"), milliseconds: try row.get("t"),
            coordinate: Coordinate(latitude: Double(lat) / 1e7, longitude: Double(lon) / 1e7),
            altitude: try row.optional("alt", as: Int64.self).map { Double($0) / 100 }, manual: try row.get("manual"))
    }

    /// Fills in notes, photos and fields.
    static func attachments(_ session: Session, _ records: [LocationRecord]) throws -> [LocationRecord] {
        let ids = records.compactMap(\.id)
        guard !ids.isEmpty else { return records }
        var notes: [Int64: [Note]] = [:]
        for row in try session.query("SELECT * FROM note WHERE record_id = ANY(\(ids)) ORDER BY id") {
            let note = try PostgresUnit.note(row)
            notes[note.recordID, default: []].append(note)
        }
        var photos: [Int64: [Photo]] = [:]
        for row in try session.query(
            """
            SELECT rp.record_id, p.* FROM photo p JOIN record_photo rp ON rp.sha256 = p.sha256
            WHERE rp.record_id = ANY(\(ids)) ORDER BY p.taken_ms NULLS FIRST, p.name
            """)
        {
            photos[try row.get("record_id"), default: []].append(try PostgresUnit.photo(row))
        }
        var fields: [Int64: [Field]] = [:]
        for row in try session.query("SELECT * FROM field WHERE record_id = ANY(\(ids)) ORDER BY key COLLATE \"C\"") {
            let value = FieldValue(
                text: try row.optional("text", as: String.self), number: try row.optional("number", as: Double.self))
            fields[try row.get("record_id"), default: []].append(Field(key: try row.get("key"), value: value))
        }
        var conditions: [Int64: [ConditionValue]] = [:]
        for row in try session.query(
            "SELECT * FROM record_condition WHERE record_id = ANY(\(ids)) ORDER BY key COLLATE \"C\"")
        {
            let value = FieldValue(
                text: try row.optional("text", as: String.self), number: try row.optional("number", as: Double.self))
            let source = ConditionValue.Source(rawValue: try row.get("source", as: String.self)) ?? .user
            conditions[try row.get("record_id"), default: []].append(
                ConditionValue(key: try row.get("key"), value: value, source: source))
        }
        return records.map { r in
            var r = r
            guard let id = r.id else { return r }
            r.notes = notes[id] ?? []
            r.photos = photos[id] ?? []
            r.fields = fields[id] ?? []
            r.conditions = conditions[id] ?? []
            return r
        }
    }

    static func photo(_ row: PostgresRandomAccessRow) throws -> Photo {
        Photo(
            sha256: try row.get("sha256"), file: try row.get("file"), bytes: try row.get("bytes"),
            takenMilliseconds: try row.optional("taken_ms"), name: try row.get("name"))
    }

    // MARK: notes

    static func note(_ row: PostgresRandomAccessRow) throws -> Note {
        Note(
            id: try row.get("id"), recordID: try row.get("record_id"), text: try row.get("text"),
            createdMilliseconds: try row.get("created_ms"), updatedMilliseconds: try row.get("updated_ms"))
    }

    static func insertNote(_ session: Session, _ record: Int64, _ text: String) throws -> Note {
        let now = UTCTimestamp.now()
        let row = try session.query(
            """
            INSERT INTO note (record_id, text, created_ms, updated_ms) VALUES (\(record), \(text), \(now), \(now))
            RETURNING *
            """)
        return try note(row[0])
    }

    public func addNote(to record: Int64, text: String, account: String?) throws -> Note? {
        try write { session in
            guard try PostgresUnit.owns(session, record, account) else { return nil }
            return try PostgresUnit.insertNote(session, record, text)
        }
    }

    public func note(_ id: Int64, account: String?) throws -> Note? {
        try read { session in
            try session.query(
                """
                SELECT n.* FROM note n JOIN record r ON r.id = n.record_id
                WHERE n.id = \(id) AND r.user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser))
                """
            ).first.map(PostgresUnit.note)
        }
    }

    public func updateNote(_ id: Int64, text: String, account: String?) throws -> Bool {
        try write { session in
            try session.execute(
                """
                UPDATE note SET text = \(text), updated_ms = \(UTCTimestamp.now()) WHERE id = \(id)
                AND record_id IN (SELECT id FROM record
                    WHERE user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser)))
                """) > 0
        }
    }

    public func deleteNote(_ id: Int64, account: String?) throws -> Note? {
        try write { session in
            try session.query(
                """
                DELETE FROM note WHERE id = \(id)
                AND record_id IN (SELECT id FROM record
                    WHERE user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser)))
                RETURNING *
                """
            ).first.map(PostgresUnit.note)
        }
    }

    // MARK: fields

    static func upsertFields(_ session: Session, _ record: Int64, _ fields: [Field]) throws {
        for f in fields {
            let (text, number) = f.value.columns
            try session.execute(
                """
                INSERT INTO field (record_id, key, text, number) VALUES (\(record), \(f.key), \(text), \(number))
                ON CONFLICT (record_id, key) DO UPDATE SET text = excluded.text, number = excluded.number
                """)
        }
    }

    @discardableResult
    public func setFields(_ fields: [Field], on record: Int64, account: String?) throws -> Bool {
        try writeOwned(record, account) { session in try PostgresUnit.upsertFields(session, record, fields) }
    }

    @discardableResult
    public func setConditions(_ values: [ConditionValue], on record: Int64, account: String?) throws -> Bool {
        try writeOwned(record, account) { session in
            for value in values {
                let (text, number) = value.value.columns
                try session.execute(
                    """
                    INSERT INTO record_condition (record_id, key, text, number, source)
                    VALUES (\(record), \(value.key), \(text), \(number), \(value.source.rawValue))
                    ON CONFLICT (record_id, key) DO UPDATE
                    SET text = excluded.text, number = excluded.number, source = excluded.source
                    """)
            }
        }
    }

    public func addWeatherReadings(_ readings: [WeatherReading], account: String?) throws -> Int {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return 0 }
            var added = 0
            for r in readings {
                // xmax = 0 only on a freshly inserted row.
                let fresh = try session.value(
                    """
                    INSERT INTO weather_reading
                        (user_id, t, device_id, temperature_c, pressure_hpa, wind_speed_ms, wind_dir_deg, cloud_pct)
                    VALUES (\(user), \(r.milliseconds), \(r.device?.rawValue ?? 0), \(r.temperature), \(r.pressure),
                        \(r.windSpeed), \(r.windDirection), \(r.cloud))
                    ON CONFLICT (user_id, t, device_id) DO UPDATE SET temperature_c = excluded.temperature_c,
                        pressure_hpa = excluded.pressure_hpa, wind_speed_ms = excluded.wind_speed_ms,
                        wind_dir_deg = excluded.wind_dir_deg, cloud_pct = excluded.cloud_pct
                    RETURNING (xmax = 0)
                    """, as: Bool.self)
                if fresh == true { added += 1 }
            }
            return added
        }
    }

    public func weatherReadings(fromMilliseconds from: Int64, toMilliseconds to: Int64, account: String?) throws
        -> [WeatherReading]
    {
        try read { session in
            try session.query(
                """
                SELECT * FROM weather_reading
                WHERE user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser))
                AND t >= \(from) AND t < \(to) ORDER BY t, device_id
                """
            ).map { row in
                let device: Int64 = try row.get("device_id")
                return WeatherReading(
                    milliseconds: try row.get("t"), temperature: try row.optional("temperature_c", as: Double.self),
                    pressure: try row.optional("pressure_hpa", as: Double.self),
                    windSpeed: try row.optional("wind_speed_ms", as: Double.self),
                    windDirection: try row.optional("wind_dir_deg", as: Double.self),
                    cloud: try row.optional("cloud_pct", as: Double.self),
                    device: device == 0 ? nil : DeviceID(rawValue: device))
            }
        }
    }

    public func removeField(_ key: String, from record: Int64, account: String?) throws -> Bool {
        try write { session in
            try PostgresUnit.owns(session, record, account)
                && session.execute("DELETE FROM field WHERE record_id = \(record) AND key = \(key)") > 0
        }
    }

    // MARK: photos

    static func insertPhotos(_ session: Session, _ record: Int64, _ photos: [Photo]) throws {
        for p in photos {
            try session.execute(
                """
                INSERT INTO photo (sha256, file, bytes, taken_ms, name)
                VALUES (\(p.sha256), \(p.file), \(Int64(p.bytes)), \(p.takenMilliseconds), \(p.name))
                ON CONFLICT (sha256) DO NOTHING
                """)
            try session.execute(
                "INSERT INTO record_photo (record_id, sha256) VALUES (\(record), \(p.sha256)) ON CONFLICT DO NOTHING")
        }
    }

    @discardableResult
    public func attachPhotos(_ photos: [Photo], to record: Int64, account: String?) throws -> Bool {
        try writeOwned(record, account) { session in try PostgresUnit.insertPhotos(session, record, photos) }
    }

    public func storePhotoFile(_ source: String, takenMilliseconds: Int64?) throws -> Photo {
        try access.store.storePhotoFile(source, takenMilliseconds: takenMilliseconds)
    }

    public func discardUnattached(_ photos: [Photo]) {
        for photo in photos {
            let known = try? read { session in
                try !session.query("SELECT 1 FROM photo WHERE sha256 = \(photo.sha256)").isEmpty
            }
            if known == false { unlink(mediaDirectory + "/" + photo.file) }
        }
    }

    // MARK: day summaries

    public func daySummary(_ day: CivilDate, account: String?) throws -> String? {
        try read { session in
            try session.value(
                """
                SELECT text FROM day_summary
                WHERE user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser))
                AND day = \(day.description)
                """, as: String.self)
        }
    }

    @discardableResult
    public func setDaySummary(_ day: CivilDate, text: String, account: String?) throws -> Bool {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return false }
            if text.isEmpty {
                try session.execute("DELETE FROM day_summary WHERE user_id = \(user) AND day = \(day.description)")
            } else {
                try session.execute(
                    """
                    INSERT INTO day_summary (user_id, day, text, updated_ms)
                    VALUES (\(user), \(day.description), \(text), \(UTCTimestamp.now()))
                    ON CONFLICT (user_id, day) DO UPDATE SET text = excluded.text, updated_ms = excluded.updated_ms
                    """)
            }
            return true
        }
    }

    // MARK: the recorder

    public func pausedUntil() throws -> Int64? {
        try read { session in
            try session.value(
                """
                SELECT s.paused_until_ms FROM pause_switch s JOIN account a ON a.id = s.user_id
                WHERE a.name = \(PostgresStore.localUser)
                """, as: Int64.self)
        }
    }

    public func setPausedUntil(_ until: Int64?) throws {
        try write { session in
            let user = try PostgresUnit.localUserID(session)
            if let until {
                try session.execute(
                    """
                    INSERT INTO pause_switch (user_id, paused_until_ms) VALUES (\(user), \(until))
                    ON CONFLICT (user_id) DO UPDATE SET paused_until_ms = excluded.paused_until_ms
                    """)
            } else {
                try session.execute("DELETE FROM pause_switch WHERE user_id = \(user)")
            }
        }
    }

    public func writeRecorderStatus(_ s: RecorderStatus, device: DeviceID) throws {
        try write { session in
            try session.execute(
                """
                INSERT INTO recorder (device_id, pid, source, started_ms, heartbeat_ms, last_fix_ms, last_fix_seen_ms, paused)
                VALUES (\(device.rawValue), \(s.pid), \(s.source), \(s.startedMilliseconds), \(s.heartbeatMilliseconds),
                        \(s.lastFixMilliseconds), \(s.lastFixSeenMilliseconds), \(s.paused))
                ON CONFLICT (device_id) DO UPDATE SET pid = excluded.pid, source = excluded.source,
                    started_ms = excluded.started_ms, heartbeat_ms = excluded.heartbeat_ms,
                    last_fix_ms = excluded.last_fix_ms, last_fix_seen_ms = excluded.last_fix_seen_ms,
                    paused = excluded.paused
                """)
        }
    }

    public func removeRecorderStatus(device: DeviceID) throws {
        try write { session in try session.execute("DELETE FROM recorder WHERE device_id = \(device.rawValue)") }
    }

    public func recorderStatuses() throws -> [RecorderStatus] {
        try read { session in
            try session.query(
                "SELECT r.*, d.name FROM recorder r JOIN device d ON d.id = r.device_id ORDER BY r.heartbeat_ms DESC"
            ).map { row in
                var s = RecorderStatus(
                    pid: try row.get("pid"), source: try row.get("source"),
                    startedMilliseconds: try row.get("started_ms"), heartbeatMilliseconds: try row.get("heartbeat_ms"),
                    paused: try row.get("paused"))
                s.lastFixMilliseconds = try row.optional("last_fix_ms")
                s.lastFixSeenMilliseconds = try row.optional("last_fix_seen_ms")
                s.device = try row.get("name")
                return s
            }
        }
    }
}

extension PostgresStore {
    /// Copies a photo into the media folder (once per content): a file copy, no transaction.
    public func storePhotoFile(_ source: String, takenMilliseconds: Int64?) throws -> Photo {
        try MediaFolder(path: mediaDirectory).store(source, takenMilliseconds: takenMilliseconds)
    }
}
