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
    }

    /// Each device's newest stored fix (devices with none are left out).
    public var positions: [Position]
    /// Today's track, one line per segment (points of a device do not join across a gap).
    public var lines: [[Coordinate]]
    /// How many stored points today's lines stand for.
    public var points: Int

    /// Web Mercator pixels of zoom 16: a line is simplified to within a pixel there.
    static let worldPixels = 256.0 * 65536

    public static func load(account: String, store: any TrackStoring, zone: TimeZone, now: Int64) throws -> TodayMap {
        var positions: [Position] = []
        for device in try store.devices(of: account) ?? [] {
            if let fix = try store.latestPoint(devices: .account(account, device: device.name)) {
                positions.append(Position(device: device.name, fix: fix))
            }
        }
        let (from, _) = LocalDay.range(LocalDay.of(now, in: zone), in: zone)
        // Per device (two devices logging at once interleave in time), split where nothing was
        // recorded for 10 minutes: not by segment, since a phone that posts once a minute makes
        // a segment of each point.
        let points = try store.points(account: account, fromMilliseconds: from, toMilliseconds: now + 1)
        let count = points.filter { $0.fix.coordinate != nil }.count
        return TodayMap(positions: positions, lines: deviceLines(points).map(\.line), points: count)
    }

    /// Each line with the points that show at zoom 16 (to within a pixel there).
    public static func simplify(_ lines: [[Coordinate]]) -> [[Coordinate]] {
        lines.map { line -> [Coordinate] in
            let screen = line.map { c -> (x: Double, y: Double) in
                let r = c.latitude * .pi / 180
                return (
                    (c.longitude + 180) / 360 * worldPixels, (1 - log(tan(r) + 1 / cos(r)) / .pi) / 2 * worldPixels
                )
            }
            return Simplify.indices(screen, tolerance: 1).map { line[$0] }
        }
    }

    /// A friend's shared history as lines to draw: per device, split where `gap` seconds pass
    /// between two fixes (no line across a time nothing was recorded), simplified.
    public static func lines(_ points: [(device: String, fix: Fix)], gap: Double = 600) -> [[Coordinate]] {
        deviceLines(points, gap: gap).map(\.line)
    }

    /// The same lines, each with the device it is of.
    public static func deviceLines(_ points: [(device: String, fix: Fix)], gap: Double = 600)
        -> [(device: String, line: [Coordinate])]
    {
        var lines: [(device: String, line: [Coordinate])] = []
        for device in Set(points.map(\.device)).sorted() {
            var previous: Int64?
            for p in points where p.device == device {
                guard let c = p.fix.coordinate, let t = p.fix.unixMilliseconds else { continue }
                if previous == nil || Double(t - previous!) > gap * 1000 { lines.append((device, [])) }
                lines[lines.count - 1].line.append(c)
                previous = t
            }
        }
        return zip(lines, simplify(lines.map(\.line))).map { ($0.device, $1) }
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
