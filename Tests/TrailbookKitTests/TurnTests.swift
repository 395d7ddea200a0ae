import Synchronization
import Testing

@testable import TrailbookKit

/// A lane's turn: one body at a time, in the order they asked, a failing one giving the turn on.
@Suite struct TurnTests {
    /// How many bodies run now, and the most that ever ran at once.
    final class Count: Sendable {
        let state = Mutex((running: 0, most: 0))
        func enter() {
            state.withLock { count in
                count.running += 1
                count.most = max(count.most, count.running)
            }
        }
        func leave() { state.withLock { $0.running -= 1 } }
        var most: Int { state.withLock { $0.most } }
    }

    @Test func bodiesRunOneAtATimeAndAFailureGivesTheTurnOn() async throws {
        let turn = Turn()
        let count = Count()
        struct Refused: Error {}
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for i in 0..<40 {
                group.addTask {
                    do {
                        try await turn.run {
                            count.enter()
                            try await Task.sleep(for: .milliseconds(2))
                            count.leave()
                            if i % 4 == 0 { throw Refused() }
                        }
                        return true
                    } catch is Refused { return false }
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(count.most == 1, "never two bodies at once")
        #expect(outcomes.count(where: { $0 }) == 30 && outcomes.count(where: { !$0 }) == 10)
    }
}
