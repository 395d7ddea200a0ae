import Foundation
import GPSCore
internal import GRDB

extension TrackStore {
    /// The local store's one user.
    public static let localUser = "me"
}

extension SQLiteStoring {
    /// The device `name` of the local user, created (with the user) on first use.
    public func device(named name: String) throws -> DeviceID {
        try pool.write { db in try Self.device(db, named: name) }
    }

    public func device(named name: String, account: String?) throws -> DeviceID? {
        guard let account else { return try device(named: name) }
        return try pool.write { db in
            try UserRow.filter(Column("name") == account).fetchOne(db)?.id.map {
                try Self.device(db, named: name, user: $0)
            }
        }
    }

    static func device(_ db: Database, named name: String, user: Int64? = nil) throws -> DeviceID {
        let user = try user ?? localUserID(db)
        if let id = try DeviceRow.filter(Column("user_id") == user && Column("name") == name).fetchOne(db)?.id {
            return DeviceID(rawValue: id)
        }
        try DeviceRow(userId: user, name: name, createdMs: UTCTimestamp.now()).insert(db)
        return DeviceID(rawValue: db.lastInsertedRowID)
    }

    /// The local user's id, the user created when missing.
    static func localUserID(_ db: Database) throws -> Int64 {
        if let id = try UserRow.filter(Column("name") == TrackStore.localUser).fetchOne(db)?.id { return id }
        try UserRow(name: TrackStore.localUser, createdMs: UTCTimestamp.now()).insert(db)
        return db.lastInsertedRowID
    }

    /// The local user's devices, by name.
    public func devices() throws -> [StoredDevice] {
        try pool.read { db in
            guard let user = try UserRow.filter(Column("name") == TrackStore.localUser).fetchOne(db)?.id else {
                return []
            }
            return try DeviceRow.filter(Column("user_id") == user).order(Column("name")).fetchAll(db).map {
                StoredDevice(id: DeviceID(rawValue: $0.id!), name: $0.name)
            }
        }
    }

    /// The ids a filter covers (empty when the named device does not exist).
    static func deviceIDs(_ db: Database, _ filter: DeviceFilter) throws -> [Int64] {
        switch filter {
        case .all:
            return try Int64.fetchAll(
                db, sql: "SELECT d.id FROM device d JOIN user u ON u.id = d.user_id WHERE u.name = ? ORDER BY d.id",
                arguments: [TrackStore.localUser])
        case .named(let name):
            return try Int64.fetchAll(
                db,
                sql: "SELECT d.id FROM device d JOIN user u ON u.id = d.user_id WHERE u.name = ? AND d.name = ?",
                arguments: [TrackStore.localUser, name])
        case .account(let account, let name):
            return try Int64.fetchAll(
                db,
                sql: """
                    SELECT d.id FROM device d JOIN user u ON u.id = d.user_id WHERE u.name = ? AND (? IS NULL OR d.name = ?)
                    ORDER BY d.id
                    """,
                arguments: [account, name, name])
        }
    }

    /// `(1,2,3)`: a list for `device_id IN ...` (ids are integers read from the store).
    static func sqlList(_ ids: [Int64]) -> String {
        "(" + (ids.isEmpty ? "NULL" : ids.map(String.init).joined(separator: ",")) + ")"
    }

    /// Names of devices by id.
    static func deviceNames(_ db: Database) throws -> [Int64: String] {
        var names: [Int64: String] = [:]
        for device in try DeviceRow.fetchAll(db) { names[device.id!] = device.name }
        return names
    }
}
