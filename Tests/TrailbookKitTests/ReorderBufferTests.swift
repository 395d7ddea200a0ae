import GPSCore
import Testing

@testable import TrailbookKit

/// The import's reorder buffer: a little disorder sorted as read, in bounded memory; more is
/// the full sort's.
@Suite struct ReorderBufferTests {
    func fix(_ second: Int) -> StreamItem {
        var f = Fix()
        f.date = CivilDate(year: 2026, month: 6, day: 14)
        f.timeOfDay = second * 1000
        f.mode = .threeD
        f.coordinate = Coordinate(latitude: 47, longitude: 8)
        return .fix(f)
    }

    func seconds(_ items: [StreamItem]) -> [Int] {
        items.map { if case .fix(let f) = $0 { f.timeOfDay! / 1000 } else { -1 } }
    }

    @Test func disorderWithinTheWindowIsSortedAsRead() throws {
        var buffer = ReorderBuffer(capacity: 4)
        var out: [StreamItem] = []
        for s in [1, 3, 2, 4, 6, 5, 7, 9, 8, 10] { try buffer.take(fix(s)) { out.append($0) } }
        #expect(out.count == 6, "at most 4 wait")
        try buffer.flush { out.append($0) }
        #expect(seconds(out) == Array(1...10) && buffer.reordered)
    }

    @Test func aBoundaryLetsAllGoAndTooLateIsTheFullSorts() throws {
        var buffer = ReorderBuffer(capacity: 4)
        var out: [StreamItem] = []
        for s in [5, 4] { try buffer.take(fix(s)) { out.append($0) } }
        try buffer.take(.segment) { out.append($0) }
        #expect(seconds(out) == [4, 5, -1], "in order, then the boundary")
        #expect(throws: StreamRunner.OutOfOrder.self, "earlier than what went on") {
            try buffer.take(fix(3)) { out.append($0) }
        }
        // A new track may begin at any time.
        try buffer.take(.track) { out.append($0) }
        try buffer.take(fix(1)) { out.append($0) }
        try buffer.flush { out.append($0) }
        #expect(seconds(out) == [4, 5, -1, -1, 1])
    }

    @Test func inOrderIsNotReordered() throws {
        var buffer = ReorderBuffer(capacity: 2)
        var out: [StreamItem] = []
        for s in 1...5 { try buffer.take(fix(s)) { out.append($0) } }
        try buffer.flush { out.append($0) }
        #expect(seconds(out) == [1, 2, 3, 4, 5] && !buffer.reordered)
    }

    /// Fixes in order pass through a queue, those that came late through a heap: what goes on
    /// is every fix in time order, of two at one time the one read first, as one sort gives.
    @Test func lateFixesAmongInOrderOnesGoOnAsOneSortWould() throws {
        /// The fix at `second` that is the `order`-th read (kept in its longitude).
        func tagged(_ second: Int, _ order: Int) -> StreamItem {
            guard case .fix(var f) = fix(second) else { return .segment }
            f.coordinate = Coordinate(latitude: 47, longitude: Double(order))
            return .fix(f)
        }
        func untagged(_ item: StreamItem) -> (second: Int, order: Int) {
            guard case .fix(let f) = item else { return (-1, -1) }
            return (f.timeOfDay! / 1000, Int(f.coordinate!.longitude))
        }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<30 {
            let capacity = [4, 64, 1 << 14][round % 3]
            var buffer = ReorderBuffer(capacity: capacity, window: 30_000)
            var read: [(second: Int, order: Int)] = []
            var out: [(second: Int, order: Int)] = []
            var t = 0
            for order in 0..<2_000 {
                t += Int.random(in: 0...2, using: &generator)
                // One fix in ten from up to 20 s back.
                let late = Int.random(in: 0..<10, using: &generator) == 0
                let second = late ? max(0, t - Int.random(in: 1...20, using: &generator)) : t
                do {
                    try buffer.take(tagged(second, order)) { out.append(untagged($0)) }
                    read.append((second, order))
                } catch is StreamRunner.OutOfOrder {
                    // Earlier than one gone on already (a small capacity lets fixes go early).
                }
            }
            try buffer.flush { out.append(untagged($0)) }
            let sorted = read.sorted { ($0.second, $0.order) < ($1.second, $1.order) }
            #expect(out.map(\.second) == sorted.map(\.second), "round \(round), capacity \(capacity)")
            #expect(out.map(\.order) == sorted.map(\.order), "of two at one time, the first read: round \(round)")
        }
    }

    @Test func aStreamInOrderKeepsOnlyItsLastTwoMinutesWaiting() throws {
        var buffer = ReorderBuffer()
        var out = 0
        for s in 0..<7200 { try buffer.take(fix(s)) { _ in out += 1 } }
        #expect(out == 7200 - 121, "fixes more than two minutes older than the latest went on")
        // A fix within those minutes is still put in its place; one older than what went on is not.
        try buffer.take(fix(7150)) { _ in out += 1 }
        #expect(throws: StreamRunner.OutOfOrder.self) { try buffer.take(fix(100)) { _ in } }
    }
}
