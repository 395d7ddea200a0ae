import Foundation
import PostgresNIO
import Testing
import TrailbookTestSupport

@testable import StorePostgres

/// A connection cut in the middle of a unit of work: the caller gets an error that says the
/// database is away, at once, and never waits for ever (PostgresNIO may leave a query sent on a
/// closed connection unanswered, as a ROLLBACK after the failure once was).
@Suite struct ConnectionLossTests {
    @Test func aTransactionCutByTheServerStoppingFailsAsUnavailable() throws {
        let cluster = try PostgresCluster.ownCluster()
        let store = try PostgresStore(
            url: try cluster.newDatabase(), mediaDirectory: try Samples.temporaryDirectory() + "/media")
        defer { store.close() }
        let outcome = Locked<Result<Int, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        // On a thread of its own, so that a hang is seen as one (and fails) instead of stopping the run.
        let work = Thread {
            let result = Result {
                try store.write { session -> Int in
                    try session.execute("CREATE TEMPORARY TABLE cut (n int)")
                    try cluster.stop()
                    return try session.execute("INSERT INTO cut VALUES (1)")
                }
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        work.start()
        let answered = done.wait(timeout: .now() + 60) == .success
        #expect(answered, "the unit of work answered within 60 s of the server stopping")
        guard answered, case .failure(let error) = outcome.withLock({ $0 }) else {
            Issue.record("the unit of work failed: \(String(describing: outcome.withLock { $0 }))")
            return
        }
        #expect(store.isUnavailable(error), "the failure says the database is away: \(error)")
        // And once the server is back, the store answers again on new connections.
        try cluster.start()
        #expect(try store.appliedMigrations().isEmpty == false)
    }
}

/// The pool's connections: a database that is away is said at once, not after the pool has
/// tried in the background for a minute; callers that block every cooperative thread still get
/// their connections.
@Suite struct PoolTests {
    @Test func aServerThatIsAwayIsSaidAtOnceAndTheStoreAnswersOnceItIsBack() throws {
        let cluster = try PostgresCluster.ownCluster()
        let store = try PostgresStore(
            url: try cluster.newDatabase(), mediaDirectory: try Samples.temporaryDirectory() + "/media")
        defer { store.close() }
        _ = try store.device(named: "phone")
        try cluster.stop()
        let outcome = Locked<Result<[StoredDevice], any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            outcome.withLock { $0 = Result { try store.devices() } }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 120) == .success, "the read answered")
        guard case .failure(let error) = outcome.withLock({ $0 }) else {
            Issue.record("a read with the server stopped failed: \(String(describing: outcome.withLock { $0 }))")
            return
        }
        #expect(store.isUnavailable(error), "the failure says the database is away: \(error)")
        // The probe's own reason, not the pool's giving up after a minute of attempts.
        #expect("\(error)".contains("connection refused"), "\(error)")
        try cluster.start()
        #expect(try store.devices().map(\.name) == ["phone"])
    }

    @Test func callersBlockingEveryCooperativeThreadStillGetConnections() throws {
        let store = try PostgresStore(
            url: try PostgresCluster.shared().newDatabase(),
            mediaDirectory: try Samples.temporaryDirectory() + "/media",
            maximumConnections: 2)
        defer { store.close() }
        let callers = 4 * ProcessInfo.processInfo.activeProcessorCount
        let finished = Locked(0)
        let progress = Locked(0)
        let done = DispatchSemaphore(value: 0)
        // Tasks that call the synchronous store on the cooperative threads, more of them than
        // there are threads and connections: the leases they wait for must not need those threads.
        Task.detached {
            await withTaskGroup(of: Void.self) { group in
                for n in 0..<callers {
                    group.addTask {
                        progress.withLock { $0 += 1 }
                        if (try? store.device(named: "device \(n)")) != nil, (try? store.devices()) != nil {
                            finished.withLock { $0 += 1 }
                        }
                        progress.withLock { $0 += 1 }
                    }
                }
            }
            done.signal()
        }
        // A hang is no caller starting or finishing for three minutes. Not a fixed time: beside the
        // other suites, which block the cooperative threads too, the callers may wait their turn
        // to start (in one run of the whole suite they were not all done within 60 s).
        var seen = 0
        while done.wait(timeout: .now() + 180) == .timedOut {
            let now = progress.withLock { $0 }
            guard now != seen else {
                Issue.record("no caller started or finished for 180 s: their leases wait for the threads they block")
                return
            }
            seen = now
        }
        #expect(finished.withLock { $0 } == callers)
        #expect(try store.devices().count == callers)
    }
}
