import Foundation
import GPSCore
internal import GRDB

/// Removal for good: rows are deleted with `secure_delete` on (their bytes are zeroed in the
/// file), the WAL is checkpointed and truncated afterwards, and photo files no longer referenced
/// are deleted from the media folder.
extension SQLiteStoring {
    /// Removes records of the account's diary by id. A record of a stored point takes the point
    /// with it (the point is the place); ids it does not have are returned in `missing` and nothing
    /// is removed then.
    public func remove(records ids: [Int64], account: String?) throws -> (removal: Removal, missing: [Int64]) {
        let outcome = try pool.write { db -> Result<(Removal, [String]), RemovalPlan.Missing> in
            var found: [RemovalPlan.Record] = []
            for id in Array(Set(ids)).sorted() {
                if let row = try Row.fetchOne(
                    db, sql: "SELECT id, t, manual, device_id FROM record WHERE id = ? AND \(Self.ofAccount)",
                    arguments: [id, account ?? TrackStore.localUser])
                {
                    found.append(
                        RemovalPlan.Record(
                            id: row["id"], milliseconds: row["t"], manual: (row["manual"] as Int) != 0,
                            device: row["device_id"]))
                }
            }
            switch RemovalPlan.records(ids, found: found) {
            case .failure(let missing): return .failure(missing)
            case .success(let plan): return .success(try Self.carryOut(plan, account: account, db))
            }
        }
        switch outcome {
        case .failure(let missing): return (Removal(), missing.ids)
        case .success(let (removal, files)): return (try finishRemoval(removal, files), [])
        }
    }

    /// Removes a ride of the account's devices: its points, segments, drop counts and the records
    /// of its points (manual records in its time stay). Nil when it has no such ride.
    public func remove(ride id: Int64, account: String?) throws -> Removal? {
        let result = try pool.write { db -> (Removal, [String])? in
            guard
                let ride = try Row.fetchOne(
                    db, sql: "SELECT start_ms, end_ms, device_id FROM ride WHERE id = ?", arguments: [id]),
                let plan = RemovalPlan.ride(
                    id, device: ride["device_id"], start: ride["start_ms"], end: ride["end_ms"],
                    accountDevices: try Self.deviceIDs(db, DeviceFilter(account: account)))
            else { return nil }
            return try Self.carryOut(plan, account: account, db)
        }
        guard let (removal, files) = result else { return nil }
        return try finishRemoval(removal, files)
    }

    /// Removes everything of the account in `[from, to)`: its devices' points, its records (manual
    /// ones too) and what they carry, and its day summaries of `days`. Rides and segments shrink to
    /// what is left, or go.
    public func remove(fromMilliseconds from: Int64, toMilliseconds to: Int64, days: [CivilDate] = [], account: String?)
        throws -> Removal
    {
        let (removal, files) = try pool.write { db -> (Removal, [String]) in
            let plan = RemovalPlan.time(
                from: from, to: to, days: days, accountDevices: try Self.deviceIDs(db, DeviceFilter(account: account)))
            return try Self.carryOut(plan, account: account, db)
        }
        return try finishRemoval(removal, files)
    }

    /// Carries out `plan` for `account`: deletes what it names and counts what went; returns the
    /// count and the photo files no record uses any more.
    static func carryOut(_ plan: RemovalPlan, account: String?, _ db: Database) throws -> (Removal, [String]) {
        var removal = Removal()
        let name = account ?? TrackStore.localUser
        var records: [(condition: String, arguments: StatementArguments)] = []
        if !plan.records.isEmpty {
            let marks = Array(repeating: "?", count: plan.records.count).joined(separator: ", ")
            records.append(("id IN (\(marks))", StatementArguments(plan.records)))
        }
        if let span = plan.recordsAtPoints, !span.devices.isEmpty {
            let marks = Array(repeating: "?", count: span.devices.count).joined(separator: ", ")
            records.append(
                (
                    "manual = 0 AND device_id IN (\(marks)) AND t >= ? AND t < ?",
                    StatementArguments(span.devices) + [span.from, span.to]
                ))
        }
        if let range = plan.recordsInTime {
            records.append(("\(Self.ofAccount) AND t >= ? AND t <= ?", [name, range.lowerBound, range.upperBound]))
        }
        for (condition, arguments) in records {
            try Self.countAttachments(
                db, "record_id IN (SELECT id FROM record WHERE \(condition))", arguments, into: &removal)
            try db.execute(sql: "DELETE FROM record WHERE \(condition)", arguments: arguments)
            removal.records += db.changesCount
        }
        for span in plan.points {
            try Self.deletePoints(db, of: span.devices, from: span.from, to: span.to, into: &removal)
        }
        // The ride is gone with its last point unless another ride's points overlapped it.
        if let ride = plan.ride {
            try db.execute(sql: "DELETE FROM ride WHERE id = ?", arguments: [ride])
            removal.rides += db.changesCount
        }
        for day in plan.daySummaries {
            try db.execute(
                sql: "DELETE FROM day_summary WHERE \(Self.ofAccount) AND day = ?", arguments: [name, day.description])
            removal.daySummaries += db.changesCount
        }
        return (removal, try Self.deleteUnreferencedPhotos(db, into: &removal))
    }

    /// Counts the notes, photo links and fields of the records matching `condition`.
    static func countAttachments(
        _ db: Database, _ condition: String, _ arguments: StatementArguments, into removal: inout Removal
    ) throws {
        removal.notes +=
            try Int.fetchOne(db, sql: "SELECT count(*) FROM note WHERE \(condition)", arguments: arguments)
            ?? 0
        removal.photos +=
            try Int.fetchOne(db, sql: "SELECT count(*) FROM record_photo WHERE \(condition)", arguments: arguments) ?? 0
        removal.fields +=
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM field WHERE \(condition)", arguments: arguments) ?? 0
    }

    /// Deletes the points of `devices` in `[from, to)` and shrinks (or deletes) the segments and
    /// rides that held them.
    static func deletePoints(
        _ db: Database, of devices: [Int64], from: Int64, to: Int64, into removal: inout Removal
    ) throws {
        for device in devices {
            try db.execute(
                sql: "DELETE FROM point WHERE key >= ? AND key < ?", arguments: keyRange(device, from: from, to: to))
            removal.points += db.changesCount
            // The events found in those points go with them.
            try db.execute(
                sql: "DELETE FROM event WHERE device_id = ? AND t >= ? AND t < ?", arguments: [device, from, to])
            removal.events += db.changesCount
        }
        try shrinkSegmentsAndRides(db, from: from, to: to, into: &removal)
    }

    /// After points in `[from, to)` were deleted: shrinks the segments and rides that reach into
    /// that range to the points they have left, and deletes those left empty.
    static func shrinkSegmentsAndRides(_ db: Database, from: Int64, to: Int64, into removal: inout Removal) throws {
        let segments = try Row.fetchAll(
            db, sql: "SELECT id, ride_id, device_id, start_ms, end_ms FROM segment WHERE end_ms >= ? AND start_ms < ?",
            arguments: [from, to])
        var rides = Set<Int64>()
        for s in segments {
            let id: Int64 = s["id"]
            rides.insert(s["ride_id"])
            let left = try Row.fetchOne(
                db,
                sql: """
                    SELECT min(key) AS a, max(key) AS b, count(*) AS n FROM point WHERE key >= ? AND key < ?
                    """,
                arguments: keyRange(s["device_id"], from: s["start_ms"], to: (s["end_ms"] as Int64) + 1))!
            if (left["n"] as Int) == 0 {
                try db.execute(sql: "DELETE FROM segment WHERE id = ?", arguments: [id])
            } else {
                try db.execute(
                    sql: "UPDATE segment SET start_ms = ?, end_ms = ?, point_count = ? WHERE id = ?",
                    arguments: [
                        PointKey.milliseconds(ofKey: left["a"]), PointKey.milliseconds(ofKey: left["b"]),
                        left["n"] as Int, id,
                    ])
            }
        }
        if let rides = RemovalPlan.shrinkRides(rides) {
            try db.execute(sql: rides.delete)
            removal.rides += db.changesCount
            try db.execute(sql: rides.shrink)
        }
    }

    /// Deletes photo rows no record uses; returns their files (inside the media folder).
    static func deleteUnreferencedPhotos(_ db: Database, into removal: inout Removal) throws -> [String] {
        let files = try String.fetchAll(
            db, sql: "SELECT file FROM photo WHERE sha256 NOT IN (SELECT sha256 FROM record_photo)")
        try db.execute(sql: "DELETE FROM photo WHERE sha256 NOT IN (SELECT sha256 FROM record_photo)")
        return files
    }

    /// After the transaction: checkpoint and truncate the WAL, delete orphaned photo files.
    private func finishRemoval(_ removal: Removal, _ files: [String]) throws -> Removal {
        var removal = removal
        try checkpoint()
        removal.photoFilesDeleted += MediaFolder.release(
            files, in: mediaDirectory, afterCommit: pool.afterCommit)
        return removal
    }
}
