import Foundation
import PostgresNIO

/// The PostgreSQL store's schema as numbered migrations, each a list of statements run in one
/// transaction. A migration is frozen once it has landed: changes come as new migrations.
///
/// The tables are those of the SQLite store (same names and columns, so `store copy` maps them
/// one to one), except: `account` for SQLite's `user` and `share_grant` for `grant` (reserved
/// words here); positions in `position`, keyed by (device, time) and partitioned by month on
/// the time; `latest_position`, each device's newest position, written in the same transaction.
enum PostgresSchema {
    struct Migration {
        var name: String
        var statements: [String]
    }

    /// The advisory lock a process holds while it migrates: a second process waits for it.
    static let migrationLock: Int64 = 0x7472_6169_6c62_0001

    static let migrations: [Migration] = [
        Migration(
            name: "p1-initial",
            statements: [
                """
                CREATE TABLE account (
                    id bigserial PRIMARY KEY,
                    name text NOT NULL UNIQUE,
                    created_ms bigint NOT NULL,
                    password_hash text
                )
                """,
                """
                CREATE TABLE device (
                    id bigserial PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    name text NOT NULL,
                    created_ms bigint NOT NULL,
                    token_hash text,
                    revoked_ms bigint,
                    UNIQUE (user_id, name)
                )
                """,
                "CREATE UNIQUE INDEX device_by_token ON device (token_hash) WHERE token_hash IS NOT NULL",
                """
                CREATE TABLE ride (
                    id bigserial PRIMARY KEY,
                    device_id bigint NOT NULL REFERENCES device ON DELETE CASCADE,
                    start_ms bigint NOT NULL,
                    end_ms bigint NOT NULL,
                    point_count integer NOT NULL DEFAULT 0,
                    CHECK (end_ms >= start_ms)
                )
                """,
                "CREATE INDEX ride_on_device_start ON ride (device_id, start_ms)",
                """
                CREATE TABLE segment (
                    id bigserial PRIMARY KEY,
                    ride_id bigint NOT NULL REFERENCES ride ON DELETE CASCADE,
                    device_id bigint NOT NULL REFERENCES device ON DELETE CASCADE,
                    start_ms bigint NOT NULL,
                    end_ms bigint NOT NULL,
                    point_count integer NOT NULL DEFAULT 0,
                    CHECK (end_ms >= start_ms)
                )
                """,
                "CREATE INDEX segment_on_device_start ON segment (device_id, start_ms)",
                "CREATE INDEX segment_on_ride ON segment (ride_id)",
                """
                CREATE TABLE drop_count (
                    ride_id bigint NOT NULL REFERENCES ride ON DELETE CASCADE,
                    reason text NOT NULL,
                    count integer NOT NULL,
                    PRIMARY KEY (ride_id, reason)
                )
                """,
                """
                CREATE TABLE import (
                    id bigserial PRIMARY KEY,
                    sha256 text NOT NULL UNIQUE,
                    name text NOT NULL,
                    bytes bigint NOT NULL,
                    imported_ms bigint NOT NULL,
                    points integer NOT NULL,
                    start_ms bigint,
                    end_ms bigint
                )
                """,
                // Positions: ms since 1970 UTC; 1e-7 degrees; centimetres, cm/s, hundredths of a
                // degree and of HDOP; mode + 4 × satellites. The key (device, time) is a B-tree
                // read forwards for a device's day and backwards for its latest positions. No
                // foreign key: a device's rows go with it explicitly, and ingestion saves a lookup.
                """
                CREATE TABLE position (
                    device_id bigint NOT NULL,
                    t bigint NOT NULL,
                    lat integer NOT NULL,
                    lon integer NOT NULL,
                    alt bigint,
                    speed bigint,
                    track bigint,
                    hdop bigint,
                    mode_sats integer NOT NULL,
                    import_id bigint,
                    PRIMARY KEY (device_id, t)
                ) PARTITION BY RANGE (t)
                """,
                """
                CREATE TABLE latest_position (
                    device_id bigint PRIMARY KEY REFERENCES device ON DELETE CASCADE,
                    t bigint NOT NULL,
                    lat integer NOT NULL,
                    lon integer NOT NULL,
                    alt bigint,
                    speed bigint,
                    track bigint,
                    hdop bigint,
                    mode_sats integer NOT NULL
                )
                """,
                """
                CREATE TABLE record (
                    id bigserial PRIMARY KEY,
                    t bigint NOT NULL,
                    lat integer NOT NULL,
                    lon integer NOT NULL,
                    alt bigint,
                    manual boolean NOT NULL,
                    created_ms bigint NOT NULL,
                    device_id bigint REFERENCES device ON DELETE CASCADE
                )
                """,
                "CREATE INDEX record_on_t ON record (t)",
                "CREATE UNIQUE INDEX record_of_point ON record (device_id, t) WHERE NOT manual",
                """
                CREATE TABLE note (
                    id bigserial PRIMARY KEY,
                    record_id bigint NOT NULL REFERENCES record ON DELETE CASCADE,
                    text text NOT NULL,
                    created_ms bigint NOT NULL,
                    updated_ms bigint NOT NULL
                )
                """,
                "CREATE INDEX note_on_record ON note (record_id)",
                """
                CREATE TABLE photo (
                    sha256 text PRIMARY KEY,
                    file text NOT NULL,
                    bytes bigint NOT NULL,
                    taken_ms bigint,
                    name text NOT NULL
                )
                """,
                """
                CREATE TABLE record_photo (
                    record_id bigint NOT NULL REFERENCES record ON DELETE CASCADE,
                    sha256 text NOT NULL REFERENCES photo,
                    PRIMARY KEY (record_id, sha256)
                )
                """,
                "CREATE INDEX record_photo_on_sha256 ON record_photo (sha256)",
                """
                CREATE TABLE field (
                    record_id bigint NOT NULL REFERENCES record ON DELETE CASCADE,
                    key text NOT NULL,
                    text text,
                    number double precision,
                    PRIMARY KEY (record_id, key)
                )
                """,
                "CREATE TABLE day_summary (day text PRIMARY KEY, text text NOT NULL, updated_ms bigint NOT NULL)",
                """
                CREATE TABLE pause_switch (
                    user_id bigint PRIMARY KEY REFERENCES account ON DELETE CASCADE,
                    paused_until_ms bigint NOT NULL
                )
                """,
                """
                CREATE TABLE recorder (
                    device_id bigint PRIMARY KEY REFERENCES device ON DELETE CASCADE,
                    pid integer NOT NULL,
                    source text NOT NULL,
                    started_ms bigint NOT NULL,
                    heartbeat_ms bigint NOT NULL,
                    last_fix_ms bigint,
                    last_fix_seen_ms bigint,
                    paused boolean NOT NULL
                )
                """,
                """
                CREATE TABLE share_code (
                    id bigserial PRIMARY KEY,
                    owner_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    code_hash text NOT NULL UNIQUE,
                    scopes text NOT NULL,
                    history_hours integer NOT NULL,
                    expires_ms bigint NOT NULL
                )
                """,
                """
                CREATE TABLE share_grant (
                    owner_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    viewer_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    scopes text NOT NULL,
                    history_hours integer NOT NULL,
                    created_ms bigint NOT NULL,
                    paused boolean NOT NULL DEFAULT false,
                    expires_ms bigint,
                    PRIMARY KEY (owner_id, viewer_id)
                )
                """,
                "CREATE INDEX share_grant_on_viewer ON share_grant (viewer_id)",
                """
                CREATE TABLE device_state (
                    device_id bigint PRIMARY KEY REFERENCES device ON DELETE CASCADE,
                    at_ms bigint NOT NULL,
                    battery double precision,
                    accuracy double precision
                )
                """,
                """
                CREATE TABLE redeem_failure (
                    user_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    at_ms bigint NOT NULL
                )
                """,
                "CREATE INDEX redeem_failure_on_user ON redeem_failure (user_id, at_ms)",
                """
                CREATE TABLE upload_cursor (
                    device_id bigint NOT NULL REFERENCES device ON DELETE CASCADE,
                    server text NOT NULL,
                    sent_ms bigint NOT NULL,
                    PRIMARY KEY (device_id, server)
                )
                """,
                """
                CREATE TABLE device_message (
                    id bigserial PRIMARY KEY,
                    device_id bigint NOT NULL REFERENCES device ON DELETE CASCADE,
                    received_ms bigint NOT NULL,
                    type text NOT NULL,
                    body text NOT NULL
                )
                """,
                "CREATE INDEX device_message_on_device ON device_message (device_id)",
            ]),
        Migration(
            name: "p2-sessions",
            statements: [
                """
                CREATE TABLE web_session (
                    token_hash text PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    csrf text NOT NULL,
                    expires_ms bigint NOT NULL
                )
                """,
                "CREATE INDEX web_session_on_user ON web_session (user_id)",
                "CREATE INDEX web_session_on_expiry ON web_session (expires_ms)",
                "CREATE TABLE login_failure (key text NOT NULL, at_ms bigint NOT NULL)",
                "CREATE INDEX login_failure_on_key ON login_failure (key, at_ms)",
                "CREATE INDEX login_failure_on_time ON login_failure (at_ms)",
            ]),
        Migration(
            name: "p3-store-copy",
            statements: [
                "CREATE TABLE store_copy (source text PRIMARY KEY, started_ms bigint NOT NULL, finished_ms bigint)"
            ]),
        Migration(
            name: "p4-places-events",
            statements: [
                """
                CREATE TABLE place (
                    id bigserial PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    name text NOT NULL,
                    lat double precision NOT NULL,
                    lon double precision NOT NULL,
                    radius_m double precision NOT NULL,
                    polygon text,
                    source text NOT NULL,
                    created_ms bigint NOT NULL,
                    UNIQUE (user_id, name)
                )
                """,
                """
                CREATE TABLE event (
                    id bigserial PRIMARY KEY,
                    device_id bigint NOT NULL REFERENCES device ON DELETE CASCADE,
                    t bigint NOT NULL,
                    type text NOT NULL,
                    place text NOT NULL DEFAULT '',
                    lat double precision,
                    lon double precision,
                    text text,
                    details text NOT NULL DEFAULT '{}',
                    UNIQUE (device_id, t, type, place)
                )
                """,
                "CREATE INDEX event_on_time ON event (t)",
            ]),
        Migration(
            name: "p5-cues-tasks-alerts",
            statements: [
                "ALTER TABLE event ADD COLUMN user_id bigint REFERENCES account ON DELETE CASCADE",
                "UPDATE event e SET user_id = d.user_id FROM device d WHERE d.id = e.device_id",
                "ALTER TABLE event ALTER COLUMN user_id SET NOT NULL",
                "ALTER TABLE event ADD COLUMN tag text NOT NULL DEFAULT ''",
                "ALTER TABLE event DROP CONSTRAINT event_device_id_t_type_place_key",
                "ALTER TABLE event ADD CONSTRAINT event_once UNIQUE (user_id, device_id, t, type, place, tag)",
                "CREATE INDEX event_on_user ON event (user_id, t)",
                """
                CREATE TABLE cue (
                    id bigserial PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    text text NOT NULL,
                    place text NOT NULL,
                    moment text NOT NULL,
                    once boolean NOT NULL,
                    fired_ms bigint,
                    created_ms bigint NOT NULL
                )
                """,
                """
                CREATE TABLE task (
                    id bigserial PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    text text NOT NULL,
                    due_ms bigint,
                    rule text NOT NULL,
                    time_zone text NOT NULL,
                    fired_ms bigint,
                    done_ms bigint,
                    created_ms bigint NOT NULL
                )
                """,
                """
                CREATE TABLE alert (
                    id bigserial PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    types text NOT NULL,
                    place text,
                    device text,
                    quiet text,
                    cooldown_s double precision NOT NULL,
                    channel text NOT NULL,
                    target text NOT NULL,
                    secret text,
                    last_ms bigint,
                    created_ms bigint NOT NULL
                )
                """,
                """
                CREATE TABLE outbox (
                    id bigserial PRIMARY KEY,
                    alert_id bigint NOT NULL REFERENCES alert ON DELETE CASCADE,
                    key text NOT NULL,
                    payload text NOT NULL,
                    created_ms bigint NOT NULL,
                    next_ms bigint NOT NULL,
                    attempts bigint NOT NULL DEFAULT 0,
                    last_error text,
                    delivered_ms bigint,
                    dropped text,
                    UNIQUE (alert_id, key)
                )
                """,
                "CREATE INDEX outbox_due ON outbox (next_ms) WHERE delivered_ms IS NULL AND dropped IS NULL",
            ]),
        Migration(
            name: "p6-record-conditions",
            statements: [
                """
                CREATE TABLE record_condition (
                    record_id bigint NOT NULL REFERENCES record ON DELETE CASCADE,
                    key text NOT NULL,
                    text text,
                    number double precision,
                    source text NOT NULL,
                    PRIMARY KEY (record_id, key)
                )
                """
            ]),
        Migration(
            name: "p7-weather-readings",
            statements: [
                """
                CREATE TABLE weather_reading (
                    t bigint NOT NULL,
                    device_id bigint NOT NULL DEFAULT 0,
                    temperature_c double precision,
                    pressure_hpa double precision,
                    wind_speed_ms double precision,
                    wind_dir_deg double precision,
                    cloud_pct double precision,
                    PRIMARY KEY (t, device_id)
                )
                """
            ]),
        // Every account has its own diary: records, day summaries and weather readings carry
        // their account. What was there is the local user's (made if missing), or the account of
        // the record's device.
        Migration(
            name: "p8-diary-accounts",
            statements: [
                """
                INSERT INTO account (name, created_ms)
                SELECT 'me', (extract(epoch FROM now()) * 1000)::bigint
                WHERE EXISTS (SELECT 1 FROM record WHERE device_id IS NULL) OR EXISTS (SELECT 1 FROM day_summary)
                   OR EXISTS (SELECT 1 FROM weather_reading WHERE device_id = 0)
                ON CONFLICT (name) DO NOTHING
                """,
                "ALTER TABLE record ADD COLUMN user_id bigint REFERENCES account ON DELETE CASCADE",
                """
                UPDATE record r SET user_id = coalesce(
                    (SELECT d.user_id FROM device d WHERE d.id = r.device_id), (SELECT id FROM account WHERE name = 'me'))
                """,
                "ALTER TABLE record ALTER COLUMN user_id SET NOT NULL",
                "CREATE INDEX record_on_user_t ON record (user_id, t)",
                "ALTER TABLE day_summary ADD COLUMN user_id bigint REFERENCES account ON DELETE CASCADE",
                "UPDATE day_summary SET user_id = (SELECT id FROM account WHERE name = 'me')",
                "ALTER TABLE day_summary ALTER COLUMN user_id SET NOT NULL",
                "ALTER TABLE day_summary DROP CONSTRAINT day_summary_pkey",
                "ALTER TABLE day_summary ADD PRIMARY KEY (user_id, day)",
                "ALTER TABLE weather_reading ADD COLUMN user_id bigint REFERENCES account ON DELETE CASCADE",
                """
                UPDATE weather_reading w SET user_id = coalesce(
                    (SELECT d.user_id FROM device d WHERE d.id = w.device_id), (SELECT id FROM account WHERE name = 'me'))
                """,
                "ALTER TABLE weather_reading ALTER COLUMN user_id SET NOT NULL",
                "ALTER TABLE weather_reading DROP CONSTRAINT weather_reading_pkey",
                "ALTER TABLE weather_reading ADD PRIMARY KEY (user_id, t, device_id)",
            ]),
        // Each account's imports are its own (the same file imported by two accounts is stored
        // for each). An earlier import is the account of the device its positions went to, else
        // the local user's (made if missing).
        Migration(
            name: "p9-import-accounts",
            statements: [
                """
                INSERT INTO account (name, created_ms)
                SELECT 'me', (extract(epoch FROM now()) * 1000)::bigint WHERE EXISTS (SELECT 1 FROM import)
                ON CONFLICT (name) DO NOTHING
                """,
                "ALTER TABLE import ADD COLUMN user_id bigint REFERENCES account ON DELETE CASCADE",
                """
                UPDATE import i SET user_id = coalesce(
                    (SELECT d.user_id FROM position p JOIN device d ON d.id = p.device_id
                     WHERE p.import_id = i.id AND p.t >= i.start_ms AND p.t <= i.end_ms LIMIT 1),
                    (SELECT id FROM account WHERE name = 'me'))
                """,
                "ALTER TABLE import ALTER COLUMN user_id SET NOT NULL",
                "ALTER TABLE import DROP CONSTRAINT import_sha256_key",
                "ALTER TABLE import ADD UNIQUE (user_id, sha256)",
            ]),
        // What a bike computer measured beside each position (heart rate, cadence, power,
        // temperature), packed in one integer as on SQLite (`Sensors.packed`); NULL without.
        Migration(
            name: "p10-position-sensors",
            statements: [
                "ALTER TABLE position ADD COLUMN sensors bigint",
                "ALTER TABLE latest_position ADD COLUMN sensors bigint",
            ]),
        // What an account chose over the server's configuration: its time zone and units.
        Migration(
            name: "p11-account-preferences",
            statements: [
                """
                CREATE TABLE account_preference (
                    user_id bigint PRIMARY KEY REFERENCES account ON DELETE CASCADE,
                    time_zone text,
                    units text
                )
                """
            ]),
        // The populated places of GeoNames' dumps the user loaded, by quarter-degree cell (as on
        // SQLite): what visits are named after. Shared by every account.
        Migration(
            name: "p12-gazetteer",
            statements: [
                """
                CREATE TABLE gazetteer (
                    id bigint PRIMARY KEY,
                    name text NOT NULL,
                    lat double precision NOT NULL,
                    lon double precision NOT NULL,
                    cell bigint NOT NULL,
                    country text NOT NULL,
                    admin1 text NOT NULL,
                    population bigint NOT NULL,
                    zone text NOT NULL
                )
                """,
                "CREATE INDEX gazetteer_on_cell ON gazetteer (cell)",
            ]),
        // The places visits made, remembered so their ids stay, and the user's corrections of a
        // trip's mode or a visit's place (as on SQLite).
        Migration(
            name: "p13-found-places",
            statements: [
                """
                CREATE TABLE found_place (
                    id bigserial PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    lat double precision NOT NULL,
                    lon double precision NOT NULL,
                    name text,
                    address text,
                    suggestion text,
                    created_ms bigint NOT NULL
                )
                """,
                "CREATE INDEX found_place_on_user ON found_place (user_id)",
                """
                CREATE TABLE movement_correction (
                    id bigserial PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    at_ms bigint NOT NULL,
                    kind text NOT NULL,
                    value text NOT NULL,
                    created_ms bigint NOT NULL,
                    UNIQUE (user_id, kind, at_ms)
                )
                """,
            ]),
        // The segments on either side of a device's point, read with a snapshot of their own: a
        // phone's insert calls it after the device's write lock is its own, in the same statement
        // (a volatile PL/pgSQL function takes a new snapshot for each query in READ COMMITTED; the
        // calling statement's was taken before it waited for the lock).
        Migration(
            name: "p14-segments-around",
            statements: [
                """
                CREATE FUNCTION segments_around(p_device bigint, p_t bigint)
                RETURNS TABLE (side integer, segment bigint, ride bigint, start_at bigint, end_at bigint)
                LANGUAGE plpgsql VOLATILE AS $$
                BEGIN
                    RETURN QUERY
                    (SELECT 0, s.id, s.ride_id, s.start_ms, s.end_ms FROM segment s
                     WHERE s.device_id = p_device AND s.start_ms <= p_t ORDER BY s.start_ms DESC LIMIT 1)
                    UNION ALL
                    (SELECT 1, s.id, s.ride_id, s.start_ms, s.end_ms FROM segment s
                     WHERE s.device_id = p_device AND s.start_ms > p_t ORDER BY s.start_ms LIMIT 1);
                END
                $$
                """
            ]),
        // A found place's number is its account's own (as on SQLite).
        Migration(
            name: "p15-found-place-numbers",
            statements: [
                "ALTER TABLE found_place ADD COLUMN number bigint NOT NULL DEFAULT 0",
                """
                UPDATE found_place SET number = n.number FROM (
                    SELECT id, row_number() OVER (PARTITION BY user_id ORDER BY id) AS number FROM found_place
                ) n WHERE n.id = found_place.id
                """,
                """
                UPDATE movement_correction c SET value = coalesce((
                    SELECT f.number::text FROM found_place f WHERE f.user_id = c.user_id AND f.id::text = c.value), '0')
                WHERE c.kind = 'place'
                """,
                "CREATE UNIQUE INDEX found_place_on_number ON found_place (user_id, number)",
            ]),
        // Each account's kept stays and moves (as on SQLite).
        Migration(
            name: "p16-kept-timeline",
            statements: [
                """
                CREATE TABLE timeline_entry (
                    id bigserial PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES account ON DELETE CASCADE,
                    kind text NOT NULL,
                    start_ms bigint NOT NULL,
                    end_ms bigint NOT NULL,
                    lat double precision NOT NULL,
                    lon double precision NOT NULL,
                    to_lat double precision NOT NULL,
                    to_lon double precision NOT NULL,
                    spread double precision NOT NULL,
                    fixes bigint NOT NULL,
                    ongoing boolean NOT NULL,
                    distance double precision NOT NULL,
                    moving_s double precision NOT NULL,
                    median_speed double precision NOT NULL,
                    high_speed double precision NOT NULL,
                    mode text,
                    mode_from text,
                    CHECK (end_ms >= start_ms)
                )
                """,
                "CREATE INDEX timeline_entry_on_start ON timeline_entry (user_id, start_ms)",
                """
                CREATE TABLE timeline_state (
                    user_id bigint PRIMARY KEY REFERENCES account ON DELETE CASCADE,
                    version bigint NOT NULL,
                    rules text NOT NULL,
                    through_ms bigint NOT NULL,
                    made_ms bigint NOT NULL
                )
                """,
            ]),
    ]

    /// Applies the migrations this database lacks, holding the migration lock (a second process
    /// opening the store waits for the first). Refuses a store with migrations this build does
    /// not know, and a database that holds another application's tables.
    static func migrate(_ session: Session, location: String, create: Bool) throws {
        try session.execute("SELECT pg_advisory_lock(\(migrationLock))")
        defer { _ = try? session.execute("SELECT pg_advisory_unlock(\(migrationLock))") }
        let hasTable =
            try session.value(
                "SELECT to_regclass('trailbook_migration') IS NOT NULL", as: Bool.self) ?? false
        if !hasTable {
            let tables = try session.values(
                "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename",
                as: String.self)
            if !tables.isEmpty {
                throw PostgresStoreError.notAStore(
                    location: location, reason: "it has tables \(tables.prefix(3).joined(separator: ", "))")
            }
            guard create else { throw PostgresStoreError.noStore(location: location) }
            try session.execute(
                "CREATE TABLE trailbook_migration (name text PRIMARY KEY, applied_ms bigint NOT NULL)")
        }
        let applied = Set(try session.values("SELECT name FROM trailbook_migration", as: String.self))
        let unknown = applied.subtracting(migrations.map(\.name))
        if !unknown.isEmpty { throw PostgresStoreError.newerSchema(location: location, unknown: unknown.sorted()) }
        for migration in migrations where !applied.contains(migration.name) {
            try session.execute("BEGIN")
            do {
                for statement in migration.statements { try session.execute(PostgresQuery(unsafeSQL: statement)) }
                let now = Int64((Date().timeIntervalSince1970 * 1000).rounded())
                try session.execute(
                    "INSERT INTO trailbook_migration (name, applied_ms) VALUES (\(migration.name), \(now))")
                try session.execute("COMMIT")
            } catch {
                _ = try? session.execute("ROLLBACK")
                throw error
            }
        }
    }
}
