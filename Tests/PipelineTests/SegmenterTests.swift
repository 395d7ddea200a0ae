import Foundation
import GPSCore
import Pipeline
import Testing

@Suite struct SegmenterTests {
    @Test func gapStartsASegmentLongGapARide() {
        let a = line(from: 0, count: 10)
        let b = line(from: 9 + 31, count: 10, start: a.last!.coordinate!)  // 31 s gap
        let c = line(from: 49 + 601, count: 10, start: b.last!.coordinate!)  // 601 s gap
        let events = run(a + b + c, permissive)
        #expect(
            events.segments == Array(repeating: 1, count: 10) + Array(repeating: 2, count: 10)
                + Array(repeating: 3, count: 10))
        #expect(events.rides == Array(repeating: 1, count: 20) + Array(repeating: 2, count: 10))
    }

    @Test func thirtySecondGapStaysInTheSegment() {
        let a = line(from: 0, count: 10)
        let b = line(from: 9 + 30, count: 10, start: a.last!.coordinate!)
        #expect(Set(run(a + b, permissive).segments) == [1])
    }

    @Test func disconnectStartsASegment() {
        let events = run(line(from: 0, count: 20), permissive, disconnectBefore: [12])
        #expect(events.segments == Array(repeating: 1, count: 12) + Array(repeating: 2, count: 8))
        #expect(Set(events.rides) == [1])
    }

    @Test func longStopStartsARideWhenMovingOn() {
        let a = line(from: 0, count: 60)
        let here = a.last!.coordinate!
        // Eleven minutes standing at a café (fixes every second, a few metres of noise).
        let still = (60..<720).map { i in
            let p = Geodesy.destination(from: here, bearing: Double(i * 37 % 360), distance: Double(i % 5))
            return fix(Double(i), p.latitude, p.longitude)
        }
        let b = line(from: 720, count: 60, start: Geodesy.destination(from: here, bearing: 90, distance: 30))
        let events = run(a + still + b, permissive)
        #expect(events.rides.first == 1 && events.rides.last == 2)
        #expect(events.rides.filter { $0 == 2 }.count == 60, "the ride after the stop starts when it moves off")
    }

    /// A phone at a table for half an hour, its fixes saying 20 m and wandering up to 35 m (past
    /// `segments.stop_radius`, within twice their accuracy): one stay, no ride cut in the middle
    /// of it; moving off starts the next ride.
    @Test func jitterWithinTheFixesAccuracyIsNotMoving() {
        let a = line(from: 0, count: 60)
        let here = a.last!.coordinate!
        let still = (60..<1860).map { i in
            let p = Geodesy.destination(from: here, bearing: Double(i * 97 % 360), distance: Double(i * 13 % 36))
            var f = fix(Double(i), p.latitude, p.longitude)
            (f.latitudeError, f.longitudeError) = (14.1, 14.1)
            return f
        }
        let b = line(from: 1860, count: 60, start: Geodesy.destination(from: here, bearing: 90, distance: 100))
        let events = run(a + still + b, permissive)
        #expect(Set(events.rides) == [1, 2], "\(Set(events.rides))")
        // Ride 2 is the fixes after moving off (the first one or two dropped as the jump from the
        // table to 100 m away in a second).
        let second = events.compactMap { e -> Fix? in e.ride == 2 ? e.keptFix : nil }
        #expect(second.count >= 55 && second.allSatisfy { $0.unixMilliseconds! >= b[0].unixMilliseconds! })
    }

    /// Standing on the antimeridian (Taveuni, Fiji), the fixes on either side of 180°: one stay,
    /// not a move each time a fix crosses.
    @Test func aStopOnTheAntimeridianIsStill() {
        let here = Coordinate(latitude: -16.8, longitude: 179.99995)
        let a = line(from: 0, count: 60, start: Geodesy.destination(from: here, bearing: 270, distance: 300))
        let still = (60..<1260).map { i in
            let p = Geodesy.destination(from: here, bearing: i % 2 == 0 ? 90 : 270, distance: Double(i % 7))
            return fix(Double(i), p.latitude, p.longitude)
        }
        let b = line(from: 1260, count: 60, start: Geodesy.destination(from: here, bearing: 0, distance: 40))
        #expect(still.contains { $0.coordinate!.longitude < 0 } && still.contains { $0.coordinate!.longitude > 0 })
        let events = run(a + still + b, permissive)
        #expect(Set(events.rides) == [1, 2], "\(Set(events.rides))")
    }

    @Test func thinningIsNotAGap() {
        var c = PipelineConfiguration.ride
        c.interval = 60
        let events = run(line(from: 0, count: 600), c)
        #expect(events.kept.count == 10)
        #expect(Set(events.segments) == [1] && Set(events.rides) == [1])
    }

    @Test func longStopEndsTheRideEvenWhenItsFixesAreThinnedOut() {
        var c = PipelineConfiguration.ride
        c.minDistance = 10
        let a = line(from: 0, count: 60)
        let here = a.last!.coordinate!
        let still = (60..<720).map { fix(Double($0), here.latitude, here.longitude) }
        let b = line(from: 720, count: 60, start: Geodesy.destination(from: here, bearing: 90, distance: 30))
        let events = run(a + still + b, c)
        #expect(events.reasons.filter { $0 == .minDistance }.count >= 600)
        #expect(events.rides.first == 1 && events.rides.last == 2)
    }

    @Test func shortStopStaysInTheRide() {
        let a = line(from: 0, count: 60)
        let here = a.last!.coordinate!
        let still = (60..<300).map { fix(Double($0), here.latitude, here.longitude) }
        let b = line(from: 300, count: 60, start: Geodesy.destination(from: here, bearing: 90, distance: 30))
        #expect(Set(run(a + still + b, permissive).rides) == [1])
    }
}

@Suite struct ActiveHoursTests {
    let zurich = TimeZone(identifier: "Europe/Zurich")!

    func hours(_ windows: [String], weekdays: Set<Int> = [], zone: TimeZone? = nil) -> PipelineConfiguration {
        var c = permissive
        c.activeHours = ActiveHours(
            windows: windows.map { ActiveHours.Window($0)! }, weekdays: weekdays, timeZone: zone ?? zurich)
        return c
    }

    @Test func windowParsing() {
        #expect(ActiveHours.Window("07:00-12:00") == ActiveHours.Window("07:00-12:00"))
        #expect(ActiveHours.Window("22:00-06:00")?.end == 360)
        #expect(ActiveHours.Window("08:00-24:00")?.end == 1440)
        for bad in ["25:00-06:00", "7:00-12:00", "07:00", "07:60-08:00", "07:00-07:00", "24:00-06:00"] {
            #expect(ActiveHours.Window(bad) == nil, "\(bad)")
        }
    }

    @Test func morningWindowInLocalSummerTime() {
        // 14 June: Zurich is UTC+2, so 07:00-12:00 local is 05:00-10:00 UTC.
        let fixes = [4.98, 5.0, 9.99, 10.0].map { h in fix(h * 3600, 47, 8) }
        let events = run(fixes, hours(["07:00-12:00"]))
        #expect(events.reasons == [.outsideActiveHours, .outsideActiveHours])
        #expect(events.kept.map { $0.timeOfDay! / 1000 } == [5 * 3600, Int(9.99 * 3600)])
    }

    @Test func overnightWindowIsOneOccurrence() {
        // 22:00-06:00 local = 20:00-04:00 UTC in summer; 23:30 and 03:00 local belong together.
        let fixes = [21.5, 25.0, 28.5].map { h in fix(h * 3600, 47, 8) }
        var c = hours(["22:00-06:00"])
        c.segmentGap = 100_000
        c.rideGap = 100_000
        let events = run(fixes, c)
        #expect(events.kept.count == 2 && events.reasons == [.outsideActiveHours])
        #expect(Set(events.segments) == [1], "one night, one occurrence")
    }

    @Test func weekdaysApplyToTheWindowStart() {
        // 14 June 2026 is a Sunday (7). Friday-only overnight window: Sunday 23:00 is outside.
        let sunday = fix(21 * 3600, 47, 8)  // 23:00 local Sunday
        #expect(run([sunday], hours(["22:00-06:00"], weekdays: [5])).reasons == [.outsideActiveHours])
        #expect(run([sunday], hours(["22:00-06:00"], weekdays: [7])).kept.count == 1)
        let mondayEarly = fix(26 * 3600, 47, 8)  // 04:00 local Monday, in Sunday night's window
        #expect(run([mondayEarly], hours(["22:00-06:00"], weekdays: [7])).kept.count == 1)
        #expect(run([mondayEarly], hours(["22:00-06:00"], weekdays: [1])).reasons == [.outsideActiveHours])
    }

    @Test func daylightSavingChangeMovesTheWindowInUTC() {
        // 07:00-08:00 local: 06:00 UTC on 28 March 2026 (CET), 05:00 UTC on 29 March (CEST).
        let march28 = Double(CivilDate(year: 2026, month: 3, day: 28)!.daysSinceEpoch) * 86_400
        let march29 = march28 + 86_400
        let c = hours(["07:00-08:00"])
        #expect(run([fix(6 * 3600, 47, 8, base: march28)], c).kept.count == 1)
        #expect(run([fix(5.5 * 3600, 47, 8, base: march28)], c).reasons == [.outsideActiveHours])
        #expect(run([fix(5 * 3600, 47, 8, base: march29)], c).kept.count == 1)
        #expect(run([fix(6.5 * 3600, 47, 8, base: march29)], c).reasons == [.outsideActiveHours])
    }

    @Test func windowEdgeStartsASegment() {
        // Fixes every 10 s from 07:50 to 08:10 local across two adjacent windows.
        let first: Int = 5 * 3600 + 50 * 60
        let last: Int = 6 * 3600 + 10 * 60
        let fixes: [Fix] = stride(from: first, to: last, by: 10).map { fix(Double($0), 47, 8) }
        let events = run(fixes, hours(["07:00-08:00", "08:00-09:00"]))
        #expect(events.kept.count == fixes.count)
        #expect(events.segments.first == 1 && events.segments.last == 2)
        #expect(Set(events.rides) == [1])
    }

    @Test func otherTimeZone() {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!  // UTC+9, no DST
        let c = hours(["07:00-12:00"], zone: tokyo)
        #expect(run([fix(22 * 3600, 47, 8)], c).kept.count == 1)  // 07:00 next day in Tokyo
        #expect(run([fix(21.9 * 3600, 47, 8)], c).reasons == [.outsideActiveHours])
    }
}
