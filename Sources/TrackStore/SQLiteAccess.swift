import Foundation
internal import GRDB

/// How the SQLite store's operations reach the database: through the store's pool, each call in
/// a transaction of its own, or inside a unit of work, on the unit's connection and in its
/// transaction (GRDB's writer queue runs the unit; nothing in it opens a transaction again).
public struct SQLiteAccess {
    let store: TrackStore
    /// The unit of work the operations run in; nil: the pool.
    let unit: SQLiteUnit?

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        if let unit { return try body(unit.db) }
        return try store.databasePool.read(body)
    }

    func write<T>(_ body: (Database) throws -> T) throws -> T {
        if let unit { return try body(unit.db) }
        return try store.databasePool.write(body)
    }

    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T {
        if let unit { return try body(unit.db) }
        return try store.databasePool.writeWithoutTransaction(body)
    }

    /// Runs `action` once what was written is committed: now outside a unit of work, after the
    /// unit's commit inside one (never when it rolls back).
    func afterCommit(_ action: @escaping @Sendable () -> Void) {
        if let unit { unit.afterCommit.append(action) } else { action() }
    }

    /// Whether the operations run inside a unit of work.
    var inUnit: Bool { unit != nil }
}

/// The SQLite store's operations, written once for the store and for a unit of work in it.
public protocol SQLiteStoring: StoreWriting {
    var pool: SQLiteAccess { get }
}

/// A unit of work in the SQLite store: the store's operations on one connection, inside the
/// transaction GRDB holds for the unit. It must not escape the unit's body.
public final class SQLiteUnit: SQLiteStoring {
    let db: Database
    let store: TrackStore
    /// What runs once the unit has committed.
    fileprivate(set) var afterCommit: [@Sendable () -> Void] = []

    init(_ db: Database, store: TrackStore) {
        self.db = db
        self.store = store
    }

    public var pool: SQLiteAccess { SQLiteAccess(store: store, unit: self) }
    public var path: String { store.path }
    public var mediaDirectory: String { store.mediaDirectory }
}

extension TrackStore: SQLiteStoring {
    public var pool: SQLiteAccess { SQLiteAccess(store: self, unit: nil) }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriting) throws -> T) async throws -> T {
        let (value, after) = try await databasePool.write { db in
            let unit = SQLiteUnit(db, store: self)
            return (try body(unit), unit.afterCommit)
        }
        for action in after { action() }
        return value
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReading) throws -> T) async throws -> T {
        try await databasePool.read { db in try body(SQLiteUnit(db, store: self)) }
    }

    public func readNow<T>(_ body: (any StoreReading) throws -> T) throws -> T {
        try databasePool.read { db in try body(SQLiteUnit(db, store: self)) }
    }

    // Read units: a snapshot costs SQLite nothing more.
    public func readPhoneDevice(tokenHash: String) async throws -> (account: String, device: DeviceID, name: String)? {
        try await read { try $0.device(tokenHash: tokenHash) }
    }

    public func readLiveViews(of devices: [OwnedDevice], viewers: Set<String>, limit: Int) async throws -> [LiveView] {
        try await read { unit in
            try devices.map { try unit.liveView(owner: $0.owner, device: $0.device, viewers: viewers, limit: limit) }
        }
    }

    public func writeNow<T>(_ body: (any StoreWriting) throws -> T) throws -> T {
        var after: [@Sendable () -> Void] = []
        let value = try databasePool.write { db in
            let unit = SQLiteUnit(db, store: self)
            defer { after = unit.afterCommit }
            return try body(unit)
        }
        for action in after { action() }
        return value
    }
}
