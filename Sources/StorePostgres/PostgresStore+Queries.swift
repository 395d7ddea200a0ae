import Foundation
import GPSCore
import PostgresNIO
import TrackModel

extension PostgresStoring {
    // MARK: devices

    public func device(named name: String) throws -> DeviceID {
        try write { session in try PostgresUnit.device(session, named: name) }
    }

    /// The local user's device `name`, made (with the user) on first use; safe when two
    /// processes make the same one at once.
    public func device(named name: String, account: String?) throws -> DeviceID? {
        guard let account else { return try device(named: name) }
        return try write { session in
            try session.value("SELECT id FROM account WHERE name = \(account)", as: Int64.self).map {
                try PostgresUnit.device(session, named: name, user: $0)
            }
        }
    }

    static func device(_ session: Session, named name: String, user: Int64? = nil) throws -> DeviceID {
        let user = try user ?? localUserID(session)
        let now = UTCTimestamp.now()
        try session.execute(
            """
            INSERT INTO device (user_id, name, created_ms) VALUES (\(user), \(name), \(now))
            ON CONFLICT (user_id, name) DO NOTHING
            """)
        let id = try session.value("SELECT id FROM device WHERE user_id = \(user) AND name = \(name)", as: Int64.self)
        return DeviceID(rawValue: id!)
    }

    /// The local user's id, the user made when missing.
    static func localUserID(_ session: Session) throws -> Int64 {
        let now = UTCTimestamp.now()
        try session.execute(
            "INSERT INTO account (name, created_ms) VALUES (\(PostgresStore.localUser), \(now)) ON CONFLICT (name) DO NOTHING"
        )
        return try session.value("SELECT id FROM account WHERE name = \(PostgresStore.localUser)", as: Int64.self)!
    }

    public func devices() throws -> [StoredDevice] {
        try read { session in
            try session.query(
                """
                SELECT d.id, d.name FROM device d JOIN account a ON a.id = d.user_id
                WHERE a.name = \(PostgresStore.localUser) ORDER BY d.name
                """
            ).map { StoredDevice(id: DeviceID(rawValue: try $0.get("id")), name: try $0.get("name")) }
        }
    }

    /// The local user's device ids a filter covers (empty when the named device does not exist).
    static func deviceIDs(_ session: Session, _ filter: DeviceFilter) throws -> [Int64] {
        switch filter {
        case .all:
            return try session.values(
                "SELECT d.id FROM device d JOIN account a ON a.id = d.user_id WHERE a.name = \(PostgresStore.localUser) ORDER BY d.id",
                as: Int64.self)
        case .named(let name):
            return try session.values(
                """
                SELECT d.id FROM device d JOIN account a ON a.id = d.user_id
                WHERE a.name = \(PostgresStore.localUser) AND d.name = \(name)
                """, as: Int64.self)
        case .account(let account, let name):
            return try session.values(
                """
                SELECT d.id FROM device d JOIN account a ON a.id = d.user_id
                WHERE a.name = \(account) AND (\(name)::text IS NULL OR d.name = \(name)) ORDER BY d.id
                """, as: Int64.self)
        }
    }

    /// Names of devices by id.
    static func deviceNames(_ session: Session) throws -> [Int64: String] {
        var names: [Int64: String] = [:]
        for row in try session.query("SELECT id, name FROM device") { names[try row.get("id")] = try row.get("name") }
        return names
    }

    // MARK: points and rides

    public func rides(fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter) throws
        -> [StoredRide]
    {
        try read { session in
            let ids = try PostgresUnit.deviceIDs(session, devices)
            return try session.query(
                """
                SELECT r.id, r.start_ms, r.end_ms, r.point_count, d.name AS device,
                       (SELECT count(*) FROM segment s WHERE s.ride_id = r.id) AS segments,
                       coalesce((SELECT array_agg(reason ORDER BY reason) FROM drop_count c WHERE c.ride_id = r.id),
                                '{}') AS reasons,
                       coalesce((SELECT array_agg(count ORDER BY reason) FROM drop_count c WHERE c.ride_id = r.id),
                                '{}') AS counts
                FROM ride r JOIN device d ON d.id = r.device_id
                WHERE r.device_id = ANY(\(ids)) AND r.end_ms >= \(from) AND r.start_ms < \(to)
                ORDER BY r.start_ms, r.device_id
                """
            ).map { row in
                let reasons = try row.get("reasons", as: [String].self)
                let counts = try row.get("counts", as: [Int64].self)
                return StoredRide(
                    id: try row.get("id"), device: try row.get("device"), startMilliseconds: try row.get("start_ms"),
                    endMilliseconds: try row.get("end_ms"), pointCount: try row.get("point_count"),
                    segmentCount: try row.get("segments"),
                    drops: Dictionary(uniqueKeysWithValues: zip(reasons, counts.map(Int.init))))
            }
        }
    }

    public func points(fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter) throws -> [Fix] {
        try read { session in
            let ids = try PostgresUnit.deviceIDs(session, devices)
            return try session.query(
                """
                SELECT \(unescaped: PostgresStore.positionColumns) FROM position
                WHERE device_id = ANY(\(ids)) AND t >= \(from) AND t < \(to) ORDER BY t, device_id
                """
            ).map(PostgresStore.fix)
        }
    }

    /// Points of a ride, in time order; empty when there is no such ride.
    public func points(ride id: Int64) throws -> [Fix] {
        try read { session in
            try session.query(
                """
                SELECT \(unescaped: PostgresStore.positionColumns) FROM position p JOIN ride r ON r.device_id = p.device_id
                WHERE r.id = \(id) AND p.t >= r.start_ms AND p.t <= r.end_ms ORDER BY p.t
                """
            ).map(PostgresStore.fix)
        }
    }

    /// A point belongs to the last segment of its device that starts at or before it.
    public func pointsWithSegments(fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter)
        throws -> [PlacedPoint]
    {
        try read { session in
            let ids = try PostgresUnit.deviceIDs(session, devices)
            let rows = try session.query(
                """
                SELECT \(unescaped: PostgresStore.positionColumns), s.id AS segment, s.ride_id AS ride, d.name AS device
                FROM position p JOIN device d ON d.id = p.device_id
                CROSS JOIN LATERAL (
                    SELECT id, ride_id FROM segment
                    WHERE device_id = p.device_id AND start_ms <= p.t ORDER BY start_ms DESC LIMIT 1) s
                WHERE p.device_id = ANY(\(ids)) AND p.t >= \(from) AND p.t < \(to)
                ORDER BY p.t, p.device_id
                """)
            return try rows.map { row in
                (try PostgresStore.fix(row), try row.get("ride"), try row.get("segment"), try row.get("device"))
            }
        }
    }

    public func rideRange(_ id: Int64) throws -> (start: Int64, end: Int64)? {
        try read { session in
            guard let row = try session.query("SELECT start_ms, end_ms FROM ride WHERE id = \(id)").first else {
                return nil
            }
            return (try row.get("start_ms"), try row.get("end_ms"))
        }
    }

    public func importedFiles(account: String?) throws -> [String: StoredImport] {
        try read { session in
            var found: [String: StoredImport] = [:]
            for row in try session.query(
                """
                SELECT * FROM import
                WHERE user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser))
                """)
            {
                found[try row.get("sha256")] = try PostgresUnit.storedImport(row)
            }
            return found
        }
    }

    static func storedImport(_ row: PostgresRandomAccessRow) throws -> StoredImport {
        StoredImport(
            id: try row.get("id"), name: try row.get("name"), importedMilliseconds: try row.get("imported_ms"),
            points: try row.get("points"), startMilliseconds: try row.optional("start_ms"),
            endMilliseconds: try row.optional("end_ms"))
    }

    // MARK: points as places

    public func latestPoint(devices: DeviceFilter) throws -> Fix? {
        try read { session in
            let ids = try PostgresUnit.deviceIDs(session, devices)
            return try session.query(
                """
                SELECT \(unescaped: PostgresStore.positionColumns) FROM latest_position WHERE device_id = ANY(\(ids))
                ORDER BY t DESC, device_id LIMIT 1
                """
            ).first.map(PostgresStore.fix)
        }
    }

    public func nearestPoint(to ms: Int64, within: Int64, devices: DeviceFilter) throws -> Fix? {
        try read { session in try PostgresUnit.nearestPoint(session, ms, within, devices)?.fix }
    }

    /// The point of `devices` nearest `ms` within `within` ms, with its device; the lower device
    /// id wins a tie.
    static func nearestPoint(_ session: Session, _ ms: Int64, _ within: Int64, _ devices: DeviceFilter) throws -> (
        fix: Fix, device: Int64
    )? {
        let ids = try deviceIDs(session, devices)
        let (low, under) = ms.subtractingReportingOverflow(within)
        let (high, over) = ms.addingReportingOverflow(within)
        let rows = try session.query(
            """
            SELECT * FROM (
                (SELECT \(unescaped: PostgresStore.positionColumns), device_id FROM position
                 WHERE device_id = ANY(\(ids)) AND t <= \(ms) AND t >= \(under ? .min : low) ORDER BY t DESC, device_id LIMIT 1)
                UNION ALL
                (SELECT \(unescaped: PostgresStore.positionColumns), device_id FROM position
                 WHERE device_id = ANY(\(ids)) AND t > \(ms) AND t <= \(over ? .max : high) ORDER BY t, device_id LIMIT 1)
            ) n ORDER BY abs(t - \(ms)), device_id, t LIMIT 1
            """)
        guard let row = rows.first else { return nil }
        return (try PostgresStore.fix(row), try row.get("device_id"))
    }
}
