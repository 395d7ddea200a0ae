import Foundation
import GPSCore
import PostgresNIO
import TrackModel

extension PostgresStoring {
    public func foundPlaces(account: String?) throws -> [FoundPlace] {
        try read { session in
            try session.query(
                """
                SELECT f.number, f.lat, f.lon, f.name, f.address, f.suggestion, f.created_ms FROM found_place f
                JOIN account a ON a.id = f.user_id
                WHERE a.name = \(account ?? PostgresStore.localUser) ORDER BY f.number
                """
            ).map {
                FoundPlace(
                    id: try $0.get("number"),
                    center: Coordinate(latitude: try $0.get("lat"), longitude: try $0.get("lon")),
                    name: try $0.get("name"), address: try $0.get("address"), suggestion: try $0.get("suggestion"),
                    createdMilliseconds: try $0.get("created_ms"))
            }
        }
    }

    public func rememberPlaces(_ centers: [Coordinate], milliseconds: Int64, account: String?) throws -> [FoundPlace] {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return [] }
            // Numbered after the account's last, in the order of the arrays (WITH ORDINALITY);
            // the account's row is locked first, so two writers number one after the other.
            _ = try session.execute("SELECT id FROM account WHERE id = \(user) FOR UPDATE")
            let ids: [Int64] = try session.values(
                """
                INSERT INTO found_place (user_id, lat, lon, created_ms, number)
                SELECT \(user), lat, lon, \(milliseconds),
                    n + (SELECT coalesce(max(number), 0) FROM found_place WHERE user_id = \(user))
                FROM unnest(\(centers.map(\.latitude))::double precision[],
                    \(centers.map(\.longitude))::double precision[]) WITH ORDINALITY AS c (lat, lon, n)
                ORDER BY n
                RETURNING number
                """)
            return zip(ids.sorted(), centers).map { FoundPlace(id: $0, center: $1, createdMilliseconds: milliseconds) }
        }
    }

    public func nameFoundPlace(_ id: Int64, name: String?, account: String?) throws -> Bool {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return false }
            return try session.execute(
                "UPDATE found_place SET name = \(name) WHERE number = \(id) AND user_id = \(user)")
                > 0
        }
    }

    public func setFoundPlaceAddress(_ id: Int64, address: String, account: String?) throws -> Bool {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return false }
            return try session.execute(
                "UPDATE found_place SET address = \(address) WHERE number = \(id) AND user_id = \(user)") > 0
        }
    }

    public func suggestFoundPlaces(home: Int64?, work: Int64?, account: String?) throws {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return }
            _ = try session.execute(
                """
                UPDATE found_place SET suggestion = CASE number WHEN \(home) THEN 'home' WHEN \(work) THEN 'work' END
                WHERE user_id = \(user)
                """)
        }
    }

    public func corrections(account: String?) throws -> [MovementCorrection] {
        try read { session in
            try session.query(
                """
                SELECT c.id, c.at_ms, c.kind, c.value FROM movement_correction c JOIN account a ON a.id = c.user_id
                WHERE a.name = \(account ?? PostgresStore.localUser) ORDER BY c.at_ms, c.id
                """
            ).compactMap { r in
                guard let kind = MovementCorrection.Kind(rawValue: try r.get("kind")) else { return nil }
                return MovementCorrection(
                    id: try r.get("id"), milliseconds: try r.get("at_ms"), kind: kind, value: try r.get("value"))
            }
        }
    }

    public func addCorrection(_ correction: MovementCorrection, account: String?) throws -> Int64? {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return nil }
            return try session.value(
                """
                INSERT INTO movement_correction (user_id, at_ms, kind, value, created_ms)
                VALUES (\(user), \(correction.milliseconds), \(correction.kind.rawValue), \(correction.value),
                    \(UTCTimestamp.now()))
                ON CONFLICT (user_id, kind, at_ms) DO UPDATE SET value = excluded.value, created_ms = excluded.created_ms
                RETURNING id
                """)
        }
    }

    public func removeCorrection(_ id: Int64, account: String?) throws -> Bool {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return false }
            return try session.execute("DELETE FROM movement_correction WHERE id = \(id) AND user_id = \(user)") > 0
        }
    }
}
