import Foundation
import GPSCore
internal import GRDB

/// The SQLite store's side of `trailbook store copy`: ``StoreCopy``'s tables on this schema
/// (`user` for account, `grant` for share_grant, `point` with its packed key for position).
extension TrackStore: StoreCopying {
    static func physical(_ table: StoreCopy.Table) -> String {
        switch table.name {
        case "account": return "\"user\""
        case "share_grant": return "\"grant\""
        default: return "\"\(table.name)\""
        }
    }

    static func value(_ value: DatabaseValue) -> StoreCopy.Value {
        switch value.storage {
        case .null: return .null
        case .int64(let n): return .int(n)
        case .double(let d): return .double(d)
        case .string(let s): return .text(s)
        case .blob(let data): return .text(String(decoding: data, as: UTF8.self))
        }
    }

    static func argument(_ value: StoreCopy.Value) -> (any DatabaseValueConvertible)? {
        switch value {
        case .null: return nil
        case .int(let n): return n
        case .double(let d): return d
        case .text(let s): return s
        }
    }

    /// The condition that keeps `account`'s rows of `table`: "" for every row, nil for none.
    static func accountCondition(_ table: StoreCopy.Table, _ account: Int64?) -> String? {
        guard let account else { return "" }
        return StoreCopy.condition(
            table, account: account,
            name: { name in physical(StoreCopy.tables.first { $0.name == name }!) },
            deviceColumn: table.name == "position" ? PointKey.deviceSQL : "\"device_id\"")
    }

    public func copyAccountID(_ name: String) throws -> Int64? {
        try databasePool.read { db in try SQLiteUnit.userID(db, name) }
    }

    public func copyCount(_ table: StoreCopy.Table, account: Int64?) throws -> Int {
        guard let condition = Self.accountCondition(table, account) else { return 0 }
        let name = table.name == "position" ? "point" : Self.physical(table)
        return try databasePool.read { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM \(name)" + (condition.isEmpty ? "" : " WHERE \(condition)"))
                ?? 0
        }
    }

    public func copyRows(_ table: StoreCopy.Table, after: [StoreCopy.Value]?, limit: Int, account: Int64?) throws
        -> [[StoreCopy.Value]]
    {
        guard let condition = Self.accountCondition(table, account) else { return [] }
        let and = condition.isEmpty ? "" : " AND \(condition)"
        return try databasePool.read { db in
            let rows: [Row]
            if table.name == "position" {
                var low = Int64.min
                if let after, case .int(let device) = after[0], case .int(let t) = after[1] {
                    low = PointKey.key(device: device, milliseconds: t)
                }
                rows = try Row.fetchAll(
                    db,
                    sql: """
                        SELECT \(PointKey.deviceSQL), \(PointKey.timeSQL), lat, lon, alt, speed, track, hdop, mode_sats,
                               sensors, import_id
                        FROM point WHERE key > ?\(and) ORDER BY key LIMIT ?
                        """, arguments: [low, limit])
            } else {
                let columns = table.columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
                let key = table.key.map { "\"\($0.name)\"" }.joined(separator: ", ")
                var sql = "SELECT \(columns) FROM \(Self.physical(table)) WHERE 1\(and)"
                var arguments = StatementArguments()
                if let after {
                    sql += " AND (\(key)) > (\(after.map { _ in "?" }.joined(separator: ", ")))"
                    arguments = StatementArguments(after.map(Self.argument))
                }
                sql += " ORDER BY \(key) LIMIT \(limit)"
                rows = try Row.fetchAll(db, sql: sql, arguments: arguments)
            }
            return rows.map { row in row.databaseValues.map(Self.value) }
        }
    }

    public func copyLastKey(_ table: StoreCopy.Table) throws -> [StoreCopy.Value]? {
        if table.name == "position" {
            return try databasePool.read { db in
                try Int64.fetchOne(db, sql: "SELECT max(key) FROM point").map {
                    [.int($0 >> PointKey.timeBits), .int(PointKey.milliseconds(ofKey: $0))]
                }
            }
        }
        let key = table.key.map { "\"\($0.name)\"" }
        return try databasePool.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT \(key.joined(separator: ", ")) FROM \(Self.physical(table))
                    ORDER BY \(key.map { $0 + " DESC" }.joined(separator: ", ")) LIMIT 1
                    """
            ).map { $0.databaseValues.map(Self.value) }
        }
    }

    public func copyInsert(_ table: StoreCopy.Table, rows: [[StoreCopy.Value]]) throws {
        try databasePool.write { db in
            if table.name == "position" {
                let insert = try db.makeStatement(
                    sql: """
                        INSERT OR IGNORE INTO point (\(PointKey.insertColumns), import_id)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """)
                for row in rows {
                    guard case .int(let device) = row[0], case .int(let t) = row[1] else { continue }
                    // device, t, lat, lon, alt, speed, track, hdop, mode_sats, sensors, import_id
                    let key = PointKey.key(device: device, milliseconds: t)
                    try insert.execute(arguments: StatementArguments([key] + row[2...].map(Self.argument)))
                }
                return
            }
            let columns = table.columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
            let insert = try db.makeStatement(
                sql: """
                    INSERT OR IGNORE INTO \(Self.physical(table)) (\(columns))
                    VALUES (\(table.columns.map { _ in "?" }.joined(separator: ", ")))
                    """)
            for row in rows { try insert.execute(arguments: StatementArguments(row.map(Self.argument))) }
        }
    }

    /// Nothing is derived here: SQLite's AUTOINCREMENT follows the largest id inserted.
    public func copyFinish() throws {}

    public func copyEmptyDestination() throws -> Bool {
        try databasePool.write { db in
            for table in ["device", "record", "day_summary", "photo"] {
                if try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") != 0 { return false }
            }
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM user WHERE password_hash IS NOT NULL") != 0 {
                return false
            }
            try db.execute(sql: "DELETE FROM user")
            return true
        }
    }

    public func copyMarker() throws -> (source: String, finished: Bool)? {
        try databasePool.read { db in
            try Row.fetchOne(db, sql: "SELECT source, finished_ms FROM store_copy ORDER BY started_ms DESC LIMIT 1")
                .map { ($0["source"], ($0["finished_ms"] as Int64?) != nil) }
        }
    }

    public func setCopyMarker(source: String, finished: Bool) throws {
        try databasePool.write { db in
            let now = UTCTimestamp.now()
            try db.execute(
                sql: """
                    INSERT INTO store_copy (source, started_ms, finished_ms) VALUES (?, ?, ?)
                    ON CONFLICT (source) DO UPDATE SET finished_ms = excluded.finished_ms
                    """, arguments: [source, now, finished ? now : nil])
        }
    }
}
