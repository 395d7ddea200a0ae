import GPSCore
import Logging
import NIOCore
import PostgresNIO

/// A connection checked out of the pool: queries run one after the other, each waited for.
struct Session {
    let connection: PostgresConnection
    let logger: Logger
    /// Whether statements with a key run prepared (a connection of the pool's, which keeps them).
    var prepares = false

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

extension Connections {
    /// Waits for `future` of `connection`, but not for ever on a connection that is gone: when
    /// the connection has been closed for a second and `future` still has no result, it fails
    /// as a closed channel (which the store reports as the database being away). A query that
    /// is merely slow on a live connection is waited for.
    static func settled<T: Sendable>(_ future: EventLoopFuture<T>, on connection: PostgresConnection) throws -> T {
        let watched = watched(future, on: connection)
        return try Blocking.settle { done in watched.whenComplete { done($0.mapError { $0 }) } }
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
