import Foundation
import GPSCore
import PostgresNIO
import TrackModel

/// Imports, as the SQLite store does them: a file's streams in one transaction, a stream's
/// rides and segments merged with every stored one of the device whose range overlaps.
extension PostgresWriter {
    func writeImport(
        _ streams: [ImportStream], places: [ImportedPlace], file: ImportedFile?, replacing earlier: StoredImport?
    ) throws -> ImportOutcome {
        let inRange = { (p: KeptPoint) in
            p.milliseconds >= PostgresStore.earliest && p.milliseconds <= PostgresStore.latest
        }
        try store.ensurePartitions(
            Set(streams.flatMap { $0.points.filter(inRange).map { PostgresStore.month(of: $0.milliseconds) } }))
        let device = self.device
        return try store.write { session -> ImportOutcome in
            try Self.lock(session, device: device)
            var outcome = ImportOutcome()
            if let earlier { outcome.replacedPoints = try PostgresStore.deletePoints(session, of: earlier) }
            var importID: Int64?
            if let file {
                if let earlier {
                    importID = earlier.id
                } else {
                    importID = try session.value(
                        """
                        INSERT INTO import (sha256, name, bytes, imported_ms, points)
                        VALUES (\(file.sha256), \(file.name), \(Int64(file.bytes)), \(UTCTimestamp.now()), 0)
                        ON CONFLICT (sha256) DO NOTHING RETURNING id
                        """, as: Int64.self)
                    // Another process imported the same file meanwhile.
                    if importID == nil {
                        outcome.importedMeanwhile = true
                        return outcome
                    }
                }
            }
            var range: (start: Int64, end: Int64)?
            var touchedRides = Set<Int64>()
            var touchedSegments = Set<Int64>()
            for stream in streams {
                let points = stream.points.filter(inRange)
                var fresh = try Self.insert(session, device: device, points, importID: importID)
                var addedPerRide: [Int: Int] = [:]
                for p in points where fresh.remove(p.milliseconds) != nil {
                    outcome.points += 1
                    addedPerRide[p.ride, default: 0] += 1
                    let t = p.milliseconds
                    range = range.map { (Swift.min($0.start, t), Swift.max($0.end, t)) } ?? (t, t)
                }
                for ride in RideExtent.extents(of: stream.points) {
                    let rideID = try Self.claim(session, device: device, start: ride.start, end: ride.end)
                    touchedRides.insert(rideID)
                    for segment in ride.segments {
                        let segmentID = try Self.claim(
                            session, device: device, segmentOf: rideID, start: segment.start, end: segment.end)
                        try session.execute("UPDATE segment SET ride_id = \(rideID) WHERE id = \(segmentID)")
                        touchedSegments.insert(segmentID)
                    }
                    // Drops count once: with the stream that stored points of the ride.
                    guard addedPerRide[ride.number, default: 0] > 0 else { continue }
                    for (reason, count) in stream.drops[ride.number] ?? [:] {
                        try Self.addDrops(session, ride: rideID, reason: reason, count: count)
                    }
                }
            }
            try Self.recount(session, device: device, segments: touchedSegments, rides: touchedRides)
            outcome.places = try PostgresStore.insertPlaces(session, places, device: device.rawValue)
            outcome.events = try PostgresStore.insertEvents(
                session, streams.flatMap(\.events), device: device.rawValue)
            if let importID {
                if outcome.points == 0 && outcome.places == 0 && outcome.events == 0 {
                    try session.execute("DELETE FROM import WHERE id = \(importID)")
                } else {
                    try session.execute(
                        """
                        UPDATE import SET points = \(outcome.points), start_ms = \(range?.start), end_ms = \(range?.end),
                            imported_ms = \(UTCTimestamp.now()), name = \(file?.name ?? "") WHERE id = \(importID)
                        """)
                }
            }
            if outcome.points > 0 || outcome.replacedPoints > 0 {
                try Self.announce(session, device: device, store: store)
            }
            return outcome
        }
    }

    /// The id of the ride (or, with `ride`, the segment of that ride) that covers `[start, end]`:
    /// the stored rows whose ranges overlap it become one (the earliest keeps its id and takes
    /// the others' segments and drop counts), or a new row when none does.
    static func claim(_ session: Session, device: DeviceID, segmentOf ride: Int64? = nil, start: Int64, end: Int64)
        throws -> Int64
    {
        let table = ride == nil ? "ride" : "segment"
        let d = device.rawValue
        var rows = try session.query(
            """
            SELECT id, start_ms, end_ms FROM \(unescaped: table) WHERE device_id = \(d) AND start_ms < \(start)
            ORDER BY start_ms DESC, id LIMIT 1
            """
        ).filter { try $0.get("end_ms", as: Int64.self) >= start }
        rows += try session.query(
            """
            SELECT id, start_ms, end_ms FROM \(unescaped: table)
            WHERE device_id = \(d) AND start_ms >= \(start) AND start_ms <= \(end) ORDER BY start_ms, id
            """)
        guard let keep = rows.first else {
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
        let id = try keep.get("id", as: Int64.self)
        var low = Swift.min(start, try keep.get("start_ms", as: Int64.self))
        var high = Swift.max(end, try keep.get("end_ms", as: Int64.self))
        for other in rows.dropFirst() {
            let otherID = try other.get("id", as: Int64.self)
            low = Swift.min(low, try other.get("start_ms", as: Int64.self))
            high = Swift.max(high, try other.get("end_ms", as: Int64.self))
            if table == "ride" {
                try session.execute("UPDATE segment SET ride_id = \(id) WHERE ride_id = \(otherID)")
                try session.execute(
                    """
                    INSERT INTO drop_count (ride_id, reason, count)
                    SELECT \(id), reason, count FROM drop_count WHERE ride_id = \(otherID)
                    ON CONFLICT (ride_id, reason) DO UPDATE SET count = drop_count.count + excluded.count
                    """)
            }
            try session.execute("DELETE FROM \(unescaped: table) WHERE id = \(otherID)")
        }
        try session.execute("UPDATE \(unescaped: table) SET start_ms = \(low), end_ms = \(high) WHERE id = \(id)")
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
