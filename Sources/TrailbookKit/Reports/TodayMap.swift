import Foundation
import GPSCore
import Reports
import TrackModel

/// What the home page of `trailbook serve` shows of the account itself: where each of its devices
/// was last, and today's track, simplified for the browser (a day of 1 Hz logging is 86,400
/// points; the page gets the few hundred that show).
public struct TodayMap: Sendable {
    public struct Position: Sendable {
        public var device: String
        public var fix: Fix
        /// Whether the device posts live (it was given a token: a phone app, `record --server`);
        /// false for the device of imports, whose newest point says nothing of now.
        public var live: Bool
    }

    /// Each device's newest stored fix (devices with none are left out).
    public var positions: [Position]
    /// Today's track, one line per segment (points of a device do not join across a gap).
    public var lines: [[Coordinate]]
    /// How many stored points today's lines stand for.
    public var points: Int

    public static func load(account: String, store: any TrackStoring, zone: TimeZone, now: Int64) async throws
        -> TodayMap
    {
        let (from, _) = LocalDay.range(LocalDay.of(now, in: zone), in: zone)
        // One snapshot: the devices' newest fixes and today's points.
        let (positions, points) = try await store.read { tx in
            var positions: [Position] = []
            for device in try tx.devices(of: account) ?? [] {
                if let fix = try tx.latestPoint(devices: .account(account, device: device.name)) {
                    positions.append(Position(device: device.name, fix: fix, live: device.postsLive))
                }
            }
            return (positions, try tx.points(account: account, fromMilliseconds: from, toMilliseconds: now + 1))
        }
        // Per device (two devices logging at once interleave in time), split where nothing was
        // recorded for 10 minutes: not by segment, since a phone that posts once a minute makes
        // a segment of each point.
        var lines = TrackLines(step: 0, budget: .max)
        for p in points { lines.add(device: p.device, p.fix) }
        return TodayMap(positions: positions, lines: lines.finish().map(\.line), points: lines.points)
    }

    /// Each line with the points that show at `zoom` (to within a pixel there; 16 by default).
    public static func simplify(_ lines: [[Coordinate]], zoom: Int = 16) -> [[Coordinate]] {
        let pixels = 256.0 * Double(1 << zoom)
        return lines.map { line -> [Coordinate] in
            let screen = line.map { c -> (x: Double, y: Double) in
                let r = c.latitude * .pi / 180
                return ((c.longitude + 180) / 360 * pixels, (1 - log(tan(r) + 1 / cos(r)) / .pi) / 2 * pixels)
            }
            return Simplify.indices(screen, tolerance: 1).map { line[$0] }
        }
    }

    /// The lines as JSON, `[[[lon,lat],...],...]` to 6 decimals, for a page's data attribute.
    public var linesJSON: String { Self.json(lines) }

    /// `lines` as JSON, `[[[lon,lat],...],...]` to 6 decimals.
    public static func json(_ lines: [[Coordinate]]) -> String {
        "["
            + lines.map { line in
                "[" + line.map { String(format: "[%.6f,%.6f]", $0.longitude, $0.latitude) }.joined(separator: ",")
                    + "]"
            }.joined(separator: ",") + "]"
    }
}
