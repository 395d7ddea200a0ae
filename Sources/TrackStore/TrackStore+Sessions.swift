import Foundation
import GPSCore
internal import GRDB

extension SQLiteStoring {
    public func addSession(tokenHash: String, account: String, csrf: String, expiresMilliseconds: Int64, now: Int64)
        throws -> Bool
    {
        try pool.write { db in
            guard let user = try Self.userID(db, account) else { return false }
            try db.execute(sql: "DELETE FROM web_session WHERE expires_ms <= ?", arguments: [now])
            try db.execute(
                sql: "INSERT OR REPLACE INTO web_session (token_hash, user_id, csrf, expires_ms) VALUES (?, ?, ?, ?)",
                arguments: [tokenHash, user, csrf, expiresMilliseconds])
            return true
        }
    }

    public func session(tokenHash: String, now: Int64) throws -> (account: String, csrf: String)? {
        try pool.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT u.name, s.csrf FROM web_session s JOIN user u ON u.id = s.user_id
                    WHERE s.token_hash = ? AND s.expires_ms > ?
                    """, arguments: [tokenHash, now]
            ).map { ($0[0], $0[1]) }
        }
    }

    public func preferences(account: String) throws -> AccountPreferences {
        try pool.read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT p.time_zone, p.units FROM account_preference p JOIN user u ON u.id = p.user_id
                    WHERE u.name = ?
                    """, arguments: [account]
            ).map { AccountPreferences(timeZone: $0[0], units: $0[1]) } ?? AccountPreferences()
        }
    }

    public func setPreferences(account: String, _ preferences: AccountPreferences) throws -> Bool {
        try pool.write { db in
            guard let user = try Self.userID(db, account) else { return false }
            try db.execute(
                sql: "INSERT OR REPLACE INTO account_preference (user_id, time_zone, units) VALUES (?, ?, ?)",
                arguments: [user, preferences.timeZone, preferences.units])
            return true
        }
    }

    public func endSession(tokenHash: String) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM web_session WHERE token_hash = ?", arguments: [tokenHash])
        }
    }

    public func endSessions(account: String, except tokenHash: String?) throws -> Int {
        try pool.write { db in
            try db.execute(
                sql: """
                    DELETE FROM web_session WHERE user_id = (SELECT id FROM user WHERE name = ?)
                    AND token_hash IS NOT ?
                    """, arguments: [account, tokenHash])
            return db.changesCount
        }
    }

    public func addLoginFailure(keys: [String], at: Int64, window: Int64) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM login_failure WHERE at_ms <= ?", arguments: [at - window])
            for key in keys {
                try db.execute(sql: "INSERT INTO login_failure (key, at_ms) VALUES (?, ?)", arguments: [key, at])
            }
        }
    }

    public func loginFailures(keys: [String], since: Int64) throws -> [String: Int] {
        try pool.read { db in
            var counts: [String: Int] = [:]
            for key in keys {
                let n =
                    try Int.fetchOne(
                        db, sql: "SELECT count(*) FROM login_failure WHERE key = ? AND at_ms > ?",
                        arguments: [key, since]) ?? 0
                if n > 0 { counts[key] = n }
            }
            return counts
        }
    }
}
