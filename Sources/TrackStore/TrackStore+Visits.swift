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
                    MovementCorrection(
                        id: r["id"], milliseconds: r["at_ms"], kind: $0, value: r["value"],
                        madeMilliseconds: r["created_ms"])
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

extension SQLiteStoring {
    public func keptTimeline(fromMilliseconds from: Int64, toMilliseconds to: Int64, account: String?) throws
        -> [KeptEntry]
    {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT e.* FROM timeline_entry e JOIN user u ON u.id = e.user_id
                    WHERE u.name = ? AND e.start_ms < ? AND e.end_ms >= ? ORDER BY e.start_ms, e.id
                    """,
                arguments: [account ?? TrackStore.localUser, to, from]
            ).compactMap { r in
                KeptEntry.Kind(rawValue: r["kind"]).map { kind in
                    KeptEntry(
                        id: r["id"], kind: kind, start: r["start_ms"], end: r["end_ms"],
                        from: Coordinate(latitude: r["lat"], longitude: r["lon"]),
                        to: Coordinate(latitude: r["to_lat"], longitude: r["to_lon"]), spread: r["spread"],
                        fixes: r["fixes"], ongoing: r["ongoing"], distance: r["distance"], movingSeconds: r["moving_s"],
                        medianSpeed: r["median_speed"], highSpeed: r["high_speed"], mode: r["mode"],
                        modeFrom: r["mode_from"])
                }
            }
        }
    }

    public func keptTimelineState(account: String?) throws -> KeptTimelineState? {
        try pool.read { db in
            try Row.fetchOne(
                db,
                sql: "SELECT s.* FROM timeline_state s JOIN user u ON u.id = s.user_id WHERE u.name = ?",
                arguments: [account ?? TrackStore.localUser]
            ).map {
                KeptTimelineState(
                    version: $0["version"], rules: $0["rules"], through: $0["through_ms"],
                    madeMilliseconds: $0["made_ms"])
            }
        }
    }

    public func keepTimeline(
        _ entries: [KeptEntry], from: Int64, to: Int64, state: KeptTimelineState, account: String?
    ) throws -> Bool {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return false }
            try db.execute(
                sql: "DELETE FROM timeline_entry WHERE user_id = ? AND start_ms >= ? AND start_ms < ?",
                arguments: [user, from, to])
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO timeline_entry (user_id, kind, start_ms, end_ms, lat, lon, to_lat, to_lon, spread,
                        fixes, ongoing, distance, moving_s, median_speed, high_speed, mode, mode_from)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            for e in entries {
                try insert.execute(arguments: [
                    user, e.kind.rawValue, e.start, e.end, e.from.latitude, e.from.longitude, e.to.latitude,
                    e.to.longitude, e.spread, e.fixes, e.ongoing, e.distance, e.movingSeconds, e.medianSpeed,
                    e.highSpeed, e.mode, e.modeFrom,
                ])
            }
            try db.execute(
                sql: """
                    INSERT INTO timeline_state (user_id, version, rules, through_ms, made_ms) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET version = excluded.version, rules = excluded.rules,
                        through_ms = excluded.through_ms, made_ms = excluded.made_ms
                    """, arguments: [user, state.version, state.rules, state.through, state.madeMilliseconds])
            return true
        }
    }
}
