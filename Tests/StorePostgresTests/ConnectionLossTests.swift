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
