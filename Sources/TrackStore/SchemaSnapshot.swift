// The store's schema after `migrations`, as SQLite keeps it: `SchemaSnapshotTests` made this
// file from a store that ran those migrations, and checks it still matches them. Do not edit by
// hand; when a migration is added, that test fails and writes the new file to copy here.
enum SchemaSnapshot {
    static let migrations: [String] = [
        "v1-tracks",
        "v2-imports",
        "v3-diary",
        "v4-import-provenance",
        "v5-users-devices",
        "v6-accounts",
        "v7-uploads",
        "v8-device-messages",
        "v9-sessions",
        "v10-store-copy",
        "v11-places-events",
        "v12-cues-tasks-alerts",
        "v13-record-conditions",
        "v14-weather-readings",
        "v15-diary-accounts",
        "v16-import-accounts",
        "v17-segment-ride-index",
        "v18-point-sensors",
        "v19-account-preferences",
        "v20-gazetteer",
        "v21-found-places",
        "v22-found-place-numbers",
        "v23-sensors-in-point",
        "v24-kept-timeline",
    ]
    static let statements: [String] = [
        #"""
        CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)
        """#,
        #"""
        CREATE TABLE "source" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "kind" TEXT NOT NULL, "name" TEXT NOT NULL, UNIQUE ("kind", "name"))
        """#,
        #"""
        CREATE TABLE "ride" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "source_id" INTEGER REFERENCES "source"("id") ON DELETE SET NULL, "start_ms" INTEGER NOT NULL, "end_ms" INTEGER NOT NULL, "point_count" INTEGER NOT NULL DEFAULT 0, "device_id" INTEGER REFERENCES "device"("id") ON DELETE CASCADE, CHECK (end_ms >= start_ms))
        """#,
        #"""
        CREATE TABLE "segment" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "ride_id" INTEGER NOT NULL REFERENCES "ride"("id") ON DELETE CASCADE, "start_ms" INTEGER NOT NULL, "end_ms" INTEGER NOT NULL, "point_count" INTEGER NOT NULL DEFAULT 0, "device_id" INTEGER REFERENCES "device"("id") ON DELETE CASCADE, CHECK (end_ms >= start_ms))
        """#,
        #"""
        CREATE TABLE "drop_count" ("ride_id" INTEGER NOT NULL REFERENCES "ride"("id") ON DELETE CASCADE, "reason" TEXT NOT NULL, "count" INTEGER NOT NULL, PRIMARY KEY ("ride_id", "reason")) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE "record" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "t" INTEGER NOT NULL, "lat" INTEGER NOT NULL, "lon" INTEGER NOT NULL, "alt" INTEGER, "manual" INTEGER NOT NULL, "created_ms" INTEGER NOT NULL, "device_id" INTEGER REFERENCES "device"("id") ON DELETE CASCADE, user_id INTEGER REFERENCES user(id) ON DELETE CASCADE)
        """#,
        #"""
        CREATE TABLE "note" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "record_id" INTEGER NOT NULL REFERENCES "record"("id") ON DELETE CASCADE, "text" TEXT NOT NULL, "created_ms" INTEGER NOT NULL, "updated_ms" INTEGER NOT NULL)
        """#,
        #"""
        CREATE TABLE "photo" ("sha256" TEXT PRIMARY KEY NOT NULL, "file" TEXT NOT NULL, "bytes" INTEGER NOT NULL, "taken_ms" INTEGER, "name" TEXT NOT NULL) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE "record_photo" ("record_id" INTEGER NOT NULL REFERENCES "record"("id") ON DELETE CASCADE, "sha256" TEXT NOT NULL REFERENCES "photo"("sha256"), PRIMARY KEY ("record_id", "sha256")) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE "field" ("record_id" INTEGER NOT NULL REFERENCES "record"("id") ON DELETE CASCADE, "key" TEXT NOT NULL, "text" TEXT, "number" DOUBLE, PRIMARY KEY ("record_id", "key")) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE "user" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL UNIQUE, "created_ms" INTEGER NOT NULL, "password_hash" TEXT)
        """#,
        #"""
        CREATE TABLE "device" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "name" TEXT NOT NULL, "created_ms" INTEGER NOT NULL, "token_hash" TEXT, "revoked_ms" INTEGER, UNIQUE ("user_id", "name"))
        """#,
        #"""
        CREATE TABLE "point" (
            key INTEGER PRIMARY KEY,  -- (device << 43) + ms since 1970 + 2^42
            lat INTEGER NOT NULL,
            lon INTEGER NOT NULL,
            alt INTEGER,
            speed INTEGER,
            track INTEGER,
            hdop INTEGER,
            mode_sats INTEGER NOT NULL,
            import_id INTEGER
        , sensors INTEGER)
        """#,
        #"""
        CREATE TABLE "pause_switch" ("user_id" INTEGER PRIMARY KEY REFERENCES "user"("id") ON DELETE CASCADE, "paused_until_ms" INTEGER NOT NULL)
        """#,
        #"""
        CREATE TABLE "recorder" ("device_id" INTEGER PRIMARY KEY REFERENCES "device"("id") ON DELETE CASCADE, "pid" INTEGER NOT NULL, "source" TEXT NOT NULL, "started_ms" INTEGER NOT NULL, "heartbeat_ms" INTEGER NOT NULL, "last_fix_ms" INTEGER, "last_fix_seen_ms" INTEGER, "paused" BOOLEAN NOT NULL)
        """#,
        #"""
        CREATE TABLE "share_code" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "owner_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "code_hash" TEXT NOT NULL UNIQUE, "scopes" TEXT NOT NULL, "history_hours" INTEGER NOT NULL, "expires_ms" INTEGER NOT NULL)
        """#,
        #"""
        CREATE TABLE "grant" ("owner_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "viewer_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "scopes" TEXT NOT NULL, "history_hours" INTEGER NOT NULL, "created_ms" INTEGER NOT NULL, "paused" BOOLEAN NOT NULL DEFAULT 0, "expires_ms" INTEGER, PRIMARY KEY ("owner_id", "viewer_id"))
        """#,
        #"""
        CREATE TABLE "device_state" ("device_id" INTEGER PRIMARY KEY REFERENCES "device"("id") ON DELETE CASCADE, "at_ms" INTEGER NOT NULL, "battery" DOUBLE, "accuracy" DOUBLE)
        """#,
        #"""
        CREATE TABLE "redeem_failure" ("user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "at_ms" INTEGER NOT NULL)
        """#,
        #"""
        CREATE TABLE "upload_cursor" ("device_id" INTEGER NOT NULL REFERENCES "device"("id") ON DELETE CASCADE, "server" TEXT NOT NULL, "sent_ms" INTEGER NOT NULL, PRIMARY KEY ("device_id", "server"))
        """#,
        #"""
        CREATE TABLE "device_message" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "device_id" INTEGER NOT NULL REFERENCES "device"("id") ON DELETE CASCADE, "received_ms" INTEGER NOT NULL, "type" TEXT NOT NULL, "body" TEXT NOT NULL)
        """#,
        #"""
        CREATE TABLE "web_session" ("token_hash" TEXT PRIMARY KEY NOT NULL, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "csrf" TEXT NOT NULL, "expires_ms" INTEGER NOT NULL) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE "login_failure" ("key" TEXT NOT NULL, "at_ms" INTEGER NOT NULL)
        """#,
        #"""
        CREATE TABLE "store_copy" ("source" TEXT PRIMARY KEY NOT NULL, "started_ms" INTEGER NOT NULL, "finished_ms" INTEGER) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE "place" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "name" TEXT NOT NULL, "lat" DOUBLE NOT NULL, "lon" DOUBLE NOT NULL, "radius_m" DOUBLE NOT NULL, "polygon" TEXT, "source" TEXT NOT NULL, "created_ms" INTEGER NOT NULL, UNIQUE ("user_id", "name"))
        """#,
        #"""
        CREATE TABLE "event" (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
            device_id INTEGER NOT NULL REFERENCES device(id) ON DELETE CASCADE,
            t INTEGER NOT NULL, type TEXT NOT NULL, place TEXT NOT NULL DEFAULT '',
            tag TEXT NOT NULL DEFAULT '', lat DOUBLE, lon DOUBLE, text TEXT,
            details TEXT NOT NULL DEFAULT '{}',
            UNIQUE (user_id, device_id, t, type, place, tag))
        """#,
        #"""
        CREATE TABLE "cue" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "text" TEXT NOT NULL, "place" TEXT NOT NULL, "moment" TEXT NOT NULL, "once" BOOLEAN NOT NULL, "fired_ms" INTEGER, "created_ms" INTEGER NOT NULL)
        """#,
        #"""
        CREATE TABLE "task" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "text" TEXT NOT NULL, "due_ms" INTEGER, "rule" TEXT NOT NULL, "time_zone" TEXT NOT NULL, "fired_ms" INTEGER, "done_ms" INTEGER, "created_ms" INTEGER NOT NULL)
        """#,
        #"""
        CREATE TABLE "alert" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "types" TEXT NOT NULL, "place" TEXT, "device" TEXT, "quiet" TEXT, "cooldown_s" DOUBLE NOT NULL, "channel" TEXT NOT NULL, "target" TEXT NOT NULL, "secret" TEXT, "last_ms" INTEGER, "created_ms" INTEGER NOT NULL)
        """#,
        #"""
        CREATE TABLE "outbox" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "alert_id" INTEGER NOT NULL REFERENCES "alert"("id") ON DELETE CASCADE, "key" TEXT NOT NULL, "payload" TEXT NOT NULL, "created_ms" INTEGER NOT NULL, "next_ms" INTEGER NOT NULL, "attempts" INTEGER NOT NULL DEFAULT 0, "last_error" TEXT, "delivered_ms" INTEGER, "dropped" TEXT, UNIQUE ("alert_id", "key"))
        """#,
        #"""
        CREATE TABLE "record_condition" ("record_id" INTEGER NOT NULL REFERENCES "record"("id") ON DELETE CASCADE, "key" TEXT NOT NULL, "text" TEXT, "number" DOUBLE, "source" TEXT NOT NULL, PRIMARY KEY ("record_id", "key")) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE "day_summary" ("user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "day" TEXT NOT NULL, "text" TEXT NOT NULL, "updated_ms" INTEGER NOT NULL, PRIMARY KEY ("user_id", "day")) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE "weather_reading" ("user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "t" INTEGER NOT NULL, "device_id" INTEGER NOT NULL DEFAULT 0, "temperature_c" DOUBLE, "pressure_hpa" DOUBLE, "wind_speed_ms" DOUBLE, "wind_dir_deg" DOUBLE, "cloud_pct" DOUBLE, PRIMARY KEY ("user_id", "t", "device_id")) WITHOUT ROWID
        """#,
        #"""
        CREATE TABLE "import" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "user_id" INTEGER NOT NULL REFERENCES "user"("id") ON DELETE CASCADE, "sha256" TEXT NOT NULL, "name" TEXT NOT NULL, "bytes" INTEGER NOT NULL, "imported_ms" INTEGER NOT NULL, "points" INTEGER NOT NULL, "start_ms" INTEGER, "end_ms" INTEGER, UNIQUE ("user_id", "sha256"))
        """#,
        #"""
        CREATE TABLE account_preference (
            user_id INTEGER PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE,
            time_zone TEXT,
            units TEXT
        )
        """#,
        #"""
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
        """#,
        #"""
        CREATE TABLE found_place (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
            lat REAL NOT NULL,
            lon REAL NOT NULL,
            name TEXT,
            address TEXT,
            suggestion TEXT,
            created_ms INTEGER NOT NULL
        , number INTEGER NOT NULL DEFAULT 0)
        """#,
        #"""
        CREATE TABLE movement_correction (
            id INTEGER PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES user(id) ON DELETE CASCADE,
            at_ms INTEGER NOT NULL,
            kind TEXT NOT NULL,
            value TEXT NOT NULL,
            created_ms INTEGER NOT NULL,
            UNIQUE (user_id, kind, at_ms)
        )
        """#,
        #"""
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
        )
        """#,
        #"""
        CREATE TABLE timeline_state (
            user_id INTEGER PRIMARY KEY REFERENCES user(id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            rules TEXT NOT NULL,
            through_ms INTEGER NOT NULL,
            made_ms INTEGER NOT NULL
        )
        """#,
        #"""
        CREATE INDEX "record_on_t" ON "record"("t")
        """#,
        #"""
        CREATE INDEX "note_on_record_id" ON "note"("record_id")
        """#,
        #"""
        CREATE INDEX "record_photo_on_sha256" ON "record_photo"("sha256")
        """#,
        #"""
        CREATE INDEX "ride_on_device_start" ON "ride"("device_id", "start_ms")
        """#,
        #"""
        CREATE INDEX "segment_on_device_start" ON "segment"("device_id", "start_ms")
        """#,
        #"""
        CREATE UNIQUE INDEX record_of_point ON record(device_id, t) WHERE manual = 0
        """#,
        #"""
        CREATE UNIQUE INDEX device_by_token ON device(token_hash) WHERE token_hash IS NOT NULL
        """#,
        #"""
        CREATE INDEX "redeem_failure_on_user_id" ON "redeem_failure"("user_id")
        """#,
        #"""
        CREATE INDEX "device_message_on_device_id" ON "device_message"("device_id")
        """#,
        #"""
        CREATE INDEX "web_session_on_user_id" ON "web_session"("user_id")
        """#,
        #"""
        CREATE INDEX "login_failure_on_key" ON "login_failure"("key", "at_ms")
        """#,
        #"""
        CREATE INDEX "login_failure_on_time" ON "login_failure"("at_ms")
        """#,
        #"""
        CREATE INDEX event_on_time ON event (t)
        """#,
        #"""
        CREATE INDEX event_on_user ON event (user_id, t)
        """#,
        #"""
        CREATE INDEX "outbox_due" ON "outbox"("next_ms") WHERE ("delivered_ms" IS NULL) AND ("dropped" IS NULL)
        """#,
        #"""
        CREATE INDEX record_on_user_t ON record (user_id, t)
        """#,
        #"""
        CREATE INDEX "segment_on_ride" ON "segment"("ride_id")
        """#,
        #"""
        CREATE INDEX "gazetteer_on_cell" ON "gazetteer"("cell")
        """#,
        #"""
        CREATE INDEX "found_place_on_user" ON "found_place"("user_id")
        """#,
        #"""
        CREATE UNIQUE INDEX found_place_on_number ON found_place (user_id, number)
        """#,
        #"""
        CREATE INDEX timeline_entry_on_start ON timeline_entry (user_id, start_ms)
        """#,
    ]
    static let sequences: [(table: String, seq: Int64)] = [
        ("event", 0),
        ("user", 1),
    ]
}
