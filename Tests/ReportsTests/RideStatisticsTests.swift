import Foundation
import GPSCore
import RideSimulator
import Testing

@testable import Reports

/// A simulated ride with its truth: distance travelled, time in motion, metres climbed.
struct SimulatedRide {
    var points: [TrackPoint] = []
    var distance = 0.0
    var moving = 0.0
    var climb = 0.0

    init(seconds: Int, seed: UInt64, altitudeNoise: Double = 0) {
        let start = CivilDate(year: 2026, month: 6, day: 14)!
        var simulator = RideSimulator(
            .init(
                startDate: start, startTimeOfDay: 6 * 3_600_000,
                origin: Coordinate(latitude: 47.3769, longitude: 8.5417),
                duration: seconds, seed: seed))
        var noise = SeededGenerator(seed: seed &+ 99)
        var previousAltitude: Double?
        while let epoch = simulator.next() {
            var fix = epoch.fix
            // The simulator moves `trueSpeed` metres in the second before each epoch, tunnels included.
            if previousAltitude != nil {
                if epoch.trueSpeed >= 1 / 3.6 { moving += 1 }
            }
            distance = epoch.trueDistance
            if let p = previousAltitude, epoch.trueAltitude > p { climb += epoch.trueAltitude - p }
            previousAltitude = epoch.trueAltitude
            guard fix.coordinate != nil else { continue }
            if altitudeNoise > 0 {
                // Box-Muller: normal noise with the given standard deviation.
                let u1 = max(1e-12, noise.uniform(0...1))
                let u2 = noise.uniform(0...1)
                fix.altitudeMSL! += altitudeNoise * (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
            }
            points.append(TrackPoint(fix: fix, segment: 1))
        }
    }
}

@Test(arguments: [3 as UInt64, 7, 11])
func statisticsMeetTheirAccuracyTargetsOnSimulatedRides(seed: UInt64) {
    let ride = SimulatedRide(seconds: 7200, seed: seed, altitudeNoise: 1.5)
    let s = RideStatistics.compute(ride.points)
    let distanceError = abs(s.distance - ride.distance) / ride.distance
    let movingError = abs(s.moving - ride.moving) / ride.moving
    let climbError = abs(s.climb - ride.climb) / ride.climb
    print(
        "seed \(seed): distance \(Int(s.distance)) m vs \(Int(ride.distance)) (\(distanceError * 100)%), "
            + "moving \(Int(s.moving)) s vs \(Int(ride.moving)) (\(movingError * 100)%), "
            + "climb \(Int(s.climb)) m vs \(Int(ride.climb)) (\(climbError * 100)%)")
    #expect(distanceError < 0.005, "distance within 0.5%")
    #expect(movingError < 0.02, "moving time within 2%")
    #expect(climbError < 0.05, "climb within 5% with 1.5 m altitude noise")
    #expect(s.elapsed == 7199 || s.elapsed < 7199)
    #expect(s.maxSpeed! <= 14.2, "no spike above the simulator's top speed")
    #expect(s.splits.count == Int((s.distance / 1000).rounded(.up)))
    #expect(abs(s.splits.map(\.distance).reduce(0, +) - s.distance) < 1e-6)
}

@Test func aSingleSpikeDoesNotSetTheMaxSpeed() {
    var points = SimulatedRide(seconds: 600, seed: 5).points
    let honest = RideStatistics.compute(points).maxSpeed!
    points[300].fix.speed = 80
    #expect(RideStatistics.compute(points).maxSpeed! == honest)
}

@Test func hysteresisIgnoresNoiseAndCountsHills() {
    // 2 m of up-and-down noise: nothing; a 10 m hill with noise on it: 10 m up, 10 m down.
    let noise = (0..<100).map { Double($0 % 2) * 2 }
    #expect(RideStatistics.climbAndDescent(noise, hysteresis: 3) == (0, 0))
    let hill = (0...10).map(Double.init) + (0...10).reversed().map(Double.init)
    let (up, down) = RideStatistics.climbAndDescent(hill, hysteresis: 3)
    #expect(up == 10 && down == 10)
}

/// Splits count moving time (stops left out), keep the time with stops as `elapsed`, and the
/// rest after the last full length is marked partial.
@Test(arguments: [3 as UInt64, 7])
func splitsCountMovingTimeAndMarkTheRest(seed: UInt64) {
    let s = RideStatistics.compute(SimulatedRide(seconds: 3600, seed: seed).points)
    #expect(abs(s.splits.map(\.time).reduce(0, +) - s.moving) < 1, "the splits' moving times add up to moving")
    #expect(abs(s.splits.map(\.elapsed).reduce(0, +) - s.elapsed) < 1, "their elapsed times add up to elapsed")
    #expect(s.splits.allSatisfy { $0.time <= $0.elapsed + 0.001 })
    #expect(s.splits.dropLast().allSatisfy { !$0.isPartial && $0.distance == 1000 })
    #expect(s.splits.last?.isPartial == true && s.splits.last!.distance < 1000)
    // A ride with stops has splits whose stops are left out.
    #expect(s.elapsed - s.moving < 30 || s.splits.contains { $0.elapsed - $0.time > 10 })
}

/// Different seeds ride different hills at different speeds; another place has other heights.
@Test func simulatedRidesDifferBySeedAndPlace() {
    let splits = [7 as UInt64, 12, 14].map { seed in
        RideStatistics.compute(SimulatedRide(seconds: 2400, seed: seed).points).splits.prefix(6).map {
            Int($0.time.rounded())
        }
    }
    #expect(splits[0] != splits[1] && splits[1] != splits[2] && splits[0] != splits[2], "\(splits)")
    func altitudes(_ seed: UInt64, _ origin: Coordinate) -> [Double] {
        let sim = RideSimulator(
            .init(
                startDate: CivilDate(year: 2026, month: 6, day: 14)!, startTimeOfDay: 0, origin: origin,
                duration: 10, seed: seed))
        return stride(from: 0.0, through: 20_000, by: 1000).map { sim.altitude(atDistance: $0) }
    }
    let zurich = Coordinate(latitude: 47.3769, longitude: 8.5417)
    let sion = Coordinate(latitude: 46.23, longitude: 7.36)
    #expect(altitudes(7, zurich) != altitudes(12, zurich))
    #expect(altitudes(7, zurich).first != altitudes(7, sion).first, "the place moves the base altitude")
    #expect(altitudes(7, zurich) == altitudes(7, zurich), "deterministic")
}

/// A train day from a phone's history: a point a minute, each with the speed the phone reported
/// (a little below what the positions say). The maximum is never below the average moving speed.
@Test func theMaxSpeedIsNeverBelowTheAverageMovingSpeed() {
    let start = CivilDate(year: 2026, month: 11, day: 18)!
    let origin = Coordinate(latitude: 47.5476, longitude: 7.5897)
    let points = (0..<40).map { i -> TrackPoint in
        var fix = Fix()
        fix.date = start
        fix.timeOfDay = 8 * 3_600_000 + i * 60_000
        fix.coordinate = Geodesy.destination(from: origin, bearing: 80, distance: Double(i) * 1210)
        fix.mode = .twoD
        fix.speed = 19.86
        return TrackPoint(fix: fix, segment: 1)
    }
    let s = RideStatistics.compute(points)
    let average = try! #require(s.averageMovingSpeed)
    let max = try! #require(s.maxSpeed)
    #expect(average > 20, "the positions say 20.2 m/s: \(average)")
    #expect(max >= average, "max \(max * 3.6) km/h, average \(average * 3.6) km/h")
}
