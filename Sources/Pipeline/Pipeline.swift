import GPSCore
import Logging

/// Decides which fixes to keep, and cuts the kept ones into rides and segments.
///
/// Stages, in order: validity (a fix, a plausible position, a time, later than the last kept
/// fix), active hours, accuracy (HDOP, satellites, mode, error estimate), jumps, interval,
/// minimum distance. Every decision depends only on the fixes and the configuration, never on
/// the wall clock, so a live session and a replay of its log give identical results.
///
/// Jumps: a fix whose implied speed from the last kept fix exceeds ``PipelineConfiguration/maxSpeed``
/// is held. If the next fix agrees with the last kept one again, the held fixes were a
/// multipath excursion and are dropped (`jump`). If ``PipelineConfiguration/reanchorAfter`` held
/// fixes in a row agree with each other, the receiver really moved (a train, a long gap): the
/// pipeline re-anchors there, keeps them, and starts a new segment. So a fix may be decided a
/// few fixes after it arrived; ``finish(_:)`` decides the last ones.
public struct Pipeline {
    public let configuration: PipelineConfiguration
    private var segmenter: Segmenter
    private var lastKept: Fix?
    private var held: [Fix] = []
    private var logger: Logger
    /// Dropped fixes per ride (the ride of the last kept fix; ride 1 before the first).
    public private(set) var drops: [Int: DropCounts] = [:]
    /// Fixes kept so far.
    public private(set) var keptCount = 0

    public init(configuration: PipelineConfiguration, logger: Logger = Logger(label: "trailbook.pipeline")) {
        self.configuration = configuration
        self.segmenter = Segmenter(configuration: configuration)
        self.logger = logger
    }

    /// Rides and segments started so far.
    public var rides: Int { segmenter.ride }
    public var segments: Int { segmenter.segment }

    /// Drops over the whole run.
    public var totalDrops: DropCounts {
        var all = DropCounts()
        for counts in drops.values {
            for (reason, n) in counts.byReason { for _ in 0..<n { all.add(reason) } }
        }
        return all
    }

    /// The source lost its device: the next kept fix starts a new segment.
    public mutating func sourceDisconnected() { segmenter.breakSegment() }

    /// Decides `fix`; `emit` receives the decisions made now (possibly about earlier held fixes).
    public mutating func process(_ fix: Fix, _ emit: (PipelineEvent) throws -> Void) rethrows {
        if let reason = gate(fix) {
            return try drop(fix, reason, emit)
        }
        guard let anchor = lastKept else {
            return try collect(fix, reanchored: false, emit)
        }
        if Self.impliedSpeed(anchor, fix) <= configuration.maxSpeed {
            try dropHeld(emit)
            return try collect(fix, reanchored: false, emit)
        }
        // A jump from the anchor: hold it, unless it disagrees with what is already held.
        if let last = held.last, Self.impliedSpeed(last, fix) > configuration.maxSpeed {
            try dropHeld(emit)
        }
        held.append(fix)
        if held.count >= configuration.reanchorAfter {
            let confirmed = held
            held = []
            logger.debug("re-anchored after a confirmed jump", metadata: ["fixes": "\(confirmed.count)"])
            for (i, f) in confirmed.enumerated() { try collect(f, reanchored: i == 0, emit) }
        }
    }

    /// Ends the run: fixes still held as possible jumps are dropped.
    public mutating func finish(_ emit: (PipelineEvent) throws -> Void) rethrows {
        try dropHeld(emit)
    }

    /// Validity, active hours and accuracy: the reason to drop, or nil.
    private func gate(_ fix: Fix) -> DropReason? {
        guard fix.mode >= .twoD, let c = fix.coordinate else { return .noFix }
        guard c.isPlausible else { return .badPosition }
        guard let t = fix.unixMilliseconds else { return .missingTime }
        let latest = held.last ?? lastKept
        if let latest, t <= latest.unixMilliseconds! { return .notLater }
        if let hours = configuration.activeHours, hours.occurrence(atUnixSeconds: Double(t) / 1000) == nil {
            return .outsideActiveHours
        }
        if let max = configuration.maxHDOP, let h = fix.hdop, h > max { return .hdop }
        if let min = configuration.minSatellites, let n = fix.satellitesUsed, n < min { return .satellites }
        if fix.mode.rawValue < configuration.minMode { return .mode }
        if let max = configuration.maxErrorMetres, let e = fix.horizontalError, e > max { return .errorEstimate }
        return nil
    }

    /// Interval and minimum distance, then keep.
    private mutating func collect(_ fix: Fix, reanchored: Bool, _ emit: (PipelineEvent) throws -> Void) rethrows {
        if reanchored { segmenter.breakSegment() }
        segmenter.observe(fix)
        if let last = lastKept, !reanchored {
            let dt = Double(fix.unixMilliseconds! - last.unixMilliseconds!) / 1000
            if dt < configuration.interval - 0.001 { return try drop(fix, .interval, emit) }
            if configuration.minDistance > 0,
                Geodesy.haversineDistance(last.coordinate!, fix.coordinate!) < configuration.minDistance
            {
                return try drop(fix, .minDistance, emit)
            }
        }
        let occurrence = configuration.activeHours?.occurrence(atUnixSeconds: Double(fix.unixMilliseconds!) / 1000)
        let (ride, segment) = segmenter.assign(fix, occurrence: occurrence)
        lastKept = fix
        keptCount += 1
        try emit(.kept(fix, ride: ride, segment: segment))
    }

    private mutating func dropHeld(_ emit: (PipelineEvent) throws -> Void) rethrows {
        let excursion = held
        held = []
        for f in excursion { try drop(f, .jump, emit) }
    }

    private mutating func drop(_ fix: Fix, _ reason: DropReason, _ emit: (PipelineEvent) throws -> Void) rethrows {
        drops[Swift.max(segmenter.ride, 1), default: DropCounts()].add(reason)
        logger.debug(
            "dropped fix",
            metadata: ["reason": "\(reason.rawValue)", "time": "\(fix.unixMilliseconds.map(String.init) ?? "none")"])
        try emit(.dropped(fix, reason))
    }

    /// Metres per second between two dated fixes with positions (infinite for no time between).
    static func impliedSpeed(_ a: Fix, _ b: Fix) -> Double {
        let dt = Double(b.unixMilliseconds! - a.unixMilliseconds!) / 1000
        let d = Geodesy.haversineDistance(a.coordinate!, b.coordinate!)
        return dt > 0 ? d / dt : (d > 0 ? .infinity : 0)
    }
}
