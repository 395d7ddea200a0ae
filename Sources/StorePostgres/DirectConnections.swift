import GPSCore
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// The store's connections outside the pool: its first one (migrations, partitions), LISTEN, and
/// the probe that says whether the database answers while a lease waits for the pool.
final class DirectConnections: Sendable {
    let location: PostgresLocation
    /// A connection's settings, with the store's start-up parameters.
    let configuration: PostgresConnection.Configuration
    let logger: Logger
    /// The event loop of these connections.
    let loop: any EventLoop = MultiThreadedEventLoopGroup.singleton.next()
    /// What a lease's probe waits on.
    let ticks: Ticks
    /// The last direct connection attempt: when it began, and the attempt itself (its result is
    /// the failure, nil when the server answered), which callers meanwhile wait for together.
    private let health = Mutex<(probed: ContinuousClock.Instant, attempt: Task<(any Error)?, Never>)?>(nil)

    init(location: PostgresLocation, parameters: [(String, String)], logger: Logger) {
        self.location = location
        var configuration = location.configuration
        configuration.options.additionalStartupParameters = parameters
        self.configuration = configuration
        self.logger = logger
        ticks = Ticks(on: loop)
    }

    /// Why the database does not answer a new connection (nil: it does), from the store's last
    /// direct connection attempt when it is less than a second old and was made after `since`
    /// (when the lease asking began): an attempt from before then may tell of a server that has
    /// come back since (the CI run at c022dc3 had a read just after a restart told "connection
    /// refused" by a probe made before it).
    func probe(since: ContinuousClock.Instant) async -> (any Error)? {
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

    /// A new connection, or an error within ``connectDeadline``: PostgresNIO's own timeout covers
    /// the TCP connection only, not the start-up and login that follow it.
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
}
