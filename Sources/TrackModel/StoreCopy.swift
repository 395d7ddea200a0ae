import Foundation

/// What `trailbook store copy` moves from one store to another, table by table with every id
/// kept (ride, record and note ids are what users type). Each store maps these tables onto its
/// own (SQLite's `user`, `grant` and `point`; PostgreSQL's `account`, `share_grant` and
/// `position`). Left out: what only lasts minutes (failed logins, recorder heartbeats) and what a
/// store derives (PostgreSQL's latest positions).
public enum StoreCopy {
    public enum Kind: Sendable { case int, double, text, bool }

    public struct Column: Sendable {
        public let name: String
        public let kind: Kind
    }

    /// A table in copy order (what a row refers to comes first); rows go in `key` order, so an
    /// interrupted copy continues after the destination's last key.
    public struct Table: Sendable, CustomStringConvertible {
        public let name: String
        public let columns: [Column]
        /// The columns of the key, a prefix of `columns`.
        public let keyCount: Int
        public var description: String { name }
        public var key: ArraySlice<Column> { columns.prefix(keyCount) }
    }

    /// A value as both stores hold it (booleans as 0 and 1).
    public enum Value: Sendable, Equatable {
        case null
        case int(Int64)
        case double(Double)
        case text(String)
    }

    static func table(_ name: String, key: Int = 1, _ columns: [(String, Kind)]) -> Table {
        Table(name: name, columns: columns.map { Column(name: $0.0, kind: $0.1) }, keyCount: key)
    }

    public static let tables: [Table] = [
        table(
            "account", [("id", .int), ("name", .text), ("created_ms", .int), ("password_hash", .text)]),
        table("account_preference", [("user_id", .int), ("time_zone", .text), ("units", .text)]),
        table(
            "device",
            [
                ("id", .int), ("user_id", .int), ("name", .text), ("created_ms", .int), ("token_hash", .text),
                ("revoked_ms", .int),
            ]),
        table(
            "import",
            [
                ("id", .int), ("user_id", .int), ("sha256", .text), ("name", .text), ("bytes", .int),
                ("imported_ms", .int), ("points", .int), ("start_ms", .int), ("end_ms", .int),
            ]),
        table(
            "ride", [("id", .int), ("device_id", .int), ("start_ms", .int), ("end_ms", .int), ("point_count", .int)]),
        table(
            "segment",
            [
                ("id", .int), ("ride_id", .int), ("device_id", .int), ("start_ms", .int), ("end_ms", .int),
                ("point_count", .int),
            ]),
        table("drop_count", key: 2, [("ride_id", .int), ("reason", .text), ("count", .int)]),
        table(
            "position", key: 2,
            [
                ("device_id", .int), ("t", .int), ("lat", .int), ("lon", .int), ("alt", .int), ("speed", .int),
                ("track", .int), ("hdop", .int), ("mode_sats", .int), ("sensors", .int), ("import_id", .int),
            ]),
        table(
            "record",
            [
                ("id", .int), ("t", .int), ("lat", .int), ("lon", .int), ("alt", .int), ("manual", .bool),
                ("created_ms", .int), ("device_id", .int), ("user_id", .int),
            ]),
        table(
            "note", [("id", .int), ("record_id", .int), ("text", .text), ("created_ms", .int), ("updated_ms", .int)]),
        table("photo", [("sha256", .text), ("file", .text), ("bytes", .int), ("taken_ms", .int), ("name", .text)]),
        table("record_photo", key: 2, [("record_id", .int), ("sha256", .text)]),
        table("field", key: 2, [("record_id", .int), ("key", .text), ("text", .text), ("number", .double)]),
        table(
            "record_condition", key: 2,
            [("record_id", .int), ("key", .text), ("text", .text), ("number", .double), ("source", .text)]),
        table(
            "weather_reading", key: 3,
            [
                ("user_id", .int), ("t", .int), ("device_id", .int), ("temperature_c", .double),
                ("pressure_hpa", .double),
                ("wind_speed_ms", .double),
                ("wind_dir_deg", .double), ("cloud_pct", .double),
            ]),
        table("day_summary", key: 2, [("user_id", .int), ("day", .text), ("text", .text), ("updated_ms", .int)]),
        table("pause_switch", [("user_id", .int), ("paused_until_ms", .int)]),
        table(
            "share_code",
            [
                ("id", .int), ("owner_id", .int), ("code_hash", .text), ("scopes", .text), ("history_hours", .int),
                ("expires_ms", .int),
            ]),
        table(
            "share_grant", key: 2,
            [
                ("owner_id", .int), ("viewer_id", .int), ("scopes", .text), ("history_hours", .int),
                ("created_ms", .int), ("paused", .bool), ("expires_ms", .int),
            ]),
        table("device_state", [("device_id", .int), ("at_ms", .int), ("battery", .double), ("accuracy", .double)]),
        table("upload_cursor", key: 2, [("device_id", .int), ("server", .text), ("sent_ms", .int)]),
        table(
            "device_message",
            [("id", .int), ("device_id", .int), ("received_ms", .int), ("type", .text), ("body", .text)]),
        table("web_session", [("token_hash", .text), ("user_id", .int), ("csrf", .text), ("expires_ms", .int)]),
        table(
            "place",
            [
                ("id", .int), ("user_id", .int), ("name", .text), ("lat", .double), ("lon", .double),
                ("radius_m", .double), ("polygon", .text), ("source", .text), ("created_ms", .int),
            ]),
        table(
            "event",
            [
                ("id", .int), ("user_id", .int), ("device_id", .int), ("t", .int), ("type", .text), ("place", .text),
                ("tag", .text), ("lat", .double), ("lon", .double), ("text", .text), ("details", .text),
            ]),
        table(
            "cue",
            [
                ("id", .int), ("user_id", .int), ("text", .text), ("place", .text), ("moment", .text), ("once", .bool),
                ("fired_ms", .int), ("created_ms", .int),
            ]),
        table(
            "task",
            [
                ("id", .int), ("user_id", .int), ("text", .text), ("due_ms", .int), ("rule", .text),
                ("time_zone", .text), ("fired_ms", .int), ("done_ms", .int), ("created_ms", .int),
            ]),
        table(
            "alert",
            [
                ("id", .int), ("user_id", .int), ("types", .text), ("place", .text), ("device", .text),
                ("quiet", .text), ("cooldown_s", .double), ("channel", .text), ("target", .text), ("secret", .text),
                ("last_ms", .int), ("created_ms", .int),
            ]),
        table(
            "outbox",
            [
                ("id", .int), ("alert_id", .int), ("key", .text), ("payload", .text), ("created_ms", .int),
                ("next_ms", .int), ("attempts", .int), ("last_error", .text), ("delivered_ms", .int),
                ("dropped", .text),
            ]),
        table(
            "gazetteer",
            [
                ("id", .int), ("name", .text), ("lat", .double), ("lon", .double), ("cell", .int), ("country", .text),
                ("admin1", .text), ("population", .int), ("zone", .text),
            ]),
        table(
            "found_place",
            [
                ("id", .int), ("user_id", .int), ("lat", .double), ("lon", .double), ("name", .text),
                ("address", .text), ("suggestion", .text), ("created_ms", .int), ("number", .int),
            ]),
        table(
            "movement_correction",
            [
                ("id", .int), ("user_id", .int), ("at_ms", .int), ("kind", .text), ("value", .text),
                ("created_ms", .int),
            ]),
        // The kept timeline, with its ids (the ids the day's entries are named by).
        table(
            "timeline_entry",
            [
                ("id", .int), ("user_id", .int), ("kind", .text), ("start_ms", .int), ("end_ms", .int),
                ("lat", .double), ("lon", .double), ("to_lat", .double), ("to_lon", .double), ("spread", .double),
                ("fixes", .int), ("ongoing", .bool), ("distance", .double), ("moving_s", .double),
                ("median_speed", .double), ("high_speed", .double), ("mode", .text), ("mode_from", .text),
            ]),
        table(
            "timeline_state",
            [("user_id", .int), ("version", .int), ("rules", .text), ("through_ms", .int), ("made_ms", .int)]),
    ]
}

extension StoreCopy {
    /// How a table's rows belong to an account, for the copy of one account (`store copy
    /// --user`, the web app's archive).
    public enum Owner: Sendable, Equatable {
        /// The account's own row (`id`).
        case id
        /// A column that holds the account's id.
        case column(String)
        /// Through `device_id`, `ride_id`, `record_id` or `alert_id`.
        case device, ride, record, alert
        /// A photo one of the account's records shows.
        case photo
        /// Not part of one account: a share grant (it names another account), a share code, a
        /// browser session.
        case none
    }

    public static func owner(of table: Table) -> Owner {
        switch table.name {
        case "account": return .id
        case "ride", "segment", "position", "device_state", "upload_cursor", "device_message": return .device
        case "drop_count": return .ride
        case "note", "record_photo", "field", "record_condition": return .record
        case "outbox": return .alert
        case "photo": return .photo
        case "share_code", "share_grant", "web_session", "gazetteer": return .none
        default: return .column("user_id")
        }
    }

    /// The SQL condition that keeps the rows of `table` that belong to the account `account`
    /// (nil: the table is not part of one account); `name` gives a store's name of a table,
    /// `deviceColumn` the expression of a row's device.
    public static func condition(
        _ table: Table, account: Int64, name: (String) -> String, deviceColumn: String = "\"device_id\""
    ) -> String? {
        let records = "SELECT id FROM \(name("record")) WHERE user_id = \(account)"
        switch owner(of: table) {
        case .id: return "\"id\" = \(account)"
        case .column(let column): return "\"\(column)\" = \(account)"
        case .device: return "\(deviceColumn) IN (SELECT id FROM \(name("device")) WHERE user_id = \(account))"
        case .ride:
            return "\"ride_id\" IN (SELECT r.id FROM \(name("ride")) r JOIN \(name("device")) d ON d.id = r.device_id "
                + "WHERE d.user_id = \(account))"
        case .record: return "\"record_id\" IN (\(records))"
        case .alert: return "\"alert_id\" IN (SELECT id FROM \(name("alert")) WHERE user_id = \(account))"
        case .photo: return "\"sha256\" IN (SELECT sha256 FROM \(name("record_photo")) WHERE record_id IN (\(records)))"
        case .none: return nil
        }
    }
}

/// A store's side of `trailbook store copy`: its tables as ``StoreCopy`` names them.
public protocol StoreCopying: TrackStoring {
    /// How many rows `table` has (of the account whose id is `account`, when given).
    func copyCount(_ table: StoreCopy.Table, account: Int64?) throws -> Int
    /// Up to `limit` rows of `table` after the key `after` (from the first when nil), in key
    /// order, with the table's columns in its order; of the account whose id is `account`, when
    /// given (none of a table that is not part of one account).
    func copyRows(_ table: StoreCopy.Table, after: [StoreCopy.Value]?, limit: Int, account: Int64?) throws
        -> [[StoreCopy.Value]]
    /// The id of the account `name`; nil when there is none.
    func copyAccountID(_ name: String) throws -> Int64?
    /// The key of the last row in key order; nil when the table is empty.
    func copyLastKey(_ table: StoreCopy.Table) throws -> [StoreCopy.Value]?
    /// Inserts rows in one transaction; a row whose key is there already is left as it is.
    func copyInsert(_ table: StoreCopy.Table, rows: [[StoreCopy.Value]]) throws
    /// After the rows: what the store derives from them (id sequences, latest positions).
    func copyFinish() throws
    /// Whether the store holds nothing a copy would overwrite (no devices, records, day
    /// summaries); if so, the accounts a new store makes by itself (the local `me`) go, so that
    /// the source's ids fit. False, and nothing changed, when it holds something.
    func copyEmptyDestination() throws -> Bool
    /// The copy this store is the destination of: its source and whether it finished.
    func copyMarker() throws -> (source: String, finished: Bool)?
    func setCopyMarker(source: String, finished: Bool) throws
}

extension StoreCopying {
    public func copyCount(_ table: StoreCopy.Table) throws -> Int { try copyCount(table, account: nil) }

    public func copyRows(_ table: StoreCopy.Table, after: [StoreCopy.Value]?, limit: Int) throws
        -> [[StoreCopy.Value]]
    {
        try copyRows(table, after: after, limit: limit, account: nil)
    }
}
