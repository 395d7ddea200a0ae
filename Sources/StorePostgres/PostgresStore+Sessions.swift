import Foundation
import GPSCore
import PostgresNIO
import TrackModel

extension PostgresStoring {
    public func addSession(tokenHash: String, account: String, csrf: String, expiresMilliseconds: Int64, now: Int64)
        throws -> Bool
    {
        try write { session in
            guard let user = try PostgresUnit.userID(session, account) else { return false }
            try session.execute("DELETE FROM web_session WHERE expires_ms <= \(now)")
            try session.execute(
                """
                INSERT INTO web_session (token_hash, user_id, csrf, expires_ms)
                VALUES (\(tokenHash), \(user), \(csrf), \(expiresMilliseconds))
                ON CONFLICT (token_hash) DO UPDATE SET user_id = excluded.user_id, csrf = excluded.csrf,
                    expires_ms = excluded.expires_ms
                """)
            return true
        }
    }

    public func session(tokenHash: String, now: Int64) throws -> (account: String, csrf: String)? {
        try read { session in
            try session.query(
                """
                SELECT a.name, s.csrf FROM web_session s JOIN account a ON a.id = s.user_id
                WHERE s.token_hash = \(tokenHash) AND s.expires_ms > \(now)
                """
            ).first.map { (try $0.get("name"), try $0.get("csrf")) }
        }
    }

    public func preferences(account: String) throws -> AccountPreferences {
        try read { session in
            try session.query(
                """
                SELECT p.time_zone, p.units FROM account_preference p JOIN account a ON a.id = p.user_id
                WHERE a.name = \(account)
                """
            ).first.map {
                AccountPreferences(
                    timeZone: try $0.optional("time_zone", as: String.self),
                    units: try $0.optional("units", as: String.self))
            } ?? AccountPreferences()
        }
    }

    public func setPreferences(account: String, _ preferences: AccountPreferences) throws -> Bool {
        try write { session in
            !(try session.query(
                """
                INSERT INTO account_preference (user_id, time_zone, units)
                SELECT id, \(preferences.timeZone), \(preferences.units) FROM account WHERE name = \(account)
                ON CONFLICT (user_id) DO UPDATE SET time_zone = excluded.time_zone, units = excluded.units
                RETURNING user_id
                """
            ).isEmpty)
        }
    }

    public func endSession(tokenHash: String) throws {
        try write { session in try session.execute("DELETE FROM web_session WHERE token_hash = \(tokenHash)") }
    }

    public func endSessions(account: String, except tokenHash: String?) throws -> Int {
        try write { session in
            try session.execute(
                """
                DELETE FROM web_session WHERE user_id = (SELECT id FROM account WHERE name = \(account))
                AND token_hash IS DISTINCT FROM \(tokenHash)
                """)
        }
    }

    public func addLoginFailure(keys: [String], at: Int64, window: Int64) throws {
        try write { session in
            try session.execute("DELETE FROM login_failure WHERE at_ms <= \(at - window)")
            try session.execute("INSERT INTO login_failure (key, at_ms) SELECT k, \(at) FROM unnest(\(keys)::text[]) k")
        }
    }

    public func loginFailures(keys: [String], since: Int64) throws -> [String: Int] {
        try read { session in
            var counts: [String: Int] = [:]
            for row in try session.query(
                """
                SELECT key, count(*) AS n FROM login_failure WHERE key = ANY(\(keys)) AND at_ms > \(since) GROUP BY key
                """)
            {
                counts[try row.get("key")] = try row.get("n")
            }
            return counts
        }
    }
}
