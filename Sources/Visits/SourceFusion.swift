import GPSCore

/// One timeline from several sources of one person: where two sources (a phone and a receiver,
/// Google's Records.json and its semantic paths) cover the same minutes, only one of them is
/// kept for those minutes, so no distance or time is counted twice. Pure: it decides which
/// points stay, over points already read; the stored points are never changed.
///
/// The order of the sources, best first (docs/TIMELINE.md):
/// 1. a source with a point every ``sparseInterval`` or more often (its median interval) over a
///    sparser one: measured points over a path drawn from a few (Google's semantic paths);
/// 2. a source whose points say how accurate they are (a horizontal error or an HDOP: a receiver,
///    a phone, Google's raw locations) over one whose points never do;
/// 3. the smaller median horizontal error (HDOP counted as ``hdopMetres`` metres per unit);
/// 4. the denser source: more points per hour of the time it covers;
/// 5. the lower source number (a stable choice between equals).
///
/// A source covers the time between two of its consecutive points no more than ``bridge`` apart,
/// and ``margin`` on either side of each of its points. A point is kept when no better source
/// covers its moment: each stretch of time has the best source that was there.
public struct SourceFusion: Sendable {
    /// One point as fusion sees it.
    public struct Point: Equatable, Sendable {
        /// ms since 1970 UTC.
        public var milliseconds: Int64
        /// Which source it is of (any number that tells the sources apart).
        public var source: Int
        /// Its horizontal error, metres, when it said.
        public var error: Double?

        public init(milliseconds: Int64, source: Int, error: Double?) {
            self.milliseconds = milliseconds
            self.source = source
            self.error = error
        }
    }

    /// What a source's points say of it, in the order above (smaller is better).
    struct Quality: Comparable {
        var sparse: Bool
        var inferred: Bool
        var error: Double
        var sparseness: Double
        var source: Int

        static func < (a: Quality, b: Quality) -> Bool {
            (a.sparse ? 1 : 0, a.inferred ? 1 : 0, a.error, a.sparseness, a.source) < (
                b.sparse ? 1 : 0, b.inferred ? 1 : 0, b.error, b.sparseness, b.source
            )
        }
    }

    /// A source whose median time between two points (within ``bridge``) is longer is sparse: a
    /// path drawn from a few points, as Google's semantic paths are, ms.
    public var sparseInterval: Int64 = 120_000

    /// The longest time between two points of a source that it still covers, ms.
    public var bridge: Int64 = 600_000
    /// The time a point covers on either side of it, ms.
    public var margin: Int64 = 60_000
    /// Metres of horizontal error per unit of HDOP, for points that give only an HDOP (a typical
    /// receiver's range error).
    public static let hdopMetres = 5.0

    public init() {}

    /// A fix's horizontal error, metres: its own estimate, else its HDOP in metres.
    public static func error(of fix: Fix) -> Double? {
        fix.horizontalError ?? fix.hdop.map { $0 * hdopMetres }
    }

    /// Whether each of `points` (in time order) is kept.
    public func kept(_ points: [Point]) -> [Bool] {
        let sources = Set(points.map(\.source))
        guard sources.count > 1 else { return Array(repeating: true, count: points.count) }
        let covered = coverage(points)
        let ranked = rank(points, covered: covered)
        var out = Array(repeating: true, count: points.count)
        for (i, p) in points.enumerated() {
            guard let place = ranked[p.source] else { continue }
            for (source, spans) in covered where source != p.source {
                if let other = ranked[source], other < place, Self.contains(spans, p.milliseconds) {
                    out[i] = false
                    break
                }
            }
        }
        return out
    }

    /// Each source's quality over `points`, whose ``coverage(_:)`` is `covered`.
    func rank(_ points: [Point], covered: [Int: [(Int64, Int64)]]) -> [Int: Quality] {
        var errors: [Int: [Double]] = [:]
        var counts: [Int: Int] = [:]
        var intervals: [Int: [Int64]] = [:]
        var last: [Int: Int64] = [:]
        for p in points {
            counts[p.source, default: 0] += 1
            if let e = p.error, e.isFinite, e >= 0 { errors[p.source, default: []].append(e) }
            if let before = last[p.source], p.milliseconds - before <= bridge {
                intervals[p.source, default: []].append(p.milliseconds - before)
            }
            last[p.source] = p.milliseconds
        }
        var out: [Int: Quality] = [:]
        for (source, count) in counts {
            let known = (errors[source] ?? []).sorted()
            let hours = Double(covered[source]?.reduce(0) { $0 + $1.1 - $1.0 } ?? 0) / 3_600_000
            let gaps = (intervals[source] ?? []).sorted()
            out[source] = Quality(
                sparse: gaps.isEmpty || gaps[gaps.count / 2] > sparseInterval, inferred: known.isEmpty,
                error: known.isEmpty ? .infinity : known[known.count / 2],
                sparseness: hours > 0 ? hours / Double(count) : .infinity, source: source)
        }
        return out
    }

    /// The spans each source covers, in time order, merged.
    func coverage(_ points: [Point]) -> [Int: [(Int64, Int64)]] {
        var last: [Int: Int64] = [:]
        var spans: [Int: [(Int64, Int64)]] = [:]
        for p in points {
            let t = p.milliseconds
            var start = t - margin
            if let before = last[p.source], t - before <= bridge { start = min(start, before) }
            // In place: a copy of the list taken out of the dictionary would be copied on write.
            if let end = spans[p.source]?.last?.1, start <= end {
                spans[p.source]![spans[p.source]!.count - 1].1 = max(end, t + margin)
            } else {
                spans[p.source, default: []].append((start, t + margin))
            }
            last[p.source] = t
        }
        return spans
    }

    /// Whether `t` falls in one of `spans` (in time order, not overlapping).
    static func contains(_ spans: [(Int64, Int64)], _ t: Int64) -> Bool {
        var (low, high) = (0, spans.count)
        while low < high {
            let mid = (low + high) / 2
            if spans[mid].1 < t { low = mid + 1 } else { high = mid }
        }
        return low < spans.count && spans[low].0 <= t
    }
}
