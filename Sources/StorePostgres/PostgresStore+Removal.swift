import Foundation
import GPSCore
import PostgresNIO
import TrackModel

/// Removal, as the SQLite store does it. PostgreSQL keeps a deleted row's bytes in its files
/// until VACUUM (autovacuum) reuses the space; docs/STORE.md says how to make sure sooner.
extension PostgresStoring {
    public func remove(records ids: [Int64], account: String?) throws -> (removal: Removal, missing: [Int64]) {
        let (removal, missing, files) = try write { session -> (Removal, [Int64], [String]) in
            let rows = try session.query(
                """
                SELECT id, t, manual, device_id FROM record WHERE id = ANY(\(ids))
                AND user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser))
                """)
            let found = Set(try rows.map { try $0.get("id", as: Int64.self) })
            let missing = ids.filter { !found.contains($0) }
            guard missing.isEmpty else { return (Removal(), missing, []) }
            var removal = Removal()
            try PostgresStore.countAttachments(session, records: Array(found), into: &removal)
            removal.records += try session.execute("DELETE FROM record WHERE id = ANY(\(Array(found)))")
            for row in rows where !(try row.get("manual", as: Bool.self)) {
                guard let device = try row.optional("device_id", as: Int64.self) else { continue }
                let t = try row.get("t", as: Int64.self)
                try PostgresStore.deletePoints(session, of: [device], from: t, to: t + 1, into: &removal)
            }
            return (removal, [], try PostgresStore.deleteUnreferencedPhotos(session))
        }
        return (finishRemoval(removal, files), missing)
    }

    public func remove(ride id: Int64, account: String?) throws -> Removal? {
        let result = try write { session -> (Removal, [String])? in
            guard let ride = try session.query("SELECT start_ms, end_ms, device_id FROM ride WHERE id = \(id)").first,
                try PostgresStore.deviceIDs(session, DeviceFilter(account: account)).contains(ride.get("device_id"))
            else { return nil }
            let start = try ride.get("start_ms", as: Int64.self)
            let end = try ride.get("end_ms", as: Int64.self)
            let device = try ride.get("device_id", as: Int64.self)
            var removal = Removal()
            let records = try session.values(
                "SELECT id FROM record WHERE NOT manual AND device_id = \(device) AND t >= \(start) AND t <= \(end)",
                as: Int64.self)
            try PostgresStore.countAttachments(session, records: records, into: &removal)
            removal.records += try session.execute("DELETE FROM record WHERE id = ANY(\(records))")
            try PostgresStore.deletePoints(session, of: [device], from: start, to: end + 1, into: &removal)
            // The ride is gone with its last point unless another ride's points overlapped it.
            if try session.execute("DELETE FROM ride WHERE id = \(id)") > 0 { removal.rides += 1 }
            return (removal, try PostgresStore.deleteUnreferencedPhotos(session))
        }
        guard let (removal, files) = result else { return nil }
        return finishRemoval(removal, files)
    }

    public func remove(fromMilliseconds from: Int64, toMilliseconds to: Int64, days: [CivilDate], account: String?)
        throws -> Removal
    {
        let (removal, files) = try write { session -> (Removal, [String]) in
            var removal = Removal()
            let user = try session.value(
                "SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser)", as: Int64.self)
            let records = try session.values(
                "SELECT id FROM record WHERE user_id = \(user) AND t >= \(from) AND t < \(to)", as: Int64.self)
            try PostgresStore.countAttachments(session, records: records, into: &removal)
            removal.records += try session.execute("DELETE FROM record WHERE id = ANY(\(records))")
            try PostgresStore.deletePoints(
                session, of: try PostgresStore.deviceIDs(session, DeviceFilter(account: account)), from: from, to: to,
                into: &removal)
            removal.daySummaries += try session.execute(
                "DELETE FROM day_summary WHERE user_id = \(user) AND day = ANY(\(days.map(\.description)))")
            return (removal, try PostgresStore.deleteUnreferencedPhotos(session))
        }
        return finishRemoval(removal, files)
    }

    /// Counts the notes, photo links and fields of `records`.
    static func countAttachments(_ session: Session, records: [Int64], into removal: inout Removal) throws {
        let row = try session.query(
            """
            SELECT (SELECT count(*) FROM note WHERE record_id = ANY(\(records))) AS notes,
                   (SELECT count(*) FROM record_photo WHERE record_id = ANY(\(records))) AS photos,
                   (SELECT count(*) FROM field WHERE record_id = ANY(\(records))) AS fields
            """)[0]
        removal.notes += try row.get("notes", as: Int.self)
        removal.photos += try row.get("photos", as: Int.self)
        removal.fields += try row.get("fields", as: Int.self)
    }

    /// Deletes the positions of `devices` in `[from, to)`, shrinks (or deletes) the segments and
    /// rides that held them, and sets the devices' PostgresStore.latest positions again.
    static func deletePoints(
        _ session: Session, of devices: [Int64], from: Int64, to: Int64, into removal: inout Removal
    )
        throws
    {
        removal.points += try session.execute(
            "DELETE FROM position WHERE device_id = ANY(\(devices)) AND t >= \(from) AND t < \(to)")
        // The events found in those positions go with them.
        removal.events += try session.execute(
            "DELETE FROM event WHERE device_id = ANY(\(devices)) AND t >= \(from) AND t < \(to)")
        try shrinkSegmentsAndRides(session, from: from, to: to, into: &removal)
        try PostgresWriter.refreshLatest(session, devices: devices)
    }

    /// Removes the positions an earlier import stored (not those a record is attached to),
    /// shrinking or removing the segments and rides that held them. Returns how many went.
    static func deletePoints(_ session: Session, of earlier: StoredImport) throws -> Int {
        guard let start = earlier.startMilliseconds, let end = earlier.endMilliseconds else { return 0 }
        let devices = try session.values(
            "SELECT id FROM device WHERE user_id = (SELECT user_id FROM import WHERE id = \(earlier.id))",
            as: Int64.self)
        let removed = try session.execute(
            """
            DELETE FROM position p WHERE p.device_id = ANY(\(devices)) AND p.t >= \(start) AND p.t <= \(end)
            AND p.import_id = \(earlier.id)
            AND NOT EXISTS (SELECT 1 FROM record r WHERE NOT r.manual AND r.device_id = p.device_id AND r.t = p.t)
            """)
        var removal = Removal()
        try shrinkSegmentsAndRides(session, from: start, to: end + 1, into: &removal)
        try PostgresWriter.refreshLatest(session, devices: devices)
        return removed
    }

    /// After positions in `[from, to)` were deleted: shrinks the segments and rides reaching into
    /// that range to the positions they have left, and deletes those left empty.
    static func shrinkSegmentsAndRides(_ session: Session, from: Int64, to: Int64, into removal: inout Removal)
        throws
    {
        let rides = try session.values(
            """
            WITH left_over AS (
                SELECT s.id, x.a, x.b, x.n FROM segment s
                CROSS JOIN LATERAL (SELECT min(t) AS a, max(t) AS b, count(*) AS n FROM position p
                                    WHERE p.device_id = s.device_id AND p.t >= s.start_ms AND p.t <= s.end_ms) x
                WHERE s.end_ms >= \(from) AND s.start_ms < \(to)
            ),
            emptied AS (
                DELETE FROM segment s USING left_over l WHERE s.id = l.id AND l.n = 0 RETURNING s.ride_id
            ),
            shrunk AS (
                UPDATE segment s SET start_ms = l.a, end_ms = l.b, point_count = l.n
                FROM left_over l WHERE s.id = l.id AND l.n > 0 RETURNING s.ride_id
            )
            SELECT ride_id FROM emptied UNION SELECT ride_id FROM shrunk
            """, as: Int64.self)
        guard !rides.isEmpty else { return }
        try session.execute(
            """
            UPDATE ride r SET start_ms = x.a, end_ms = x.b, point_count = x.n
            FROM (SELECT ride_id, min(start_ms) AS a, max(end_ms) AS b, sum(point_count) AS n FROM segment
                  WHERE ride_id = ANY(\(rides)) GROUP BY ride_id) x
            WHERE r.id = x.ride_id AND x.n > 0
            """)
        removal.rides += try session.execute(
            """
            DELETE FROM ride r WHERE r.id = ANY(\(rides))
            AND coalesce((SELECT sum(point_count) FROM segment s WHERE s.ride_id = r.id), 0) = 0
            """)
    }

    /// Deletes photo rows no record uses; returns their files (inside the media folder).
    static func deleteUnreferencedPhotos(_ session: Session) throws -> [String] {
        try session.values(
            "DELETE FROM photo WHERE sha256 NOT IN (SELECT sha256 FROM record_photo) RETURNING file", as: String.self)
    }

    /// After the transaction: deletes the photo files no record uses any more.
    private func finishRemoval(_ removal: Removal, _ files: [String]) -> Removal {
        var removal = removal
        removal.photoFilesDeleted += MediaFolder.release(
            files, in: mediaDirectory, afterCommit: access.inUnit ? access.afterCommit : nil)
        return removal
    }
}
