import GPSCore
import Logging

/// Decides which fixes to keep, and cuts the kept ones into rides and segments.
///
/// Stages, in order: ``ValidityFilter``, ``ActiveHoursFilter``, ``AccuracyFilter``,
/// ``JumpFilter``, ``IntervalFilter``, ``MinDistanceFilter``; then the segmenter. Every decision
/// depends only on the fixes and the configuration, never on the wall clock, so a live session
/// and a replay of its log give identical results. Because the jump filter holds possible jumps
/// until later fixes confirm or refute them, a fix may be decided a few fixes after it
/// arrived; ``finish(_:)`` decides the last ones.
public struct Pipeline {
    public let configuration: PipelineConfiguration
    private let gate: [any FixFilter]
    private var jumps: JumpFilter
    private let thinning: [any FixFilter]
    private var segmenter: Segmenter
    private var lastKept: Fix?
    private var logger: Logger
    /// Dropped fixes per ride (the ride of the last kept fix; ride 1 before the first).
    public private(set) var drops: [Int: DropCounts] = [:]
    /// Fixes kept so far.
    public private(set) var keptCount = 0

    public init(configuration c: PipelineConfiguration, logger: Logger = Logger(label: "trailbook.pipeline")) {
        configuration = c
        var gate: [any FixFilter] = [ValidityFilter()]
        if let hours = c.activeHours { gate.append(ActiveHoursFilter(hours: hours)) }
        gate.append(
            AccuracyFilter(
                maxHDOP: c.maxHDOP, minSatellites: c.minSatellites, minMode: c.minMode, maxErrorMetres: c.maxErrorMetres
            ))
        self.gate = gate
        jumps = JumpFilter(maxSpeed: c.maxSpeed, reanchorAfter: c.reanchorAfter)
        thinning = [IntervalFilter(interval: c.interval), MinDistanceFilter(metres: c.minDistance)]
        segmenter = Segmenter(configuration: c)
        self.logger = logger
    }

    /// Rides and segments started so far.
    public var rides: Int { segmenter.ride }
    public var segments: Int { segmenter.segment }

    /// Drops over the whole run.
    public var totalDrops: DropCounts {
        var all = DropCounts()
        for counts in drops.values {
            for (reason, n) in counts.byReason { all.add(reason, count: n) }
        }
        return all
    }

    /// The source lost its device: the next kept fix starts a new segment.
    public mutating func sourceDisconnected() { segmenter.breakSegment() }

    /// Why the checks that need no other fix (validity but the time order, active hours,
    /// accuracy) drop `fix`; nil when it passes them. A phone's late point (older than what the
    /// stream has seen) is judged by these alone: the jump, interval and distance rules compare a
    /// fix with the one before it in the live stream.
    public func reasonToDropAlone(_ fix: Fix) -> DropReason? {
        for filter in gate {
            if let reason = filter.reasonToDrop(fix, after: nil) { return reason }
        }
        return nil
    }

    /// Decides `fix`; `emit` receives the decisions made now (possibly about earlier held fixes).
    public mutating func process(_ fix: Fix, _ emit: (PipelineEvent) throws -> Void) rethrows {
        let latest = jumps.latestHeld ?? lastKept
        for filter in gate {
            if let reason = filter.reasonToDrop(fix, after: latest) { return try drop(fix, reason, emit) }
        }
        if jumps.passesStraight(fix, anchor: lastKept) { return try collect(fix, reanchored: false, emit) }
        let outcome = jumps.offer(fix, anchor: lastKept)
        for f in outcome.jumps { try drop(f, .jump, emit) }
        if outcome.reanchored {
            logger.debug("re-anchored after a confirmed jump", metadata: ["fixes": "\(outcome.passed.count)"])
        }
        for (i, f) in outcome.passed.enumerated() { try collect(f, reanchored: outcome.reanchored && i == 0, emit) }
    }

    /// Ends the run: fixes still held as possible jumps are dropped.
    public mutating func finish(_ emit: (PipelineEvent) throws -> Void) rethrows {
        for f in jumps.finish() { try drop(f, .jump, emit) }
    }

    /// Interval and minimum distance (not for the first fix of a relocation), then keep.
    private mutating func collect(_ fix: Fix, reanchored: Bool, _ emit: (PipelineEvent) throws -> Void) rethrows {
        if reanchored { segmenter.breakSegment() }
        segmenter.observe(fix)
        if !reanchored {
            for filter in thinning {
                if let reason = filter.reasonToDrop(fix, after: lastKept) { return try drop(fix, reason, emit) }
            }
        }
        let occurrence = configuration.activeHours?.occurrence(atUnixSeconds: Double(fix.unixMilliseconds!) / 1000)
        let (ride, segment) = segmenter.assign(fix, occurrence: occurrence)
        lastKept = fix
        keptCount += 1
        try emit(.kept(fix, ride: ride, segment: segment))
    }

    private mutating func drop(_ fix: Fix, _ reason: DropReason, _ emit: (PipelineEvent) throws -> Void) rethrows {
        drops[Swift.max(segmenter.ride, 1), default: DropCounts()].add(reason)
        logger.debug(
            "dropped fix",
            metadata: ["reason": "\(reason.rawValue)", "time": "\(fix.unixMilliseconds.map(String.init) ?? "none")"])
        try emit(.dropped(fix, reason))
    }
}
