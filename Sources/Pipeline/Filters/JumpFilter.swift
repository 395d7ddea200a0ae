import GPSCore

/// Drops multipath jumps without locking out a receiver that really moved.
///
/// A fix whose implied speed from the anchor (the last kept fix) exceeds `maxSpeed` is held.
/// If a later fix agrees with the anchor again, the held fixes were an excursion and are
/// dropped. If `reanchorAfter` held fixes in a row agree with each other (implied speeds between
/// them within the limit), the receiver really moved (a train, a long gap): they pass, and the
/// pipeline re-anchors there with a new segment.
///
/// A flight is faster than the limit all along, yet no jump: its fixes follow each other at a
/// sustained speed in a steady direction, which multipath never does. Held fixes whose steps
/// are consistent with the step before them (speed changing at most as an airliner accelerates,
/// heading turning at most as it turns, never faster than ``maxSustainedSpeed``) count as
/// agreeing; once such a run is confirmed, each next fix that goes on consistently passes at once.
public struct JumpFilter: Sendable {
    public var maxSpeed: Double
    public var reanchorAfter: Int
    private var held: [Fix] = []
    /// The step into each held fix (from the anchor, or from the held fix before it).
    private var heldSteps: [Step] = []
    /// The step into the last passed fix when it went faster than `maxSpeed` (a flight under way).
    private var cruise: Step?

    /// Faster than this no run of fixes is believed, m/s (the speed of sound at cruising height is
    /// about 295 m/s; an airliner's ground speed with the jet stream behind it reaches about 320).
    public static let maxSustainedSpeed = 340.0

    public init(maxSpeed: Double, reanchorAfter: Int) {
        self.maxSpeed = maxSpeed
        self.reanchorAfter = reanchorAfter
    }

    /// What one offered fix led to.
    public struct Outcome: Sendable {
        /// Earlier held fixes now known to be jumps.
        public var jumps: [Fix] = []
        /// Fixes that pass, in order.
        public var passed: [Fix] = []
        /// Whether `passed` is a confirmed relocation (its first fix starts a new segment).
        public var reanchored = false
    }

    /// The latest fix held as a possible jump.
    public var latestHeld: Fix? { held.last }

    /// Whether `fix` passes at once (nothing held, and within the speed limit from `anchor`):
    /// the common case, which ``offer(_:anchor:)`` would answer with no jumps and `[fix]` passed.
    /// The pipeline asks this first so that most fixes cost no outcome arrays.
    public func passesStraight(_ fix: Fix, anchor: Fix?) -> Bool {
        guard held.isEmpty else { return false }
        guard let anchor else { return true }
        return Self.impliedSpeed(anchor, fix) <= maxSpeed
    }

    /// Offers a valid, dated fix with a position; `anchor` is the last kept fix.
    public mutating func offer(_ fix: Fix, anchor: Fix?) -> Outcome {
        var outcome = Outcome()
        guard let anchor, Self.impliedSpeed(anchor, fix) > maxSpeed else {
            outcome.jumps = held
            held = []
            heldSteps = []
            cruise = nil
            outcome.passed = [fix]
            return outcome
        }
        let fromAnchor = Step(anchor, fix)
        if held.isEmpty, let cruise, cruise.endMilliseconds == anchor.unixMilliseconds,
            cruise.isFollowed(by: fromAnchor)
        {
            self.cruise = fromAnchor
            outcome.passed = [fix]
            return outcome
        }
        var step = fromAnchor
        if let last = held.last {
            step = Step(last, fix)
            if step.speed > maxSpeed, !heldSteps.last!.isFollowed(by: step) {
                outcome.jumps = held
                held = []
                heldSteps = []
                step = fromAnchor
            }
        }
        held.append(fix)
        heldSteps.append(step)
        if held.count >= reanchorAfter {
            outcome.passed = held
            outcome.reanchored = true
            cruise = step.speed > maxSpeed ? step : nil
            held = []
            heldSteps = []
        }
        return outcome
    }

    /// Ends the run: what is still held was never confirmed.
    public mutating func finish() -> [Fix] {
        defer {
            held = []
            heldSteps = []
            cruise = nil
        }
        return held
    }

    /// The move from one dated fix to the next: how fast, which way, and when it ended.
    struct Step: Sendable {
        var speed: Double
        var bearing: Double
        var seconds: Double
        var endMilliseconds: Int64?

        init(_ a: Fix, _ b: Fix) {
            speed = JumpFilter.impliedSpeed(a, b)
            bearing = Geodesy.bearing(from: a.coordinate!, to: b.coordinate!)
            seconds = Double(b.unixMilliseconds! - a.unixMilliseconds!) / 1000
            endMilliseconds = b.unixMilliseconds
        }

        /// Whether `next` goes on from this step as a real vehicle could: below the sustained
        /// limit, its speed within 10 m/s plus 3 m/s² of this one's, its heading within 30°
        /// plus 3° a second.
        func isFollowed(by next: Step) -> Bool {
            guard next.speed <= JumpFilter.maxSustainedSpeed, next.seconds > 0 else { return false }
            guard abs(next.speed - speed) <= 10 + 3 * next.seconds else { return false }
            let turn = abs((next.bearing - bearing + 540).truncatingRemainder(dividingBy: 360) - 180)
            return turn <= Swift.min(180, 30 + 3 * next.seconds)
        }
    }

    /// Metres per second between two dated fixes with positions (infinite for no time between).
    static func impliedSpeed(_ a: Fix, _ b: Fix) -> Double {
        let dt = Double(b.unixMilliseconds! - a.unixMilliseconds!) / 1000
        let d = Geodesy.haversineDistance(a.coordinate!, b.coordinate!)
        return dt > 0 ? d / dt : (d > 0 ? .infinity : 0)
    }
}
