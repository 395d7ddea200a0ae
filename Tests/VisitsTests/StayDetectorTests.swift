import Foundation
import GPSCore
import RideSimulator
import Testing
import Visits

@Suite struct StayDetectorTests {
    /// Detected visits against the truth: each true stay found within 2 minutes at both ends,
    /// nothing found where the person was not staying, the mode right for 90% of the trip time.
    func check(_ simulator: HistorySimulator) {
        let truth = simulator.truth
        let movements = StayDetector.movements(simulator.compactMap(VisitPoint.init))
        let visits = movements.compactMap { if case .visit(let v) = $0 { v } else { nil } }
        let trips = movements.compactMap { if case .trip(let t) = $0 { t } else { nil } }
        let stays = truth.filter { $0.mode == nil }
        #expect(visits.count == stays.count, "visits found: \(visits.count) of \(stays.count)")
        for stay in stays {
            let found = visits.filter { $0.start < stay.end && $0.end > stay.start }
            guard found.count == 1, let v = found.first else {
                Issue.record("the stay \(stay.start)-\(stay.end) at \(stay.at) was found as \(found.count) visits")
                continue
            }
            #expect(
                abs(v.start - stay.start) <= 120_000, "start off by \((v.start - stay.start) / 1000) s at \(stay.at)")
            #expect(abs(v.end - stay.end) <= 120_000, "end off by \((v.end - stay.end) / 1000) s at \(stay.at)")
            #expect(Geodesy.haversineDistance(v.center, stay.at) < 30, "centre \(v.center) for \(stay.at)")
        }
        var right = 0.0
        var total = 0.0
        var byMode: [String: (right: Double, total: Double)] = [:]
        for t in truth where t.mode != nil {
            let seconds = Double(t.end - t.start) / 1000
            total += seconds
            byMode[t.mode!, default: (0, 0)].total += seconds
            let overlapping = trips.max {
                min($0.end, t.end) - max($0.start, t.start) < min($1.end, t.end) - max($1.start, t.start)
            }
            if overlapping?.mode.rawValue == t.mode {
                right += seconds
                byMode[t.mode!, default: (0, 0)].right += seconds
            } else {
                Issue.record(
                    "a \(t.mode!) trip of \(Int(seconds)) s was found as \(overlapping?.mode.rawValue ?? "nothing")")
            }
        }
        #expect(right / total >= 0.9, "modes right for \(Int(right / total * 100))% of the trip time")
        // Every mode on its own (walking too), not only all of them together.
        for (mode, time) in byMode.sorted(by: { $0.key < $1.key }) {
            #expect(
                time.right / time.total >= 0.9, "\(mode) right for \(Int(time.right / time.total * 100))% of its time")
        }
        #expect(Set(byMode.keys).isSuperset(of: ["walking", "cycling", "car", "plane"]), "\(byMode.keys)")
    }

    @Test func aFortnightAtAPhonesRate() {
        check(Fortnight.simulator())
    }

    @Test func aFortnightAtOneHertz() {
        check(Fortnight.simulator(stayInterval: 1, moveInterval: 1, seed: 11))
    }

    @Test func aVisitEndsAtItsLastFixNotAtTheEndOfTheData() {
        // At a café for 20 minutes, then nothing more.
        let start: Int64 = 1_780_000_000_000
        let points = (0...20).map { i in
            VisitPoint(
                milliseconds: start + Int64(i) * 60_000, coordinate: Coordinate(latitude: 47.37, longitude: 8.54),
                accuracy: 10)
        }
        let movements = StayDetector.movements(points)
        guard case .visit(let v) = movements.first, movements.count == 1 else {
            Issue.record("one visit expected: \(movements)")
            return
        }
        #expect(v.start == start && v.end == start + 20 * 60_000)
        #expect(v.ongoing)
    }

    @Test func aGapIsBridgedOnlyWhereThePersonWas() {
        let start: Int64 = 1_780_000_000_000
        let here = Coordinate(latitude: 47.37, longitude: 8.54)
        let there = Geodesy.destination(from: here, bearing: 90, distance: 5000)
        func at(_ minute: Int, _ c: Coordinate) -> VisitPoint {
            VisitPoint(milliseconds: start + Int64(minute) * 60_000, coordinate: c, accuracy: 10)
        }
        // Ten minutes here, two hours without a fix, ten more here: one visit.
        let bridged = StayDetector.movements((0...10).map { at($0, here) } + (130...140).map { at($0, here) })
        #expect(bridged.count == 1)
        // Ten minutes here, two hours without a fix, then ten minutes elsewhere: two visits and
        // the trip between, the first visit ending at its last fix (not when the next began).
        let moved = StayDetector.movements((0...10).map { at($0, here) } + (130...140).map { at($0, there) })
        #expect(moved.count == 3)
        if case .visit(let v) = moved.first { #expect(v.end == start + 10 * 60_000) }
        if case .trip(let t) = moved[1] {
            #expect(t.start == start + 10 * 60_000 && t.end == start + 130 * 60_000)
            #expect(abs(t.distance - 5000) < 1)
        }
    }

    @Test func fixesTooVagueArePassedOver() {
        let start: Int64 = 1_780_000_000_000
        var detector = StayDetector()
        var found: [Movement] = []
        for i in 0...10 {
            let vague = i % 2 == 1
            let c = vague ? Coordinate(latitude: 47.40, longitude: 8.54) : Coordinate(latitude: 47.37, longitude: 8.54)
            detector.add(
                VisitPoint(milliseconds: start + Int64(i) * 60_000, coordinate: c, accuracy: vague ? 2000 : 10)
            ) { found.append($0) }
        }
        detector.finish { found.append($0) }
        #expect(detector.passedOver == 5)
        #expect(found.count == 1, "a cell-tower fix 3 km off does not end the stay")
    }
}
