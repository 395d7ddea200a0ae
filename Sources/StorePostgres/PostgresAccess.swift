import Foundation
import NIOPosix
import PostgresNIO

/// How the PostgreSQL store's operations reach the database: through the store's connections,
/// each call in a transaction of its own, or inside a unit of work, on the unit's connection and
/// in its transaction.
public struct PostgresAccess {
    let store: PostgresStore
    /// The unit of work the operations run in; nil: the store's connections.
    let unit: PostgresUnit?

    func read<T>(_ body: (Session) throws -> T) throws -> T {
        if let unit { return try body(unit.session) }
        return try store.readSession(body)
    }

    func write<T>(_ body: (Session) throws -> T) throws -> T {
        if let unit { return try body(unit.session) }
        return try store.writeSession(body)
    }

    /// Runs `action` once what was written is committed: now outside a unit of work, after the
    /// unit's commit inside one (never when it rolls back).
    func afterCommit(_ action: @escaping @Sendable () -> Void) {
        if let unit { unit.afterCommit.append(action) } else { action() }
    }

    var inUnit: Bool { unit != nil }
}

/// The PostgreSQL store's operations, written once for the store and for a unit of work in it.
public protocol PostgresStoring: StoreUnit {
    var access: PostgresAccess { get }
}

extension PostgresStoring {
    /// Runs `body` on a connection (the unit's, inside one).
    func read<T>(_ body: (Session) throws -> T) throws -> T { try access.read(body) }

    /// Runs `body` in a write transaction (the unit's, inside one).
    @discardableResult
    func write<T>(_ body: (Session) throws -> T) throws -> T { try access.write(body) }

    public var path: String { access.store.path }
    public var mediaDirectory: String { access.store.mediaDirectory }
    var instance: String { access.store.instance }
}

/// A unit of work in the PostgreSQL store: the store's operations on one connection, inside one
/// transaction. It must not escape the unit's body.
public final class PostgresUnit: PostgresStoring {
    let session: Session
    let store: PostgresStore
    /// What runs once the unit has committed.
    fileprivate(set) var afterCommit: [@Sendable () -> Void] = []

    init(_ session: Session, store: PostgresStore) {
        self.session = session
        self.store = store
    }

    public var access: PostgresAccess { PostgresAccess(store: store, unit: self) }
    public func limitWriteWait(to seconds: TimeInterval) throws { try store.limitWriteWait(to: seconds) }
    public func isBusy(_ error: any Error) -> Bool { store.isBusy(error) }
    public func isUnavailable(_ error: any Error) -> Bool { store.isUnavailable(error) }
}

extension PostgresStore: PostgresStoring {
    public var access: PostgresAccess { PostgresAccess(store: self, unit: nil) }

    public func writeNow<T>(_ body: (any StoreUnit) throws -> T) throws -> T {
        var after: [@Sendable () -> Void] = []
        let value = try writeSession { session in
            let unit = PostgresUnit(session, store: self)
            defer { after = unit.afterCommit }
            return try body(unit)
        }
        for action in after { action() }
        return value
    }

    /// Runs `body` on one snapshot (a repeatable-read, read-only transaction).
    func readNow<T>(_ body: (any StoreUnit) throws -> T) throws -> T {
        try readSession { session in
            try session.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            do {
                let value = try body(PostgresUnit(session, store: self))
                try session.execute("COMMIT")
                return value
            } catch {
                // As `ConnectionPool.transaction`: no ROLLBACK on a connection that is gone.
                if !session.connection.isClosed && !ConnectionPool.isConnectionFailure(error) {
                    _ = try? session.execute("ROLLBACK")
                }
                throw error
            }
        }
    }

    // The units wait on their connection's replies: they run on the thread pool, never on the
    // cooperative threads.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreUnit) throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive { try self.writeNow(body) }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreUnit) throws -> T) async throws -> T {
        try await NIOThreadPool.singleton.runIfActive { try self.readNow(body) }
    }
}
