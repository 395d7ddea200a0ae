import Foundation
import Testing

@testable import GPSCore

@Suite struct WorkersTests {
    /// A burst of bodies that block until all have begun makes a thread each; once they are
    /// done, the threads beyond the ones kept end after their idle time, and the next body still
    /// runs (on a kept thread, or a new one).
    @Test func theThreadsOfABurstEndWhenIdleButTheKeptOnes() async throws {
        let workers = Blocking.Workers(limit: .max, keep: 1, idleFor: 0.2)
        let begun = Guarded(0)
        let done = Guarded(0)
        let threads = Guarded(Set<String>())
        for _ in 0..<10 {
            workers.submit {
                begun.withLock { $0 += 1 }
                threads.withLock { _ = $0.insert("\(pthread_self())") }
                let deadline = Date().addingTimeInterval(30)
                while begun.peek({ $0 }) < 10, Date() < deadline { usleep(2000) }
                done.withLock { $0 += 1 }
            }
        }
        let deadline = ContinuousClock.now + .seconds(30)
        while done.peek({ $0 }) < 10, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(done.peek { $0 } == 10, "the ten bodies ran at once, a thread each")
        #expect(threads.peek { $0.count } == 10, "on ten threads")
        while workers.threadCount > 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(workers.threadCount == 1, "the idle threads beyond the one kept ended")
        let again = Guarded(false)
        workers.submit { again.withLock { $0 = true } }
        while !again.peek({ $0 }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(again.peek { $0 }, "a body after the threads ended still runs")
    }
}
