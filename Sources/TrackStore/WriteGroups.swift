internal import GRDB
import Synchronization

/// Group commit: write units that come while the store's writer is busy wait together, then share
/// one transaction, each in a savepoint of its own (one that throws is rolled back alone and its
/// caller gets the error), committed once: one WAL flush for them all instead of one each. Each
/// caller is answered once the transaction holding its unit has committed, in the order they came.
/// A commit that fails fails every unit of the group.
final class WriteGroups: Sendable {
    struct Job: Sendable {
        /// Runs the unit in its savepoint; returns what to do once the transaction has committed.
        let run: @Sendable (Database) -> @Sendable () -> Void
        /// Answers the caller when the transaction did not commit.
        let fail: @Sendable (any Error) -> Void
    }

    /// The group's transaction ended under an earlier unit of it: this one did not run.
    struct RolledBack: Error, CustomStringConvertible {
        var description: String { "The store's transaction was rolled back before this write ran; nothing was kept." }
    }

    private let state = Mutex<(jobs: [Job], draining: Bool)>(([], false))
    /// Groups written so far, and the units waiting now (for the tests).
    let written = Atomic<Int>(0)
    var waiting: Int { state.withLock { $0.jobs.count } }
    /// Units added so far, waiting or taken into a group (for the tests).
    let added = Atomic<Int>(0)

    /// Adds a unit; true when no group is being written, and the caller must start ``drain(_:)``.
    func add(_ job: Job) -> Bool {
        added.add(1, ordering: .relaxed)
        return state.withLock { state in
            state.jobs.append(job)
            if state.draining { return false }
            state.draining = true
            return true
        }
    }

    /// Writes the units waiting, a group at a time, until none waits.
    func drain(_ pool: DatabasePool) async {
        while let jobs = next() {
            do {
                let finish = try await pool.write { db in jobs.map { $0.run(db) } }
                written.add(1, ordering: .relaxed)
                for done in finish { done() }
            } catch {
                for job in jobs { job.fail(error) }
            }
        }
    }

    /// The units waiting, or nil (and the drain ends) when there are none.
    private func next() -> [Job]? {
        state.withLock { state in
            if state.jobs.isEmpty {
                state.draining = false
                return nil
            }
            defer { state.jobs = [] }
            return state.jobs
        }
    }
}
