import Foundation
import GPSCore
import Reports

/// A long stretch of someone's track as lines a browser can draw, built as the points stream in
/// (a day at a time), so a year of 1 Hz logging (31 M points) never sits in memory: per device,
/// split where nothing was recorded for `gap` seconds, a point kept only `step` metres or more
/// from the one kept before it; at the end the lines are simplified to within a pixel at the
/// largest zoom (16 down to 6) that leaves at most `budget` points.
public struct TrackLines: Sendable {
    public let gap: Int64
    public let step: Double
    public let budget: Int
    /// The lines so far, each with its device.
    private var lines: [(device: String, line: [Coordinate])] = []
    /// Per device: its open line, and the time of its last point.
    private var open: [String: (index: Int, last: Int64)] = [:]
    /// Points read.
    public private(set) var points = 0

    public init(gap: TimeInterval = 600, step: Double = 10, budget: Int = 20_000) {
        self.gap = Int64(gap * 1000)
        self.step = step
        self.budget = budget
    }

    public mutating func add(device: String, _ fix: Fix) {
        guard let c = fix.coordinate, let t = fix.unixMilliseconds else { return }
        points += 1
        if let o = open[device], t - o.last <= gap {
            open[device] = (o.index, t)
            if let kept = lines[o.index].line.last, Geodesy.haversineDistance(kept, c) < step { return }
            lines[o.index].line.append(c)
        } else {
            open[device] = (lines.count, t)
            lines.append((device, [c]))
        }
    }

    /// The lines, simplified within the budget.
    public func finish() -> [(device: String, line: [Coordinate])] {
        var zoom = 16
        while true {
            let simplified = zip(lines, TodayMap.simplify(lines.map(\.line), zoom: zoom)).map { ($0.device, $1) }
            if zoom <= 6 || simplified.map(\.1.count).reduce(0, +) <= budget { return simplified }
            zoom -= 2
        }
    }
}
