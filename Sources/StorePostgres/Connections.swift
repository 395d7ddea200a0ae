import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// Connections to one database for synchronous callers (the store protocol is synchronous, as
/// the SQLite store is): a call checks a connection out, runs its queries through PostgresNIO's
/// EventLoopFuture API and waits on the calling thread, then puts the connection back.
///
/// The connections live on event loops of their own, never on Swift's cooperative threads: a
/// caller blocked on one of those threads (a server handler calling the store) cannot starve the
/// work it waits for. PostgresNIO's `PostgresClient` pool runs on Swift concurrency, so waiting
/// for it from synchronous code on a two-core machine can deadlock; this small pool cannot.
final class ConnectionPool: @unchecked Sendable {
    let configuration: PostgresConnection.Configuration
    let group: MultiThreadedEventLoopGroup
    let logger: Logger
    /// Most connections open at once; more callers wait for one.
    let maximum: Int
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var open = 0
    private var nextID = 0
    private var closed = false

    init(configuration: PostgresConnection.Configuration, maximum: Int = 16) {
        self.configuration = configuration
        self.maximum = maximum
        group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        logger = Logger(label: "trailbook.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    }

    deinit { try? group.syncShutdownGracefully() }

    /// Runs `body` with a connection of its own.
    func withConnection<T>(_ body: (Session) throws -> T) throws -> T {
        let connection = try checkOut()
        var healthy = true
        defer { checkIn(connection, healthy: healthy) }
        do {
            return try body(Session(connection: connection, logger: logger))
        } catch {
            healthy = !connection.isClosed && !Self.isConnectionFailure(error)
            throw error
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: (Session) throws -> T) throws -> T {
        try withConnection { session in
            try session.execute("BEGIN")
            do {
                let value = try body(session)
                try session.execute("COMMIT")
                return value
            } catch {
                // Not on a connection that is gone: PostgresNIO may never answer a query sent on a
                // closed connection (the server rolls back what it had, anyway).
                if !session.connection.isClosed && !Self.isConnectionFailure(error) {
                    _ = try? session.execute("ROLLBACK")
                }
                throw error
            }
        }
    }

    /// A new connection, for a caller that keeps it (LISTEN); closed by the caller.
    func connect() throws -> PostgresConnection {
        let id = condition.withLock {
            nextID += 1
            return nextID
        }
        return try opened(id: id)
    }

    /// A new connection, or an error within ``connectDeadline``: PostgresNIO's own timeout covers
    /// the TCP connection only, not the start-up and login that follow it.
    private func opened(id: Int) throws -> PostgresConnection {
        let loop = group.next()
        let connecting = PostgresConnection.connect(on: loop, configuration: configuration, id: id, logger: logger)
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
        return try promise.futureResult.wait()
    }

    private func checkOut() throws -> PostgresConnection {
        condition.lock()
        while true {
            if closed {
                condition.unlock()
                throw PostgresStoreError.closed
            }
            while let connection = idle.popLast() {
                if !connection.isClosed {
                    condition.unlock()
                    return connection
                }
                open -= 1
            }
            if open < maximum { break }
            condition.wait()
        }
        open += 1
        nextID += 1
        let id = nextID
        condition.unlock()
        do {
            let connection = try opened(id: id)
            do {
                // A commit is acknowledged (to a phone, by a 200) only once it is on disk, whatever
                // the server's default: its WAL is flushed before COMMIT returns.
                _ = try Self.settled(connection.query("SET synchronous_commit = on", logger: logger), on: connection)
                _ = try Self.settled(connection.query("SET lock_timeout = 10000", logger: logger), on: connection)
            } catch {
                // Not left open behind the pool's back (not waited for: a close waits for the
                // queries sent before it, which a gone connection may never answer).
                let _: EventLoopFuture<Void> = connection.close()
                throw error
            }
            return connection
        } catch {
            condition.withLock {
                open -= 1
                condition.signal()
            }
            throw error
        }
    }

    private func checkIn(_ connection: PostgresConnection, healthy: Bool) {
        let keep = healthy && !connection.isClosed
        condition.withLock {
            if keep && !closed {
                idle.append(connection)
            } else {
                open -= 1
            }
            condition.signal()
        }
        if !keep || closed { let _: EventLoopFuture<Void> = connection.close() }
    }

    /// Closes the idle connections; calls after this fail.
    func close() {
        let connections = condition.withLock {
            closed = true
            defer { idle = [] }
            condition.broadcast()
            return idle
        }
        for connection in connections {
            let closing: EventLoopFuture<Void> = connection.close()
            try? closing.wait()
        }
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

/// A connection checked out of the pool: queries run one after the other, each waited for.
struct Session {
    let connection: PostgresConnection
    let logger: Logger

    /// The rows of `query`.
    @discardableResult
    func query(_ query: PostgresQuery) throws -> [PostgresRandomAccessRow] {
        try ConnectionPool.settled(connection.query(query, logger: logger), on: connection).rows.map {
            $0.makeRandomAccess()
        }
    }

    /// Runs `query`; returns the rows it changed.
    @discardableResult
    func execute(_ query: PostgresQuery) throws -> Int {
        try ConnectionPool.settled(connection.query(query, logger: logger), on: connection).metadata.rows ?? 0
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
