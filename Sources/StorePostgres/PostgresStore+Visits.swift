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
                SELECT c.id, c.at_ms, c.kind, c.value, c.created_ms FROM movement_correction c
                JOIN account a ON a.id = c.user_id
                WHERE a.name = \(account ?? PostgresStore.localUser) ORDER BY c.at_ms, c.id
                """
            ).compactMap { r in
                guard let kind = MovementCorrection.Kind(rawValue: try r.get("kind")) else { return nil }
                return MovementCorrection(
                    id: try r.get("id"), milliseconds: try r.get("at_ms"), kind: kind, value: try r.get("value"),
                    madeMilliseconds: try r.get("created_ms"))
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

extension PostgresStoring {
    public func keptTimeline(fromMilliseconds from: Int64, toMilliseconds to: Int64, account: String?) throws
        -> [KeptEntry]
    {
        try read { session in
            try session.query(
                """
                SELECT e.id, e.kind, e.start_ms, e.end_ms, e.lat, e.lon, e.to_lat, e.to_lon, e.spread, e.fixes,
                    e.ongoing, e.distance, e.moving_s, e.median_speed, e.high_speed, e.mode, e.mode_from
                FROM timeline_entry e JOIN account a ON a.id = e.user_id
                WHERE a.name = \(account ?? PostgresStore.localUser) AND e.start_ms < \(to) AND e.end_ms >= \(from)
                ORDER BY e.start_ms, e.id
                """
            ).compactMap { r in
                guard let kind = KeptEntry.Kind(rawValue: try r.get("kind")) else { return nil }
                return KeptEntry(
                    id: try r.get("id"), kind: kind, start: try r.get("start_ms"), end: try r.get("end_ms"),
                    from: Coordinate(latitude: try r.get("lat"), longitude: try r.get("lon")),
                    to: Coordinate(latitude: try r.get("to_lat"), longitude: try r.get("to_lon")),
                    spread: try r.get("spread"), fixes: Int(try r.get("fixes", as: Int64.self)),
                    ongoing: try r.get("ongoing"), distance: try r.get("distance"),
                    movingSeconds: try r.get("moving_s"), medianSpeed: try r.get("median_speed"),
                    highSpeed: try r.get("high_speed"), mode: try r.get("mode"), modeFrom: try r.get("mode_from"))
            }
        }
    }

    public func keptTimelineState(account: String?) throws -> KeptTimelineState? {
        try read { session in
            try session.query(
                """
                SELECT s.version, s.rules, s.through_ms, s.made_ms FROM timeline_state s
                JOIN account a ON a.id = s.user_id WHERE a.name = \(account ?? PostgresStore.localUser)
                """
            ).first.map {
                KeptTimelineState(
                    version: Int(try $0.get("version", as: Int64.self)), rules: try $0.get("rules"),
                    through: try $0.get("through_ms"), madeMilliseconds: try $0.get("made_ms"))
            }
        }
    }

    /// The entries in one statement, their columns as arrays unnested.
    public func keepTimeline(
        _ entries: [KeptEntry], from: Int64, to: Int64, state: KeptTimelineState, account: String?
    ) throws -> Bool {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return false }
            _ = try session.execute(
                "DELETE FROM timeline_entry WHERE user_id = \(user) AND start_ms >= \(from) AND start_ms < \(to)")
            if !entries.isEmpty {
                // Arrays hold no NULLs here: "" stands for no mode.
                _ = try session.execute(
                    """
                    INSERT INTO timeline_entry (user_id, kind, start_ms, end_ms, lat, lon, to_lat, to_lon, spread,
                        fixes, ongoing, distance, moving_s, median_speed, high_speed, mode, mode_from)
                    SELECT \(user), u.kind, u.start_ms, u.end_ms, u.lat, u.lon, u.to_lat, u.to_lon, u.spread, u.fixes,
                        u.ongoing, u.distance, u.moving_s, u.median_speed, u.high_speed, nullif(u.mode, ''),
                        nullif(u.mode_from, '')
                    FROM unnest(\(entries.map(\.kind.rawValue))::text[], \(entries.map(\.start))::bigint[],
                        \(entries.map(\.end))::bigint[], \(entries.map(\.from.latitude))::double precision[],
                        \(entries.map(\.from.longitude))::double precision[],
                        \(entries.map(\.to.latitude))::double precision[],
                        \(entries.map(\.to.longitude))::double precision[], \(entries.map(\.spread))::double precision[],
                        \(entries.map { Int64($0.fixes) })::bigint[], \(entries.map(\.ongoing))::boolean[],
                        \(entries.map(\.distance))::double precision[],
                        \(entries.map(\.movingSeconds))::double precision[],
                        \(entries.map(\.medianSpeed))::double precision[],
                        \(entries.map(\.highSpeed))::double precision[], \(entries.map { $0.mode ?? "" })::text[],
                        \(entries.map { $0.modeFrom ?? "" })::text[])
                        WITH ORDINALITY AS u(kind, start_ms, end_ms, lat, lon, to_lat, to_lon, spread, fixes, ongoing,
                            distance, moving_s, median_speed, high_speed, mode, mode_from, n)
                    ORDER BY u.n
                    """)
            }
            _ = try session.execute(
                """
                INSERT INTO timeline_state (user_id, version, rules, through_ms, made_ms)
                VALUES (\(user), \(Int64(state.version)), \(state.rules), \(state.through), \(state.madeMilliseconds))
                ON CONFLICT (user_id) DO UPDATE SET version = excluded.version, rules = excluded.rules,
                    through_ms = excluded.through_ms, made_ms = excluded.made_ms
                """)
            return true
        }
    }
}
