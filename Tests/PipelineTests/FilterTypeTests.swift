import Foundation
import GPSCore
import Pipeline
import Testing

/// Each filter type on its own.
@Suite struct FilterTypeTests {
    @Test func validityAlone() {
        let v = ValidityFilter()
        #expect(v.reasonToDrop(fix(0, 47, 8), after: nil) == nil)
        #expect(v.reasonToDrop(fix(0, 47, 8, mode: .noFix), after: nil) == .noFix)
        #expect(v.reasonToDrop(fix(0, 0, 0), after: nil) == .badPosition)
        #expect(v.reasonToDrop(fix(0, 47, 181), after: nil) == .badPosition)
        #expect(v.reasonToDrop(fix(0, .nan, 8), after: nil) == .badPosition)
        #expect(v.reasonToDrop(fix(5, 47, 8), after: fix(5, 47, 8)) == .notLater)
        #expect(v.reasonToDrop(fix(4, 47, 8), after: fix(5, 47, 8)) == .notLater)
    }

    @Test func accuracyAlone() {
        let a = AccuracyFilter(maxHDOP: 2, minSatellites: 5, minMode: 3, maxErrorMetres: 5)
        #expect(a.reasonToDrop(fix(0, 47, 8, hdop: 2, sats: 5), after: nil) == nil)
        #expect(a.reasonToDrop(fix(0, 47, 8, hdop: 2.01), after: nil) == .hdop)
        #expect(a.reasonToDrop(fix(0, 47, 8, sats: 4), after: nil) == .satellites)
        #expect(a.reasonToDrop(fix(0, 47, 8, mode: .twoD), after: nil) == .mode)
        #expect(a.reasonToDrop(fix(0, 47, 8, hdop: nil, sats: nil), after: nil) == nil, "unreported values pass")
        var f = fix(0, 47, 8)
        f.latitudeError = 4
        f.longitudeError = 4
        #expect(a.reasonToDrop(f, after: nil) == .errorEstimate)
    }

    @Test func intervalAndDistanceAlone() {
        let interval = IntervalFilter(interval: 10)
        #expect(interval.reasonToDrop(fix(9.5, 47, 8), after: fix(0, 47, 8)) == .interval)
        #expect(interval.reasonToDrop(fix(9.9995, 47, 8), after: fix(0, 47, 8)) == nil, "a millisecond of slack")
        #expect(interval.reasonToDrop(fix(3, 47, 8), after: nil) == nil)
        let distance = MinDistanceFilter(metres: 100)
        #expect(distance.reasonToDrop(fix(1, 47.0008, 8), after: fix(0, 47, 8)) == .minDistance)
        #expect(distance.reasonToDrop(fix(1, 47.001, 8), after: fix(0, 47, 8)) == nil)
        #expect(MinDistanceFilter(metres: 0).reasonToDrop(fix(1, 47, 8), after: fix(0, 47, 8)) == nil)
    }

    @Test func activeHoursAlone() {
        let hours = ActiveHours(windows: [ActiveHours.Window("07:00-08:00")!], timeZone: TimeZone(identifier: "UTC")!)
        let filter = ActiveHoursFilter(hours: hours)
        #expect(filter.reasonToDrop(fix(7 * 3600, 47, 8), after: nil) == nil)
        #expect(filter.reasonToDrop(fix(8 * 3600, 47, 8), after: nil) == .outsideActiveHours)
    }

    @Test func jumpAlone() {
        var jumps = JumpFilter(maxSpeed: 50, reanchorAfter: 3)
        let anchor = fix(0, 47, 8)
        #expect(jumps.passesStraight(fix(1, 47.00001, 8), anchor: anchor))
        #expect(jumps.passesStraight(fix(1, 47.00001, 8), anchor: nil))
        #expect(jumps.offer(fix(1, 47.00001, 8), anchor: anchor).passed.count == 1)
        let far = { (t: Double) in fix(t, 47.1, 8) }  // 11 km away
        #expect(!jumps.passesStraight(far(1), anchor: anchor))
        #expect(jumps.offer(far(1), anchor: anchor).passed.isEmpty)
        #expect(jumps.latestHeld != nil)
        #expect(
            !jumps.passesStraight(fix(2, 47.00002, 8), anchor: anchor),
            "while a fix is held, a fix back must go through offer, which drops the held one")
        let back = jumps.offer(fix(2, 47.00002, 8), anchor: anchor)
        #expect(back.jumps.count == 1 && back.passed.count == 1, "the excursion is dropped, the fix back passes")
        _ = jumps.offer(far(3), anchor: anchor)
        _ = jumps.offer(far(4), anchor: anchor)
        let moved = jumps.offer(far(5), anchor: anchor)
        #expect(moved.reanchored && moved.passed.count == 3)
        #expect(jumps.finish().isEmpty)
    }
}
