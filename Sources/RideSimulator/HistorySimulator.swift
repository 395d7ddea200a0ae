import Foundation
import GPSCore

/// Simulates a person's days, with the truth kept beside the fixes, for testing visit and trip
/// detection: stays with multipath (a slowly wandering offset up to `stayNoise` metres, now and
/// then a reflection far off), travel in straight lines at a mode's steady speed, and spells
/// without a fix (indoors, a tunnel, a phone asleep, a flight in flight mode). Fixes come every
/// `stayInterval` seconds at a stay and every `moveInterval` seconds on the move, lazily, so a
/// year at 1 Hz costs no memory.
public struct HistorySimulator: Sequence, Sendable {
    public enum Step: Sendable {
        /// Stand still for `seconds`.
        case stay(seconds: Int)
        /// Stand still for `seconds` with no fix.
        case dark(seconds: Int)
        /// Go straight to `to` at `speed` m/s by `mode` ("walking", "car", "plane"...), the middle
        /// `darkShare` of the way without a fix.
        case move(to: Coordinate, speed: Double, mode: String, darkShare: Double = 0)
    }

    /// What really happened: a stay (`mode` nil) at `at`, or a trip by `mode`, from `start` to
    /// `end` (ms since 1970).
    public struct Span: Equatable, Sendable {
        public var start: Int64
        public var end: Int64
        public var mode: String?
        public var at: Coordinate
    }

    public var start: Coordinate
    public var startMilliseconds: Int64
    public var steps: [Step]
    public var stayInterval = 60
    public var moveInterval = 10
    public var stayNoise = 30.0
    public var seed: UInt64 = 1

    public init(start: Coordinate, startMilliseconds: Int64, steps: [Step]) {
        self.start = start
        self.startMilliseconds = startMilliseconds
        self.steps = steps
    }

    /// The stays (consecutive stays and dark spells at one spot are one) and trips.
    public var truth: [Span] {
        var spans: [Span] = []
        var t = startMilliseconds
        var position = start
        for step in steps {
            switch step {
            case .stay(let seconds), .dark(let seconds):
                let end = t + Int64(seconds) * 1000
                if let last = spans.last, last.mode == nil {
                    spans[spans.count - 1].end = end
                } else {
                    spans.append(Span(start: t, end: end, mode: nil, at: position))
                }
                t = end
            case .move(let to, let speed, let mode, _):
                let seconds = Geodesy.haversineDistance(position, to) / speed
                let end = t + Int64((seconds * 1000).rounded())
                spans.append(Span(start: t, end: end, mode: mode, at: to))
                position = to
                t = end
            }
        }
        return spans
    }

    public func makeIterator() -> Iterator { Iterator(self) }

    public struct Iterator: IteratorProtocol, Sendable {
        let plan: HistorySimulator
        var random: SeededGenerator
        var stepIndex = 0
        /// Seconds into the current step, and its length.
        var elapsed = 0.0
        var position: Coordinate
        var t: Int64
        var offset = (east: 0.0, north: 0.0)

        init(_ plan: HistorySimulator) {
            self.plan = plan
            random = SeededGenerator(seed: plan.seed)
            position = plan.start
            t = plan.startMilliseconds
        }

        public mutating func next() -> Fix? {
            while stepIndex < plan.steps.count {
                switch plan.steps[stepIndex] {
                case .stay(let seconds):
                    if elapsed < Double(seconds) {
                        let fix = stayFix(at: t + Int64(elapsed * 1000))
                        elapsed += Double(plan.stayInterval)
                        return fix
                    }
                    finishStep(seconds: Double(seconds))
                case .dark(let seconds):
                    finishStep(seconds: Double(seconds))
                case .move(let to, let speed, _, let darkShare):
                    let total = Geodesy.haversineDistance(position, to) / speed
                    if elapsed < total {
                        let share = elapsed / total
                        let from = position
                        let dark = abs(share - 0.5) < darkShare / 2
                        let at = Geodesy.destination(
                            from: from, bearing: Geodesy.bearing(from: from, to: to), distance: elapsed * speed)
                        let ms = t + Int64(elapsed * 1000)
                        elapsed += Double(plan.moveInterval)
                        if dark { continue }
                        return moveFix(at: at, ms: ms, speed: speed, track: Geodesy.bearing(from: at, to: to))
                    }
                    position = to
                    offset = (0, 0)
                    finishStep(seconds: total)
                }
            }
            return nil
        }

        mutating func finishStep(seconds: Double) {
            t += Int64((seconds * 1000).rounded())
            stepIndex += 1
            elapsed = 0
        }

        mutating func stayFix(at ms: Int64) -> Fix {
            // An AR(1) offset, as reflections give, within the stay's noise; one fix in 50 far off.
            let sigma = Swift.max(1, plan.stayNoise / 2)
            let keep = 0.9
            let step = (1 - keep * keep).squareRoot()
            offset.east = keep * offset.east + gaussian() * sigma * step
            offset.north = keep * offset.north + gaussian() * sigma * step
            var size = (offset.east * offset.east + offset.north * offset.north).squareRoot()
            if size > plan.stayNoise {
                offset.east *= plan.stayNoise / size
                offset.north *= plan.stayNoise / size
                size = plan.stayNoise
            }
            var bearing = atan2(offset.east, offset.north) * 180 / .pi
            if random.chance(0.02) {
                bearing = random.uniform(0...360)
                size = random.uniform(150...400)
            }
            var fix = fix(at: Geodesy.destination(from: position, bearing: bearing, distance: size), ms: ms)
            fix.latitudeError = (sigma / 2.squareRoot() * 10).rounded() / 10
            fix.longitudeError = fix.latitudeError
            fix.speed = 0
            return fix
        }

        func moveFix(at: Coordinate, ms: Int64, speed: Double, track: Double) -> Fix {
            var fix = fix(at: at, ms: ms)
            fix.latitudeError = 3.5
            fix.longitudeError = 3.5
            fix.speed = speed
            fix.track = track
            return fix
        }

        func fix(at c: Coordinate, ms: Int64) -> Fix {
            var fix = Fix()
            fix.date = CivilDate(daysSinceEpoch: Int(ms / 86_400_000))
            fix.timeOfDay = Int(ms % 86_400_000)
            fix.mode = .threeD
            fix.quality = .gps
            fix.satellitesUsed = 9
            fix.hdop = 1.1
            fix.coordinate = c
            return fix
        }

        mutating func gaussian() -> Double {
            let u = Swift.max(1e-12, random.uniform(0...1))
            let v = random.uniform(0...1)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
    }
}
