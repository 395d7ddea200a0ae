import Foundation
import GPSCore
internal import GRDB

/// Points of any time, each placed among the device's stored segments and rides by
/// ``PointPlacement`` (the phones' path: a late point goes where it belongs, once). Each statement
/// is compiled once per connection (a phone's batch is a few of them).
extension TrackWriter {
    /// Stores `points` (any order, any time) in one transaction, each in the segment and ride
    /// its neighbours in time give it; a millisecond the device has is skipped. `drops` (reason →
    /// count) go to the ride of the newest point placed, or the device's latest ride. Returns
    /// the points added. With `state`, the device's state moves on in the same transaction.
    public func place(_ points: [KeptPoint], drops: [String: Int], rule: PointPlacement, state: DeviceStateUpdate?)
        throws -> Int
    {
        let d = device.rawValue
        let added = try store.pool.write { db -> Int in
            // A phone's device whose token was revoked since the server read it stores nothing.
            guard
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT revoked_ms IS NULL FROM device WHERE id = ?"), arguments: [d])
                    == true
            else { throw DeviceRevoked(device: device) }
            let insert = try db.cachedStatement(
                sql:
                    "INSERT OR IGNORE INTO point (\(PointKey.insertColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
            func span(_ sql: String, _ t: Int64) throws -> PointPlacement.Span? {
                try Row.fetchOne(db.cachedStatement(sql: sql), arguments: [d, t]).map {
                    PointPlacement.Span(segment: $0[0], ride: $0[1], start: $0[2], end: $0[3])
                }
            }
            // Counts are added once at the end; ranges at once, as the next point's neighbours depend on them.
            var tally = PlacementTally()
            var added = 0
            for p in points.sorted(by: { $0.milliseconds < $1.milliseconds }) where PointKey.holds(p.milliseconds) {
                let t = p.milliseconds
                // Not inserted: this millisecond is stored.
                guard try Self.insert(p, with: insert, device: device, db) else { continue }
                added += 1
                let before = try span(
                    "SELECT id, ride_id, start_ms, end_ms FROM segment WHERE device_id = ? AND start_ms <= ? ORDER BY start_ms DESC LIMIT 1",
                    t)
                let after = try span(
                    "SELECT id, ride_id, start_ms, end_ms FROM segment WHERE device_id = ? AND start_ms > ? ORDER BY start_ms LIMIT 1",
                    t)
                let plan = rule.plan(at: t, before: before, after: after)
                let ride: Int64
                if let id = plan.ride {
                    ride = id
                } else {
                    try RideRow(deviceId: d, startMs: t, endMs: t, pointCount: 0).insert(db)
                    ride = db.lastInsertedRowID
                }
                if let absorbed = plan.absorbedRide {
                    try db.run(
                        sql: "UPDATE segment SET ride_id = ? WHERE ride_id = ?", arguments: [ride, absorbed])
                    try db.run(
                        sql: """
                            INSERT INTO drop_count (ride_id, reason, count)
                            SELECT ?, reason, count FROM drop_count WHERE ride_id = ? AND true
                            ON CONFLICT (ride_id, reason) DO UPDATE SET count = count + excluded.count
                            """, arguments: [ride, absorbed])
                    try db.run(
                        sql: """
                            UPDATE ride SET start_ms = min(ride.start_ms, o.start_ms), end_ms = max(ride.end_ms, o.end_ms),
                                point_count = ride.point_count + o.point_count
                            FROM (SELECT start_ms, end_ms, point_count FROM ride WHERE id = ?) AS o WHERE ride.id = ?
                            """, arguments: [absorbed, ride])
                    try db.run(sql: "DELETE FROM ride WHERE id = ?", arguments: [absorbed])
                }
                let segment: Int64
                if let id = plan.segment {
                    segment = id
                } else {
                    try SegmentRow(rideId: ride, deviceId: d, startMs: t, endMs: t, pointCount: 0).insert(db)
                    segment = db.lastInsertedRowID
                }
                if let absorbed = plan.absorbedSegment {
                    try db.run(
                        sql: """
                            UPDATE segment SET start_ms = min(segment.start_ms, o.start_ms),
                                end_ms = max(segment.end_ms, o.end_ms), point_count = segment.point_count + o.point_count
                            FROM (SELECT start_ms, end_ms, point_count FROM segment WHERE id = ?) AS o WHERE segment.id = ?
                            """, arguments: [absorbed, segment])
                    try db.run(sql: "DELETE FROM segment WHERE id = ?", arguments: [absorbed])
                }
                try db.run(
                    sql:
                        "UPDATE segment SET ride_id = ?, start_ms = min(start_ms, ?), end_ms = max(end_ms, ?) WHERE id = ?",
                    arguments: [ride, t, t, segment])
                try db.run(
                    sql: "UPDATE ride SET start_ms = min(start_ms, ?), end_ms = max(end_ms, ?) WHERE id = ?",
                    arguments: [t, t, ride])
                tally.placed(at: t, segment: segment, ride: ride, plan: plan)
            }
            for (id, n) in tally.segments {
                try db.run(
                    sql: "UPDATE segment SET point_count = point_count + ? WHERE id = ?", arguments: [n, id])
            }
            for (id, n) in tally.rides {
                try db.run(sql: "UPDATE ride SET point_count = point_count + ? WHERE id = ?", arguments: [n, id])
            }
            let dropRide =
                try tally.dropRide
                ?? Int64.fetchOne(
                    db.cachedStatement(sql: "SELECT id FROM ride WHERE device_id = ? ORDER BY end_ms DESC LIMIT 1"),
                    arguments: [d])
            if let dropRide {
                for (reason, count) in drops where count > 0 {
                    try db.run(
                        sql: """
                            INSERT INTO drop_count (ride_id, reason, count) VALUES (?, ?, ?)
                            ON CONFLICT (ride_id, reason) DO UPDATE SET count = count + excluded.count
                            """, arguments: [dropRide, reason, count])
                }
            }
            if let state, state.applies(added: added) {
                try SQLiteUnit.setDeviceState(db, device, state)
            }
            return added
        }
        stored += added
        return added
    }
}
