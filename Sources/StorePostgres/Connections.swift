import GPSCore
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// The store's connections to one database: PostgresNIO's `PostgresClient`, which the server's
/// service group runs (the store's `service`), or a task of the store's when nothing else does.
///
/// A unit of work runs inside the client's `withConnection`, in a task that prefers
/// `Blocking.units`: its synchronous body waits on each reply on one of those threads, never on a
/// cooperative one, and the connection goes back to the pool when the body returns.
///
/// The pool retries a database that does not answer in the background, and a lease waits for it.
/// A caller is not left waiting on a database that is away: after ``probeAfterTicks`` without a
/// connection, a direct connection attempt (``DirectConnections/probe(since:)``, one a second for
/// the whole store) says whether the server answers, and if it does not the caller gets that
/// failure at once.
final class Connections: Sendable {
    let client: PostgresClient
    /// The connections outside the pool, and the probe.
    let direct: DirectConnections
    /// What runs the client: nothing yet, a service group (``runClient()``) or the store's own
    /// task (``startClient()``), which is kept to be cancelled at the end.
    private let runner = Mutex<Runner>(.none)
    enum Runner {
        case none, service
        case store(Task<Void, Never>)
    }
    var runsInService: Bool { runner.withLock { if case .service = $0 { true } else { false } } }
    private let closed = Atomic<Bool>(false)

    init(location: PostgresLocation, maximum: Int = 16) {
        // A commit is acknowledged (to a phone, by a 200) only once it is on disk, whatever the
        // server's default: its WAL is flushed before COMMIT returns. Locks are waited for 10 s.
        let parameters = [("synchronous_commit", "on"), ("lock_timeout", "\(PostgresStore.defaultWriteWait)")]
        let logger = Logger(label: "trailbook.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        direct = DirectConnections(location: location, parameters: parameters, logger: logger)
        client = PostgresClient(
            configuration: location.clientConfiguration(maximum: maximum, parameters: parameters),
            backgroundLogger: logger)
    }

    deinit { close() }

    /// Runs the client here, in the caller's task (the store's service in the server's service
    /// group), until the task is cancelled or the group shuts down; false when it runs already.
    func runClient() async -> Bool {
        let first = runner.withLock { runner in
            guard case .none = runner else { return false }
            runner = .service
            return true
        }
        guard first else { return false }
        await withTaskExecutorPreference(Blocking.units) { await client.run() }
        return true
    }

    /// Runs the client in a task of the store's when nothing runs it yet (a command, a test, a
    /// server that reached the store before its service group started).
    private func startClient() {
        runner.withLock { runner in
            guard case .none = runner, !closed.load(ordering: .relaxed) else { return }
            let client = self.client
            runner = .store(Task(executorPreference: Blocking.units) { await client.run() })
        }
    }

    /// Runs `body` on a connection of the pool, in a child task that prefers `Blocking.units`; fails
    /// with why when a probe says the database does not answer before the pool has a connection.
    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        guard !closed.load(ordering: .relaxed) else { throw PostgresStoreError.closed }
        startClient()
        let began = ContinuousClock.now
        let claim = Claim()
        return try await withThrowingTaskGroup(of: T?.self) { group in
            // The lease and the body on a thread of the units'; the probe where the caller is.
            group.addTask(executorPreference: Blocking.units) {
                try await self.client.withConnection { connection in
                    guard claim.take(leased: true) else { throw CancellationError() }
                    do { return try await body(connection) } catch {
                        if !connection.isClosed && Self.isConnectionFailure(error) { Self.drop(connection) }
                        throw error
                    }
                }
            }
            group.addTask {
                try await self.direct.ticks.wait(Self.probeAfterTicks)
                while !claim.isTaken {
                    if let failure = await self.direct.probe(since: began), claim.take(leased: false) { throw failure }
                    try await self.direct.ticks.wait(4)
                }
                return nil
            }
            while let outcome = try await group.next() {
                if let value = outcome {
                    group.cancelAll()
                    return value
                }
            }
            preconditionFailure("a lease ended with no value")
        }
    }

    /// How long a lease waits before a probe asks whether the database answers: two of the
    /// store's ticks, 250-500 ms.
    static let probeAfterTicks = 2

    /// Ends the pool; calls after this fail. Its connections close in the background.
    func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        direct.ticks.stop()
        runner.withLock { if case .store(let task) = $0 { task.cancel() } }
    }

    /// Closes a connection left in doubt, so that the pool does not give it to the next caller.
    static func drop(_ connection: PostgresConnection) {
        let _: EventLoopFuture<Void> = connection.close()
    }
}

/// Whether a lease or a probe came first: the one that did decides (a connection that comes after
/// the probe's failure goes back unused).
private final class Claim: Sendable {
    private let state = Mutex<Bool?>(nil)

    /// Whether this one came first (`leased`: the connection; else the probe's failure).
    func take(leased: Bool) -> Bool {
        state.withLock { first in
            first = first ?? leased
            return first == leased
        }
    }

    var isTaken: Bool { state.withLock { $0 != nil } }
}
