import Foundation
import GPSCore
import Pipeline

/// 2026-06-14T00:00:00Z in seconds.
let dayStart: Double = Double(CivilDate(year: 2026, month: 6, day: 14)!.daysSinceEpoch) * 86_400

/// A 3D fix at `t` seconds after `base` (UTC), with good accuracy unless told otherwise.
func fix(
    _ t: Double, _ lat: Double, _ lon: Double, base: Double = dayStart, hdop: Double? = 0.9, sats: Int? = 9,
    mode: FixMode = .threeD
) -> Fix {
    var f = Fix()
    let ms = Int64(((base + t) * 1000).rounded())
    f.date = CivilDate(daysSinceEpoch: Int(ms / 86_400_000))
    f.timeOfDay = Int(ms % 86_400_000)
    f.mode = mode
    f.coordinate = Coordinate(latitude: lat, longitude: lon)
    f.hdop = hdop
    f.satellitesUsed = sats
    return f
}

/// Fixes along a straight line east from (47, 8) at `speed` m/s, one per second.
func line(from t0: Double, count: Int, speed: Double = 5, start: Coordinate = Coordinate(latitude: 47, longitude: 8))
    -> [Fix]
{
    (0..<count).map { i in
        let p = Geodesy.destination(from: start, bearing: 90, distance: Double(i) * speed)
        return fix(t0 + Double(i), p.latitude, p.longitude)
    }
}

/// Runs fixes through a pipeline; returns its events.
func run(_ fixes: [Fix], _ configuration: PipelineConfiguration, disconnectBefore: Set<Int> = []) -> [PipelineEvent] {
    var pipeline = Pipeline(configuration: configuration)
    var events: [PipelineEvent] = []
    for (i, f) in fixes.enumerated() {
        if disconnectBefore.contains(i) { pipeline.sourceDisconnected() }
        pipeline.process(f) { events.append($0) }
    }
    pipeline.finish { events.append($0) }
    return events
}

extension PipelineEvent {
    var keptFix: Fix? { if case .kept(let f, _, _) = self { f } else { nil } }
    var segment: Int? { if case .kept(_, _, let s) = self { s } else { nil } }
    var ride: Int? { if case .kept(_, let r, _) = self { r } else { nil } }
    var dropReason: DropReason? { if case .dropped(_, let r) = self { r } else { nil } }
}

extension Array where Element == PipelineEvent {
    var kept: [Fix] { compactMap(\.keptFix) }
    var reasons: [DropReason] { compactMap(\.dropReason) }
    var segments: [Int] { compactMap(\.segment) }
    var rides: [Int] { compactMap(\.ride) }
}

/// Every filter off: only validity applies.
var permissive: PipelineConfiguration {
    var c = PipelineConfiguration()
    c.maxHDOP = nil
    c.minSatellites = nil
    c.interval = 0
    return c
}
