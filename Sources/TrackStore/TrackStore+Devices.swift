import Foundation
import GPSCore
internal import GRDB

extension TrackStore {
    /// The local store's one user.
    public static let localUser = "me"

    /// The device `name` of the local user, created (with the user) on first use.
    public func device(named name: String) throws -> DeviceID {
        try pool.write { db in try Self.device(db, named: name) }
    }

    static func device(_ db: Database, named name: String) throws -> DeviceID {
        let user = try localUserID(db)
        if let id = try Int64.fetchOne(
            db, sql: "SELECT id FROM device WHERE user_id = ? AND name = ?", arguments: [user, name])
        {
            return DeviceID(rawValue: id)
        }
        try db.execute(
            sql: "INSERT INTO device (user_id, name, created_ms) VALUES (?, ?, ?)",
            arguments: [user, name, UTCTimestamp.now()])
        return DeviceID(rawValue: db.lastInsertedRowID)
    }

    /// The local user's id, the user created when missing.
    static func localUserID(_ db: Database) throws -> Int64 {
        if let id = try Int64.fetchOne(db, sql: "SELECT id FROM user WHERE name = ?", arguments: [localUser]) {
            return id
        }
        try db.execute(
            sql: "INSERT INTO user (name, created_ms) VALUES (?, ?)", arguments: [localUser, UTCTimestamp.now()])
        return db.lastInsertedRowID
    }

    /// The local user's devices, by name.
    public func devices() throws -> [StoredDevice] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.id, d.name FROM device d JOIN user u ON u.id = d.user_id
                    WHERE u.name = ? ORDER BY d.name
                    """,
                arguments: [Self.localUser]
            ).map { StoredDevice(id: DeviceID(rawValue: $0["id"]), name: $0["name"]) }
        }
    }

    /// The ids a filter covers (empty when the named device does not exist).
    static func deviceIDs(_ db: Database, _ filter: DeviceFilter) throws -> [Int64] {
        switch filter {
        case .all:
            return try Int64.fetchAll(
                db, sql: "SELECT d.id FROM device d JOIN user u ON u.id = d.user_id WHERE u.name = ? ORDER BY d.id",
                arguments: [localUser])
        case .named(let name):
            return try Int64.fetchAll(
                db,
                sql: "SELECT d.id FROM device d JOIN user u ON u.id = d.user_id WHERE u.name = ? AND d.name = ?",
                arguments: [localUser, name])
        }
    }

    /// `(1,2,3)`: a list for `device_id IN ...` (ids are integers read from the store).
    static func sqlList(_ ids: [Int64]) -> String {
        "(" + (ids.isEmpty ? "NULL" : ids.map(String.init).joined(separator: ",")) + ")"
    }

    /// Names of devices by id.
    static func deviceNames(_ db: Database) throws -> [Int64: String] {
        var names: [Int64: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM device") { names[row["id"]] = row["name"] }
        return names
    }
}
