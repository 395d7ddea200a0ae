import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
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
                try store.writeSession { session -> Int in
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
        _ = try store.writeNow { try $0.device(named: "phone") }
        try cluster.stop()
        let outcome = Locked<Result<[StoredDevice], any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            outcome.withLock { $0 = Result { try store.readNow { try $0.devices() } } }
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
        #expect(try store.readNow { try $0.devices() }.map(\.name) == ["phone"])
    }

    /// The server's service group runs the store's pool (the store's `service`): units go
    /// through it, and when the group shuts down the store closes and refuses the next unit.
    @Test func theStoresPoolRunsInAServiceGroupAndTheStoreClosesWithIt() async throws {
        let store = try PostgresStore(
            url: try PostgresCluster.shared().newDatabase(),
            mediaDirectory: try Samples.temporaryDirectory() + "/media")
        let group = ServiceGroup(services: [store.service], logger: Logger(label: "test"))
        try await withThrowingTaskGroup(of: Void.self) { running in
            running.addTask { try await group.run() }
            while !store.connections.runsInService { await Task.yield() }
            _ = try await store.write { try $0.device(named: "phone") }
            #expect(try await store.read { try $0.devices() }.map(\.name) == ["phone"])
            await group.triggerGracefulShutdown()
            try await running.waitForAll()
        }
        #expect(store.connections.runsInService, "no unit started a pool of the store's own")
        await #expect(throws: PostgresStoreError.self) { try await store.read { try $0.devices() } }
    }

    /// Every cooperative thread is held by a caller that waits for the store: the leases must
    /// not need one. The callers first hold their threads until all of them do (the pool is as
    /// wide as the machine has processors), so from then on no cooperative thread is free,
    /// whatever the rest of the suite is doing; the store calls then run on threads of their own,
    /// each waited for by its caller, so that a lease that needed a cooperative thread fails the
    /// test instead of hanging the run.
    @Test func leasesNeedNoCooperativeThreadWhenCallersHoldThemAll() async throws {
        let store = try PostgresStore(
            url: try PostgresCluster.shared().newDatabase(),
            mediaDirectory: try Samples.temporaryDirectory() + "/media",
            maximumConnections: 1)
        defer { store.close() }
        let width = ProcessInfo.processInfo.activeProcessorCount
        let arrived = Locked(0)
        let allArrived = DispatchSemaphore(value: 0)
        let outcomes = await withTaskGroup(of: String?.self) { group in
            for caller in 0..<width {
                group.addTask {
                    if arrived.withLock({
                        $0 += 1
                        return $0
                    }) == width {
                        for _ in 0..<width { allArrived.signal() }
                    }
                    // The rest of the suite may hold the other threads for a while: its tests
                    // run on them too.
                    guard allArrived.wait(timeout: .now() + 900) == .success else {
                        return "only \(arrived.withLock { $0 }) of \(width) callers got a cooperative thread in 900 s"
                    }
                    let result = Locked<Result<Int, any Error>?>(nil)
                    let done = DispatchSemaphore(value: 0)
                    Thread {
                        result.withLock {
                            $0 = Result {
                                for round in 0..<3 {
                                    _ = try store.writeNow { try $0.device(named: "caller \(caller) round \(round)") }
                                }
                                return try store.readNow { try $0.devices() }.count
                            }
                        }
                        done.signal()
                    }.start()
                    guard done.wait(timeout: .now() + 120) == .success else {
                        return "caller \(caller) had no answer in 120 s with every cooperative thread held"
                    }
                    switch result.withLock({ $0 }) {
                    case .failure(let error): return "caller \(caller) failed: \(error)"
                    default: return nil
                    }
                }
            }
            return await group.reduce(into: [String]()) { if let said = $1 { $0.append(said) } }
        }
        #expect(outcomes.isEmpty, "\(outcomes)")
        #expect(try store.readNow { try $0.devices() }.count == 3 * width)
    }
}
