import Foundation
import PostgresNIO
import TrackModel

/// Points of any time placed by ``PointPlacement``, as the SQLite store places them.
extension PostgresWriter {
    func place(_ points: [KeptPoint], drops: [String: Int], rule: PointPlacement, state: DeviceStateUpdate?) throws
        -> Int
    {
        try place(points, drops: drops, rule: rule, state: state, last: false)
    }

    func placeLast(_ points: [KeptPoint], drops: [String: Int], rule: PointPlacement, state: DeviceStateUpdate?)
        throws -> Int
    {
        try place(points, drops: drops, rule: rule, state: state, last: true)
    }

    /// `last`: nothing follows in the unit (``placeLast(_:drops:rule:state:)``).
    private func place(
        _ points: [KeptPoint], drops: [String: Int], rule: PointPlacement, state: DeviceStateUpdate?, last: Bool
    ) throws -> Int {
        let points = points.filter {
            $0.milliseconds >= PostgresStore.earliest && $0.milliseconds <= PostgresStore.latest
        }.sorted { $0.milliseconds < $1.milliseconds }
        try store.ensurePartitions(Set(points.map { PostgresStore.month(of: $0.milliseconds) }))
        let d = device.rawValue
        let hints = store.access.store.segmentHints
        // A phone's one point after the device's newest segment, as this process left it: its
        // insert places it when the segments are still that one (one round trip less).
        var placing: Placing?
        if points.count == 1, drops.isEmpty, let p = points.first, let span = hints.span(of: device),
            span.end < p.milliseconds,
            rule.plan(at: p.milliseconds, before: span, after: nil)
                == PointPlacement.Plan(segment: span.segment, ride: span.ride)
        {
            placing = Placing(t: p.milliseconds, span: span, state: state.flatMap { $0.applies(added: 1) ? $0 : nil })
        }
        // As the last thing of a unit that has sent nothing yet, the point's statement is the
        // unit's transaction: one round trip in all. When the segments are no longer what the
        // plan was made from, it wrote nothing, and the batch is placed as below.
        if last, let alone = placing,
            let wrote = try store.access.unit.alone({ try placeAlone(points[0], alone, on: $0) })
        {
            if wrote {
                hints.keep(
                    PointPlacement.Span(
                        segment: alone.span.segment, ride: alone.span.ride, start: alone.span.start, end: alone.t),
                    of: device)
                return 1
            }
            placing = nil
        }
        // The device's newest segment once the batch is in (nil: not known).
        var hint: PointPlacement.Span?
        let added = try store.write { session -> Int in
            var (fresh, around, placed) = try insertLocked(session, points, placing: placing)
            if placed, let placing {
                placedByInsert += 1
                hint = PointPlacement.Span(
                    segment: placing.span.segment, ride: placing.span.ride, start: placing.span.start, end: placing.t)
                return 1
            }
            var tally = PlacementTally()
            var added = 0
            var newestAdded = Int64.min
            // The last point's ranges are widened by the batch's closing statement (no later point
            // reads them): one round trip instead of three.
            var last: (t: Int64, segment: Int64, ride: Int64)?
            for p in points {
                let t = p.milliseconds
                guard fresh.remove(t) != nil else { continue }  // stored before, or twice in the batch
                added += 1
                newestAdded = t  // the points go in time order
                // The segment that starts at or before the point (side 0) and the one after it (1).
                // The first point's were read by the insert; nothing of the batch has moved them.
                var before: PointPlacement.Span?
                var after: PointPlacement.Span?
                if let first = around, first.t == t {
                    (before, after) = (first.before, first.after)
                    around = nil
                } else {
                    for row in try session.query(
                        prepared: Prepared.Neighbours.self,
                        "SELECT side, segment, ride, start_at, end_at FROM segments_around(\(d), \(t))")
                    {
                        if try row.get("side", as: Int32.self) == 0 {
                            before = try Self.span(row)
                        } else {
                            after = try Self.span(row)
                        }
                    }
                }
                let plan = rule.plan(at: t, before: before, after: after)
                let ride: Int64
                if let id = plan.ride {
                    ride = id
                } else {
                    ride = try session.value(
                        "INSERT INTO ride (device_id, start_ms, end_ms, point_count) VALUES (\(d), \(t), \(t), 0) RETURNING id",
                        as: Int64.self)!
                }
                if let absorbed = plan.absorbedRide {
                    try session.execute("UPDATE segment SET ride_id = \(ride) WHERE ride_id = \(absorbed)")
                    try session.execute(
                        """
                        INSERT INTO drop_count (ride_id, reason, count)
                        SELECT \(ride), reason, count FROM drop_count WHERE ride_id = \(absorbed)
                        ON CONFLICT (ride_id, reason) DO UPDATE SET count = drop_count.count + excluded.count
                        """)
                    try session.execute(
                        """
                        UPDATE ride SET start_ms = least(ride.start_ms, o.start_ms), end_ms = greatest(ride.end_ms, o.end_ms),
                            point_count = ride.point_count + o.point_count
                        FROM (SELECT start_ms, end_ms, point_count FROM ride WHERE id = \(absorbed)) AS o
                        WHERE ride.id = \(ride)
                        """)
                    try session.execute("DELETE FROM ride WHERE id = \(absorbed)")
                }
                let segment: Int64
                if let id = plan.segment {
                    segment = id
                } else {
                    segment = try session.value(
                        """
                        INSERT INTO segment (ride_id, device_id, start_ms, end_ms, point_count)
                        VALUES (\(ride), \(d), \(t), \(t), 0) RETURNING id
                        """, as: Int64.self)!
                }
                if let absorbed = plan.absorbedSegment {
                    try session.execute(
                        """
                        UPDATE segment SET start_ms = least(segment.start_ms, o.start_ms),
                            end_ms = greatest(segment.end_ms, o.end_ms), point_count = segment.point_count + o.point_count
                        FROM (SELECT start_ms, end_ms, point_count FROM segment WHERE id = \(absorbed)) AS o
                        WHERE segment.id = \(segment)
                        """)
                    try session.execute("DELETE FROM segment WHERE id = \(absorbed)")
                }
                // The point's segment is of its ride already: a segment of an absorbed ride moved above.
                if fresh.isEmpty {
                    last = (t, segment, ride)
                } else {
                    try session.execute(
                        "UPDATE segment SET start_ms = least(start_ms, \(t)), end_ms = greatest(end_ms, \(t)) WHERE id = \(segment)"
                    )
                    try session.execute(
                        "UPDATE ride SET start_ms = least(start_ms, \(t)), end_ms = greatest(end_ms, \(t)) WHERE id = \(ride)"
                    )
                }
                tally.placed(at: t, segment: segment, ride: ride, plan: plan)
                // With no segment after it, the point's segment is the device's newest.
                hint =
                    after == nil && plan.absorbedSegment == nil && plan.absorbedRide == nil
                    ? PointPlacement.Span(
                        segment: segment, ride: ride, start: min(plan.segment == nil ? t : before?.start ?? t, t),
                        end: max(plan.segment == nil ? t : before?.end ?? t, t)) : nil
            }
            func counts(_ counts: [Int64: Int], widening id: Int64?) -> [(id: Int64, extent: RunNumbering.Extent)] {
                counts.map {
                    let t = $0.key == id ? last?.t : nil
                    return ($0.key, RunNumbering.Extent(start: t ?? .max, end: t ?? .min, count: $0.value))
                }
            }
            try Self.finish(
                session, device: device, segments: counts(tally.segments, widening: last?.segment),
                rides: counts(tally.rides, widening: last?.ride), announcing: added > 0, newestAtLeast: newestAdded,
                state: state.flatMap { $0.applies(added: added) ? $0 : nil }, store: store)
            let dropRide =
                try tally.dropRide
                ?? session.value(
                    "SELECT id FROM ride WHERE device_id = \(d) ORDER BY end_ms DESC LIMIT 1", as: Int64.self)
            if let dropRide {
                for (reason, count) in drops where count > 0 {
                    try Self.addDrops(session, ride: dropRide, reason: reason, count: count)
                }
            }
            return added
        }
        if added > 0 {
            let kept = hint
            store.access.afterCommit { hints.keep(kept, of: DeviceID(rawValue: d)) }
        }
        stored += added
        return added
    }

    /// Places a phone's one point in a statement that is a transaction of its own
    /// (``aloneQuery(device:_:placing:instance:)``); false: it wrote nothing (a batch for a
    /// revoked device is refused by the transaction that follows).
    func placeAlone(_ point: KeptPoint, _ placing: Placing, on session: Session) throws -> Bool {
        let rows = try session.query(
            prepared: Prepared.PlaceAlone.self,
            Self.aloneQuery(device: device, point, placing: placing, instance: store.instance))
        guard !rows.isEmpty else { return false }
        placedByInsert += 1
        placedAlone += 1
        stored += 1
        return true
    }
}
