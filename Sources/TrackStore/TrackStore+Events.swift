import Foundation
import GPSCore
internal import GRDB
import TrackModel

extension SQLiteStoring {
    /// The account's id (the local user, made when missing, for nil); nil when there is no such account.
    static func accountID(_ db: Database, _ account: String?) throws -> Int64? {
        guard let account else { return try localUserID(db) }
        return try userID(db, account)
    }

    public func places(account: String?) throws -> [Place] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT p.* FROM place p JOIN user u ON u.id = p.user_id WHERE u.name = ? ORDER BY p.name
                    """, arguments: [account ?? TrackStore.localUser]
            ).map {
                EventColumns.place(
                    name: $0["name"], latitude: $0["lat"], longitude: $0["lon"], radius: $0["radius_m"],
                    polygon: $0["polygon"], source: $0["source"])
            }
        }
    }

    public func addPlace(_ place: Place, account: String?) throws -> Bool {
        try pool.write { db in
            guard let user = try Self.accountID(db, account) else { return false }
            try Self.insertPlace(db, place, user: user, replacing: false)
            return db.changesCount > 0
        }
    }

    public func savePlace(_ place: Place, account: String) throws -> Bool {
        try pool.write { db in
            guard let user = try Self.userID(db, account) else { return false }
            try Self.insertPlace(db, place, user: user, replacing: true)
            return true
        }
    }

    private static func insertPlace(_ db: Database, _ place: Place, user: Int64, replacing: Bool) throws {
        try db.execute(
            sql: """
                INSERT INTO place (user_id, name, lat, lon, radius_m, polygon, source, created_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (user_id, name) DO
                """
                    + (replacing
                        ? " UPDATE SET lat = excluded.lat, lon = excluded.lon, radius_m = excluded.radius_m, "
                            + "polygon = excluded.polygon, source = excluded.source"
                        : " NOTHING"),
            arguments: [
                user, place.name, place.center.latitude, place.center.longitude, place.radius,
                EventColumns.polygon(place.polygon), place.source, UTCTimestamp.now(),
            ])
    }

    public func removePlace(named name: String, account: String?) throws -> Bool {
        try pool.write { db in
            try db.execute(
                sql: "DELETE FROM place WHERE name = ? AND user_id = (SELECT id FROM user WHERE name = ?)",
                arguments: [name, account ?? TrackStore.localUser])
            return db.changesCount > 0
        }
    }

    public func addEvents(_ events: [TrailEvent], device: DeviceID, viewer: String?) throws -> Int {
        guard !events.isEmpty else { return 0 }
        return try pool.write { db in
            var user: Int64? = nil
            if let viewer {
                guard let id = try Self.userID(db, viewer) else { return 0 }
                user = id
            }
            return try Self.insertEvents(db, events, device: device.rawValue, user: user)
        }
    }

    /// Inserts events of `device` in the list of `user` (the device's account when nil).
    static func insertEvents(_ db: Database, _ events: [TrailEvent], device: Int64, user: Int64? = nil) throws -> Int {
        guard !events.isEmpty else { return 0 }
        guard
            let owner = try user
                ?? Int64.fetchOne(db, sql: "SELECT user_id FROM device WHERE id = ?", arguments: [device])
        else { return 0 }
        var added = 0
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO event (user_id, device_id, t, type, place, tag, lat, lon, text, details)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (user_id, device_id, t, type, place, tag) DO NOTHING
                """)
        for e in events {
            try statement.execute(arguments: [
                owner, device, e.milliseconds, e.type.rawValue, e.place ?? "", EventColumns.tag(e),
                e.coordinate?.latitude, e.coordinate?.longitude, e.text, EventColumns.details(e.details),
            ])
            added += db.changesCount
        }
        return added
    }

    @discardableResult
    public func moveEvent(_ id: Int64, toMilliseconds milliseconds: Int64, coordinate: Coordinate?, account: String?)
        throws -> Bool
    {
        try pool.write { db in
            let mine = "id = ? AND user_id = (SELECT id FROM user WHERE name = ?)"
            try db.execute(
                sql: """
                    UPDATE OR IGNORE event SET t = ?, lat = coalesce(?, lat), lon = coalesce(?, lon) WHERE \(mine)
                    """,
                arguments: [
                    milliseconds, coordinate?.latitude, coordinate?.longitude, id, account ?? TrackStore.localUser,
                ])
            if db.changesCount > 0 { return true }
            // The same event is there at that time already: this one goes.
            try db.execute(sql: "DELETE FROM event WHERE \(mine)", arguments: [id, account ?? TrackStore.localUser])
            return db.changesCount > 0
        }
    }

    public func events(
        fromMilliseconds from: Int64, toMilliseconds to: Int64, types: Set<TrailEventType>?, account: String?
    ) throws -> [StoredEvent] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT e.*, d.name AS device_name FROM event e JOIN device d ON d.id = e.device_id
                    JOIN user u ON u.id = e.user_id WHERE u.name = ? AND e.t >= ? AND e.t < ?
                    ORDER BY e.t, e.id
                    """, arguments: [account ?? TrackStore.localUser, from, to]
            ).compactMap { row -> StoredEvent? in
                guard
                    let event = EventColumns.event(
                        milliseconds: row["t"], type: row["type"], place: row["place"], latitude: row["lat"],
                        longitude: row["lon"], text: row["text"], details: row["details"]),
                    types?.contains(event.type) ?? true
                else { return nil }
                return StoredEvent(id: row["id"], device: row["device_name"], event: event)
            }
        }
    }
}
