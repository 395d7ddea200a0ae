import GPSCore
import Logging
import NIOCore
import NIOPosix
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
/// A caller is not left waiting on a database that is away: after ``probeAfter`` without a
/// connection, a direct connection attempt (one per second for the whole store) says whether the
/// server answers, and if it does not the caller gets that failure at once.
final class Connections: Sendable {
    let location: PostgresLocation
    /// A connection's settings, for the connections outside the pool (the store's first one,
    /// LISTEN, the probe).
    let configuration: PostgresConnection.Configuration
    let logger: Logger
    let client: PostgresClient
    /// The event loop of the connections outside the pool.
    let loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
    /// What runs the client: nothing yet, a service group (``runClient()``) or the store's own
    /// task (``startClient()``), which is kept to be cancelled at the end.
    private let runner = Mutex<Runner>(.none)
    enum Runner {
        case none, service
        case store(Task<Void, Never>)
    }
    var runsInService: Bool { runner.withLock { if case .service = $0 { true } else { false } } }
    private let closed = Atomic<Bool>(false)
    /// What a lease's probe waits on.
    private let ticks: Ticks
    /// The last direct connection attempt: when it began, and the attempt itself (its result is
    /// the failure, nil when the server answered), which callers meanwhile wait for together.
    private let health = Mutex<(probed: ContinuousClock.Instant, attempt: Task<(any Error)?, Never>)?>(nil)

    init(location: PostgresLocation, maximum: Int = 16) {
        self.location = location
        // A commit is acknowledged (to a phone, by a 200) only once it is on disk, whatever the
        // server's default: its WAL is flushed before COMMIT returns. Locks are waited for 10 s.
        let parameters = [("synchronous_commit", "on"), ("lock_timeout", "\(PostgresStore.defaultWriteWait)")]
        var configuration = location.configuration
        configuration.options.additionalStartupParameters = parameters
        self.configuration = configuration
        ticks = Ticks(on: loop)
        logger = Logger(label: "trailbook.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
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
                try await self.ticks.wait(Self.probeAfterTicks)
                while !claim.isTaken {
                    if let failure = await self.probe(since: began), claim.take(leased: false) { throw failure }
                    try await self.ticks.wait(4)
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

    /// Why the database does not answer a new connection (nil: it does), from the store's last
    /// direct connection attempt when it is less than a second old and was made after `since`
    /// (when the lease asking began): an attempt from before then may tell of a server that has
    /// come back since (the CI run at c022dc3 had a read just after a restart told "connection
    /// refused" by a probe made before it).
    private func probe(since: ContinuousClock.Instant) async -> (any Error)? {
        let now = ContinuousClock.now
        let attempt = health.withLock { health in
            if let last = health, last.probed >= since, last.probed.duration(to: now) < .seconds(1) {
                return last.attempt
            }
            let attempt = Task(executorPreference: Blocking.units) { () -> (any Error)? in
                do {
                    try await self.connect().close()
                    return nil
                } catch {
                    // A server that answers but is full (too many clients) is busy, not away.
                    let said = PostgresStoreError.from(error, location: self.location)
                    return said is PostgresStoreError ? said : nil
                }
            }
            health = (now, attempt)
            return attempt
        }
        return await attempt.value
    }

    /// A new connection outside the pool, or an error within ``connectDeadline``: PostgresNIO's
    /// own timeout covers the TCP connection only, not the start-up and login that follow it.
    func connect() async throws -> PostgresConnection {
        let connecting: EventLoopFuture<PostgresConnection> = PostgresConnection.connect(
            on: loop, configuration: configuration, id: Int.random(in: 1_000_000...9_999_999), logger: logger)
        let promise = loop.makePromise(of: PostgresConnection.self)
        connecting.cascade(to: promise)
        let deadline = loop.scheduleTask(in: Self.connectDeadline) {
            promise.fail(ChannelError.connectTimeout(Self.connectDeadline))
        }
        connecting.whenComplete { _ in deadline.cancel() }
        // One that comes after the deadline is not left open.
        promise.futureResult.whenFailure { _ in
            connecting.whenSuccess { late in let _: EventLoopFuture<Void> = late.close() }
        }
        return try await promise.futureResult.get()
    }

    /// How long opening a connection (TCP, start-up, login) may take.
    static let connectDeadline = TimeAmount.seconds(15)

    /// Ends the pool; calls after this fail. Its connections close in the background.
    func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        ticks.stop()
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
