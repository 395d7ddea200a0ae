import Foundation
import GPSCore
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// The store's connections to one database: PostgresNIO's `PostgresClient` pool, run by a task
/// the store starts when it opens and ends when it closes.
///
/// A unit of work's synchronous body (``withConnection(_:)``, on a command's main thread or one of
/// the offload helper's) waits for a connection that a task leases for it, and runs on its own
/// thread; a read of one prepared statement (``rows(prepared:_:)``) awaits its connection.
///
/// The pool's own work (making connections, keep-alives, timers) and the leases of synchronous
/// callers run on one of NIO's event loops through ``LoopExecutor``: a synchronous caller that
/// blocks a cooperative thread (a command's async `run`, a test) cannot starve the lease it waits
/// for, however many of them block at once.
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
    /// The event loop the pool's work and the synchronous callers' leases run on.
    let loop: any EventLoop
    let executor: LoopExecutor
    private let running: Task<Void, Never>
    private let closed = Atomic<Bool>(false)
    private let health = Mutex(Health())

    /// The last direct connection attempt: when it began, and the attempt itself (its result is
    /// the failure, nil when the server answered), which callers meanwhile wait for together.
    private struct Health {
        var probed: ContinuousClock.Instant?
        var attempt: Task<(any Error)?, Never>?
    }

    init(location: PostgresLocation, maximum: Int = 16) {
        self.location = location
        // A commit is acknowledged (to a phone, by a 200) only once it is on disk, whatever the
        // server's default: its WAL is flushed before COMMIT returns. Locks are waited for 10 s.
        let parameters = [("synchronous_commit", "on"), ("lock_timeout", "\(PostgresStore.defaultWriteWait)")]
        var configuration = location.configuration
        configuration.options.additionalStartupParameters = parameters
        self.configuration = configuration
        var options = PostgresClient.Configuration.Options()
        options.connectTimeout = .seconds(10)
        options.maximumConnections = maximum
        options.additionalStartupParameters = parameters
        var pooled: PostgresClient.Configuration
        if let socketFolder = location.socketFolder {
            pooled = .init(
                unixSocketPath: "\(socketFolder)/.s.PGSQL.\(location.port)", username: location.user,
                password: location.password, database: location.database)
        } else {
            pooled = .init(
                host: location.host, port: location.port, username: location.user, password: location.password,
                database: location.database, tls: .disable)
        }
        pooled.options = options
        logger = Logger(label: "trailbook.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let client = PostgresClient(configuration: pooled, backgroundLogger: logger)
        self.client = client
        loop = MultiThreadedEventLoopGroup.singleton.next()
        let executor = LoopExecutor(loop)
        self.executor = executor
        running = Task(executorPreference: executor) { await client.run() }
    }

    deinit {
        running.cancel()
    }

    /// Runs `body` with a connection of its own, on the calling thread, which must not be the
    /// event loop's.
    func withConnection<T>(_ body: (Session) throws -> T) throws -> T {
        let handoff = Guarded<Result<Leased, any Error>?>(nil)
        lease { result in handoff.withLock { $0 = result } }
        let leased = try handoff.wait(until: { $0 != nil }) { try $0!.get() }
        defer { leased.release() }
        do {
            return try body(Session(connection: leased.connection, logger: logger, executor: executor))
        } catch {
            if !leased.connection.isClosed && Self.isConnectionFailure(error) { Self.drop(leased.connection) }
            throw error
        }
    }

    /// The rows of `query`, run as `key`'s prepared statement on a connection leased for it,
    /// from the calling task: a read of one statement needs neither a transaction nor a thread
    /// of the store's to wait on the connection.
    func rows<Key: PreparedKey>(prepared key: Key.Type, _ query: PostgresQuery) async throws
        -> [PostgresRandomAccessRow]
    {
        let leased = try await withCheckedThrowingContinuation { continuation in
            lease { continuation.resume(with: $0) }
        }
        defer { leased.release() }
        let (connection, logger) = (leased.connection, logger)
        do {
            let rows: EventLoopFuture<[PostgresRow]>
            let registered = Prepared.register(key, query.sql)
            assert(registered, "the text of \(key)'s statement changed: bind its values")
            if registered {
                let promise = connection.eventLoop.makePromise(of: [PostgresRow].self)
                let use = PreparedUse<Key>(bindings: query.binds)
                promise.completeWithTask {
                    var rows: [PostgresRow] = []
                    for try await row in try await connection.execute(use, logger: logger) { rows.append(row) }
                    return rows
                }
                rows = promise.futureResult
            } else {
                rows = connection.query(query, logger: logger).map(\.rows)
            }
            return try await Self.watched(rows, on: connection).get().map { $0.makeRandomAccess() }
        } catch {
            if !connection.isClosed && Self.isConnectionFailure(error) { Self.drop(connection) }
            throw error
        }
    }

    /// Leases a connection of the pool in a task of its own, on the event loop, and calls
    /// `settle` once: with the connection (the caller gives it back with ``Leased/release()``),
    /// with the pool's failure, or with why the database does not answer when a probe says so
    /// before the pool has a connection.
    private func lease(_ settle: @escaping @Sendable (Result<Leased, any Error>) -> Void) {
        guard !closed.load(ordering: .relaxed) else { return settle(.failure(PostgresStoreError.closed)) }
        let gate = LeaseGate(settle)
        let client = self.client
        let loop = self.loop
        let began = ContinuousClock.now
        let task = Task(executorPreference: executor) {
            // On the loop: the timer is set without waking it.
            gate.watch(loop.scheduleTask(in: Self.probeAfter) { self.check(gate, began: began) })
            do {
                try await client.withConnection { connection in
                    await withCheckedContinuation { released in
                        if !gate.settle(.success(Leased(connection: connection, released: released))) {
                            released.resume()
                        }
                    }
                }
            } catch {
                _ = gate.settle(.failure(error))
            }
        }
        gate.lease = task
    }

    /// A lease that has waited: a probe asks whether the database answers; when it does not, the
    /// lease ends with why; when it does, the lease waits on and is checked again in a second.
    private func check(_ gate: LeaseGate, began: ContinuousClock.Instant) {
        guard !gate.isSettled else { return }
        Task(executorPreference: executor) {
            if let failure = await self.probe(since: began) {
                if gate.settle(.failure(failure)) { gate.lease?.cancel() }
            } else if !gate.isSettled {
                gate.watch(self.loop.scheduleTask(in: .seconds(1)) { self.check(gate, began: began) })
            }
        }
    }

    /// How long a lease waits before a probe asks whether the database answers.
    static let probeAfter = TimeAmount.milliseconds(250)

    /// Why the database does not answer a new connection (nil: it does), from the store's last
    /// direct connection attempt when it is less than a second old and was made after `since`
    /// (when the lease asking began): an attempt from before then may tell of a server that has
    /// come back since (the CI run at c022dc3 had a read just after a restart told "connection
    /// refused" by a probe made before it).
    private func probe(since: ContinuousClock.Instant) async -> (any Error)? {
        let now = ContinuousClock.now
        let attempt = health.withLock { health -> Task<(any Error)?, Never> in
            if let probed = health.probed, probed >= since, probed.duration(to: now) < .seconds(1),
                let attempt = health.attempt
            {
                return attempt
            }
            let attempt = Task(executorPreference: executor) { await self.attemptConnection() }
            health.probed = now
            health.attempt = attempt
            return attempt
        }
        return await attempt.value
    }

    /// One direct connection attempt: why it failed, nil when the server answered.
    private func attemptConnection() async -> (any Error)? {
        do {
            let connection = try await PostgresConnection.connect(
                on: loop, configuration: configuration, id: Int.random(in: 1_000_000...9_999_999), logger: logger)
            try? await connection.close()
            return nil
        } catch {
            // A server that answers but is full (too many clients) is busy, not away.
            let said = PostgresStoreError.from(error, location: location)
            return said is PostgresStoreError ? said : nil
        }
    }

    /// A new connection outside the pool, or an error within ``connectDeadline``: PostgresNIO's
    /// own timeout covers the TCP connection only, not the start-up and login that follow it.
    func connect() throws -> PostgresConnection {
        let connecting = PostgresConnection.connect(
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
        return try promise.futureResult.wait()
    }

    /// How long opening a connection (TCP, start-up, login) may take.
    static let connectDeadline = TimeAmount.seconds(15)

    /// Waits for `future` of `connection`, but not for ever on a connection that is gone: when
    /// the connection has been closed for a second and `future` still has no result, it fails
    /// as a closed channel (which the store reports as the database being away). A query that
    /// is merely slow on a live connection is waited for.
    static func settled<T: Sendable>(_ future: EventLoopFuture<T>, on connection: PostgresConnection) throws -> T {
        try watched(future, on: connection).wait()
    }

    /// `future`, failed as a closed channel when `connection` has been closed for a second
    /// while it has no result (``settled(_:on:)``).
    static func watched<T: Sendable>(_ future: EventLoopFuture<T>, on connection: PostgresConnection)
        -> EventLoopFuture<T>
    {
        let promise = future.eventLoop.makePromise(of: T.self)
        future.cascade(to: promise)
        let loop = future.eventLoop
        let watchdog = loop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { task in
            guard connection.isClosed else { return }
            task.cancel()
            // A second of grace for the result the closing itself brings (a promise completes once).
            loop.scheduleTask(in: .seconds(1)) { promise.fail(ChannelError.ioOnClosedChannel) }
        }
        promise.futureResult.whenComplete { _ in watchdog.cancel() }
        return promise.futureResult
    }

    /// Ends the pool; calls after this fail. Its connections close in the background: the pool's
    /// task keeps the client until they have (waiting for that here could wait on the
    /// cooperative threads, which a synchronous caller may be blocking).
    func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        running.cancel()
    }

    /// Closes a connection left in doubt, so that the pool does not give it to the next caller.
    static func drop(_ connection: PostgresConnection) {
        let _: EventLoopFuture<Void> = connection.close()
    }

    /// Whether `error` means the connection is gone (the server stopped, the network broke).
    static func isConnectionFailure(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return error is ChannelError }
        switch error.code {
        case .serverClosedConnection, .clientClosedConnection, .connectionError, .uncleanShutdown: return true
        case .server:
            // 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now.
            return error.serverInfo?[.sqlState].map { $0.hasPrefix("57P") || $0.hasPrefix("08") } ?? false
        default: return false
        }
    }
}

/// A connection leased for a caller, who gives it back to the pool with ``release()``.
struct Leased: Sendable {
    let connection: PostgresConnection
    let released: CheckedContinuation<Void, Never>

    func release() { released.resume() }
}

/// One lease's outcome, settled once: the connection, the pool's failure or a probe's. A
/// connection that comes after a probe's failure goes back unused.
final class LeaseGate: Sendable {
    private struct State {
        var settled = false
        var timer: Scheduled<Void>?
        var lease: Task<Void, Never>?
    }
    private let state = Mutex(State())
    private let settleWith: @Sendable (Result<Leased, any Error>) -> Void

    init(_ settle: @escaping @Sendable (Result<Leased, any Error>) -> Void) { settleWith = settle }

    /// Settles the lease with `result`; false when it was settled already.
    func settle(_ result: Result<Leased, any Error>) -> Bool {
        let timer = state.withLock { state -> Scheduled<Void>?? in
            guard !state.settled else { return .none }
            state.settled = true
            defer { state.timer = nil }
            return .some(state.timer)
        }
        guard let timer else { return false }
        timer?.cancel()
        settleWith(result)
        return true
    }

    /// The timer of the next check.
    func watch(_ timer: Scheduled<Void>) {
        let settled = state.withLock { state in
            if !state.settled { state.timer = timer }
            return state.settled
        }
        if settled { timer.cancel() }
    }

    /// The task that waits for the pool's connection.
    var lease: Task<Void, Never>? {
        get { state.withLock { $0.lease } }
        set { state.withLock { $0.lease = newValue } }
    }

    var isSettled: Bool { state.withLock { $0.settled } }
}

/// Runs tasks' jobs on one NIO event loop: the pool's work and the leases of synchronous callers
/// do not need Swift's cooperative threads, which those callers may be blocking.
final class LoopExecutor: TaskExecutor {
    let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// A connection checked out of the pool: queries run one after the other, each waited for.
struct Session {
    let connection: PostgresConnection
    let logger: Logger
    /// Where the async calls of prepared statements run (nil: every statement runs unprepared).
    var executor: LoopExecutor? = nil

    /// The rows of `query`.
    @discardableResult
    func query(_ query: PostgresQuery) throws -> [PostgresRandomAccessRow] {
        try Connections.settled(connection.query(query, logger: logger), on: connection).rows.map {
            $0.makeRandomAccess()
        }
    }

    /// Runs `query`; returns the rows it changed.
    @discardableResult
    func execute(_ query: PostgresQuery) throws -> Int {
        try Connections.settled(connection.query(query, logger: logger), on: connection).metadata.rows ?? 0
    }

    /// The first column of the first row, or nil when there is no row (or the value is NULL).
    func value<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) throws -> T? {
        guard let row = try self.query(query).first, row[0].bytes != nil else { return nil }
        return try row[0].decode(T.self)
    }

    /// The first column of every row.
    func values<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type = T.self) throws -> [T] {
        try self.query(query).map { try $0[0].decode(T.self) }
    }
}

extension PostgresRandomAccessRow {
    /// The value of column `name`, which must not be NULL.
    func get<T: PostgresDecodable>(_ name: String, as type: T.Type = T.self) throws -> T {
        try self[name].decode(T.self)
    }

    /// The value of column `name`, nil for NULL.
    func optional<T: PostgresDecodable>(_ name: String, as type: T.Type = T.self) throws -> T? {
        let cell = self[name]
        return cell.bytes == nil ? nil : try cell.decode(T.self)
    }
}
