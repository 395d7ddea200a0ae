import Foundation
internal import GRDB

/// How the SQLite store's operations reach the database: inside a unit of work, on the unit's
/// connection and in its transaction (GRDB's writer queue or a reader's runs the unit; nothing
/// in it opens a transaction again).
public struct SQLiteAccess {
    let unit: SQLiteUnit
    var store: TrackStore { unit.store }

    func read<T>(_ body: (Database) throws -> T) throws -> T { try body(unit.db) }

    func write<T>(_ body: (Database) throws -> T) throws -> T { try body(unit.db) }

    func writeWithoutTransaction<T>(_ body: (Database) throws -> T) throws -> T { try body(unit.db) }

    /// Runs `action` once the unit has committed (never when it rolls back).
    func afterCommit(_ action: @escaping @Sendable () -> Void) { unit.afterCommit.append(action) }
}

/// The SQLite store's operations: what a unit of work does.
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

    public var pool: SQLiteAccess { SQLiteAccess(unit: self) }
    public var path: String { store.path }
    public var mediaDirectory: String { store.mediaDirectory }
}

extension TrackStore {

    /// Runs `body` as a unit of work in a savepoint of the next group's transaction
    /// (``WriteGroups``), and returns once that has committed.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriting) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (answer: CheckedContinuation<T, any Error>) in
            let job = WriteGroups.Job(
                run: { db in
                    let unit = SQLiteUnit(db, store: self)
                    let result: Result<T, any Error>
                    do {
                        // SQLite may have rolled the group's transaction back under an earlier
                        // unit (a full disk): a savepoint now would begin a transaction of its own.
                        guard db.isInsideTransaction else { throw WriteGroups.RolledBack() }
                        var value: T?
                        try db.inSavepoint {
                            value = try body(unit)
                            return .commit
                        }
                        result = .success(value!)
                    } catch {
                        result = .failure(error)
                    }
                    let after = unit.afterCommit
                    return {
                        if case .success = result { for action in after { action() } }
                        answer.resume(with: result)
                    }
                },
                fail: { answer.resume(throwing: $0) })
            if writeGroups.add(job) {
                let pool = databasePool
                Task { await self.writeGroups.drain(pool) }
            }
        }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReading) throws -> T) async throws -> T {
        try await databasePool.read { db in try body(SQLiteUnit(db, store: self)) }
    }

    /// ``read(_:)`` on the calling thread, for the tests (`@testable import`): nothing in the
    /// program reaches the store but through `read` and `write`.
    func readNow<T>(_ body: (any StoreReading) throws -> T) throws -> T {
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

    /// ``write(_:)`` on the calling thread, for the tests (`@testable import`).
    func writeNow<T>(_ body: (any StoreWriting) throws -> T) throws -> T {
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

extension Database {
    /// Runs `sql` as a statement compiled once per connection (GRDB's statement cache): for the
    /// statements of a phone's every batch, whose compiling cost more than running them.
    func run(sql: String, arguments: StatementArguments) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
