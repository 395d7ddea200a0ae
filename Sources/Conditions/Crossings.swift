import Foundation

/// A moment where a quantity passes a level, going up or down.
struct Crossing {
    let time: Double
    let upward: Bool
}

/// Finds where a smooth function of time crosses levels: samples it every `step` seconds and
/// refines each bracket by bisection to half a second. Two crossings closer than one step
/// (a body grazing the level) can be missed; a step of ten minutes keeps that to days when the
/// Sun or Moon skims the horizon within minutes, near the polar circles.
enum CrossingSearch {
    static func find(
        from start: Double, to end: Double, step: Double = 600, levels: [Double],
        _ value: (Double) -> Double
    ) -> [[Crossing]] {
        var times: [Double] = []
        var t = start
        while t < end {
            times.append(t)
            t += step
        }
        times.append(end)
        let samples = times.map(value)
        return levels.map { level in
            var found: [Crossing] = []
            for i in 1..<times.count {
                let a = samples[i - 1] - level
                let b = samples[i] - level
                guard (a < 0) != (b < 0) else { continue }
                let time = refine(times[i - 1], times[i], above: b >= 0) { value($0) - level }
                // Half-open day: a crossing exactly at the end belongs to the next one.
                if time >= start && time < end { found.append(Crossing(time: time, upward: b >= 0)) }
            }
            return found
        }
    }

    private static func refine(_ low: Double, _ high: Double, above: Bool, _ f: (Double) -> Double) -> Double {
        var lo = low
        var hi = high
        while hi - lo > 0.5 {
            let mid = (lo + hi) / 2
            if (f(mid) >= 0) == above { hi = mid } else { lo = mid }
        }
        return (lo + hi) / 2
    }
}
