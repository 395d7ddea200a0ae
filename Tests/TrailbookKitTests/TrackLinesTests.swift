import Foundation
import GPSCore
import Testing
import TrailbookKit

/// A long track as lines a browser can draw, built a point at a time.
@Suite struct TrackLinesTests {
    let t0: Int64 = 1_781_418_600_000

    func fix(_ ms: Int64, _ lat: Double, _ lon: Double) -> Fix {
        var f = Fix()
        UTCTimestamp.set(ms, on: &f)
        f.coordinate = Coordinate(latitude: lat, longitude: lon)
        f.mode = .twoD
        return f
    }

    @Test func linesSplitAtGapsPerDeviceAndKeepAPointEveryStep() {
        var lines = TrackLines(step: 10, budget: .max)
        // The phone: 1 m/s north for 100 s, nothing for 11 min, 100 s more; the bike meanwhile,
        // standing still (one point kept).
        for s in 0..<100 {
            lines.add(device: "phone", fix(t0 + Int64(s) * 1000, 47 + Double(s) / 111_195, 8))
            lines.add(device: "bike", fix(t0 + Int64(s) * 1000, 46, 7))
        }
        for s in 760..<860 { lines.add(device: "phone", fix(t0 + Int64(s) * 1000, 47.01 + Double(s) / 111_195, 8)) }
        lines.add(device: "phone", Fix())
        #expect(lines.points == 300, "a fix without a position is not a point")
        let drawn = lines.finish()
        #expect(drawn.map(\.device) == ["phone", "bike", "phone"], "the phone's two lines, apart")
        #expect(drawn[1].line.count == 1, "standing still is one point")
        // A straight line: its ends.
        #expect(drawn[0].line.count == 2 && drawn[2].line.count == 2, "\(drawn.map(\.line.count))")
    }

    @Test func aYearOfWanderingStaysWithinTheBudget() {
        var lines = TrackLines(budget: 20_000)
        // A million fixes of a winding way (every second, 3 m/s, turning all the time).
        var (lat, lon, heading) = (47.0, 8.0, 0.0)
        for s in 0..<1_000_000 {
            heading += sin(Double(s) / 40) * 0.08
            lat += 3 * cos(heading) / 111_195
            lon += 3 * sin(heading) / 75_800
            lines.add(device: "phone", fix(t0 + Int64(s) * 1000, lat, lon))
        }
        let drawn = lines.finish()
        let kept = drawn.map(\.line.count).reduce(0, +)
        #expect(kept <= 20_000 && kept > 1000, "\(kept) points drawn for 1,000,000")
        #expect(drawn.count == 1)
    }
}
