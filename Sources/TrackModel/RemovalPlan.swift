import GPSCore

/// What a removal takes, written once: a store reads the rows a removal names (the records asked
/// for, the ride, the account's devices) within one transaction, and carries the ``RemovalPlan``
/// out in its own SQL, counting what it deleted in a ``Removal``.
///
/// - Records by id go all together or not at all: an id the account does not have removes
///   nothing. A record made at a stored point (not manual, of a device) takes that point with it:
///   the point is its place.
/// - A ride takes its device's points from its first to its last, and the records made at those
///   points; manual records in its time stay. The ride's own row goes unless the points of
///   another ride overlapped it (then it shrinks to what is left, as every ride and segment
///   reaching into removed points does).
/// - A time range takes the account's records in it (manual ones too), its devices' points, and
///   the day summaries of the days named.
public struct RemovalPlan: Equatable, Sendable {
    /// A record as a removal reads it.
    public struct Record: Equatable, Sendable {
        public var id: Int64
        /// ms since 1970, UTC.
        public var milliseconds: Int64
        public var manual: Bool
        public var device: Int64?

        public init(id: Int64, milliseconds: Int64, manual: Bool, device: Int64?) {
            self.id = id
            self.milliseconds = milliseconds
            self.manual = manual
            self.device = device
        }
    }

    /// Times `[from, to)` of the devices named (ms).
    public struct Span: Equatable, Sendable {
        public var devices: [Int64]
        public var from: Int64
        public var to: Int64

        public init(devices: [Int64], from: Int64, to: Int64) {
            self.devices = devices
            self.from = from
            self.to = to
        }
    }

    /// Records by id.
    public var records: [Int64] = []
    /// The records made at stored points of these devices in these times (not the manual ones).
    public var recordsAtPoints: Span?
    /// The account's records in `[from, to)`, manual ones too (its devices are ``points``').
    public var recordsInTime: ClosedRange<Int64>?
    /// The points to delete, each span's devices' points in its times; with them go the events
    /// found in them, and the segments and rides that held them shrink to what is left or go.
    public var points: [Span] = []
    /// The ride whose row goes (when it is still there once its points are gone).
    public var ride: Int64?
    /// Day summaries of these days of the account.
    public var daySummaries: [CivilDate] = []

    public init() {}

    /// Removing the records `requested` of an account whose rows of them are `found`: the ids
    /// it does not have (nothing is removed then), or the plan.
    public static func records(_ requested: [Int64], found: [Record]) -> Result<RemovalPlan, Missing> {
        let have = Set(found.map(\.id))
        let missing = requested.filter { !have.contains($0) }
        guard missing.isEmpty else { return .failure(Missing(ids: missing)) }
        var plan = RemovalPlan()
        plan.records = found.map(\.id)
        for record in found where !record.manual {
            guard let device = record.device else { continue }
            plan.points.append(Span(devices: [device], from: record.milliseconds, to: record.milliseconds + 1))
        }
        return .success(plan)
    }

    /// Ids a removal asked for that the account does not have.
    public struct Missing: Error, Equatable, Sendable {
        public var ids: [Int64]

        public init(ids: [Int64]) { self.ids = ids }
    }

    /// Removing the ride `id` of `device`, from its first point `start` to its last `end` (ms);
    /// nil when the device is not one of the account's `devices`.
    public static func ride(_ id: Int64, device: Int64, start: Int64, end: Int64, accountDevices devices: [Int64])
        -> RemovalPlan?
    {
        guard devices.contains(device) else { return nil }
        var plan = RemovalPlan()
        let span = Span(devices: [device], from: start, to: end + 1)
        plan.recordsAtPoints = span
        plan.points = [span]
        plan.ride = id
        return plan
    }

    /// Removing everything of an account in `[from, to)`: its records, its `devices`' points,
    /// and its day summaries of `days`.
    public static func time(from: Int64, to: Int64, days: [CivilDate], accountDevices devices: [Int64]) -> RemovalPlan {
        var plan = RemovalPlan()
        if from < to { plan.recordsInTime = from...(to - 1) }
        plan.points = devices.isEmpty ? [] : [Span(devices: devices, from: from, to: to)]
        plan.daySummaries = days
        return plan
    }
}

extension RemovalPlan {
    /// After their segments shrank or went: the rides `ids` without a point left are deleted (the
    /// first statement; the store counts its rows as ``Removal/rides``), the others shrink to
    /// their segments. The same SQL on SQLite and PostgreSQL (ids are numbers, written inline).
    public static func shrinkRides(_ ids: Set<Int64>) -> (delete: String, shrink: String)? {
        guard !ids.isEmpty else { return nil }
        let list = ids.sorted().map(String.init).joined(separator: ", ")
        let left = "(SELECT sum(point_count) FROM segment s WHERE s.ride_id = ride.id)"
        return (
            delete: "DELETE FROM ride WHERE id IN (\(list)) AND coalesce(\(left), 0) = 0",
            shrink: """
            UPDATE ride SET (start_ms, end_ms, point_count) =
                (SELECT min(start_ms), max(end_ms), sum(point_count) FROM segment s WHERE s.ride_id = ride.id)
            WHERE id IN (\(list))
            """
        )
    }
}
