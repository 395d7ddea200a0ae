import Foundation
import GPSCore
import PostgresNIO
import TrackModel

extension PostgresStoring {
    public func accounts() throws -> [StoredAccount] {
        try read { session in
            try session.query("SELECT name, created_ms, password_hash FROM account ORDER BY name COLLATE \"C\"").map {
                StoredAccount(
                    name: try $0.get("name"), createdMilliseconds: try $0.get("created_ms"),
                    hasPassword: try $0.optional("password_hash", as: String.self) != nil)
            }
        }
    }

    public func addAccount(name: String, passwordHash: String) throws -> Bool {
        try write { session in
            try session.execute(
                """
                INSERT INTO account (name, created_ms, password_hash) VALUES (\(name), \(UTCTimestamp.now()), \(passwordHash))
                ON CONFLICT (name) DO NOTHING
                """) > 0
        }
    }

    public func passwordHash(of name: String) throws -> String? {
        try read { session in
            try session.value("SELECT password_hash FROM account WHERE name = \(name)", as: String.self)
        }
    }

    public func setPasswordHash(_ hash: String, of name: String) throws -> Bool {
        try write { session in
            try session.execute("UPDATE account SET password_hash = \(hash) WHERE name = \(name)") > 0
        }
    }

    public func removeAccount(_ name: String) throws -> Bool {
        access.store.phoneDevices.forget(account: name)
        return try write { session in
            guard let id = try session.value("SELECT id FROM account WHERE name = \(name)", as: Int64.self) else {
                return false
            }
            // Positions have no foreign key (ingestion saves the lookup): they go explicitly. The
            // rest goes by the foreign keys.
            try session.execute(
                "DELETE FROM position WHERE device_id IN (SELECT id FROM device WHERE user_id = \(id))")
            try session.execute("DELETE FROM account WHERE id = \(id)")
            return true
        }
    }

    public func addDevice(named name: String, account: String, tokenHash: String) throws -> DeviceID? {
        try write { session in
            guard let user = try session.value("SELECT id FROM account WHERE name = \(account)", as: Int64.self) else {
                return nil
            }
            return try session.value(
                """
                INSERT INTO device (user_id, name, created_ms, token_hash)
                VALUES (\(user), \(name), \(UTCTimestamp.now()), \(tokenHash))
                ON CONFLICT (user_id, name) DO NOTHING RETURNING id
                """, as: Int64.self
            ).map(DeviceID.init(rawValue:))
        }
    }

    public func devices(of account: String) throws -> [AccountDevice]? {
        try read { session in
            guard let user = try session.value("SELECT id FROM account WHERE name = \(account)", as: Int64.self) else {
                return nil
            }
            return try session.query("SELECT * FROM device WHERE user_id = \(user) ORDER BY name COLLATE \"C\"").map {
                AccountDevice(
                    id: DeviceID(rawValue: try $0.get("id")), name: try $0.get("name"),
                    createdMilliseconds: try $0.get("created_ms"),
                    hasToken: try $0.optional("token_hash", as: String.self) != nil,
                    revokedMilliseconds: try $0.optional("revoked_ms"))
            }
        }
    }

    public func revokeDevice(named name: String, account: String, at milliseconds: Int64) throws -> Bool {
        access.store.phoneDevices.forget(account: account, device: name)
        return try write { session in
            try session.execute(
                """
                UPDATE device d SET revoked_ms = \(milliseconds) FROM account a
                WHERE a.id = d.user_id AND a.name = \(account) AND d.name = \(name)
                  AND d.token_hash IS NOT NULL AND d.revoked_ms IS NULL
                """) > 0
        }
    }

    public func device(tokenHash: String) throws -> (account: String, device: DeviceID, name: String)? {
        try read { session in
            try session.query(prepared: Prepared.DeviceByToken.self, PostgresStore.deviceQuery(tokenHash: tokenHash))
                .first.map(PostgresStore.phoneDevice)
        }
    }

    @discardableResult
    public func addDeviceMessage(_ device: DeviceID, type: String, receivedMilliseconds: Int64, body: String) throws
        -> Bool
    {
        try write { session in
            // The device's writes take turns (its advisory lock), so two copies of one batch do not
            // both find the message missing. None goes in for a device revoked since its token was
            // read (``PhoneDeviceCache``).
            try PostgresWriter.lock(session, device: device)
            return try session.execute(
                """
                INSERT INTO device_message (device_id, received_ms, type, body)
                SELECT \(device.rawValue), \(receivedMilliseconds), \(type), \(body)
                WHERE NOT EXISTS (SELECT 1 FROM device_message
                    WHERE device_id = \(device.rawValue) AND type = \(type) AND body = \(body))
                AND EXISTS (SELECT 1 FROM device WHERE id = \(device.rawValue) AND revoked_ms IS NULL)
                """) > 0
        }
    }

    public func deviceMessages(account: String) throws -> [DeviceMessage] {
        try read { session in
            try session.query(
                """
                SELECT d.name, m.received_ms, m.type, m.body FROM device_message m
                JOIN device d ON d.id = m.device_id JOIN account a ON a.id = d.user_id
                WHERE a.name = \(account) ORDER BY m.received_ms, m.id
                """
            ).map {
                DeviceMessage(
                    device: try $0.get("name"), receivedMilliseconds: try $0.get("received_ms"),
                    type: try $0.get("type"), body: try $0.get("body"))
            }
        }
    }
}

extension PostgresStoring {
    public func uploadCursor(device: DeviceID, server: String) throws -> Int64? {
        try read { session in
            try session.value(
                "SELECT sent_ms FROM upload_cursor WHERE device_id = \(device.rawValue) AND server = \(server)",
                as: Int64.self)
        }
    }

    public func setUploadCursor(device: DeviceID, server: String, milliseconds: Int64) throws {
        try write { session in
            try session.execute(
                """
                INSERT INTO upload_cursor (device_id, server, sent_ms) VALUES (\(device.rawValue), \(server), \(milliseconds))
                ON CONFLICT (device_id, server) DO UPDATE SET sent_ms = greatest(upload_cursor.sent_ms, excluded.sent_ms)
                """)
        }
    }

    public func points(device: DeviceID, after milliseconds: Int64?, limit: Int) throws -> [Fix] {
        try read { session in
            try session.query(
                """
                SELECT \(unescaped: PostgresStore.positionColumns) FROM position
                WHERE device_id = \(device.rawValue) AND t > \(milliseconds ?? .min) ORDER BY t LIMIT \(limit)
                """
            ).map(PostgresStore.fix)
        }
    }

    public func pointCount(device: DeviceID, after milliseconds: Int64?) throws -> Int {
        try read { session in
            try session.value(
                "SELECT count(*) FROM position WHERE device_id = \(device.rawValue) AND t > \(milliseconds ?? .min)",
                as: Int.self) ?? 0
        }
    }
}

extension PostgresStore {
    /// The live device of a token's hash, with its account.
    static func deviceQuery(tokenHash: String) -> PostgresQuery {
        """
        SELECT a.name AS account, d.id, d.name FROM device d JOIN account a ON a.id = d.user_id
        WHERE d.token_hash = \(tokenHash) AND d.revoked_ms IS NULL
        """
    }

    static func phoneDevice(_ row: PostgresRandomAccessRow) throws -> (account: String, device: DeviceID, name: String)
    {
        (try row.get("account"), DeviceID(rawValue: try row.get("id")), try row.get("name"))
    }
}
