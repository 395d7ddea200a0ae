import GPSCore

/// Drops multipath jumps without locking out a receiver that really moved.
///
/// A fix whose implied speed from the anchor (the last kept fix) exceeds `maxSpeed` is held.
/// If a later fix agrees with the anchor again, the held fixes were an excursion and are
/// dropped. If `reanchorAfter` held fixes in a row agree with each other (implied speeds between
/// them within the limit), the receiver really moved (a train, a long gap): they pass, and the
/// pipeline re-anchors there with a new segment.
public struct JumpFilter: Sendable {
    public var maxSpeed: Double
    public var reanchorAfter: Int
    private var held: [Fix] = []

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
            outcome.passed = [fix]
            return outcome
        }
        if let last = held.last, Self.impliedSpeed(last, fix) > maxSpeed {
            outcome.jumps = held
            held = []
        }
        held.append(fix)
        if held.count >= reanchorAfter {
            outcome.passed = held
            outcome.reanchored = true
            held = []
        }
        return outcome
    }

    /// Ends the run: what is still held was never confirmed.
    public mutating func finish() -> [Fix] {
        defer { held = [] }
        return held
    }

    /// Metres per second between two dated fixes with positions (infinite for no time between).
    static func impliedSpeed(_ a: Fix, _ b: Fix) -> Double {
        let dt = Double(b.unixMilliseconds! - a.unixMilliseconds!) / 1000
        let d = Geodesy.haversineDistance(a.coordinate!, b.coordinate!)
        return dt > 0 ? d / dt : (d > 0 ? .infinity : 0)
    }
}
