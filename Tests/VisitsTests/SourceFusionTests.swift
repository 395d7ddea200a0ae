import Foundation
import GPSCore
import RideSimulator
import Testing
import Visits

@Suite struct SourceFusionTests {
    typealias Point = SourceFusion.Point

    /// Points of `source` every `every` s from `from` to `to` (s after a day's start).
    func points(_ source: Int, from: Int, to: Int, every: Int, error: Double? = nil) -> [Point] {
        stride(from: from, through: to, by: every).map {
            Point(milliseconds: 1_780_000_000_000 + Int64($0) * 1000, source: source, error: error)
        }
    }

    func merged(_ sources: [Point]...) -> [Point] {
        sources.flatMap { $0 }.sorted { ($0.milliseconds, $0.source) < ($1.milliseconds, $1.source) }
    }

    /// The sources kept in each minute: minute → sources, for the minutes with a point kept.
    func keptByMinute(_ all: [Point]) -> [Int: Set<Int>] {
        let kept = SourceFusion().kept(all)
        var minutes: [Int: Set<Int>] = [:]
        for (p, k) in zip(all, kept) where k {
            minutes[Int((p.milliseconds - 1_780_000_000_000) / 60_000), default: []].insert(p.source)
        }
        return minutes
    }

    func keptSources(_ all: [Point]) -> [Set<Int>] {
        let minutes = keptByMinute(all)
        return minutes.keys.sorted().map { minutes[$0]! }
    }

    @Test func oneSourceKeepsEverything() {
        let all = points(0, from: 0, to: 3600, every: 10)
        #expect(SourceFusion().kept(all).allSatisfy { $0 })
    }

    @Test func aSourceThatSaysItsAccuracyWinsOverADenserOneThatDoesNot() {
        // A receiver at 5 s with HDOP-derived errors, a phone at 1 s that says nothing.
        let all = merged(points(0, from: 0, to: 3600, every: 1), points(1, from: 0, to: 3600, every: 5, error: 5))
        let kept = SourceFusion().kept(all)
        #expect(zip(all, kept).allSatisfy { $0.source == 1 ? $1 : !$1 })
    }

    @Test func theSmallerErrorWinsThenTheDenserSource() {
        let accurate = merged(
            points(0, from: 0, to: 1800, every: 2, error: 30), points(1, from: 0, to: 1800, every: 10, error: 8))
        #expect(keptSources(accurate).allSatisfy { $0 == [1] })
        // Google's raw locations (a point a minute) over its semantic path (a point in ten).
        let dense = merged(points(0, from: 0, to: 7200, every: 600), points(1, from: 0, to: 7200, every: 60))
        #expect(keptSources(dense).allSatisfy { $0 == [1] })
    }

    /// Google's semantic path (a point in five minutes, each saying 5 m) over its raw locations
    /// (a point a minute, saying 20 m): the measured points win, though the path says better.
    @Test func measuredPointsWinOverASparsePathThatSaysItIsAccurate() {
        let all = merged(
            points(0, from: 0, to: 7200, every: 300, error: 5), points(1, from: 0, to: 7200, every: 60, error: 20))
        #expect(keptSources(all).allSatisfy { $0 == [1] })
    }

    @Test func theWorseSourceFillsTheBetterOnesGaps() {
        // The receiver is off from minute 20 to minute 50: the phone's points there are kept,
        // and only there.
        let receiver =
            points(0, from: 0, to: 1200, every: 1, error: 5) + points(0, from: 3000, to: 4200, every: 1, error: 5)
        let phone = points(1, from: 0, to: 4200, every: 30)
        let minutes = keptByMinute(merged(receiver, phone))
        // The receiver's last point before the gap is at 20:00 and its first after at 50:00; it
        // covers a minute on either side (its margin), so the phone has 21:00 to 48:59.
        for minute in 0...70 {
            let expected: Set<Int>? = minute <= 20 || minute >= 50 ? [0] : minute <= 48 ? [1] : nil
            #expect(minutes[minute] == expected, "minute \(minute): \(minutes[minute] ?? [])")
        }
    }

    @Test func aShortPauseOfTheBetterSourceIsBridged() {
        // Five minutes without a fix (a tunnel) is within the bridge: the phone's points there
        // are not mixed in.
        let receiver =
            points(0, from: 0, to: 600, every: 1, error: 5) + points(0, from: 900, to: 1800, every: 1, error: 5)
        let phone = points(1, from: 0, to: 1800, every: 30)
        #expect(keptSources(merged(receiver, phone)).allSatisfy { $0 == [0] })
    }

    /// A simulated day recorded twice, by a receiver at 1 Hz and a phone at its rate: the fused
    /// distance is the receiver's, not the sum.
    @Test func aDayRecordedTwiceCountsOnce() {
        var receiverDay = Fortnight.simulator(stayInterval: 1, moveInterval: 1, seed: 3)
        receiverDay.steps = Array(receiverDay.steps.prefix(8))
        var phoneDay = receiverDay
        (phoneDay.stayInterval, phoneDay.moveInterval, phoneDay.seed) = (60, 10, 4)
        func tagged(_ fixes: some Sequence<Fix>, _ source: Int, hdop: Double?) -> [(Point, Coordinate)] {
            fixes.compactMap { fix in
                guard let ms = fix.unixMilliseconds, let c = fix.coordinate else { return nil }
                return (Point(milliseconds: ms, source: source, error: hdop.map { $0 * SourceFusion.hdopMetres }), c)
            }
        }
        let all = (tagged(receiverDay, 0, hdop: 1) + tagged(phoneDay, 1, hdop: nil)).sorted {
            ($0.0.milliseconds, $0.0.source) < ($1.0.milliseconds, $1.0.source)
        }
        let kept = SourceFusion().kept(all.map(\.0))
        func length(_ line: [Coordinate]) -> Double {
            zip(line, line.dropFirst()).reduce(0) { $0 + Geodesy.haversineDistance($1.0, $1.1) }
        }
        let receiver = length(all.filter { $0.0.source == 0 }.map(\.1))
        let phone = length(all.filter { $0.0.source == 1 }.map(\.1))
        let fused = length(zip(all, kept).filter(\.1).map(\.0.1))
        #expect(receiver > 5_000 && phone > 5_000, "receiver \(receiver) m, phone \(phone) m")
        #expect(abs(fused - receiver) / receiver < 0.01, "fused \(fused) m against the receiver's \(receiver) m")
        #expect(zip(all, kept).allSatisfy { $0.0.source == 0 || !$1 }, "a phone point was kept beside the receiver")
    }
}
