import GPSCore
import Pipeline
import Testing

@Suite struct FilterTests {
    @Test func validity() {
        var noFix = fix(1, 47, 8)
        noFix.mode = .noFix
        noFix.coordinate = nil
        var undated = fix(2, 47, 8)
        undated.date = nil
        let events = run(
            [
                fix(0, 47, 8), noFix, undated, fix(3, 0, 0), fix(4, 91, 8), fix(5, 47.0001, 8), fix(5, 47.0001, 8),
                fix(4.5, 47, 8),
            ],
            .ride)
        #expect(events.reasons == [.noFix, .missingTime, .badPosition, .badPosition, .notLater, .notLater])
        #expect(events.kept.count == 2)
    }

    @Test func accuracyGate() {
        var c = PipelineConfiguration.ride
        c.minMode = 3
        c.maxErrorMetres = 10
        var noisy = fix(4, 47, 8.0001)
        noisy.latitudeError = 9
        noisy.longitudeError = 9
        let events = run(
            [
                fix(0, 47, 8), fix(1, 47, 8, hdop: 5.1), fix(2, 47, 8, sats: 3), fix(3, 47, 8, mode: .twoD), noisy,
                fix(5, 47, 8, hdop: 5.0, sats: 4),
            ],
            c)
        #expect(events.reasons == [.hdop, .satellites, .mode, .errorEstimate])
        #expect(events.kept.count == 2)
    }

    @Test func singleEpochJumpIsDropped() {
        var fixes = line(from: 0, count: 20)
        let p = Geodesy.destination(from: fixes[10].coordinate!, bearing: 0, distance: 2000)
        fixes[10] = fix(10, p.latitude, p.longitude)
        let events = run(fixes, .ride)
        #expect(events.reasons == [.jump])
        #expect(events.kept.count == 19)
        #expect(Set(events.segments) == [1], "an excursion does not cut the segment")
    }

    @Test func twoEpochExcursionIsDropped() {
        var fixes = line(from: 0, count: 20)
        for i in [10, 11] {
            let p = Geodesy.destination(from: fixes[i].coordinate!, bearing: 180, distance: 800)
            fixes[i] = fix(Double(i), p.latitude, p.longitude)
        }
        let events = run(fixes, .ride)
        #expect(events.reasons == [.jump, .jump])
        #expect(events.kept.count == 18)
    }

    @Test func realRelocationReanchorsAndLosesNothingAfter() {
        // A train ride in a tunnel: 30 km in 60 s (500 m/s), then cycling on from there.
        let before = line(from: 0, count: 30)
        let far = Geodesy.destination(from: before.last!.coordinate!, bearing: 45, distance: 30_000)
        let after = line(from: 90, count: 30, start: far)
        let events = run(before + after, .ride)
        #expect(events.reasons.isEmpty, "nothing dropped: \(events.reasons)")
        #expect(events.kept.count == 60)
        #expect(events.segments.first == 1 && events.segments.last == 2)
        #expect(events.segments.filter { $0 == 2 }.count == 30, "the new place starts a new segment")
    }

    @Test func aFlightIsKeptWholeAtOneHertz() {
        // Taxi at 8 m/s, take off accelerating at 2 m/s² to 240 m/s, cruise, land: every fix kept.
        var fixes = line(from: 0, count: 60, speed: 8)
        var position = fixes.last!.coordinate!
        var speed = 8.0
        for t in 60..<900 {
            speed = t < 180 ? min(240, speed + 2) : t > 780 ? max(60, speed - 2) : speed
            position = Geodesy.destination(from: position, bearing: 90 + Double(t - 60) / 20, distance: speed)
            fixes.append(fix(Double(t), position.latitude, position.longitude))
        }
        let events = run(fixes, .ride)
        #expect(events.reasons.isEmpty, "nothing of the flight dropped: \(events.reasons.count)")
        #expect(events.kept.count == 900)
        #expect(Set(events.segments).count <= 2, "one relocation when the limit is first passed, not one per fix")
    }

    @Test func aPhonesFlightIsKept() {
        // A phone's fix every 2 minutes over a 250 m/s flight, after a stay at the airport.
        let gate = Coordinate(latitude: 47.45, longitude: 8.56)
        var fixes = (0..<10).map { fix(Double($0) * 60, gate.latitude, gate.longitude) }
        for i in 1...30 {
            let p = Geodesy.destination(from: gate, bearing: 200, distance: Double(i) * 120 * 250)
            fixes.append(fix(600 + Double(i) * 120, p.latitude, p.longitude))
        }
        let events = run(fixes, .diary)
        #expect(!events.reasons.contains(.jump), "a sustained 250 m/s is a flight, not a jump")
        #expect(events.reasons == Array(repeating: .minDistance, count: 9), "only the waiting at the gate is thinned")
        #expect(events.kept.count == 31)
    }

    @Test func multipathFasterThanAnAirlinerIsStillAJump() {
        // Reflections scattering fixes 1-3 km about in every direction for 5 s, then back.
        var fixes = line(from: 0, count: 30)
        var random = SystemRandomNumberGenerator()
        for i in 10..<15 {
            let p = Geodesy.destination(
                from: fixes[i].coordinate!, bearing: Double(i * 137 % 360),
                distance: Double.random(in: 1000...3000, using: &random))
            fixes[i] = fix(Double(i), p.latitude, p.longitude)
        }
        let events = run(fixes, .ride)
        #expect(events.reasons == Array(repeating: .jump, count: 5))
        #expect(events.kept.count == 25)
    }

    @Test func intervalAndDistanceTogether() {
        var c = PipelineConfiguration.ride
        c.interval = 5
        c.minDistance = 20
        // 40 s at 5 m/s, then 40 s standing still.
        let moving = line(from: 0, count: 40)
        let stop = moving.last!.coordinate!
        let still = (40..<80).map { fix(Double($0), stop.latitude, stop.longitude) }
        let events = run(moving + still, c)
        let times = events.kept.map { ($0.unixMilliseconds! - moving[0].unixMilliseconds!) / 1000 }
        #expect(times == [0, 5, 10, 15, 20, 25, 30, 35], "every 5 s while moving 25 m per interval, none while still")
        #expect(events.reasons.filter { $0 == .interval }.count > 30)
        #expect(events.reasons.contains(.minDistance))
    }

    @Test func presetsDiffer() {
        let diary = PipelineConfiguration.diary
        #expect(diary.interval == 60 && PipelineConfiguration.ride.interval == 1)
        #expect(diary.maxHDOP! > PipelineConfiguration.ride.maxHDOP!)
        let events = run(line(from: 0, count: 300), diary)
        #expect(events.kept.count == 5)
    }

    @Test func dropsAreCountedPerRide() {
        var pipeline = Pipeline(configuration: .ride)
        for f in [fix(0, 47, 8), fix(1, 47, 8, hdop: 9), fix(2, 47, 8, sats: 2)] { pipeline.process(f) { _ in } }
        // A new ride after 11 minutes; one more drop there.
        for f in [fix(700, 47, 8), fix(701, 47, 8, hdop: 9)] { pipeline.process(f) { _ in } }
        #expect(pipeline.drops[1]?[.hdop] == 1 && pipeline.drops[1]?[.satellites] == 1)
        #expect(pipeline.drops[2]?[.hdop] == 1)
        #expect(pipeline.totalDrops.total == 3 && pipeline.rides == 2)
    }
}
