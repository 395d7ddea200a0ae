import Foundation
import GPSCore
import PostgresNIO
import TrackModel

/// Writes a device's kept points into the PostgreSQL store, as the SQLite store's writer does:
/// run-local ride and segment numbers become stored rides and segments made by their first
/// stored point, a millisecond the device has is skipped, and a point inside a stored ride's or
/// segment's range continues it. Each batch is one transaction, under the device's advisory
/// lock; its points go in as arrays (one statement per 20,000), its newest becomes the device's
/// latest position, and the commit is announced on ``PostgresStore/positionChannel``.
final class PostgresWriter: TrackWriting {
    /// The unit of work it writes in.
    let store: any PostgresStoring
    let device: DeviceID
    /// The stored rides and segments of the run's numbers.
    var numbering = RunNumbering()
    var stored = 0
    /// The batches whose one point its insert placed (``insertLocked(_:_:placing:)``).
    var placedByInsert = 0
    /// Of those, the ones whose statement was its unit's transaction (``PostgresUnit/alone(_:)``).
    var placedAlone = 0

    init(store: any PostgresStoring, device: DeviceID) {
        self.store = store
        self.device = device
    }

    @discardableResult
    func write(_ points: [KeptPoint], drops: [Int: [String: Int]]) throws -> Int {
        let points = points.filter {
            $0.milliseconds >= PostgresStore.earliest && $0.milliseconds <= PostgresStore.latest
        }
        try store.ensurePartitions(Set(points.map { PostgresStore.month(of: $0.milliseconds) }))
        var numbering = self.numbering
        let d = device.rawValue
        let added = try store.write { session -> Int in
            var inserted = try Self.insert(session, device: device, points, importID: nil, locking: true)
            // A millisecond the device had was skipped.
            let fresh = points.filter { inserted.remove($0.milliseconds) != nil }
            let times = fresh.map(\.milliseconds)
            func stored(_ table: String) throws -> [StoredRange] {
                guard let first = times.min(), let last = times.max() else { return [] }
                return try Self.overlapping(session, table, device: device, from: first, to: last)
            }
            let plan = numbering.plan(
                fresh: fresh, drops: drops, storedRides: try stored("ride"), storedSegments: try stored("segment"))
            var madeRides: [Int64] = []
            for t in plan.newRides {
                madeRides.append(
                    try session.value(
                        """
                        INSERT INTO ride (device_id, start_ms, end_ms, point_count) VALUES (\(d), \(t), \(t), 0)
                        RETURNING id
                        """, as: Int64.self)!)
            }
            var madeSegments: [Int64] = []
            for s in plan.newSegments {
                madeSegments.append(
                    try session.value(
                        """
                        INSERT INTO segment (ride_id, device_id, start_ms, end_ms, point_count)
                        VALUES (\(s.ride.id(madeRides)), \(d), \(s.start), \(s.start), 0) RETURNING id
                        """, as: Int64.self)!)
            }
            try Self.finish(
                session, device: device, segments: plan.segments.map { ($0.key.id(madeSegments), $0.value) },
                rides: plan.rides.map { ($0.key.id(madeRides), $0.value) }, announcing: !fresh.isEmpty,
                newestAtLeast: times.max() ?? .min, store: store)
            for (ride, reasons) in plan.drops {
                for (reason, count) in reasons {
                    try Self.addDrops(session, ride: ride.id(madeRides), reason: reason, count: count)
                }
            }
            numbering.settle(plan, madeRides: madeRides, madeSegments: madeSegments)
            return fresh.count
        }
        self.numbering = numbering
        stored += added
        return added
    }

    /// The device's rows of `table` (ride or segment) that may overlap `[start, end]`: the one
    /// that starts last before it and those that start inside it (stored rows of one table do not
    /// overlap each other).
    static func overlapping(
        _ session: Session, _ table: String, device: DeviceID, from start: Int64, to end: Int64, withNext: Bool = false
    ) throws -> [StoredRange] {
        // With the first row after the range (``KnownGaps`` learns where the empty time ends).
        let next = withNext ? Int64.max : end
        let rows = try session.query(
            """
            (SELECT id, start_ms, end_ms FROM \(unescaped: table) WHERE device_id = \(device.rawValue) AND start_ms < \(start)
             ORDER BY start_ms DESC, id LIMIT 1)
            UNION ALL
            (SELECT id, start_ms, end_ms FROM \(unescaped: table)
             WHERE device_id = \(device.rawValue) AND start_ms >= \(start) AND start_ms <= \(end) ORDER BY start_ms, id)
            UNION ALL
            (SELECT id, start_ms, end_ms FROM \(unescaped: table)
             WHERE device_id = \(device.rawValue) AND start_ms > \(end) AND start_ms <= \(next) ORDER BY start_ms, id
             LIMIT 1)
            """)
        return try rows.map {
            StoredRange(
                id: try $0.get("id", as: Int64.self), start: try $0.get("start_ms", as: Int64.self),
                end: try $0.get("end_ms", as: Int64.self))
        }
    }

    /// Adds points and widens ranges of `segments` and `rides` (an extent's start and end move
    /// out to take it in; `.max`/`.min` leave them), and with `announcing`, sets the device's
    /// latest position from its stored positions (none left: no row) and announces the change to
    /// the listening servers when the transaction commits (``PostgresStore/announcements()``).
    /// With `state`, the device's state moves on too. `newestAtLeast`: a time the device's newest
    /// point is known to have reached (a point the batch added), so that only the month
    /// partitions from it on are looked in, not every month the device ever had. One statement:
    /// a batch's last round trip before its commit.
    static func finish(
        _ session: Session, device: DeviceID, segments: [(id: Int64, extent: RunNumbering.Extent)] = [],
        rides: [(id: Int64, extent: RunNumbering.Extent)] = [], announcing: Bool, newestAtLeast: Int64 = .min,
        state: DeviceStateUpdate? = nil, store: any PostgresStoring
    ) throws {
        guard !segments.isEmpty || !rides.isEmpty || announcing || state != nil else { return }
        let s = segments.sorted { $0.id < $1.id }
        let r = rides.sorted { $0.id < $1.id }
        let columns = PostgresStore.positionColumns
        let d = device.rawValue
        // Data-modifying CTEs run to completion whether or not the query reads them.
        try session.query(
            prepared: Prepared.Finish.self,
            """
            WITH s AS (
                UPDATE segment SET start_ms = least(start_ms, u.a), end_ms = greatest(end_ms, u.e),
                    point_count = point_count + u.n
                FROM unnest(\(s.map(\.id))::bigint[], \(s.map(\.extent.start))::bigint[], \(s.map(\.extent.end))::bigint[],
                            \(s.map { Int64($0.extent.count) })::bigint[]) AS u(id, a, e, n)
                WHERE segment.id = u.id
            ),
            r AS (
                UPDATE ride SET start_ms = least(start_ms, u.a), end_ms = greatest(end_ms, u.e),
                    point_count = point_count + u.n
                FROM unnest(\(r.map(\.id))::bigint[], \(r.map(\.extent.start))::bigint[], \(r.map(\.extent.end))::bigint[],
                            \(r.map { Int64($0.extent.count) })::bigint[]) AS u(id, a, e, n)
                WHERE ride.id = u.id
            ),
            newest AS (
                SELECT \(unescaped: columns) FROM position
                WHERE \(announcing) AND device_id = \(d) AND t >= \(newestAtLeast) ORDER BY t DESC LIMIT 1
            ),
            kept AS (
                INSERT INTO latest_position (device_id, \(unescaped: columns))
                SELECT \(d), * FROM newest
                \(unescaped: latestConflict)
            ),
            emptied AS (
                DELETE FROM latest_position
                WHERE \(announcing) AND device_id = \(d) AND NOT EXISTS (SELECT 1 FROM newest)
            ),
            state AS (
                INSERT INTO device_state (device_id, at_ms, battery, accuracy)
                SELECT \(d), \(state?.milliseconds)::bigint, \(state?.battery)::float8, \(state?.accuracy)::float8
                WHERE \(state?.milliseconds)::bigint IS NOT NULL
                \(unescaped: DeviceStateUpdate.conflictClause)
            )
            SELECT pg_notify(\(PostgresStore.channel),
                json_build_object('kind', 'positions', 'from', \(store.instance)::text, 'account', a.name,
                                  'device', d.name)::text)
            FROM device d JOIN account a ON a.id = d.user_id
            WHERE \(announcing) AND d.id = \(d)
            """)
    }

    /// Waits for (and holds to the end of the transaction) the device's write lock.
    static func lock(_ session: Session, device: DeviceID) throws {
        try session.execute("SELECT pg_advisory_xact_lock(\(lockKey(device)))")
    }

    static func lockKey(_ device: DeviceID) -> Int64 { PostgresSchema.migrationLock + 16 + device.rawValue }

    /// Inserts the points that are new for the device; returns the times stored. With `locking`,
    /// takes the device's write lock first (as ``lock(_:device:)``), in the first insert itself,
    /// before its first row goes in: one round trip less for a phone's batch. What the batch
    /// reads next (its statements see what committed before the lock was theirs) is read under it.
    static func insert(
        _ session: Session, device: DeviceID, _ points: [KeptPoint], importID: Int64?, locking: Bool = false
    ) throws -> Set<Int64> {
        if points.isEmpty && locking { try lock(session, device: device) }
        var fresh = Set<Int64>()
        var start = 0
        while start < points.count {
            let chunk = points[start..<Swift.min(start + chunkSize, points.count)]
            // Only the first chunk takes the lock (a CTE read by the first row's join).
            let key: Int64? = locking && start == 0 ? lockKey(device) : nil
            start = chunk.endIndex
            let times = try session.values(
                prepared: Prepared.Insert.self,
                insertQuery(device: device, chunk, importID: importID, lockKey: key, around: false), as: Int64.self)
            fresh.formUnion(times)
        }
        return fresh
    }

    /// The device's points of a phone (``insert(_:device:_:importID:locking:)`` with the lock) and, read under
    /// the lock in the same statement, the segments around the earliest point that went in: the
    /// first point placed needs no read of its own. `around` is nil when nothing went in, or when
    /// the batch is more than one statement's worth (its points then read their segments each).
    /// With `placing`, the statement may place the point itself (``insertQuery(device:_:importID:lockKey:around:placing:instance:)``):
    /// `placed` says whether it did.
    func insertLocked(_ session: Session, _ points: [KeptPoint], placing: Placing? = nil) throws -> (
        fresh: Set<Int64>, around: (t: Int64, before: PointPlacement.Span?, after: PointPlacement.Span?)?, placed: Bool
    ) {
        guard !points.isEmpty, points.count <= Self.chunkSize else {
            let fresh = try Self.insert(session, device: device, points, importID: nil, locking: true)
            guard try session.value(Self.liveQuery(device), as: Bool.self) == true else { throw revoked(device) }
            return (fresh, nil, false)
        }
        var fresh = Set<Int64>()
        var around: (t: Int64, before: PointPlacement.Span?, after: PointPlacement.Span?)?
        var placed = false
        for row in try session.query(
            prepared: Prepared.InsertLocked.self,
            Self.insertQuery(
                device: device, points[...], importID: nil, lockKey: Self.lockKey(device), around: true,
                placing: placing, instance: store.instance))
        {
            switch try row.get("side", as: Int32.self) {
            case 0: around = (try row.get("t"), try Self.span(row), around?.after)
            case 1: around = (try row.get("t"), around?.before, try Self.span(row))
            case -1: fresh.insert(try row.get("t"))
            case 2: placed = true
            default: throw revoked(device)
            }
        }
        if around == nil, let first = fresh.min() { around = (first, nil, nil) }
        return (fresh, around, placed)
    }

    /// Whether `device` is there and its token not revoked (``DeviceRevoked``).
    static func liveQuery(_ device: DeviceID) -> PostgresQuery {
        "SELECT EXISTS (SELECT 1 FROM device WHERE id = \(device.rawValue) AND revoked_ms IS NULL)"
    }

    /// The error of a batch for a revoked device; its token is no longer taken from the cache.
    func revoked(_ device: DeviceID) -> DeviceRevoked {
        store.access.store.phoneDevices.forget(device)
        return DeviceRevoked(device: device)
    }

    /// A segment read by ``insertLocked(_:_:placing:)`` or a neighbours query.
    static func span(_ row: PostgresRandomAccessRow) throws -> PointPlacement.Span {
        PointPlacement.Span(
            segment: try row.get("segment"), ride: try row.get("ride"), start: try row.get("start_at"),
            end: try row.get("end_at"))
    }

    /// The points of one insert statement at most.
    static let chunkSize = 20_000

    /// What places a phone's one point in its insert (``insertLocked(_:_:placing:)``): the point
    /// continues `span`, the device's newest segment as the plan was made from it, and `state` is
    /// the device's state it brings.
    struct Placing {
        var t: Int64
        var span: PointPlacement.Span
        var state: DeviceStateUpdate?
    }

    /// The insert of `chunk`, taking the lock of `lockKey` first when there is one; with `around`,
    /// also the segments on either side of the earliest point that went in (`side` 0 and 1; the
    /// times that went in have side -1), read by `segments_around` with a snapshot taken after the
    /// lock (the statement's own was taken before it waited), and a row of side -2 when the device
    /// is revoked or gone (``DeviceRevoked``: the unit is rolled back).
    ///
    /// With `placing` too (and `around`), the statement also does what the batch's closing
    /// statement would (``finish(_:device:segments:rides:announcing:newestAtLeast:state:)``) when
    /// what it read under the lock is what the plan was made from: the point went in, the segment
    /// before it is `placing.span` as it was, and none is after it. Then it returns a row of side
    /// 2; else it changes nothing more, and the batch is placed from the rows as without.
    static func insertQuery(
        device: DeviceID, _ chunk: ArraySlice<KeptPoint>, importID: Int64?, lockKey key: Int64?, around: Bool,
        placing: Placing? = nil, instance: String? = nil
    ) -> PostgresQuery {
        let unknown = KeptPoint.unknown
        let columns = PostgresStore.positionColumns
        let tail =
            around
            ? """
            , first AS MATERIALIZED (SELECT min(t) AS t FROM ins),
            n AS MATERIALIZED (
                SELECT x.* FROM first f CROSS JOIN LATERAL segments_around((SELECT id FROM d), f.t) x WHERE f.t IS NOT NULL
            ),
            live AS MATERIALIZED (
                SELECT EXISTS (SELECT 1 FROM device, d WHERE device.id = d.id AND revoked_ms IS NULL) AS live
            ),
            ok AS MATERIALIZED (
                SELECT coalesce((SELECT live FROM live) AND (SELECT t FROM first) = pl.t
                    AND EXISTS (SELECT 1 FROM n WHERE side = 0 AND segment = pl.segment AND ride = pl.ride
                                AND start_at = pl.a AND end_at = pl.e)
                    AND NOT EXISTS (SELECT 1 FROM n WHERE side = 1), false) AS ok
                FROM pl
            ),
            \(placedWrites(when: "(SELECT ok FROM ok)"))
            SELECT -1 AS side, t, NULL::bigint AS segment, NULL::bigint AS ride, NULL::bigint AS start_at,
                   NULL::bigint AS end_at FROM ins
            UNION ALL
            SELECT n.side, f.t, n.segment, n.ride, n.start_at, n.end_at FROM first f, n
            UNION ALL
            SELECT -2, NULL, NULL, NULL, NULL, NULL WHERE NOT (SELECT live FROM live)
            UNION ALL
            SELECT 2, NULL, NULL, NULL, NULL, NULL FROM (
                \(notification(when: "(SELECT ok FROM ok)"))
            ) AS notified
            """ : "SELECT t FROM ins"
        let state = placing?.state
        return """
            WITH d AS (SELECT \(device.rawValue)::bigint AS id), pl AS (
                SELECT \(placing?.t)::bigint AS t, \(placing?.span.segment)::bigint AS segment,
                    \(placing?.span.ride)::bigint AS ride, \(placing?.span.start)::bigint AS a,
                    \(placing?.span.end)::bigint AS e, \(state?.milliseconds)::bigint AS st,
                    \(state?.battery)::float8 AS battery, \(state?.accuracy)::float8 AS accuracy,
                    \(instance)::text AS instance
            ), locked AS MATERIALIZED (
                SELECT pg_advisory_xact_lock(x.k) FROM (SELECT \(key)::bigint AS k) AS x WHERE x.k IS NOT NULL
            ), ins AS (
                INSERT INTO position (device_id, t, lat, lon, alt, speed, track, hdop, mode_sats, sensors, import_id)
                SELECT \(device.rawValue), u.t, u.lat, u.lon, nullif(u.alt, \(unknown)), nullif(u.speed, \(unknown)),
                       nullif(u.track, \(unknown)), nullif(u.hdop, \(unknown)), u.mode_sats,
                       nullif(u.sensors, \(unknown)), \(importID)::bigint
                FROM unnest(\(chunk.map(\.milliseconds))::bigint[], \(chunk.map(\.lat))::bigint[],
                            \(chunk.map(\.lon))::bigint[], \(chunk.map(\.alt))::bigint[], \(chunk.map(\.speed))::bigint[],
                            \(chunk.map(\.track))::bigint[], \(chunk.map(\.hdop))::bigint[],
                            \(chunk.map { Int64($0.modeSats) })::bigint[], \(chunk.map(\.sensors))::bigint[])
                     AS u(t, lat, lon, alt, speed, track, hdop, mode_sats, sensors)
                WHERE (SELECT count(*) FROM locked) >= 0
                ON CONFLICT DO NOTHING RETURNING \(unescaped: around ? columns : "t")
            )
            \(unescaped: tail)
            """
    }

    /// What places a phone's point in its own statement when `condition` holds (its insert `ins`
    /// returned it; `pl` is its ``Placing``): the segment and ride widened, the latest position
    /// and the device's state set. Data-modifying CTEs of ``insertQuery(device:_:importID:lockKey:around:placing:instance:)``
    /// and ``aloneQuery(device:_:placing:instance:)``.
    static func placedWrites(when condition: String) -> String {
        let columns = PostgresStore.positionColumns
        return """
            s AS (
                UPDATE segment SET start_ms = least(start_ms, pl.t), end_ms = greatest(end_ms, pl.t),
                    point_count = point_count + 1
                FROM pl WHERE segment.id = pl.segment AND \(condition)
            ),
            r AS (
                UPDATE ride SET start_ms = least(start_ms, pl.t), end_ms = greatest(end_ms, pl.t),
                    point_count = point_count + 1
                FROM pl WHERE ride.id = pl.ride AND \(condition)
            ),
            kept AS (
                INSERT INTO latest_position (device_id, \(columns))
                SELECT (SELECT id FROM d), \(columns) FROM ins WHERE \(condition)
                \(latestConflict)
                WHERE excluded.t >= latest_position.t
            ),
            state AS (
                INSERT INTO device_state (device_id, at_ms, battery, accuracy)
                SELECT (SELECT id FROM d), pl.st, pl.battery, pl.accuracy FROM pl
                WHERE pl.st IS NOT NULL AND \(condition)
                \(DeviceStateUpdate.conflictClause)
            )
            """
    }

    /// The announcement of a point placed in its own statement: a row when `condition` holds.
    static func notification(when condition: String) -> String {
        """
        SELECT pg_notify('\(PostgresStore.channel)',
            json_build_object('kind', 'positions', 'from', pl.instance, 'account', a.name, 'device', dv.name)::text)
        FROM pl, device dv JOIN account a ON a.id = dv.user_id
        WHERE dv.id = (SELECT id FROM d) AND \(condition)
        """
    }

    /// A phone's one point placed by a statement that is a transaction of its own, all or
    /// nothing: under the device's lock, it reads the segments around the point (a snapshot of
    /// its own, taken after the lock) and inserts the point only when the segment before it is
    /// `placing.span` as it was, none is after it and the device is there and not revoked; then
    /// it places it (``placedWrites(when:)``) and returns one row, the announcement's. Otherwise
    /// it writes nothing and returns no row.
    static func aloneQuery(device: DeviceID, _ point: KeptPoint, placing: Placing, instance: String)
        -> PostgresQuery
    {
        let known = { (value: Int64) -> Int64? in value == KeptPoint.unknown ? nil : value }
        let inserted = "EXISTS (SELECT 1 FROM ins)"
        let state = placing.state
        return """
            WITH d AS (SELECT \(device.rawValue)::bigint AS id), pl AS (
                SELECT \(placing.t)::bigint AS t, \(placing.span.segment)::bigint AS segment,
                    \(placing.span.ride)::bigint AS ride, \(placing.span.start)::bigint AS a, \(placing.span.end)::bigint AS e,
                    \(state?.milliseconds)::bigint AS st, \(state?.battery)::float8 AS battery,
                    \(state?.accuracy)::float8 AS accuracy, \(instance)::text AS instance
            ), ok AS MATERIALIZED (
                SELECT coalesce(bool_and(x.side = 0 AND x.segment = pl.segment AND x.ride = pl.ride
                                         AND x.start_at = pl.a AND x.end_at = pl.e), false) AS ok
                FROM pl CROSS JOIN LATERAL segments_around((SELECT id FROM d), pl.t) x
                WHERE (SELECT count(*) FROM (SELECT pg_advisory_xact_lock(\(lockKey(device)))) AS l) >= 0
                    AND EXISTS (SELECT 1 FROM device, d WHERE device.id = d.id AND revoked_ms IS NULL)
            ), ins AS (
                INSERT INTO position (device_id, t, lat, lon, alt, speed, track, hdop, mode_sats, sensors)
                SELECT (SELECT id FROM d), pl.t, \(point.lat)::bigint, \(point.lon)::bigint, \(known(point.alt))::bigint,
                       \(known(point.speed))::bigint, \(known(point.track))::bigint, \(known(point.hdop))::bigint,
                       \(Int64(point.modeSats))::bigint, \(known(point.sensors))::bigint
                FROM pl WHERE (SELECT ok FROM ok)
                ON CONFLICT DO NOTHING RETURNING \(unescaped: PostgresStore.positionColumns)
            ),
            \(unescaped: placedWrites(when: inserted))
            \(unescaped: notification(when: inserted))
            """
    }

    /// How a device's new latest position replaces the stored one.
    static let latestConflict = """
        ON CONFLICT (device_id) DO UPDATE SET t = excluded.t, lat = excluded.lat, lon = excluded.lon,
            alt = excluded.alt, speed = excluded.speed, track = excluded.track, hdop = excluded.hdop,
            mode_sats = excluded.mode_sats, sensors = excluded.sensors
        """

    static func addDrops(_ session: Session, ride: Int64, reason: String, count: Int) throws {
        try session.execute(
            """
            INSERT INTO drop_count (ride_id, reason, count) VALUES (\(ride), \(reason), \(count))
            ON CONFLICT (ride_id, reason) DO UPDATE SET count = drop_count.count + excluded.count
            """)
    }

    /// Sets the latest position of `devices` from what is stored.
    static func refreshLatest(_ session: Session, devices: [Int64]) throws {
        let columns = PostgresStore.positionColumns
        try session.execute(
            """
            INSERT INTO latest_position (device_id, \(unescaped: columns))
            SELECT d.id, p.* FROM unnest(\(devices)::bigint[]) AS d(id)
            CROSS JOIN LATERAL (SELECT \(unescaped: columns) FROM position
                                WHERE device_id = d.id ORDER BY t DESC LIMIT 1) p
            \(unescaped: latestConflict)
            """)
        try session.execute(
            """
            DELETE FROM latest_position l WHERE l.device_id = ANY(\(devices))
            AND NOT EXISTS (SELECT 1 FROM position p WHERE p.device_id = l.device_id)
            """)
    }
}

extension PostgresStoring {
    public func makeWriter(device: DeviceID) -> any TrackWriting { PostgresWriter(store: self, device: device) }
}

extension PostgresStore {
    /// The file's points are held until the end, then written in one unit of work.
    public func beginImport(device: DeviceID, file: ImportedFile?, replacing earlier: StoredImport?)
        -> any ImportWriting
    {
        DeferredImport { streams, places, accountPlaces in
            try self.writeNow {
                try $0.makeWriter(device: device).writeImport(
                    streams, places: places, accountPlaces: accountPlaces, file: file, replacing: earlier)
            }
        }
    }
}
