import Foundation
import GPSCore
internal import GRDB

extension SQLiteStoring {
    static func userID(_ db: Database, _ name: String) throws -> Int64? {
        // Asked by nearly every operation: a statement compiled once per connection.
        try Int64.fetchOne(db.cachedStatement(sql: #"SELECT id FROM "user" WHERE name = ?"#), arguments: [name])
    }

    public func addShareCode(
        owner: String, codeHash: String, scopes: [String], historyHours: Int, expiresMilliseconds: Int64
    ) throws -> Bool {
        try pool.write { db in
            guard let id = try Self.userID(db, owner) else { return false }
            try ShareCodeRow(
                ownerId: id, codeHash: codeHash, scopes: scopes.joined(separator: ","), historyHours: historyHours,
                expiresMs: expiresMilliseconds
            ).insert(db)
            return true
        }
    }

    public func redeemShareCode(codeHash: String, viewer: String, now: Int64, maxFailures: Int, window: Int64) throws
        -> Redemption
    {
        let rule = ShareCodeRedemption(maxFailures: maxFailures, window: window)
        return try pool.write { db in
            let viewerID = try Self.userID(db, viewer)
            let failures = try viewerID.map {
                try RedeemFailureRow.filter(Column("user_id") == $0 && Column("at_ms") > rule.failuresSince(now: now))
                    .fetchCount(db)
            }
            let code = try ShareCodeRow.filter(Column("code_hash") == codeHash).fetchOne(db).map {
                ShareCodeRedemption.Code(
                    id: $0.id!, owner: $0.ownerId, scopes: $0.scopes, historyHours: $0.historyHours,
                    expires: $0.expiresMs)
            }
            switch rule.plan(viewer: viewerID, failures: failures ?? 0, code: code, now: now) {
            case .refuse(let answer): return answer
            case .noteFailure:
                try RedeemFailureRow(userId: viewerID!, atMs: now).insert(db)
                return .unknown
            case .grant(let code):
                _ = try ShareCodeRow.deleteOne(db, key: code.id)
                let grant = GrantRow(
                    ownerId: code.owner, viewerId: viewerID!, scopes: code.scopes, historyHours: code.historyHours,
                    createdMs: now)
                try grant.insert(db, onConflict: .replace)
                return .granted(try Self.grant(db, grant)!)
            }
        }
    }

    static func grant(_ db: Database, _ row: GrantRow) throws -> Grant? {
        guard let owner = try UserRow.fetchOne(db, key: row.ownerId),
            let viewer = try UserRow.fetchOne(db, key: row.viewerId)
        else { return nil }
        return Grant(
            owner: owner.name, viewer: viewer.name, scopes: row.scopes.split(separator: ",").map(String.init),
            historyHours: row.historyHours, createdMilliseconds: row.createdMs, paused: row.paused,
            expiresMilliseconds: row.expiresMs)
    }

    public func grants(owner: String) throws -> [Grant] {
        try pool.read { db in try Self.grants(db, ownerNamed: owner).sorted { $0.viewer < $1.viewer } }
    }

    public func grants(viewer: String) throws -> [Grant] {
        try pool.read { db in try Self.grants(db, viewerNamed: viewer).sorted { $0.owner < $1.owner } }
    }

    /// The grants of the owner `ownerNamed` or to the viewer `viewerNamed`, with their names, in
    /// one statement compiled once per connection (a live view asks for them with every point).
    static func grants(_ db: Database, ownerNamed owner: String? = nil, viewerNamed viewer: String? = nil) throws
        -> [Grant]
    {
        let side = owner != nil ? "o" : "v"
        let statement = try db.cachedStatement(
            sql: """
                SELECT o.name, v.name, g.scopes, g.history_hours, g.created_ms, g.paused, g.expires_ms
                FROM "grant" g JOIN "user" o ON o.id = g.owner_id JOIN "user" v ON v.id = g.viewer_id
                WHERE \(side).name = ?
                """)
        return try Row.fetchAll(statement, arguments: [owner ?? viewer]).map { row in
            Grant(
                owner: row[0], viewer: row[1], scopes: (row[2] as String).split(separator: ",").map(String.init),
                historyHours: row[3], createdMilliseconds: row[4], paused: row[5], expiresMilliseconds: row[6])
        }
    }

    public func revokeGrant(owner: String, viewer: String) throws -> Bool {
        try pool.write { db in
            guard let o = try Self.userID(db, owner), let v = try Self.userID(db, viewer) else { return false }
            return try GrantRow.deleteOne(db, key: ["owner_id": o, "viewer_id": v])
        }
    }

    public func updateGrant(owner: String, viewer: String, paused: Bool, expiresMilliseconds: Int64?) throws -> Bool {
        try pool.write { db in
            guard let o = try Self.userID(db, owner), let v = try Self.userID(db, viewer),
                var row = try GrantRow.fetchOne(db, key: ["owner_id": o, "viewer_id": v])
            else { return false }
            row.paused = paused
            row.expiresMs = expiresMilliseconds
            try row.update(db)
            return true
        }
    }

    public func recentPoints(account: String, device: String?, limit: Int) throws -> [RecentDevice] {
        try pool.read { db in
            // Asked with every point a friend watches live: statements compiled once per connection.
            guard let id = try Self.userID(db, account) else { return [] }
            let devices =
                if let device {
                    try Row.fetchAll(
                        db.cachedStatement(sql: "SELECT id, name FROM device WHERE user_id = ? AND name = ?"),
                        arguments: [id, device])
                } else {
                    try Row.fetchAll(
                        db.cachedStatement(sql: "SELECT id, name FROM device WHERE user_id = ? ORDER BY name"),
                        arguments: [id])
                }
            let points = try db.cachedStatement(
                sql: "SELECT \(PointKey.columns) FROM point WHERE key >= ? AND key < ? ORDER BY key DESC LIMIT ?")
            let states = try db.cachedStatement(sql: "SELECT battery, accuracy FROM device_state WHERE device_id = ?")
            return try devices.compactMap { d in
                let device: Int64 = d[0]
                let rows = try Row.fetchAll(
                    points, arguments: Self.keyRange(device, from: PointKey.earliest, to: PointKey.latest) + [limit])
                guard !rows.isEmpty else { return nil }
                let state = try Row.fetchOne(states, arguments: [device])
                return RecentDevice(
                    device: d[1], fixes: rows.reversed().map(Fix.init(storedRow:)), battery: state?[0],
                    accuracy: state?[1])
            }
        }
    }

    public func points(account: String, fromMilliseconds: Int64, toMilliseconds: Int64) throws -> [(
        device: String, fix: Fix
    )] {
        try pool.read { db in
            guard let id = try Self.userID(db, account) else { return [] }
            var all: [(device: String, fix: Fix)] = []
            for d in try DeviceRow.filter(Column("user_id") == id).fetchAll(db) {
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT \(PointKey.columns) FROM point WHERE key >= ? AND key < ? ORDER BY key",
                    arguments: Self.keyRange(d.id!, from: fromMilliseconds, to: toMilliseconds))
                while let row = try rows.next() { all.append((d.name, Fix(storedRow: row))) }
            }
            return all.sorted { ($0.fix.unixMilliseconds!, $0.device) < ($1.fix.unixMilliseconds!, $1.device) }
        }
    }

    public func pointCells(
        account: String, cellDegrees: Double, fromMilliseconds from: Int64, toMilliseconds to: Int64
    ) throws -> [PointCell] {
        // Stored coordinates are 1e-7 degrees; shifted to be never negative, so that integer
        // division floors.
        let size = max(1, Int64((cellDegrees * 1e7).rounded()))
        return try pool.read { db in
            guard let id = try Self.userID(db, account) else { return [] }
            var counts: [Int64: Int] = [:]
            for d in try DeviceRow.filter(Column("user_id") == id).fetchAll(db) {
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT (lat + 900000000) / ? AS r, (lon + 1800000000) / ? AS c, count(*) AS n FROM point
                        WHERE key >= ? AND key < ? GROUP BY r, c
                        """,
                    arguments: StatementArguments([size, size]) + Self.keyRange(d.id!, from: from, to: to))
                while let row = try rows.next() {
                    let r: Int64 = row["r"]
                    let c: Int64 = row["c"]
                    counts[r << 32 | c, default: 0] += row["n"]
                }
            }
            return counts.keys.sorted().map {
                PointCell(row: Int($0 >> 32), column: Int($0 & 0xFFFF_FFFF), count: counts[$0]!)
            }
        }
    }

    public func setDeviceState(_ device: DeviceID, atMilliseconds: Int64, battery: Double?, accuracy: Double?) throws {
        try pool.write { db in
            try Self.setDeviceState(
                db, device, DeviceStateUpdate(milliseconds: atMilliseconds, battery: battery, accuracy: accuracy))
        }
    }

    static func setDeviceState(_ db: Database, _ device: DeviceID, _ state: DeviceStateUpdate) throws {
        try db.run(
            sql: "INSERT INTO device_state (device_id, at_ms, battery, accuracy) VALUES (?, ?, ?, ?) "
                + DeviceStateUpdate.conflictClause,
            arguments: [device.rawValue, state.milliseconds, state.battery, state.accuracy])
    }

    @discardableResult
    public func addDeviceMessage(_ device: DeviceID, type: String, receivedMilliseconds: Int64, body: String) throws
        -> Bool
    {
        try pool.write { db in
            let known = try Row.fetchOne(
                db, sql: "SELECT 1 FROM device_message WHERE device_id = ? AND type = ? AND body = ?",
                arguments: [device.rawValue, type, body])
            guard known == nil else { return false }
            try DeviceMessageRow(deviceId: device.rawValue, receivedMs: receivedMilliseconds, type: type, body: body)
                .insert(db)
            return true
        }
    }

    public func deviceMessages(account: String) throws -> [DeviceMessage] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT d.name, m.received_ms, m.type, m.body FROM device_message m
                    JOIN device d ON d.id = m.device_id JOIN user u ON u.id = d.user_id
                    WHERE u.name = ? ORDER BY m.received_ms, m.id
                    """, arguments: [account]
            ).map { DeviceMessage(device: $0[0], receivedMilliseconds: $0[1], type: $0[2], body: $0[3]) }
        }
    }
}
