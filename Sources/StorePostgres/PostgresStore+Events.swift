import Foundation
import GPSCore
import PostgresNIO
import TrackModel

extension PostgresStoring {
    /// The account's id (the local user, made when missing, for nil); nil when there is no such account.
    static func accountID(_ session: Session, _ account: String?) throws -> Int64? {
        guard let account else { return try localUserID(session) }
        return try userID(session, account)
    }

    public func places(account: String?) throws -> [Place] {
        try read { session in
            try session.query(
                """
                SELECT p.name, p.lat, p.lon, p.radius_m, p.polygon, p.source FROM place p
                JOIN account a ON a.id = p.user_id WHERE a.name = \(account ?? PostgresStore.localUser) ORDER BY p.name
                """
            ).map {
                EventColumns.place(
                    name: try $0.get("name"), latitude: try $0.get("lat"), longitude: try $0.get("lon"),
                    radius: try $0.get("radius_m"), polygon: try $0.get("polygon"), source: try $0.get("source"))
            }
        }
    }

    public func addPlace(_ place: Place, account: String?) throws -> Bool {
        try write { session in
            guard let user = try PostgresUnit.accountID(session, account) else { return false }
            return try PostgresUnit.insertPlace(session, place, user: user, replacing: false) > 0
        }
    }

    public func savePlace(_ place: Place, account: String) throws -> Bool {
        try write { session in
            guard let user = try PostgresUnit.userID(session, account) else { return false }
            _ = try PostgresUnit.insertPlace(session, place, user: user, replacing: true)
            return true
        }
    }

    private static func insertPlace(_ session: Session, _ place: Place, user: Int64, replacing: Bool) throws -> Int {
        let polygon = EventColumns.polygon(place.polygon)
        let now = UTCTimestamp.now()
        let insert: PostgresQuery = """
            INSERT INTO place (user_id, name, lat, lon, radius_m, polygon, source, created_ms)
            VALUES (\(user), \(place.name), \(place.center.latitude), \(place.center.longitude), \(place.radius),
                \(polygon), \(place.source), \(now))
            """
        let conflict =
            replacing
            ? """
             ON CONFLICT (user_id, name) DO UPDATE SET lat = excluded.lat, lon = excluded.lon,
                radius_m = excluded.radius_m, polygon = excluded.polygon, source = excluded.source
            """ : " ON CONFLICT (user_id, name) DO NOTHING"
        return try session.execute(PostgresQuery(unsafeSQL: insert.sql + conflict, binds: insert.binds))
    }

    public func removePlace(named name: String, account: String?) throws -> Bool {
        try write { session in
            try session.execute(
                """
                DELETE FROM place WHERE name = \(name)
                AND user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser))
                """) > 0
        }
    }

    public func addEvents(_ events: [TrailEvent], device: DeviceID, viewer: String?) throws -> Int {
        guard !events.isEmpty else { return 0 }
        return try write { session in
            var user: Int64? = nil
            if let viewer {
                guard let id = try PostgresUnit.userID(session, viewer) else { return 0 }
                user = id
            }
            return try PostgresUnit.insertEvents(session, events, device: device.rawValue, user: user)
        }
    }

    /// All of them in one statement (arrays unnested), in the list of `user` (the device's
    /// account when nil).
    static func insertEvents(_ session: Session, _ events: [TrailEvent], device: Int64, user: Int64? = nil) throws
        -> Int
    {
        guard !events.isEmpty else { return 0 }
        guard
            let owner = try user
                ?? session.value("SELECT user_id FROM device WHERE id = \(device)", as: Int64.self)
        else { return 0 }
        let tags = events.map(EventColumns.tag)
        let times = events.map(\.milliseconds)
        let types = events.map(\.type.rawValue)
        let places = events.map { $0.place ?? "" }
        // Arrays hold no NULLs here: NaN stands for no position, a flag for no text.
        let lats = events.map { $0.coordinate?.latitude ?? .nan }
        let lons = events.map { $0.coordinate?.longitude ?? .nan }
        let texts = events.map { $0.text ?? "" }
        let hasText = events.map { $0.text != nil }
        let details = events.map { EventColumns.details($0.details) }
        return try session.execute(
            """
            INSERT INTO event (user_id, device_id, t, type, place, tag, lat, lon, text, details)
            SELECT \(owner), \(device), u.t, u.type, u.place, u.tag, nullif(u.lat, 'NaN'), nullif(u.lon, 'NaN'),
                   CASE WHEN u.has_text THEN u.text END, u.details
            FROM unnest(\(times)::bigint[], \(types)::text[], \(places)::text[], \(tags)::text[],
                        \(lats)::double precision[], \(lons)::double precision[], \(texts)::text[],
                        \(hasText)::boolean[], \(details)::text[])
                 AS u(t, type, place, tag, lat, lon, text, has_text, details)
            ON CONFLICT (user_id, device_id, t, type, place, tag) DO NOTHING
            """)
    }

    @discardableResult
    public func moveEvent(_ id: Int64, toMilliseconds milliseconds: Int64, coordinate: Coordinate?, account: String?)
        throws -> Bool
    {
        try write { session in
            let user = try session.value(
                "SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser)", as: Int64.self)
            let moved = try session.execute(
                """
                UPDATE event e SET t = \(milliseconds), lat = coalesce(\(coordinate?.latitude), e.lat),
                    lon = coalesce(\(coordinate?.longitude), e.lon)
                WHERE e.id = \(id) AND e.user_id = \(user) AND NOT EXISTS (
                    SELECT 1 FROM event o WHERE o.user_id = e.user_id AND o.device_id = e.device_id
                    AND o.t = \(milliseconds) AND o.type = e.type AND o.place = e.place AND o.tag = e.tag AND o.id <> e.id)
                """)
            if moved > 0 { return true }
            // The same event is there at that time already: this one goes.
            return try session.execute("DELETE FROM event WHERE id = \(id) AND user_id = \(user)") > 0
        }
    }

    public func events(
        fromMilliseconds from: Int64, toMilliseconds to: Int64, types: Set<TrailEventType>?, account: String?
    ) throws -> [StoredEvent] {
        try read { session in
            try session.query(
                """
                SELECT e.id, e.t, e.type, e.place, e.lat, e.lon, e.text, e.details, d.name AS device_name
                FROM event e JOIN device d ON d.id = e.device_id JOIN account a ON a.id = e.user_id
                WHERE a.name = \(account ?? PostgresStore.localUser) AND e.t >= \(from) AND e.t < \(to) ORDER BY e.t, e.id
                """
            ).compactMap { row -> StoredEvent? in
                guard
                    let event = EventColumns.event(
                        milliseconds: try row.get("t"), type: try row.get("type"), place: try row.get("place"),
                        latitude: try row.get("lat"), longitude: try row.get("lon"), text: try row.get("text"),
                        details: try row.get("details")),
                    types?.contains(event.type) ?? true
                else { return nil }
                return StoredEvent(id: try row.get("id"), device: try row.get("device_name"), event: event)
            }
        }
    }
}
