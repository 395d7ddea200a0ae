import Foundation
internal import GRDB

/// The store's schema as named migrations. A migration is frozen once it has landed: changes
/// come as new migrations, never as edits of old ones.
enum Schema {
    static func migrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-tracks") { db in
            // Where fixes came from: a device path, gpsd, or an imported file.
            try db.create(table: "source") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("kind", .text).notNull()
                t.column("name", .text).notNull()
                t.uniqueKey(["kind", "name"])
            }
            try db.create(table: "ride") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("source_id", .integer).references("source", onDelete: .setNull)
                t.column("start_ms", .integer).notNull()
                t.column("end_ms", .integer).notNull()
                t.column("point_count", .integer).notNull().defaults(to: 0)
                t.check(sql: "end_ms >= start_ms")
            }
            try db.create(index: "ride_on_start", on: "ride", columns: ["start_ms"])
            try db.create(table: "segment") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("ride_id", .integer).notNull().references("ride", onDelete: .cascade)
                t.column("start_ms", .integer).notNull()
                t.column("end_ms", .integer).notNull()
                t.column("point_count", .integer).notNull().defaults(to: 0)
                t.check(sql: "end_ms >= start_ms")
            }
            try db.create(index: "segment_on_start", on: "segment", columns: ["start_ms"])
            // One row per stored fix, keyed by its UTC time in milliseconds (the rowid, so no
            // separate index); values as scaled integers to stay small on disk. A point belongs to
            // the segment whose time range contains it.
            try db.create(table: "point") { t in
                t.primaryKey("t", .integer)  // ms since 1970-01-01T00:00:00Z
                t.column("lat", .integer).notNull()  // 1e-7 degrees, WGS-84
                t.column("lon", .integer).notNull()  // 1e-7 degrees
                t.column("alt", .integer)  // centimetres above mean sea level
                t.column("speed", .integer)  // centimetres per second
                t.column("track", .integer)  // hundredths of a degree, true
                t.column("hdop", .integer)  // hundredths
                t.column("mode_sats", .integer).notNull()  // mode (2 or 3) + 4 × satellites used (0: unknown)
            }
            // Fixes the pipeline dropped, per ride and reason.
            try db.create(table: "drop_count", options: [.withoutRowID]) { t in
                t.column("ride_id", .integer).notNull().references("ride", onDelete: .cascade)
                t.column("reason", .text).notNull()
                t.column("count", .integer).notNull()
                t.primaryKey(["ride_id", "reason"])
            }
        }
        migrator.registerMigration("v2-imports") { db in
            // Files imported, by the SHA-256 of their bytes, so the same file is not imported twice.
            try db.create(table: "import") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("sha256", .text).notNull().unique()
                t.column("name", .text).notNull()  // the path given at import time
                t.column("bytes", .integer).notNull()
                t.column("imported_ms", .integer).notNull()
                t.column("points", .integer).notNull()  // points this file added
            }
        }
        migrator.registerMigration("v3-diary") { db in
            // Location records that carry something: manual ones (manual = 1, placed by the user)
            // and stored points the user attached something to (manual = 0, t = the point's t).
            try db.create(table: "record") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("t", .integer).notNull()  // ms since 1970, UTC
                t.column("lat", .integer).notNull()  // 1e-7 degrees
                t.column("lon", .integer).notNull()
                t.column("alt", .integer)  // centimetres
                t.column("manual", .integer).notNull()
                t.column("created_ms", .integer).notNull()
            }
            try db.create(index: "record_on_t", on: "record", columns: ["t"])
            try db.execute(sql: "CREATE UNIQUE INDEX record_of_point ON record(t) WHERE manual = 0")
            try db.create(table: "note") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("record_id", .integer).notNull().indexed().references("record", onDelete: .cascade)
                t.column("text", .text).notNull()
                t.column("created_ms", .integer).notNull()
                t.column("updated_ms", .integer).notNull()
            }
            // Photos are files in the media folder named by their SHA-256; a row per file.
            try db.create(table: "photo", options: [.withoutRowID]) { t in
                t.primaryKey("sha256", .text)
                t.column("file", .text).notNull()  // path inside the media folder
                t.column("bytes", .integer).notNull()
                t.column("taken_ms", .integer)  // EXIF time, when the photo has one
                t.column("name", .text).notNull()  // file name it was added under
            }
            try db.create(table: "record_photo", options: [.withoutRowID]) { t in
                t.column("record_id", .integer).notNull().references("record", onDelete: .cascade)
                t.column("sha256", .text).notNull().indexed().references("photo")
                t.primaryKey(["record_id", "sha256"])
            }
            // Fields: numbers in `number`, everything else in `text`.
            try db.create(table: "field", options: [.withoutRowID]) { t in
                t.column("record_id", .integer).notNull().references("record", onDelete: .cascade)
                t.column("key", .text).notNull()
                t.column("text", .text)
                t.column("number", .double)
                t.primaryKey(["record_id", "key"])
            }
            try db.create(table: "day_summary", options: [.withoutRowID]) { t in
                t.primaryKey("day", .text)  // local date, YYYY-MM-DD
                t.column("text", .text).notNull()
                t.column("updated_ms", .integer).notNull()
            }
            // Small shared state: the pause switch and what the running recorder reports.
            try db.create(table: "setting", options: [.withoutRowID]) { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v4-import-provenance") { db in
            // Which import stored a point (NULL for points a recorder stored, and for points
            // imported before this migration), so `import --reimport` can replace exactly what a
            // file stored. Added at the end of the row: one or two bytes per imported point.
            try db.alter(table: "point") { t in t.add(column: "import_id", .integer) }
            // The time range of what an import stored, so its points are found by the rowid.
            try db.alter(table: "import") { t in
                t.add(column: "start_ms", .integer)
                t.add(column: "end_ms", .integer)
            }
            // A file counts as imported only for what it stored: earlier imports that stored no
            // point can be imported again (a waypoint they stored is recognised and kept once).
            try db.execute(sql: "DELETE FROM import WHERE points = 0")
        }
        migrator.registerMigration("v5-users-devices") { db in
            // Every point belongs to a device of a user. A local store has one user, `me`; the
            // points, rides and records of earlier versions belong to its device `default`.
            try db.create(table: "user") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique()
                t.column("created_ms", .integer).notNull()
            }
            try db.create(table: "device") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
                t.column("name", .text).notNull()
                t.column("created_ms", .integer).notNull()
                t.uniqueKey(["user_id", "name"])
            }
            let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
            try db.execute(sql: "INSERT INTO user (id, name, created_ms) VALUES (1, 'me', ?)", arguments: [now])
            let hasData =
                try Bool.fetchOne(
                    db, sql: "SELECT EXISTS (SELECT 1 FROM point) OR EXISTS (SELECT 1 FROM ride)") ?? false
            if hasData {
                try db.execute(
                    sql: "INSERT INTO device (id, user_id, name, created_ms) VALUES (1, 1, 'default', ?)",
                    arguments: [now])
            }
            // Points keyed by (device, time): two receivers recording at the same millisecond
            // both keep their point. Both are packed into the rowid (`PointKey`): a device's day
            // is one range of keys, and rows are appended in order into full pages.
            try db.execute(
                sql: """
                    CREATE TABLE point_by_device (
                        key INTEGER PRIMARY KEY,  -- (device << 43) + ms since 1970 + 2^42
                        lat INTEGER NOT NULL,
                        lon INTEGER NOT NULL,
                        alt INTEGER,
                        speed INTEGER,
                        track INTEGER,
                        hdop INTEGER,
                        mode_sats INTEGER NOT NULL,
                        import_id INTEGER
                    )
                    """)
            try db.execute(
                sql: """
                    INSERT INTO point_by_device
                    SELECT (1 << 43) + t + 4398046511104, lat, lon, alt, speed, track, hdop, mode_sats, import_id
                    FROM point ORDER BY t
                    """)
            try db.drop(table: "point")
            try db.rename(table: "point_by_device", to: "point")
            // Rides and segments are a device's; their ranges may overlap other devices' ones.
            for table in ["ride", "segment"] {
                try db.alter(table: table) { t in
                    t.add(column: "device_id", .integer).references("device", onDelete: .cascade)
                }
                try db.execute(sql: "UPDATE \(table) SET device_id = 1")
                try db.create(index: "\(table)_on_device_start", on: table, columns: ["device_id", "start_ms"])
            }
            try db.drop(index: "ride_on_start")
            try db.drop(index: "segment_on_start")
            // A record of a stored point names the point's device; manual records belong to the
            // user (device_id NULL).
            try db.alter(table: "record") { t in
                t.add(column: "device_id", .integer).references("device", onDelete: .cascade)
            }
            try db.execute(sql: "UPDATE record SET device_id = 1 WHERE manual = 0")
            try db.drop(index: "record_of_point")
            try db.execute(sql: "CREATE UNIQUE INDEX record_of_point ON record(device_id, t) WHERE manual = 0")
            // The pause switch (a user's) and what each running recorder reports (a device's),
            // in tables of their own instead of keys of a settings table.
            try db.create(table: "pause_switch") { t in
                t.primaryKey("user_id", .integer).references("user", onDelete: .cascade)
                t.column("paused_until_ms", .integer).notNull()  // 0: until resumed
            }
            try db.execute(
                sql: """
                    INSERT INTO pause_switch (user_id, paused_until_ms)
                    SELECT 1, CAST(value AS INTEGER) FROM setting WHERE key = 'paused_until_ms'
                    """)
            try db.create(table: "recorder") { t in
                t.primaryKey("device_id", .integer).references("device", onDelete: .cascade)
                t.column("pid", .integer).notNull()
                t.column("source", .text).notNull()
                t.column("started_ms", .integer).notNull()
                t.column("heartbeat_ms", .integer).notNull()
                t.column("last_fix_ms", .integer)
                t.column("last_fix_seen_ms", .integer)
                t.column("paused", .boolean).notNull()
            }
            try db.drop(table: "setting")
        }
        migrator.registerMigration("v6-accounts") { db in
            // Accounts for the sharing server: a user's password (a versioned hash, never the
            // password), and a device's token (its SHA-256, never the token) and revocation.
            try db.alter(table: "user") { t in t.add(column: "password_hash", .text) }
            try db.alter(table: "device") { t in
                t.add(column: "token_hash", .text)
                t.add(column: "revoked_ms", .integer)
            }
            try db.execute(
                sql: "CREATE UNIQUE INDEX device_by_token ON device(token_hash) WHERE token_hash IS NOT NULL")
            // One-time pairing codes (hashed) and the grants they make: who may see whom.
            try db.create(table: "share_code") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("owner_id", .integer).notNull().references("user", onDelete: .cascade)
                t.column("code_hash", .text).notNull().unique()
                t.column("scopes", .text).notNull()  // comma-separated: live, motion, history
                t.column("history_hours", .integer).notNull()
                t.column("expires_ms", .integer).notNull()
            }
            try db.create(table: "grant") { t in
                t.column("owner_id", .integer).notNull().references("user", onDelete: .cascade)
                t.column("viewer_id", .integer).notNull().references("user", onDelete: .cascade)
                t.column("scopes", .text).notNull()
                t.column("history_hours", .integer).notNull()
                t.column("created_ms", .integer).notNull()
                // Paused: the viewer sees nothing until resumed; expires_ms: the grant ends then.
                t.column("paused", .boolean).notNull().defaults(to: false)
                t.column("expires_ms", .integer)
                t.primaryKey(["owner_id", "viewer_id"])
            }
            // What a phone said of itself with its newest point (battery, accuracy radius).
            try db.create(table: "device_state") { t in
                t.primaryKey("device_id", .integer).references("device", onDelete: .cascade)
                t.column("at_ms", .integer).notNull()
                t.column("battery", .double)  // percent
                t.column("accuracy", .double)  // metres
            }
            // Failed code redemptions per account, for the limit on guessing.
            try db.create(table: "redeem_failure") { t in
                t.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
                t.column("at_ms", .integer).notNull()
            }
        }
        migrator.registerMigration("v7-uploads") { db in
            // Per device and server (`record --server`, `push`): the newest point it acknowledged.
            try db.create(table: "upload_cursor") { t in
                t.column("device_id", .integer).notNull().references("device", onDelete: .cascade)
                t.column("server", .text).notNull()
                t.column("sent_ms", .integer).notNull()
                t.primaryKey(["device_id", "server"])
            }
        }
        migrator.registerMigration("v8-device-messages") { db in
            // What phone apps sent that is not a position (OwnTracks transitions, waypoints, lwt).
            try db.create(table: "device_message") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("device_id", .integer).notNull().indexed().references("device", onDelete: .cascade)
                t.column("received_ms", .integer).notNull()
                t.column("type", .text).notNull()
                t.column("body", .text).notNull()  // as the app sent it (JSON)
            }
        }
        migrator.registerMigration("v9-sessions") { db in
            // Signed-in browsers (by the SHA-256 of the cookie's token) and failed logins, in the
            // store so that a restart signs nobody out.
            try db.create(table: "web_session", options: [.withoutRowID]) { t in
                t.primaryKey("token_hash", .text)
                t.column("user_id", .integer).notNull().indexed().references("user", onDelete: .cascade)
                t.column("csrf", .text).notNull()
                t.column("expires_ms", .integer).notNull()
            }
            try db.create(table: "login_failure") { t in
                t.column("key", .text).notNull()  // user:NAME or address:IP
                t.column("at_ms", .integer).notNull()
            }
            try db.create(index: "login_failure_on_key", on: "login_failure", columns: ["key", "at_ms"])
            try db.create(index: "login_failure_on_time", on: "login_failure", columns: ["at_ms"])
        }
        migrator.registerMigration("v10-store-copy") { db in
            // `trailbook store copy` into this store: from where, and whether it finished (an
            // unfinished copy continues when run again).
            try db.create(table: "store_copy", options: [.withoutRowID]) { t in
                t.primaryKey("source", .text)
                t.column("started_ms", .integer).notNull()
                t.column("finished_ms", .integer)
            }
        }
        migrator.registerMigration("v11-places-events") { db in
            // Named areas of an account (a circle, or a polygon as GeoJSON positions).
            try db.create(table: "place") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
                t.column("name", .text).notNull()
                t.column("lat", .double).notNull()
                t.column("lon", .double).notNull()
                t.column("radius_m", .double).notNull()
                t.column("polygon", .text)
                t.column("source", .text).notNull()
                t.column("created_ms", .integer).notNull()
                t.uniqueKey(["user_id", "name"])
            }
            // What the detector (and the cues, tasks, server) found; one per device, time, type
            // and place, so a log imported again adds nothing.
            try db.create(table: "event") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("device_id", .integer).notNull().references("device", onDelete: .cascade)
                t.column("t", .integer).notNull()
                t.column("type", .text).notNull()
                t.column("place", .text).notNull().defaults(to: "")
                t.column("lat", .double)
                t.column("lon", .double)
                t.column("text", .text)
                t.column("details", .text).notNull().defaults(to: "{}")
                t.uniqueKey(["device_id", "t", "type", "place"])
            }
            try db.create(index: "event_on_time", on: "event", columns: ["t"])
        }
        migrator.registerMigration("v12-cues-tasks-alerts") { db in
            // Events get the account whose list they are in (a friend's arrival is in the
            // viewer's) and a tag that tells two cues at one place and moment apart.
            try db.execute(
                sql: """
                    CREATE TABLE event_new (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                        device_id INTEGER NOT NULL REFERENCES device(id) ON DELETE CASCADE,
                        t INTEGER NOT NULL, type TEXT NOT NULL, place TEXT NOT NULL DEFAULT '',
                        tag TEXT NOT NULL DEFAULT '', lat DOUBLE, lon DOUBLE, text TEXT,
                        details TEXT NOT NULL DEFAULT '{}',
                        UNIQUE (user_id, device_id, t, type, place, tag));
                    INSERT INTO event_new (id, user_id, device_id, t, type, place, lat, lon, text, details)
                        SELECT e.id, d.user_id, e.device_id, e.t, e.type, e.place, e.lat, e.lon, e.text, e.details
                        FROM event e JOIN device d ON d.id = e.device_id;
                    DROP TABLE event;
                    ALTER TABLE event_new RENAME TO event;
                    CREATE INDEX event_on_time ON event (t);
                    CREATE INDEX event_on_user ON event (user_id, t);
                    """)
            // Reminders at a place, tasks due at a time, and alerts with their outbox.
            try db.create(table: "cue") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
                t.column("text", .text).notNull()
                t.column("place", .text).notNull()
                t.column("moment", .text).notNull()
                t.column("once", .boolean).notNull()
                t.column("fired_ms", .integer)
                t.column("created_ms", .integer).notNull()
            }
            try db.create(table: "task") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
                t.column("text", .text).notNull()
                t.column("due_ms", .integer)
                t.column("rule", .text).notNull()
                t.column("time_zone", .text).notNull()
                t.column("fired_ms", .integer)
                t.column("done_ms", .integer)
                t.column("created_ms", .integer).notNull()
            }
            try db.create(table: "alert") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
                t.column("types", .text).notNull()
                t.column("place", .text)
                t.column("device", .text)
                t.column("quiet", .text)
                t.column("cooldown_s", .double).notNull()
                t.column("channel", .text).notNull()
                t.column("target", .text).notNull()
                t.column("secret", .text)
                t.column("last_ms", .integer)
                t.column("created_ms", .integer).notNull()
            }
            // One row per (alert, event): delivered once, retried until delivered or dropped.
            try db.create(table: "outbox") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("alert_id", .integer).notNull().references("alert", onDelete: .cascade)
                t.column("key", .text).notNull()
                t.column("payload", .text).notNull()
                t.column("created_ms", .integer).notNull()
                t.column("next_ms", .integer).notNull()
                t.column("attempts", .integer).notNull().defaults(to: 0)
                t.column("last_error", .text)
                t.column("delivered_ms", .integer)
                t.column("dropped", .text)
                t.uniqueKey(["alert_id", "key"])
            }
            try db.create(
                index: "outbox_due", on: "outbox", columns: ["next_ms"],
                condition: Column("delivered_ms") == nil && Column("dropped") == nil)
        }
        // The conditions of a record's moment, each value with its source.
        migrator.registerMigration("v13-record-conditions") { db in
            try db.create(table: "record_condition", options: [.withoutRowID]) { t in
                t.column("record_id", .integer).notNull().references("record", onDelete: .cascade)
                t.column("key", .text).notNull()
                t.column("text", .text)
                t.column("number", .double)
                t.column("source", .text).notNull()
                t.primaryKey(["record_id", "key"])
            }
        }
        // A weather station's readings, so records added after an import get them too.
        migrator.registerMigration("v14-weather-readings") { db in
            try db.create(table: "weather_reading", options: [.withoutRowID]) { t in
                t.column("t", .integer).notNull()
                // 0: a station's or a service's (imported); else the device that measured it.
                t.column("device_id", .integer).notNull().defaults(to: 0)
                t.primaryKey(["t", "device_id"])
                t.column("temperature_c", .double)
                t.column("pressure_hpa", .double)
                t.column("wind_speed_ms", .double)
                t.column("wind_dir_deg", .double)
                t.column("cloud_pct", .double)
            }
        }
        // Every account has its own diary: records, day summaries and weather readings carry
        // their account. What was there is the local user's, or the account of the record's device.
        migrator.registerMigration("v15-diary-accounts") { db in
            let me = try SQLiteUnit.localUserID(db)
            // SQLite adds a column with a REFERENCES clause only when its default is NULL: every
            // insert sets it.
            try db.execute(sql: "ALTER TABLE record ADD COLUMN user_id INTEGER REFERENCES user(id) ON DELETE CASCADE")
            try db.execute(
                sql: """
                    UPDATE record SET user_id = coalesce((SELECT user_id FROM device WHERE device.id = record.device_id), ?)
                    """, arguments: [me])
            try db.execute(sql: "CREATE INDEX record_on_user_t ON record (user_id, t)")
            try db.create(table: "day_summary_new", options: [.withoutRowID]) { t in
                t.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
                t.column("day", .text).notNull()
                t.column("text", .text).notNull()
                t.column("updated_ms", .integer).notNull()
                t.primaryKey(["user_id", "day"])
            }
            try db.execute(
                sql: "INSERT INTO day_summary_new SELECT ?, day, text, updated_ms FROM day_summary", arguments: [me])
            try db.drop(table: "day_summary")
            try db.rename(table: "day_summary_new", to: "day_summary")
            try db.create(table: "weather_reading_new", options: [.withoutRowID]) { t in
                t.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
                t.column("t", .integer).notNull()
                // 0: a station's or a service's (imported); else the device that measured it.
                t.column("device_id", .integer).notNull().defaults(to: 0)
                t.primaryKey(["user_id", "t", "device_id"])
                t.column("temperature_c", .double)
                t.column("pressure_hpa", .double)
                t.column("wind_speed_ms", .double)
                t.column("wind_dir_deg", .double)
                t.column("cloud_pct", .double)
            }
            try db.execute(
                sql: """
                    INSERT INTO weather_reading_new
                    SELECT coalesce((SELECT user_id FROM device WHERE device.id = w.device_id), ?), t, device_id,
                      temperature_c, pressure_hpa, wind_speed_ms, wind_dir_deg, cloud_pct
                    FROM weather_reading w
                    """, arguments: [me])
            try db.drop(table: "weather_reading")
            try db.rename(table: "weather_reading_new", to: "weather_reading")
        }
        migrator.registerMigration("v16-import-accounts") { db in
            // Each account's imports are its own: the same file imported by two accounts is
            // stored for each. An earlier import is the account of the device its points went to
            // (found by the rowid, device by device), else the local user's.
            try db.create(table: "import_new") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("user_id", .integer).notNull().references("user", onDelete: .cascade)
                t.column("sha256", .text).notNull()
                t.column("name", .text).notNull()
                t.column("bytes", .integer).notNull()
                t.column("imported_ms", .integer).notNull()
                t.column("points", .integer).notNull()
                t.column("start_ms", .integer)
                t.column("end_ms", .integer)
                t.uniqueKey(["user_id", "sha256"])
            }
            let devices = try Row.fetchAll(db, sql: "SELECT id, user_id FROM device ORDER BY id")
            for row in try Row.fetchAll(db, sql: "SELECT * FROM import ORDER BY id") {
                let id: Int64 = row["id"]
                var owner: Int64?
                if let start = row["start_ms"] as Int64?, let end = row["end_ms"] as Int64? {
                    for device in devices where owner == nil {
                        let keys = SQLiteUnit.keyRange(device["id"], from: start, to: end + 1)
                        let found = try Bool.fetchOne(
                            db, sql: "SELECT EXISTS (SELECT 1 FROM point WHERE key >= ? AND key < ? AND import_id = ?)",
                            arguments: keys + [id])
                        if found == true { owner = device["user_id"] }
                    }
                }
                try db.execute(
                    sql: """
                        INSERT INTO import_new (id, user_id, sha256, name, bytes, imported_ms, points, start_ms, end_ms)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        id, try owner ?? SQLiteUnit.localUserID(db), row["sha256"], row["name"], row["bytes"],
                        row["imported_ms"], row["points"], row["start_ms"], row["end_ms"],
                    ])
            }
            try db.drop(table: "import")
            try db.rename(table: "import_new", to: "import")
        }
        migrator.registerMigration("v17-segment-ride-index") { db in
            // Merging rides moves their segments (`WHERE ride_id = ?`), a ride's range and count
            // come from its segments, and removing a ride cascades to them: without this index
            // each of those read the whole segment table, and an import of years of history
            // (hundreds of thousands of segments) took minutes. PostgreSQL has had it from the start.
            try db.create(index: "segment_on_ride", on: "segment", columns: ["ride_id"])
        }
        migrator.registerMigration("v18-point-sensors") { db in
            // What a bike computer measured beside a position (FIT, TCX, GPX extensions): heart
            // rate, cadence, power and temperature packed in one integer (`Sensors.packed`), by
            // the point's key. A table of its own, so a point without them costs nothing (a NULL
            // column in `point` took a byte of every point); the point removals delete here too.
            try db.execute(sql: "CREATE TABLE point_sensors (key INTEGER PRIMARY KEY, sensors INTEGER NOT NULL)")
        }
        migrator.registerMigration("v19-account-preferences") { db in
            // What an account chose over the server's configuration: its time zone and units.
            try db.execute(
                sql: """
                    CREATE TABLE account_preference (
                        user_id INTEGER PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE,
                        time_zone TEXT,
                        units TEXT
                    )
                    """)
        }
        migrator.registerMigration("v20-gazetteer") { db in
            // The populated places of GeoNames' dumps the user loaded (`geocoder import`), by
            // quarter-degree cell: what visits are named after. Shared by every account.
            try db.execute(
                sql: """
                    CREATE TABLE gazetteer (
                        id INTEGER PRIMARY KEY,
                        name TEXT NOT NULL,
                        lat REAL NOT NULL,
                        lon REAL NOT NULL,
                        cell INTEGER NOT NULL,
                        country TEXT NOT NULL,
                        admin1 TEXT NOT NULL,
                        population INTEGER NOT NULL,
                        zone TEXT NOT NULL
                    )
                    """)
            try db.create(index: "gazetteer_on_cell", on: "gazetteer", columns: ["cell"])
        }
        migrator.registerMigration("v21-found-places") { db in
            // The places visits made, remembered so their ids stay (`trailbook visits --places`),
            // and the user's corrections of a trip's mode or a visit's place, which every new
            // analysis applies.
            try db.execute(
                sql: """
                    CREATE TABLE found_place (
                        id INTEGER PRIMARY KEY,
                        user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                        lat REAL NOT NULL,
                        lon REAL NOT NULL,
                        name TEXT,
                        address TEXT,
                        suggestion TEXT,
                        created_ms INTEGER NOT NULL
                    )
                    """)
            try db.create(index: "found_place_on_user", on: "found_place", columns: ["user_id"])
            try db.execute(
                sql: """
                    CREATE TABLE movement_correction (
                        id INTEGER PRIMARY KEY,
                        user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                        at_ms INTEGER NOT NULL,
                        kind TEXT NOT NULL,
                        value TEXT NOT NULL,
                        created_ms INTEGER NOT NULL,
                        UNIQUE (user_id, kind, at_ms)
                    )
                    """)
        }
        migrator.registerMigration("v22-found-place-numbers") { db in
            // A found place's number is its account's own (1, 2, ... per account): the ids shown
            // and taken never tell one account how many places the others have. A correction
            // that named a place by its id names it by its number; one that named no place
            // names none (0).
            try db.execute(
                sql: """
                    ALTER TABLE found_place ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
                    UPDATE found_place SET number = (
                        SELECT count(*) FROM found_place f
                        WHERE f.user_id = found_place.user_id AND f.id <= found_place.id);
                    UPDATE movement_correction SET value = coalesce((
                        SELECT CAST(f.number AS TEXT) FROM found_place f
                        WHERE f.user_id = movement_correction.user_id
                            AND CAST(f.id AS TEXT) = movement_correction.value), '0')
                    WHERE kind = 'place';
                    CREATE UNIQUE INDEX found_place_on_number ON found_place (user_id, number);
                    """)
        }
        migrator.registerMigration("v23-sensors-in-point") { db in
            // A point's sensors (a phone's accuracy, a bike computer's heart rate and power) in
            // its own row: every point a phone sends has its accuracy, and a second row in
            // `point_sensors` doubled the writes of each and a lookup per point halved the speed
            // of reading them back (docs/BENCHMARKS.md, "Sensors in the point row"). A point
            // without them pays the byte of a NULL column (36.7 to 37.7 bytes a point).
            try db.execute(
                sql: """
                    ALTER TABLE point ADD COLUMN sensors INTEGER;
                    UPDATE point SET sensors = (SELECT s.sensors FROM point_sensors s WHERE s.key = point.key)
                    WHERE key IN (SELECT key FROM point_sensors);
                    DROP TABLE point_sensors;
                    """)
        }
        migrator.registerMigration("v24-kept-timeline") { db in
            // Each account's stays and moves as the writes found them (docs/TIMELINE.md), read
            // by every reader; ids never reused, so an id a correction names is that entry's.
            try db.execute(
                sql: """
                    CREATE TABLE timeline_entry (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        start_ms INTEGER NOT NULL,
                        end_ms INTEGER NOT NULL,
                        lat REAL NOT NULL,
                        lon REAL NOT NULL,
                        to_lat REAL NOT NULL,
                        to_lon REAL NOT NULL,
                        spread REAL NOT NULL,
                        fixes INTEGER NOT NULL,
                        ongoing INTEGER NOT NULL,
                        distance REAL NOT NULL,
                        moving_s REAL NOT NULL,
                        median_speed REAL NOT NULL,
                        high_speed REAL NOT NULL,
                        mode TEXT,
                        mode_from TEXT,
                        CHECK (end_ms >= start_ms)
                    );
                    CREATE INDEX timeline_entry_on_start ON timeline_entry (user_id, start_ms);
                    CREATE TABLE timeline_state (
                        user_id INTEGER PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE,
                        version INTEGER NOT NULL,
                        rules TEXT NOT NULL,
                        through_ms INTEGER NOT NULL,
                        made_ms INTEGER NOT NULL
                    );
                    """)
        }
        return migrator
    }

    /// Makes a new, empty store's schema in one transaction from ``SchemaSnapshot`` instead of
    /// running each migration (whose table rebuilds re-read the whole schema every time: 67 M
    /// instructions, ~12 ms, against ~1 M), and records the snapshot's migrations as applied;
    /// later ones run as usual. A file that has any table is left alone.
    static func createIfEmpty(_ pool: DatabasePool) throws {
        guard !SchemaSnapshot.migrations.isEmpty else { return }
        // Read first, without a lock: opening a store that exists must not wait for a writer.
        let count = "SELECT count(*) FROM sqlite_master"
        guard try pool.read({ db in try Int.fetchOne(db, sql: count) }) == 0 else { return }
        try pool.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                // Again inside the write: another process may have made the schema meanwhile.
                guard try Int.fetchOne(db, sql: count) == 0 else { return .commit }
                for statement in SchemaSnapshot.statements { try db.execute(sql: statement) }
                // What the migrations leave in the tables: the AUTOINCREMENT counters (first, so
                // the row below updates its table's instead of adding one) and the local store's
                // one user (v5-users-devices).
                for (table, seq) in SchemaSnapshot.sequences {
                    try db.execute(
                        sql: "INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", arguments: [table, seq])
                }
                let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
                try db.execute(sql: "INSERT INTO user (id, name, created_ms) VALUES (1, 'me', ?)", arguments: [now])
                for identifier in SchemaSnapshot.migrations {
                    try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES (?)", arguments: [identifier])
                }
                return .commit
            }
        }
    }
}
