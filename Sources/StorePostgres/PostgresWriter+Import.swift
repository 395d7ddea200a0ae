import Foundation
import GPSCore
import PostgresNIO
import TrackModel

/// Imports, as the SQLite store does them: a file's streams in one transaction, a stream's
/// rides and segments merged with every stored one of the device whose range overlaps.
extension PostgresWriter {
    func writeImport(
        _ streams: [ImportStream], places: [ImportedPlace], accountPlaces: ImportedPlaces, file: ImportedFile?,
        replacing earlier: StoredImport?
    ) throws -> ImportOutcome {
        let inRange = { (p: KeptPoint) in
            p.milliseconds >= PostgresStore.earliest && p.milliseconds <= PostgresStore.latest
        }
        try store.ensurePartitions(
            Set(streams.flatMap { $0.points.filter(inRange).map { PostgresStore.month(of: $0.milliseconds) } }))
        let device = self.device
        return try store.write { session -> ImportOutcome in
            try Self.lock(session, device: device)
            var tally = ImportTally()
            if let earlier { tally.outcome.replacedPoints = try PostgresUnit.deletePoints(session, of: earlier) }
            var importID: Int64?
            if let file {
                if let earlier {
                    importID = earlier.id
                } else {
                    importID = try session.value(
                        """
                        INSERT INTO import (user_id, sha256, name, bytes, imported_ms, points)
                        SELECT user_id, \(file.sha256), \(file.name), \(Int64(file.bytes)), \(UTCTimestamp.now()), 0
                        FROM device WHERE id = \(device.rawValue)
                        ON CONFLICT (user_id, sha256) DO NOTHING RETURNING id
                        """, as: Int64.self)
                    // Another process imported the same file meanwhile.
                    if importID == nil {
                        tally.outcome.importedMeanwhile = true
                        tally.outcome.stored = try session.query(
                            """
                            SELECT i.* FROM import i JOIN device d ON d.user_id = i.user_id
                            WHERE d.id = \(device.rawValue) AND i.sha256 = \(file.sha256)
                            """
                        ).first.map(PostgresUnit.storedImport)
                        return tally.outcome
                    }
                }
            }
            // Streams that name a device (a Google history's phones) go to it, made in the
            // account of the import's device; each is locked as the import's is.
            var named: [String: DeviceID] = [:]
            for name in Set(streams.compactMap(\.device)).sorted() {
                let owner = try session.value(
                    "SELECT user_id FROM device WHERE id = \(device.rawValue)", as: Int64.self)
                named[name] = try PostgresUnit.device(session, named: name, user: owner)
            }
            for other in Set(named.values).subtracting([device]).sorted() { try Self.lock(session, device: other) }
            let devices = streams.map { $0.device.flatMap { named[$0] } ?? device }
            for (i, stream) in streams.enumerated() {
                let points = stream.points.filter(inRange)
                var fresh = try Self.insert(session, device: devices[i], points, importID: importID)
                for p in points where fresh.remove(p.milliseconds) != nil {
                    tally.stored(at: p.milliseconds, ride: p.ride, stream: i)
                }
            }
            var gaps = KnownGaps()
            let touched = try tally.join(
                streams, devices: devices,
                claimRide: { try Self.claim(session, device: $0, start: $1, end: $2, gaps: &gaps) },
                claimSegment: { device, ride, start, end, _ in
                    (
                        try Self.claim(session, device: device, segmentOf: ride, start: start, end: end, gaps: &gaps),
                        false
                    )
                },
                addDrops: { ride, reasons in
                    for (reason, count) in reasons {
                        try Self.addDrops(session, ride: ride, reason: reason, count: count)
                    }
                })
            for (device, rows) in touched {
                try Self.recount(session, device: device, segments: rows.segments, rides: rows.rides)
            }
            var events = 0
            for each in Set(devices) {
                let found = zip(streams, devices).filter { $0.1 == each }.flatMap(\.0.events)
                if !found.isEmpty { events += try PostgresUnit.insertEvents(session, found, device: each.rawValue) }
            }
            let close = tally.close(
                places: try PostgresUnit.insertPlaces(session, places, device: device.rawValue), events: events)
            (tally.outcome.areas, tally.outcome.visitedPlaces) = try PostgresUnit.insertAccountPlaces(
                session, accountPlaces, device: device.rawValue)
            if let importID {
                switch close {
                case .forget:
                    try session.execute("DELETE FROM import WHERE id = \(importID)")
                case .note(let points, let start, let end):
                    let now = UTCTimestamp.now()
                    try session.execute(
                        """
                        UPDATE import SET points = \(points), start_ms = \(start), end_ms = \(end),
                            imported_ms = \(now), name = \(file?.name ?? "") WHERE id = \(importID)
                        """)
                    tally.outcome.stored = StoredImport(
                        id: importID, name: file?.name ?? "", importedMilliseconds: now, points: points,
                        startMilliseconds: start, endMilliseconds: end)
                }
            }
            if tally.outcome.points > 0 || tally.outcome.replacedPoints > 0 {
                for each in Set(devices + [device]).sorted() {
                    try Self.finish(session, device: each, announcing: true, store: store)
                }
            }
            return tally.outcome
        }
    }

    /// The id of the ride (or, with `ride`, the segment of that ride) that covers `[start, end]`
    /// afterwards, as ``OverlapMerge`` plans it: the stored rows whose ranges overlap it become
    /// one (the earliest keeps its id and takes the others' segments and drop counts), or a new
    /// row when none does. Where `gaps` knows nothing is stored, nothing is read.
    static func claim(
        _ session: Session, device: DeviceID, segmentOf ride: Int64? = nil, start: Int64, end: Int64,
        gaps: inout KnownGaps
    ) throws -> Int64 {
        let table = ride == nil ? "ride" : "segment"
        let d = device.rawValue
        let plan = try gaps.plan(.init(device: device, segments: ride != nil), start: start, end: end) {
            try overlapping(session, table, device: device, from: start, to: end, withNext: true)
        }
        guard let id = plan.keep else {
            if let ride {
                return try session.value(
                    """
                    INSERT INTO segment (ride_id, device_id, start_ms, end_ms, point_count)
                    VALUES (\(ride), \(d), \(start), \(end), 0) RETURNING id
                    """, as: Int64.self)!
            }
            return try session.value(
                """
                INSERT INTO ride (device_id, start_ms, end_ms, point_count) VALUES (\(d), \(start), \(end), 0)
                RETURNING id
                """, as: Int64.self)!
        }
        if ride == nil, !plan.absorbed.isEmpty {
            try session.execute("UPDATE segment SET ride_id = \(id) WHERE ride_id = ANY(\(plan.absorbed))")
            try session.execute(
                """
                INSERT INTO drop_count (ride_id, reason, count)
                SELECT \(id), reason, sum(count) FROM drop_count WHERE ride_id = ANY(\(plan.absorbed)) GROUP BY reason
                ON CONFLICT (ride_id, reason) DO UPDATE SET count = drop_count.count + excluded.count
                """)
        }
        if !plan.absorbed.isEmpty {
            try session.execute("DELETE FROM \(unescaped: table) WHERE id = ANY(\(plan.absorbed))")
        }
        try session.execute(
            """
            UPDATE \(unescaped: table) SET start_ms = \(plan.start), end_ms = \(plan.end)
            \(unescaped: ride == nil ? "" : ", ride_id = \(ride!)") WHERE id = \(id)
            """)
        return id
    }

    /// Sets the point counts of `segments` from the positions in their ranges, and the ranges
    /// and counts of `rides` from their segments (rows merged away in between are skipped).
    static func recount(_ session: Session, device: DeviceID, segments: Set<Int64>, rides: Set<Int64>) throws {
        try session.execute(
            """
            UPDATE segment s SET point_count =
                (SELECT count(*) FROM position p
                 WHERE p.device_id = \(device.rawValue) AND p.t >= s.start_ms AND p.t <= s.end_ms)
            WHERE s.id = ANY(\(segments.sorted()))
            """)
        try session.execute(
            """
            UPDATE ride r SET start_ms = x.a, end_ms = x.b, point_count = x.n
            FROM (SELECT ride_id, min(start_ms) AS a, max(end_ms) AS b, sum(point_count) AS n
                  FROM segment WHERE ride_id = ANY(\(rides.sorted())) GROUP BY ride_id) x
            WHERE r.id = x.ride_id
            """)
    }
}
