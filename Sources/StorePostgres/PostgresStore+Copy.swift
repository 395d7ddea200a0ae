import Foundation
import GPSCore
import PostgresNIO
import TrackModel

/// The PostgreSQL store's side of `trailbook store copy` (its tables carry ``StoreCopy``'s names).
/// Text keys are ordered byte by byte (COLLATE "C"), as SQLite orders them, so that a copy
/// continues after the same key on both sides.
extension PostgresStore: StoreCopying {
    /// The tables whose `id` comes from a sequence.
    static let sequenced = [
        "account", "device", "import", "ride", "segment", "record", "note", "share_code", "device_message", "place",
        "event", "cue", "task", "alert", "outbox", "found_place", "movement_correction", "timeline_entry",
    ]

    static func ordered(_ column: StoreCopy.Column) -> String {
        column.kind == .text ? "\"\(column.name)\" COLLATE \"C\"" : "\"\(column.name)\""
    }

    static func cast(_ kind: StoreCopy.Kind) -> String {
        switch kind {
        case .int: return "bigint"
        case .double: return "double precision"
        case .text: return "text"
        case .bool: return "boolean"
        }
    }

    static func bind(_ value: StoreCopy.Value, _ kind: StoreCopy.Kind, into bindings: inout PostgresBindings) {
        switch (value, kind) {
        case (.null, _): bindings.appendNull()
        case (.int(let n), .bool): bindings.append(n != 0)
        case (.int(let n), .double): bindings.append(Double(n))
        case (.int(let n), _): bindings.append(n)
        case (.double(let d), _): bindings.append(d)
        case (.text(let s), _): bindings.append(s)
        }
    }

    /// The condition that keeps `account`'s rows of `table`: "" for every row, nil for none.
    static func accountCondition(_ table: StoreCopy.Table, _ account: Int64?) -> String? {
        guard let account else { return "" }
        return StoreCopy.condition(table, account: account, name: { $0 })
    }

    public func copyAccountID(_ name: String) throws -> Int64? {
        try session { session in try PostgresUnit.userID(session, name) }
    }

    public func copyCount(_ table: StoreCopy.Table, account: Int64?) throws -> Int {
        guard let condition = Self.accountCondition(table, account) else { return 0 }
        let sql = "SELECT count(*) FROM \(table.name)" + (condition.isEmpty ? "" : " WHERE \(condition)")
        return try session { try $0.value(PostgresQuery(unsafeSQL: sql), as: Int.self) ?? 0 }
    }

    public func copyRows(_ table: StoreCopy.Table, after: [StoreCopy.Value]?, limit: Int, account: Int64?) throws
        -> [[StoreCopy.Value]]
    {
        guard let condition = Self.accountCondition(table, account) else { return [] }
        let columns = table.columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let key = table.key.map(Self.ordered).joined(separator: ", ")
        var bindings = PostgresBindings()
        var sql = "SELECT \(columns) FROM \(table.name) WHERE true" + (condition.isEmpty ? "" : " AND \(condition)")
        if let after {
            let placeholders = zip(after, table.key).enumerated().map { i, pair in
                Self.bind(pair.0, pair.1.kind, into: &bindings)
                return "$\(i + 1)::\(Self.cast(pair.1.kind))" + (pair.1.kind == .text ? " COLLATE \"C\"" : "")
            }
            sql += " AND (\(key)) > (\(placeholders.joined(separator: ", ")))"
        }
        sql += " ORDER BY \(key) LIMIT \(limit)"
        return try session { session in
            try session.query(PostgresQuery(unsafeSQL: sql, binds: bindings)).map { row in
                try table.columns.enumerated().map { i, column -> StoreCopy.Value in
                    let cell = row[i]
                    guard cell.bytes != nil else { return .null }
                    switch column.kind {
                    case .int: return .int(try cell.decode(Int64.self))
                    case .bool: return .int(try cell.decode(Bool.self) ? 1 : 0)
                    case .double: return .double(try cell.decode(Double.self))
                    case .text: return .text(try cell.decode(String.self))
                    }
                }
            }
        }
    }

    public func copyLastKey(_ table: StoreCopy.Table) throws -> [StoreCopy.Value]? {
        let key = table.key.map(Self.ordered)
        let sql = """
            SELECT \(table.key.map { "\"\($0.name)\"" }.joined(separator: ", ")) FROM \(table.name)
            ORDER BY \(key.map { $0 + " DESC" }.joined(separator: ", ")) LIMIT 1
            """
        return try session { session in
            try session.query(PostgresQuery(unsafeSQL: sql)).first.map { row in
                try table.key.enumerated().map { i, column in
                    column.kind == .text ? .text(try row[i].decode(String.self)) : .int(try row[i].decode(Int64.self))
                }
            }
        }
    }

    public func copyInsert(_ table: StoreCopy.Table, rows: [[StoreCopy.Value]]) throws {
        guard !rows.isEmpty else { return }
        if table.name == "position" {
            let months = Set(rows.compactMap { if case .int(let t) = $0[1] { Self.month(of: t) } else { nil } })
            try writeUnit { try $0.ensurePartitions(months) }
            return try writeSession { session in try Self.insertPositions(session, rows) }
        }
        let columns = table.columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        let perStatement = 60_000 / table.columns.count
        try writeSession { session in
            var start = 0
            while start < rows.count {
                let chunk = rows[start..<min(start + perStatement, rows.count)]
                start = chunk.endIndex
                var bindings = PostgresBindings()
                var tuples: [String] = []
                for row in chunk {
                    var values: [String] = []
                    for (value, column) in zip(row, table.columns) {
                        Self.bind(value, column.kind, into: &bindings)
                        values.append("$\(bindings.count)::\(Self.cast(column.kind))")
                    }
                    tuples.append("(" + values.joined(separator: ", ") + ")")
                }
                try session.execute(
                    PostgresQuery(
                        unsafeSQL: "INSERT INTO \(table.name) (\(columns)) VALUES \(tuples.joined(separator: ", ")) "
                            + "ON CONFLICT DO NOTHING", binds: bindings))
            }
        }
    }

    /// Positions as arrays, one per column (a NULL travels as Int64.min): a few statements for a
    /// batch instead of one parameter per value.
    static func insertPositions(_ session: Session, _ rows: [[StoreCopy.Value]]) throws {
        let none = Int64.min
        func column(_ i: Int) -> [Int64] { rows.map { if case .int(let n) = $0[i] { n } else { none } } }
        try session.execute(
            """
            INSERT INTO position (device_id, t, lat, lon, alt, speed, track, hdop, mode_sats, sensors, import_id)
            SELECT d, t, lat, lon, nullif(alt, \(none)), nullif(speed, \(none)), nullif(track, \(none)),
                   nullif(hdop, \(none)), mode_sats, nullif(sensors, \(none)), nullif(import_id, \(none))
            FROM unnest(\(column(0))::bigint[], \(column(1))::bigint[], \(column(2))::bigint[], \(column(3))::bigint[],
                        \(column(4))::bigint[], \(column(5))::bigint[], \(column(6))::bigint[], \(column(7))::bigint[],
                        \(column(8))::bigint[], \(column(9))::bigint[], \(column(10))::bigint[])
                 AS u(d, t, lat, lon, alt, speed, track, hdop, mode_sats, sensors, import_id)
            ON CONFLICT DO NOTHING
            """)
    }

    /// Sets each id sequence past the largest id copied, and every device's latest position.
    public func copyFinish() throws {
        try writeSession { session in
            for table in Self.sequenced {
                try session.execute(
                    PostgresQuery(
                        unsafeSQL: """
                            SELECT setval(pg_get_serial_sequence('\(table)', 'id'), coalesce(max(id), 0) + 1, false)
                            FROM \(table)
                            """))
            }
            try PostgresWriter.refreshLatest(session, devices: try session.values("SELECT id FROM device"))
        }
    }

    public func copyEmptyDestination() throws -> Bool {
        try writeSession { session in
            for table in ["device", "record", "day_summary", "photo"] {
                if try session.value(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), as: Int.self) != 0 {
                    return false
                }
            }
            if try session.value("SELECT count(*) FROM account WHERE password_hash IS NOT NULL", as: Int.self) != 0 {
                return false
            }
            try session.execute("DELETE FROM account")
            return true
        }
    }

    public func copyMarker() throws -> (source: String, finished: Bool)? {
        try session { session in
            try session.query("SELECT source, finished_ms FROM store_copy ORDER BY started_ms DESC LIMIT 1").first.map {
                (try $0.get("source"), try $0.optional("finished_ms", as: Int64.self) != nil)
            }
        }
    }

    public func setCopyMarker(source: String, finished: Bool) throws {
        let now = UTCTimestamp.now()
        let finishedAt: Int64? = finished ? now : nil
        try writeSession { session in
            try session.execute(
                """
                INSERT INTO store_copy (source, started_ms, finished_ms) VALUES (\(source), \(now), \(finishedAt))
                ON CONFLICT (source) DO UPDATE SET finished_ms = excluded.finished_ms
                """)
        }
    }
}
