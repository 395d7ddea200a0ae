import Foundation
import GPSCore
internal import GRDB

extension SQLiteStoring {
    public func accounts() throws -> [StoredAccount] {
        try pool.read { db in
            try UserRow.order(Column("name")).fetchAll(db).map {
                StoredAccount(name: $0.name, createdMilliseconds: $0.createdMs, hasPassword: $0.passwordHash != nil)
            }
        }
    }

    public func addAccount(name: String, passwordHash: String) throws -> Bool {
        try pool.write { db in
            if try UserRow.filter(Column("name") == name).fetchCount(db) > 0 { return false }
            try UserRow(name: name, createdMs: UTCTimestamp.now(), passwordHash: passwordHash).insert(db)
            return true
        }
    }

    public func passwordHash(of name: String) throws -> String? {
        try pool.read { db in try UserRow.filter(Column("name") == name).fetchOne(db)?.passwordHash }
    }

    public func setPasswordHash(_ hash: String, of name: String) throws -> Bool {
        try pool.write { db in
            guard var user = try UserRow.filter(Column("name") == name).fetchOne(db) else { return false }
            user.passwordHash = hash
            try user.update(db)
            return true
        }
    }

    public func removeAccount(_ name: String) throws -> Bool {
        let removed = try pool.write { db -> Bool in
            guard let user = try UserRow.filter(Column("name") == name).fetchOne(db), let id = user.id else {
                return false
            }
            // Points are keyed by device and time: each device's keys are one range. Rides,
            // segments, drop counts, records of points and recorder rows go by their foreign keys.
            for device in try DeviceRow.filter(Column("user_id") == id).fetchAll(db) {
                try db.execute(
                    sql: "DELETE FROM point WHERE key >= ? AND key < ?",
                    arguments: [device.id! << 43, (device.id! + 1) << 43])
            }
            try user.delete(db)
            return true
        }
        if removed { try checkpoint() }
        return removed
    }

    public func addDevice(named name: String, account: String, tokenHash: String) throws -> DeviceID? {
        try pool.write { db in
            guard let user = try UserRow.filter(Column("name") == account).fetchOne(db)?.id,
                try DeviceRow.filter(Column("user_id") == user && Column("name") == name).fetchCount(db) == 0
            else { return nil }
            try DeviceRow(userId: user, name: name, createdMs: UTCTimestamp.now(), tokenHash: tokenHash).insert(db)
            return DeviceID(rawValue: db.lastInsertedRowID)
        }
    }

    public func devices(of account: String) throws -> [AccountDevice]? {
        try pool.read { db in
            guard let user = try UserRow.filter(Column("name") == account).fetchOne(db)?.id else { return nil }
            return try DeviceRow.filter(Column("user_id") == user).order(Column("name")).fetchAll(db).map {
                AccountDevice(
                    id: DeviceID(rawValue: $0.id!), name: $0.name, createdMilliseconds: $0.createdMs,
                    hasToken: $0.tokenHash != nil, revokedMilliseconds: $0.revokedMs)
            }
        }
    }

    public func revokeDevice(named name: String, account: String, at milliseconds: Int64) throws -> Bool {
        try pool.write { db in
            guard let user = try UserRow.filter(Column("name") == account).fetchOne(db)?.id,
                var device = try DeviceRow.filter(Column("user_id") == user && Column("name") == name).fetchOne(db),
                device.tokenHash != nil, device.revokedMs == nil
            else { return false }
            device.revokedMs = milliseconds
            try device.update(db)
            return true
        }
    }

    public func device(tokenHash: String) throws -> (account: String, device: DeviceID, name: String)? {
        // Asked with every request of a phone: a statement compiled once per connection.
        try pool.read { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT u.name, d.id, d.name FROM device d JOIN "user" u ON u.id = d.user_id
                    WHERE d.token_hash = ? AND d.revoked_ms IS NULL
                    """)
            guard let row = try Row.fetchOne(statement, arguments: [tokenHash]) else { return nil }
            return (row[0], DeviceID(rawValue: row[1]), row[2])
        }
    }
}
