import Foundation
import GPSCore
internal import GRDB
import TrackModel

extension SQLiteStoring {
    public func foundPlaces(account: String?) throws -> [FoundPlace] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT f.* FROM found_place f JOIN user u ON u.id = f.user_id WHERE u.name = ? ORDER BY f.number
                    """,
                arguments: [account ?? TrackStore.localUser]
            ).map {
                FoundPlace(
                    id: $0["number"], center: Coordinate(latitude: $0["lat"], longitude: $0["lon"]), name: $0["name"],
                    address: $0["address"], suggestion: $0["suggestion"], createdMilliseconds: $0["created_ms"])
            }
        }
    }

    public func rememberPlaces(_ centers: [Coordinate], milliseconds: Int64, account: String?) throws -> [FoundPlace] {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return [] }
            // Numbered after the account's last (its own numbers: 1, 2, ...).
            var number =
                try Int64.fetchOne(
                    db, sql: "SELECT coalesce(max(number), 0) FROM found_place WHERE user_id = ?", arguments: [user])
                ?? 0
            let insert = try db.cachedStatement(
                sql: "INSERT INTO found_place (user_id, lat, lon, created_ms, number) VALUES (?, ?, ?, ?, ?)")
            return try centers.map { c in
                number += 1
                try insert.execute(arguments: [user, c.latitude, c.longitude, milliseconds, number])
                return FoundPlace(id: number, center: c, createdMilliseconds: milliseconds)
            }
        }
    }

    public func nameFoundPlace(_ id: Int64, name: String?, account: String?) throws -> Bool {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return false }
            try db.execute(
                sql: "UPDATE found_place SET name = ? WHERE number = ? AND user_id = ?", arguments: [name, id, user])
            return db.changesCount > 0
        }
    }

    public func setFoundPlaceAddress(_ id: Int64, address: String, account: String?) throws -> Bool {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return false }
            try db.execute(
                sql: "UPDATE found_place SET address = ? WHERE number = ? AND user_id = ?",
                arguments: [address, id, user])
            return db.changesCount > 0
        }
    }

    public func suggestFoundPlaces(home: Int64?, work: Int64?, account: String?) throws {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return }
            try db.execute(
                sql: """
                    UPDATE found_place SET suggestion = CASE number WHEN ? THEN 'home' WHEN ? THEN 'work' END
                    WHERE user_id = ?
                    """, arguments: [home, work, user])
        }
    }

    public func corrections(account: String?) throws -> [MovementCorrection] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT c.* FROM movement_correction c JOIN user u ON u.id = c.user_id WHERE u.name = ?
                    ORDER BY c.at_ms, c.id
                    """,
                arguments: [account ?? TrackStore.localUser]
            ).compactMap { r in
                MovementCorrection.Kind(rawValue: r["kind"]).map {
                    MovementCorrection(id: r["id"], milliseconds: r["at_ms"], kind: $0, value: r["value"])
                }
            }
        }
    }

    public func addCorrection(_ correction: MovementCorrection, account: String?) throws -> Int64? {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return nil }
            try db.execute(
                sql: """
                    INSERT INTO movement_correction (user_id, at_ms, kind, value, created_ms) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (user_id, kind, at_ms) DO UPDATE SET value = excluded.value,
                        created_ms = excluded.created_ms
                    """,
                arguments: [
                    user, correction.milliseconds, correction.kind.rawValue, correction.value, UTCTimestamp.now(),
                ])
            return try Int64.fetchOne(
                db, sql: "SELECT id FROM movement_correction WHERE user_id = ? AND kind = ? AND at_ms = ?",
                arguments: [user, correction.kind.rawValue, correction.milliseconds])
        }
    }

    public func removeCorrection(_ id: Int64, account: String?) throws -> Bool {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return false }
            try db.execute(sql: "DELETE FROM movement_correction WHERE id = ? AND user_id = ?", arguments: [id, user])
            return db.changesCount > 0
        }
    }
}
