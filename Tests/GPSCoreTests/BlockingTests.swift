import Foundation
import GPSCore
import Testing

@Suite struct BlockingTests {
    struct Refused: Error, Equatable { let n: Int }

    /// A burst of blocking bodies: each awaiting task gets its own body's result or error, and
    /// no more than the workers' limit run at once (a thread each would have run them all).
    @Test func aBurstOfBodiesRunsOnAFewKeptThreadsEachResultToItsTask() async throws {
        let running = Guarded((now: 0, most: 0, threads: Set<String>()))
        let results = try await withThrowingTaskGroup(of: (Int, Result<Int, Refused>).self) { group in
            for n in 0..<100 {
                group.addTask {
                    let result = await Result { () async throws(Refused) -> Int in
                        try await Blocking.run { () throws(Refused) -> Int in
                            running.withLock {
                                $0.now += 1
                                $0.most = max($0.most, $0.now)
                                $0.threads.insert("\(pthread_self())")
                            }
                            Thread.sleep(forTimeInterval: 0.005)
                            running.withLock { $0.now -= 1 }
                            if n % 10 == 3 { throw Refused(n: n) }
                            return n * n
                        }
                    }
                    return (n, result)
                }
            }
            var all: [Int: Result<Int, Refused>] = [:]
            for try await (n, result) in group { all[n] = result }
            return all
        }
        #expect(results.count == 100)
        for n in 0..<100 {
            #expect(results[n] == (n % 10 == 3 ? .failure(Refused(n: n)) : .success(n * n)), "body \(n)")
        }
        let seen = running.peek { $0 }
        #expect(seen.now == 0)
        #expect(seen.most >= 2, "bodies overlapped: \(seen.most)")
        #expect(seen.most <= 16, "at most 16 at once: \(seen.most)")
        #expect(seen.threads.count <= 16, "on at most 16 threads: \(seen.threads.count)")
    }

    /// A thread waits on async work (`Blocking.wait`), whose tasks prefer `Blocking.units`: forty
    /// child tasks that each block their thread until all forty have begun all get there (an
    /// executor of 16 threads, or the two cooperative ones, would leave them short), and an
    /// error comes back to the waiting thread as it was thrown.
    @Test func aThreadWaitsOnTasksWhoseBlockingPartsEachGetAThread() throws {
        let begun = Guarded(0)
        let all = 40
        let met = try Blocking.wait {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<all {
                    group.addTask {
                        begun.withLock { $0 += 1 }
                        let deadline = Date().addingTimeInterval(30)
                        while begun.peek({ $0 }) < all, Date() < deadline { usleep(5000) }
                        return begun.peek { $0 } == all
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
        }
        #expect(met == all, "\(met) of \(all) tasks saw all the others begin")
        #expect(throws: Refused(n: 7)) { try Blocking.wait { () async throws -> Int in throw Refused(n: 7) } }
    }
}

extension Result {
    init(catching body: () async throws(Failure) -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
