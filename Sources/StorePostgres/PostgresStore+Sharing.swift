import Foundation
import GPSCore
import PostgresNIO
import TrackModel

extension PostgresStoring {
    static func userID(_ session: Session, _ name: String) throws -> Int64? {
        try session.value("SELECT id FROM account WHERE name = \(name)", as: Int64.self)
    }

    public func addShareCode(
        owner: String, codeHash: String, scopes: [String], historyHours: Int, expiresMilliseconds: Int64
    ) throws -> Bool {
        try write { session in
            guard let id = try PostgresUnit.userID(session, owner) else { return false }
            try session.execute(
                """
                INSERT INTO share_code (owner_id, code_hash, scopes, history_hours, expires_ms)
                VALUES (\(id), \(codeHash), \(scopes.joined(separator: ",")), \(historyHours), \(expiresMilliseconds))
                """)
            return true
        }
    }

    public func redeemShareCode(codeHash: String, viewer: String, now: Int64, maxFailures: Int, window: Int64) throws
        -> Redemption
    {
        let rule = ShareCodeRedemption(maxFailures: maxFailures, window: window)
        return try write { session in
            let viewerID = try PostgresUnit.userID(session, viewer)
            var failures = 0
            if let viewerID {
                // One redemption of an account at a time, across processes: the failure count holds.
                try session.execute("SELECT id FROM account WHERE id = \(viewerID) FOR UPDATE")
                failures =
                    try session.value(
                        """
                        SELECT count(*) FROM redeem_failure
                        WHERE user_id = \(viewerID) AND at_ms > \(rule.failuresSince(now: now))
                        """, as: Int.self) ?? 0
            }
            let code = try session.query("SELECT * FROM share_code WHERE code_hash = \(codeHash) FOR UPDATE").first.map
            {
                ShareCodeRedemption.Code(
                    id: try $0.get("id"), owner: try $0.get("owner_id"), scopes: try $0.get("scopes"),
                    historyHours: try $0.get("history_hours"), expires: try $0.get("expires_ms"))
            }
            switch rule.plan(viewer: viewerID, failures: failures, code: code, now: now) {
            case .refuse(let answer): return answer
            case .noteFailure:
                try session.execute("INSERT INTO redeem_failure (user_id, at_ms) VALUES (\(viewerID!), \(now))")
                return .unknown
            case .grant(let code):
                try session.execute("DELETE FROM share_code WHERE id = \(code.id)")
                try session.execute(
                    """
                    INSERT INTO share_grant (owner_id, viewer_id, scopes, history_hours, created_ms)
                    VALUES (\(code.owner), \(viewerID!), \(code.scopes), \(code.historyHours), \(now))
                    ON CONFLICT (owner_id, viewer_id) DO UPDATE SET scopes = excluded.scopes,
                        history_hours = excluded.history_hours, created_ms = excluded.created_ms, paused = false,
                        expires_ms = NULL
                    """)
                return .granted(try PostgresUnit.grants(session, ownerID: code.owner, viewerID: viewerID!)[0])
            }
        }
    }

    /// The grants of an owner, of a viewer, or between the two, by owner then viewer.
    static func grants(_ session: Session, ownerID: Int64?, viewerID: Int64?, owner: String? = nil) throws -> [Grant] {
        let select = """
            SELECT o.name AS owner, v.name AS viewer, g.scopes, g.history_hours, g.created_ms, g.paused, g.expires_ms
            FROM share_grant g JOIN account o ON o.id = g.owner_id JOIN account v ON v.id = g.viewer_id
            """
        let rows: [PostgresRandomAccessRow]
        // The two lookups a phone's point can make, prepared each with its own condition (one
        // statement with optional conditions would be planned again at every use).
        switch (ownerID, viewerID, owner) {
        case (nil, let viewer?, nil):
            rows = try session.query(
                prepared: Prepared.GrantsOfViewer.self, "\(unescaped: select) WHERE g.viewer_id = \(viewer)")
        case (nil, nil, let owner?):
            rows = try session.query(
                prepared: Prepared.GrantsOfOwner.self, "\(unescaped: select) WHERE o.name = \(owner)")
        default:
            rows = try session.query(
                """
                \(unescaped: select)
                WHERE (\(ownerID)::bigint IS NULL OR g.owner_id = \(ownerID)::bigint)
                  AND (\(viewerID)::bigint IS NULL OR g.viewer_id = \(viewerID)::bigint)
                  AND (\(owner)::text IS NULL OR o.name = \(owner)::text)
                """)
        }
        return try rows.map(grant).sorted { ($0.owner, $0.viewer) < ($1.owner, $1.viewer) }
    }

    /// The grant of a row with its columns (`owner`, `viewer`, `scopes`, ...).
    static func grant(_ row: PostgresRandomAccessRow) throws -> Grant {
        Grant(
            owner: try row.get("owner"), viewer: try row.get("viewer"),
            scopes: try row.get("scopes", as: String.self).split(separator: ",").map(String.init),
            historyHours: try row.get("history_hours"), createdMilliseconds: try row.get("created_ms"),
            paused: try row.get("paused"), expiresMilliseconds: try row.optional("expires_ms"))
    }

    public func grants(owner: String) throws -> [Grant] {
        try read { session in try PostgresUnit.grants(session, ownerID: nil, viewerID: nil, owner: owner) }
    }

    public func grants(viewer: String) throws -> [Grant] {
        try read { session in
            guard let id = try PostgresUnit.userID(session, viewer) else { return [] }
            return try PostgresUnit.grants(session, ownerID: nil, viewerID: id)
        }
    }

    public func revokeGrant(owner: String, viewer: String) throws -> Bool {
        try write { session in
            let changed =
                try session.execute(
                    """
                    DELETE FROM share_grant g USING account o, account v
                    WHERE o.id = g.owner_id AND v.id = g.viewer_id AND o.name = \(owner) AND v.name = \(viewer)
                    """) > 0
            if changed { try announceGrant(session, viewer: viewer) }
            return changed
        }
    }

    /// Tells the other server processes that a grant of `viewer` changed (on commit).
    func announceGrant(_ session: Session, viewer: String) throws {
        try session.execute(
            """
            SELECT pg_notify(\(PostgresStore.channel),
                json_build_object('kind', 'grant', 'from', \(instance)::text, 'viewer', \(viewer)::text)::text)
            """)
    }

    public func updateGrant(owner: String, viewer: String, paused: Bool, expiresMilliseconds: Int64?) throws -> Bool {
        try write { session in
            let changed =
                try session.execute(
                    """
                    UPDATE share_grant g SET paused = \(paused), expires_ms = \(expiresMilliseconds)
                    FROM account o, account v
                    WHERE o.id = g.owner_id AND v.id = g.viewer_id AND o.name = \(owner) AND v.name = \(viewer)
                    """) > 0
            if changed { try announceGrant(session, viewer: viewer) }
            return changed
        }
    }

    /// One query: the devices, their state and their newest points (the index read backwards).
    public func recentPoints(account: String, device: String?, limit: Int) throws -> [RecentDevice] {
        try read { session in
            let rows = try session.query(
                prepared: Prepared.RecentPoints.self,
                """
                SELECT d.name AS device, s.battery, s.accuracy, \(unescaped: PostgresStore.positionColumns)
                FROM device d JOIN account a ON a.id = d.user_id LEFT JOIN device_state s ON s.device_id = d.id
                CROSS JOIN LATERAL (SELECT \(unescaped: PostgresStore.positionColumns) FROM position
                                    WHERE device_id = d.id ORDER BY t DESC LIMIT \(limit)) p
                WHERE a.name = \(account) AND (\(device)::text IS NULL OR d.name = \(device)::text)
                ORDER BY d.name COLLATE "C", p.t
                """)
            var result: [RecentDevice] = []
            for row in rows {
                let name = try row.get("device", as: String.self)
                if result.last?.device != name {
                    result.append(
                        RecentDevice(
                            device: name, fixes: [], battery: try row.optional("battery"),
                            accuracy: try row.optional("accuracy")))
                }
                result[result.count - 1].fixes.append(try PostgresStore.fix(row))
            }
            return result
        }
    }

    public func liveView(owner: String, device: String, viewers: Set<String>, limit: Int) throws -> LiveView {
        try read { session in
            try PostgresStore.liveViews(
                session.query(
                    prepared: Prepared.LiveView.self,
                    PostgresStore.liveViewQuery(
                        [OwnedDevice(owner: owner, device: device)], viewers: viewers, limit: limit)),
                count: 1)[0]
        }
    }

    public func points(account: String, fromMilliseconds: Int64, toMilliseconds: Int64) throws -> [(
        device: String, fix: Fix
    )] {
        try read { session in
            try session.query(
                """
                SELECT d.name, \(unescaped: PostgresStore.positionColumns) FROM position p
                JOIN device d ON d.id = p.device_id JOIN account a ON a.id = d.user_id
                WHERE a.name = \(account) AND p.t >= \(fromMilliseconds) AND p.t < \(toMilliseconds)
                ORDER BY p.t, d.name COLLATE "C"
                """
            ).map { (try $0.get("name"), try PostgresStore.fix($0)) }
        }
    }

    public func pointCells(
        account: String, cellDegrees: Double, fromMilliseconds from: Int64, toMilliseconds to: Int64
    ) throws -> [PointCell] {
        // Stored coordinates are 1e-7 degrees; shifted to be never negative, so that integer
        // division floors.
        let size = max(1, Int64((cellDegrees * 1e7).rounded()))
        return try read { session in
            try session.query(
                """
                SELECT (p.lat::bigint + 900000000) / \(size) AS r, (p.lon::bigint + 1800000000) / \(size) AS c,
                    count(*) AS n
                FROM position p JOIN device d ON d.id = p.device_id JOIN account a ON a.id = d.user_id
                WHERE a.name = \(account) AND p.t >= \(from) AND p.t < \(to) GROUP BY r, c ORDER BY r, c
                """
            ).map { row in
                let (r, c, n): (Int64, Int64, Int64) = (try row.get("r"), try row.get("c"), try row.get("n"))
                return PointCell(row: Int(r), column: Int(c), count: Int(n))
            }
        }
    }

    public func setDeviceState(_ device: DeviceID, atMilliseconds: Int64, battery: Double?, accuracy: Double?) throws {
        // One statement: its own transaction.
        _ = try read { session in
            try session.query(
                prepared: Prepared.DeviceState.self,
                """
                INSERT INTO device_state (device_id, at_ms, battery, accuracy)
                VALUES (\(device.rawValue), \(atMilliseconds), \(battery)::float8, \(accuracy)::float8)
                \(unescaped: DeviceStateUpdate.conflictClause)
                """)
        }
    }
}

extension PostgresStore {
    /// One statement for any number of devices: each grant of a device's owner to one of
    /// `viewers`, with each of that device's newest points (none without a grant; the grants
    /// alone when the device has no point), by the device's place in `devices` (`i`, from 1).
    /// `r` is materialized: else the planner reads every device's points again for each grant.
    static func liveViewQuery(_ devices: [OwnedDevice], viewers: Set<String>, limit: Int) -> PostgresQuery {
        """
        WITH k AS (
            SELECT k.i, k.owner, k.device, o.id AS owner_id
            FROM unnest(\(devices.map(\.owner))::text[], \(devices.map(\.device))::text[]) WITH ORDINALITY
                AS k(owner, device, i)
            JOIN account o ON o.name = k.owner
        ),
        g AS (
            SELECT k.i, k.owner, v.name AS viewer, g.scopes, g.history_hours, g.created_ms, g.paused,
                g.expires_ms
            FROM k JOIN share_grant g ON g.owner_id = k.owner_id JOIN account v ON v.id = g.viewer_id
            WHERE v.name = ANY(\(viewers.sorted())::text[])
        ),
        r AS MATERIALIZED (
            SELECT k.i AS ri, d.name AS device, s.battery, s.accuracy, p.*
            FROM k JOIN device d ON d.user_id = k.owner_id AND d.name = k.device
            LEFT JOIN device_state s ON s.device_id = d.id
            CROSS JOIN LATERAL (SELECT \(unescaped: positionColumns) FROM position
                                WHERE device_id = d.id ORDER BY t DESC LIMIT \(limit)) p
            WHERE EXISTS (SELECT FROM g WHERE g.i = k.i)
        )
        SELECT g.*, r.* FROM g LEFT JOIN r ON r.ri = g.i ORDER BY g.i, g.viewer, r.t
        """
    }

    /// The live views of ``liveViewQuery(_:viewers:limit:)``'s rows, `count` devices.
    static func liveViews(_ rows: [PostgresRandomAccessRow], count: Int) throws -> [LiveView] {
        var views = Array(repeating: LiveView(grants: [], recent: nil), count: count)
        for row in rows {
            let i = Int(try row.get("i", as: Int64.self)) - 1
            guard views.indices.contains(i) else { continue }
            let grant = try PostgresUnit.grant(row)
            if views[i].grants.last?.viewer != grant.viewer { views[i].grants.append(grant) }
            // The points come again with each grant: those of the first are kept.
            guard views[i].grants.count == 1, try row.optional("t", as: Int64.self) != nil else { continue }
            if views[i].recent == nil {
                views[i].recent = RecentDevice(
                    device: try row.get("device"), fixes: [], battery: try row.optional("battery"),
                    accuracy: try row.optional("accuracy"))
            }
            views[i].recent?.fixes.append(try PostgresStore.fix(row))
        }
        return views.map { LiveView(grants: $0.grants.sorted { $0.viewer < $1.viewer }, recent: $0.recent) }
    }
}
