import Foundation
import GPSCore
import PostgresNIO
import TrackModel

/// Removal, as the SQLite store does it. PostgreSQL keeps a deleted row's bytes in its files
/// until VACUUM (autovacuum) reuses the space; docs/STORE.md says how to make sure sooner.
extension PostgresStoring {
    public func remove(records ids: [Int64], account: String?) throws -> (removal: Removal, missing: [Int64]) {
        let outcome = try write { session -> Result<(Removal, [String]), RemovalPlan.Missing> in
            let found = try session.query(
                """
                SELECT id, t, manual, device_id FROM record WHERE id = ANY(\(ids))
                AND user_id = (SELECT id FROM account WHERE name = \(account ?? PostgresStore.localUser))
                ORDER BY id
                """
            ).map {
                RemovalPlan.Record(
                    id: try $0.get("id"), milliseconds: try $0.get("t"), manual: try $0.get("manual"),
                    device: try $0.optional("device_id"))
            }
            switch RemovalPlan.records(ids, found: found) {
            case .failure(let missing): return .failure(missing)
            case .success(let plan): return .success(try PostgresStore.carryOut(plan, account: account, session))
            }
        }
        switch outcome {
        case .failure(let missing): return (Removal(), missing.ids)
        case .success(let (removal, files)): return (finishRemoval(removal, files), [])
        }
    }

    public func remove(ride id: Int64, account: String?) throws -> Removal? {
        let result = try write { session -> (Removal, [String])? in
            guard let ride = try session.query("SELECT start_ms, end_ms, device_id FROM ride WHERE id = \(id)").first,
                let plan = RemovalPlan.ride(
                    id, device: try ride.get("device_id"), start: try ride.get("start_ms"), end: try ride.get("end_ms"),
                    accountDevices: try PostgresUnit.deviceIDs(session, DeviceFilter(account: account)))
            else { return nil }
            return try PostgresStore.carryOut(plan, account: account, session)
        }
        guard let (removal, files) = result else { return nil }
        return finishRemoval(removal, files)
    }

    public func remove(fromMilliseconds from: Int64, toMilliseconds to: Int64, days: [CivilDate], account: String?)
        throws -> Removal
    {
        let (removal, files) = try write { session -> (Removal, [String]) in
            let plan = RemovalPlan.time(
                from: from, to: to, days: days,
                accountDevices: try PostgresUnit.deviceIDs(session, DeviceFilter(account: account)))
            return try PostgresStore.carryOut(plan, account: account, session)
        }
        return finishRemoval(removal, files)
    }
}

extension PostgresStore {
    /// Carries out `plan` for `account`: deletes what it names and counts what went; returns the
    /// count and the photo files no record uses any more.
    static func carryOut(_ plan: RemovalPlan, account: String?, _ session: Session) throws -> (Removal, [String]) {
        var removal = Removal()
        let name = account ?? PostgresStore.localUser
        var records = plan.records
        if let span = plan.recordsAtPoints {
            records += try session.values(
                """
                SELECT id FROM record WHERE NOT manual AND device_id = ANY(\(span.devices))
                AND t >= \(span.from) AND t < \(span.to)
                """, as: Int64.self)
        }
        if let range = plan.recordsInTime {
            records += try session.values(
                """
                SELECT id FROM record WHERE user_id = (SELECT id FROM account WHERE name = \(name))
                AND t >= \(range.lowerBound) AND t <= \(range.upperBound)
                """, as: Int64.self)
        }
        if !records.isEmpty {
            try PostgresUnit.countAttachments(session, records: records, into: &removal)
            removal.records += try session.execute("DELETE FROM record WHERE id = ANY(\(records))")
        }
        for span in plan.points {
            try PostgresUnit.deletePoints(session, of: span.devices, from: span.from, to: span.to, into: &removal)
        }
        // The ride is gone with its last point unless another ride's points overlapped it.
        if let ride = plan.ride, try session.execute("DELETE FROM ride WHERE id = \(ride)") > 0 { removal.rides += 1 }
        if !plan.daySummaries.isEmpty {
            removal.daySummaries += try session.execute(
                """
                DELETE FROM day_summary WHERE user_id = (SELECT id FROM account WHERE name = \(name))
                AND day = ANY(\(plan.daySummaries.map(\.description)))
                """)
        }
        return (removal, try PostgresUnit.deleteUnreferencedPhotos(session))
    }
}

extension PostgresStoring {
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
        if let rides = RemovalPlan.shrinkRides(Set(rides)) {
            removal.rides += try session.execute(PostgresQuery(unsafeSQL: rides.delete))
            try session.execute(PostgresQuery(unsafeSQL: rides.shrink))
        }
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
            files, in: mediaDirectory, afterCommit: access.afterCommit)
        return removal
    }
}
