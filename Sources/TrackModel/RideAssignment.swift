/// A stored ride's or segment's id and time range (ms, inclusive).
public struct StoredRange: Equatable, Sendable {
    public var id: Int64
    public var start: Int64
    public var end: Int64

    public init(id: Int64, start: Int64, end: Int64) {
        self.id = id
        self.start = start
        self.end = end
    }

    public func overlaps(_ start: Int64, _ end: Int64) -> Bool { self.start <= end && self.end >= start }
}

/// How a time range an imported stream formed (a ride, or a segment of one) joins the stored
/// rows of its device: every stored row whose range overlaps it becomes one with it. The
/// earliest keeps its id and spans them all; the others are absorbed (a ride's segments and drop
/// counts move to the one kept). No overlapping row: a new one. So the rides and segments that
/// come out are the connected pieces of overlapping ranges, whatever order the files came in.
///
/// Stored rows of one table do not overlap each other, so a store fetches as candidates the row
/// that starts last before the range and the rows that start inside it (two index lookups).
public struct OverlapMerge: Equatable, Sendable {
    /// The row that stays; nil: a new row.
    public var keep: Int64?
    /// Rows that become part of ``keep`` and are removed, earliest first.
    public var absorbed: [Int64]
    /// The range the kept (or new) row spans afterwards.
    public var start: Int64
    public var end: Int64

    public init(keep: Int64?, absorbed: [Int64] = [], start: Int64, end: Int64) {
        self.keep = keep
        self.absorbed = absorbed
        self.start = start
        self.end = end
    }

    /// The plan for `[start, end]` among `candidates` (those that do not overlap are ignored).
    public static func plan(start: Int64, end: Int64, candidates: [StoredRange]) -> OverlapMerge {
        let overlapping = candidates.filter { $0.overlaps(start, end) }.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
        guard let first = overlapping.first else { return OverlapMerge(keep: nil, start: start, end: end) }
        return OverlapMerge(
            keep: first.id, absorbed: overlapping.dropFirst().map(\.id),
            start: Swift.min(start, overlapping.map(\.start).min()!), end: Swift.max(end, overlapping.map(\.end).max()!)
        )
    }
}

/// What an import's claims (``OverlapMerge``) know to be empty among the stored rides or
/// segments of one device: an open time range no stored row reaches into. A claim inside it
/// needs no candidates from the store (a year of history makes hundreds of thousands of claims,
/// nearly all of them where nothing is stored). A row made there moves the range's start to
/// its end (a stream's claims come in time order); a claim that read the store learns the range
/// from what it read (the rows around it and the first one after it); a merge forgets it.
public struct KnownGaps: Sendable {
    public struct Key: Hashable, Sendable {
        public var device: DeviceID
        public var segments: Bool

        public init(device: DeviceID, segments: Bool) { (self.device, self.segments) = (device, segments) }
    }

    private var gaps: [Key: (after: Int64, before: Int64)] = [:]

    public init() {}

    /// Whether no stored row of `key` overlaps `[start, end]`, as far as is known.
    public func holds(_ key: Key, _ start: Int64, _ end: Int64) -> Bool {
        guard let gap = gaps[key] else { return false }
        return start > gap.after && end < gap.before
    }

    /// A new row `[start, end]` was made: inside the known range (`read` nil), or where the
    /// store was read for it (`read`: every row that overlaps it or starts before it, none here,
    /// and the first one that starts after it, if any).
    public mutating func made(_ key: Key, end: Int64, read: [StoredRange]?) {
        if let read {
            let next = read.filter { $0.start > end }.map(\.start).min()
            gaps[key] = (end, next ?? .max)
        } else if let gap = gaps[key] {
            gaps[key] = (end, gap.before)
        }
    }

    /// Stored rows of `key` were merged: nothing is known of them any more.
    public mutating func forget(_ key: Key) { gaps[key] = nil }

    /// The plan for claiming `[start, end]` among the rows of `key` (``OverlapMerge``), which a
    /// store then carries out: the store is read (`read`: the rows around the range and the
    /// first one after it) only where nothing is known, and what the plan does is learnt.
    public mutating func plan(_ key: Key, start: Int64, end: Int64, read: () throws -> [StoredRange]) rethrows
        -> OverlapMerge
    {
        let rows = holds(key, start, end) ? nil : try read()
        let plan = OverlapMerge.plan(start: start, end: end, candidates: rows ?? [])
        if plan.keep == nil { made(key, end: end, read: rows) } else { forget(key) }
        return plan
    }
}

/// Which stored ride and segment each new point of a recorder's batches joins.
///
/// The pipeline numbers rides and segments within one run (1, 2, ...). A number becomes a
/// stored row the first time one of its points is stored: the stored ride (or segment) whose
/// range covers that point (a log overlapping one imported before continues it), else a new row
/// made by that point, so a log imported twice leaves no empty rows. The number keeps its row for
/// the batches after. A store fetches the rows that overlap the batch's new points and carries
/// out the ``Plan`` in its own SQL.
public struct RunNumbering: Sendable {
    /// Stored ride (segment) of each run-local number seen so far.
    public private(set) var rides: [Int: Int64] = [:]
    public private(set) var segments: [Int: Int64] = [:]

    public init() {}

    /// A row a plan names: stored, or the k-th new row the plan makes (from 0).
    public enum Row: Hashable, Sendable {
        case stored(Int64)
        case new(Int)

        /// The row's id, `made` being the ids the store gave the plan's new rows, in order.
        public func id(_ made: [Int64]) -> Int64 {
            switch self {
            case .stored(let id): id
            case .new(let k): made[k]
            }
        }
    }

    /// A new segment: the ride it belongs to and its first point's time.
    public struct NewSegment: Equatable, Sendable {
        public var ride: Row
        public var start: Int64

        public init(ride: Row, start: Int64) {
            self.ride = ride
            self.start = start
        }
    }

    /// What a batch adds to a row: the range of its new points and their count.
    public struct Extent: Equatable, Sendable {
        public var start: Int64
        public var end: Int64
        public var count: Int

        public init(start: Int64, end: Int64, count: Int) {
            self.start = start
            self.end = end
            self.count = count
        }
    }

    public struct Plan: Equatable, Sendable {
        /// The rides to make, each spanning its first point's time (``Row/new(_:)`` k is the k-th).
        public var newRides: [Int64] = []
        public var newSegments: [NewSegment] = []
        /// Ranges to widen and counts to add.
        public var rides: [Row: Extent] = [:]
        public var segments: [Row: Extent] = [:]
        /// Drop counts (reason → count) to add per ride; those of a number with no row are not kept.
        public var drops: [Row: [String: Int]] = [:]
        fileprivate var rideNumbers: [Int: Row] = [:]
        fileprivate var segmentNumbers: [Int: Row] = [:]
    }

    /// The plan for a batch whose new points (those the store did not have, in the batch's
    /// order) are `fresh`, with `drops` (run-local ride → reason → count); `storedRides` and
    /// `storedSegments` hold at least the device's rows that overlap the new points' range.
    public func plan(
        fresh: [KeptPoint], drops: [Int: [String: Int]] = [:], storedRides: [StoredRange],
        storedSegments: [StoredRange]
    ) -> Plan {
        var plan = Plan()
        plan.rideNumbers = rides.mapValues { .stored($0) }
        plan.segmentNumbers = segments.mapValues { .stored($0) }
        func covering(_ rows: [StoredRange], _ t: Int64) -> Int64? {
            rows.filter { $0.overlaps(t, t) }.min { ($0.start, $0.id) < ($1.start, $1.id) }?.id
        }
        func widen(_ extents: inout [Row: Extent], _ row: Row, _ t: Int64) {
            let e = extents[row] ?? Extent(start: t, end: t, count: 0)
            extents[row] = Extent(start: Swift.min(e.start, t), end: Swift.max(e.end, t), count: e.count + 1)
        }
        for p in fresh {
            let t = p.milliseconds
            let ride: Row
            if let known = plan.rideNumbers[p.ride] {
                ride = known
            } else if let id = covering(storedRides, t) {
                ride = .stored(id)
            } else {
                ride = .new(plan.newRides.count)
                plan.newRides.append(t)
            }
            plan.rideNumbers[p.ride] = ride
            let segment: Row
            if let known = plan.segmentNumbers[p.segment] {
                segment = known
            } else if let id = covering(storedSegments, t) {
                segment = .stored(id)
            } else {
                segment = .new(plan.newSegments.count)
                plan.newSegments.append(NewSegment(ride: ride, start: t))
            }
            plan.segmentNumbers[p.segment] = segment
            widen(&plan.rides, ride, t)
            widen(&plan.segments, segment, t)
        }
        for (number, reasons) in drops {
            guard let ride = plan.rideNumbers[number] else { continue }
            plan.drops[ride, default: [:]].merge(reasons, uniquingKeysWith: +)
        }
        return plan
    }

    /// Takes `plan` as carried out: `madeRides` and `madeSegments` are the ids the store gave
    /// its new rows, in order. The numbers keep their rows for the next batches.
    public mutating func settle(_ plan: Plan, madeRides: [Int64], madeSegments: [Int64]) {
        rides = plan.rideNumbers.mapValues { $0.id(madeRides) }
        segments = plan.segmentNumbers.mapValues { $0.id(madeSegments) }
    }
}

/// One file's import as every store counts it: the points stored per stream and ride, the time
/// range they span, the drops that go with them (a ride's drops count once: with the stream
/// that stored points of it), the order its rides and segments join the stored ones, and whether
/// the file is noted afterwards (a file that stored nothing is forgotten, so it can be imported
/// again).
public struct ImportTally: Sendable {
    public var outcome = ImportOutcome()
    /// The first and last time of the points stored.
    public private(set) var range: (start: Int64, end: Int64)?
    /// Per stream: how many points each of its rides stored, and the rides whose count is not
    /// known point by point (a batch that stored fewer than it held: which points went in is
    /// not known).
    private var added: [[Int: Int]] = []
    private var uncounted: [Set<Int>] = []

    public init() {}

    /// Counts one point of stream `stream`, ride `ride`, stored at `t`.
    public mutating func stored(at t: Int64, ride: Int, stream: Int) {
        grow(to: stream)
        outcome.points += 1
        added[stream][ride, default: 0] += 1
        range = range.map { (Swift.min($0.start, t), Swift.max($0.end, t)) } ?? (t, t)
    }

    private mutating func grow(to stream: Int) {
        while added.count <= stream {
            added.append([:])
            uncounted.append([])
        }
    }

    /// Counts `count` points of `stream` stored from `start` to `end`: `rides` has how many of
    /// them each ride stored, or 0 for a ride that stored some, how many not known.
    public mutating func stored(count: Int, from start: Int64, to end: Int64, rides: [Int: Int], stream: Int) {
        guard count > 0 else { return }
        grow(to: stream)
        outcome.points += count
        for (ride, n) in rides {
            added[stream][ride, default: 0] += n
            if n == 0 { uncounted[stream].insert(ride) }
        }
        range = range.map { (Swift.min($0.start, start), Swift.max($0.end, end)) } ?? (start, end)
    }

    /// Joins the rides and segments of `streams` to the stored ones, in the one order every
    /// store follows: per stream, per ride, the ride, then each of its segments (made part of
    /// that ride), then the ride's drops when the stream stored points of it. `devices` has each
    /// stream's device (a stream's rides join only its device's); `streams[k]` is the file's
    /// stream `first + k` (rides that are done join while the file is read, a stream's at a
    /// time). `claimRide` and `claimSegment` return the row that covers a range afterwards
    /// (``OverlapMerge``); `claimSegment` is told how many points the segment stored when every
    /// point its ride kept was stored (else nil), and says whether the row it returns has that
    /// count already (a row made for the segment alone). Returns the rides and segments touched,
    /// per device, whose counts are then taken from the points (segments counted already are not).
    public func join(
        _ streams: [ImportStream], devices: [DeviceID], from first: Int = 0,
        claimRide: (_ device: DeviceID, _ start: Int64, _ end: Int64) throws -> Int64,
        claimSegment: (_ device: DeviceID, _ ride: Int64, _ start: Int64, _ end: Int64, _ points: Int?) throws -> (
            id: Int64, counted: Bool
        ),
        addDrops: (_ ride: Int64, _ reasons: [String: Int]) throws -> Void
    ) rethrows -> [DeviceID: Touched] {
        precondition(devices.count == streams.count, "a device per stream")
        var touched: [DeviceID: Touched] = [:]
        for (i, stream) in streams.enumerated() {
            let device = devices[i]
            let k = first + i
            for ride in stream.extents {
                let rideID = try claimRide(device, ride.start, ride.end)
                touched[device, default: Touched()].rides.insert(rideID)
                let stored = k < added.count ? added[k][ride.number, default: 0] : 0
                let whole = stored == ride.points && k < uncounted.count && !uncounted[k].contains(ride.number)
                for segment in ride.segments {
                    let claimed = try claimSegment(
                        device, rideID, segment.start, segment.end, whole ? segment.points : nil)
                    if !claimed.counted { touched[device, default: Touched()].segments.insert(claimed.id) }
                }
                let some = stored > 0 || (k < uncounted.count && uncounted[k].contains(ride.number))
                if some, let reasons = stream.drops[ride.number], !reasons.isEmpty {
                    try addDrops(rideID, reasons)
                }
            }
        }
        return touched
    }

    /// The rides and segments of one device an import touched.
    public struct Touched: Equatable, Sendable {
        public var rides = Set<Int64>()
        public var segments = Set<Int64>()

        public init(rides: Set<Int64> = [], segments: Set<Int64> = []) {
            (self.rides, self.segments) = (rides, segments)
        }
    }

    /// What becomes of the file's row at the end.
    public enum Close: Equatable, Sendable {
        /// Nothing was stored: the row goes, so the file can be imported again.
        case forget
        /// The row gets the counts and range.
        case note(points: Int, start: Int64?, end: Int64?)
    }

    /// Counts `places` and `events` stored besides the points, and says what becomes of the file's row.
    public mutating func close(places: Int, events: Int) -> Close {
        outcome.places = places
        outcome.events = events
        if outcome.points == 0 && places == 0 && events == 0 { return .forget }
        return .note(points: outcome.points, start: range?.start, end: range?.end)
    }
}
