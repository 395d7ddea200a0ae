import GPSCore

/// The moving parts of a recorded ride: a stay (a visit long enough, found in the person's one
/// timeline) is never part of a ride, so a ride that holds one is cut around it and a ride
/// that is all stay is no ride. Pure: the caller gives the points' times and the stays.
public enum RideParts {
    /// A stay that cuts rides: `[start, end]`, ms since 1970 UTC.
    public struct Stay: Equatable, Sendable {
        public var start: Int64
        public var end: Int64
        /// Where the person stood (the visit's centre), when known.
        public var center: Coordinate?

        public init(start: Int64, end: Int64, center: Coordinate? = nil) {
            self.start = start
            self.end = end
            self.center = center
        }
    }

    /// A moving part: its points (a range of the times given) and the stays it leaves and
    /// reaches, when it leaves or reaches one within ``adjoining`` ms of its first or last point.
    public struct Part: Equatable, Sendable {
        public var points: Range<Int>
        public var leaves: Stay?
        public var reaches: Stay?
    }

    /// How near a stay's end (start) a part's first (last) point lies to leave (reach) it, ms.
    public static let adjoining: Int64 = 120_000

    /// ``moving(_:stays:)`` with the stays each part leaves and reaches: a move begins where
    /// the person stood, not at the first fix past the stay's edge, so the caller may count
    /// the way from the stay's centre to it.
    public static func parts(_ times: [Int64], stays: [Stay]) -> [Part] {
        let stays = stays.sorted { $0.start < $1.start }
        return moving(times, stays: stays).map { range in
            let (first, last) = (times[range.lowerBound], times[range.upperBound - 1])
            let before = range.lowerBound > 0 ? times[range.lowerBound - 1] : .min
            let after = range.upperBound < times.count ? times[range.upperBound] : .max
            return Part(
                points: range,
                leaves: stays.last { $0.end <= first && $0.end > before && first - $0.end <= adjoining },
                reaches: stays.first { $0.start >= last && $0.start < after && $0.start - last <= adjoining })
        }
    }

    /// The runs of `times` (ascending, ms) that are moving: a point strictly inside a stay is
    /// left out, and a run ends where a stay lies between two points. A point at a stay's first
    /// or last moment belongs to the move that reaches or leaves it. Runs of fewer than two
    /// points, or of no time, are no move.
    public static func moving(_ times: [Int64], stays: [Stay]) -> [Range<Int>] {
        let stays = stays.filter { $0.end > $0.start }.sorted { $0.start < $1.start }
        var runs: [Range<Int>] = []
        var run: Range<Int>?
        func close() {
            if let r = run, r.count > 1, times[r.last!] > times[r.first!] { runs.append(r) }
            run = nil
        }
        var k = 0
        for (i, t) in times.enumerated() {
            // The stays that end by this point: one that reached past the point before lay
            // between the two (or held it).
            while k < stays.count, stays[k].end <= t {
                if i > 0, stays[k].end > times[i - 1] { close() }
                k += 1
            }
            if k < stays.count, stays[k].start < t {
                close()
                continue
            }
            run = run.map { $0.lowerBound..<(i + 1) } ?? i..<(i + 1)
        }
        close()
        return runs
    }
}
