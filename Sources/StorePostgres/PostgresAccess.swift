import Foundation
import GPSCore
import NIOPosix
import PostgresNIO

/// How the PostgreSQL store's operations reach the database: inside a unit of work, on the unit's
/// connection and in its transaction.
public struct PostgresAccess {
    let unit: PostgresUnit
    var store: PostgresStore { unit.store }

    func read<T>(_ body: (Session) throws -> T) throws -> T { try body(unit.session()) }

    func write<T>(_ body: (Session) throws -> T) throws -> T { try body(unit.session()) }

    /// Runs `action` once the unit has committed (never when it rolls back).
    func afterCommit(_ action: @escaping @Sendable () -> Void) { unit.afterCommit.append(action) }
}

/// The PostgreSQL store's operations: what a unit of work does.
public protocol PostgresStoring: StoreWriting {
    var access: PostgresAccess { get }
}

extension PostgresStoring {
    /// Runs `body` on the unit's connection.
    func read<T>(_ body: (Session) throws -> T) throws -> T { try access.read(body) }

    /// Runs `body` in the unit's transaction.
    @discardableResult
    func write<T>(_ body: (Session) throws -> T) throws -> T { try access.write(body) }

    public var path: String { access.store.path }
    public var mediaDirectory: String { access.store.mediaDirectory }
    var instance: String { access.store.instance }
}

/// A unit of work in the PostgreSQL store: the store's operations on one connection, inside one
/// transaction, begun by the unit's first statement (a unit that sends none costs no round trip).
/// It must not escape the unit's body.
public final class PostgresUnit: PostgresStoring {
    private let connection: Session
    let store: PostgresStore
    /// What begins the unit's transaction.
    private let begin: PostgresQuery
    private let writes: Bool
    private var state = State.fresh
    /// What runs once the unit has committed.
    fileprivate(set) var afterCommit: [@Sendable () -> Void] = []

    private enum State {
        /// Nothing sent yet.
        case fresh
        /// The transaction is begun.
        case open
        /// Its one statement ran as a transaction of its own (``alone(_:)``): nothing may follow.
        case sealed
    }

    init(_ connection: Session, store: PostgresStore, writes: Bool) {
        self.connection = connection
        self.store = store
        self.writes = writes
        begin = writes ? "BEGIN" : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
    }

    /// The unit's connection, its transaction begun.
    func session() throws -> Session {
        switch state {
        case .open: return connection
        case .sealed:
            preconditionFailure("a unit of work ran a statement after the one it ran alone")
        case .fresh:
            try connection.execute(begin)
            state = .open
            // Connections wait 10 s for locks (set when they connect); a recorder asks for less.
            if writes, !store.waitsAsConnected {
                try connection.execute(
                    PostgresQuery(unsafeSQL: "SET LOCAL lock_timeout = \(store.writeWait.load(ordering: .relaxed))"))
            }
            return connection
        }
    }

    /// Runs `statement` as the unit's one statement, a transaction of its own, when the unit has
    /// sent nothing yet and waits for locks as connections do: one round trip where BEGIN,
    /// the statement and COMMIT are three. When it wrote (true), the unit is done: nothing may
    /// be sent after it. Nil: the unit had begun, and `statement` did not run.
    func alone(_ statement: (Session) throws -> Bool) throws -> Bool? {
        guard writes, state == .fresh, store.waitsAsConnected else { return nil }
        let wrote = try statement(connection)
        if wrote { state = .sealed }
        return wrote
    }

    /// Runs `body` as the unit: committed when it returns (when it began), rolled back when it
    /// throws.
    func run<T>(_ body: () throws -> T) throws -> T {
        do {
            let value = try body()
            if state == .open { try connection.execute("COMMIT") }
            return value
        } catch {
            // Not on a connection that is gone: PostgresNIO may never answer a query sent on a
            // closed connection (the server rolls back what it had, anyway).
            if state == .open, !connection.connection.isClosed, !Connections.isConnectionFailure(error) {
                _ = try? connection.execute("ROLLBACK")
            }
            throw error
        }
    }

    public var access: PostgresAccess { PostgresAccess(unit: self) }
    public func limitWriteWait(to seconds: TimeInterval) throws { try store.limitWriteWait(to: seconds) }
    public func isBusy(_ error: any Error) -> Bool { store.isBusy(error) }
    public func isUnavailable(_ error: any Error) -> Bool { store.isUnavailable(error) }
}

extension PostgresStore {
    /// ``write(_:)`` on the calling thread: for the import held until its file is read
    /// (``beginImport(device:file:replacing:)``, on the decoder's thread) and the tests.
    func writeNow<T>(_ body: (any StoreWriting) throws -> T) throws -> T { try writeUnit(body) }

    /// ``read(_:)`` on the calling thread, on one snapshot (a repeatable-read, read-only
    /// transaction), for the tests (`@testable import`).
    func readNow<T>(_ body: (any StoreReading) throws -> T) throws -> T { try readUnit(body) }

    /// ``writeNow(_:)`` with the unit as what it is, for the store's own upkeep.
    func writeUnit<T>(_ body: (PostgresUnit) throws -> T) throws -> T { try unitNow(writes: true, body) }

    /// ``readNow(_:)`` with the unit as what it is, for the store's own upkeep.
    func readUnit<T>(_ body: (PostgresUnit) throws -> T) throws -> T { try unitNow(writes: false, body) }

    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriting) throws -> T) async throws -> T {
        try await unit(writes: true) { try body($0) }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReading) throws -> T) async throws -> T {
        try await unit(writes: false) { try body($0) }
    }

    /// A unit of a synchronous caller: its body runs on the thread of the unit's task while the
    /// caller waits (`Blocking.wait`), so the body and its value are handed across as they are.
    private func unitNow<T>(writes: Bool, _ body: (PostgresUnit) throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            let lent = Handed(body)
            // The unit's task has ended when the wait does; the body goes no further.
            defer { lent.value = nil }
            return try Blocking.wait { try await self.unit(writes: writes) { Handed(try lent.value!($0)) } }.value!
        }
    }

    /// `body` as a unit of work on a connection of the pool (a write unit's transaction, or a
    /// read unit's snapshot), then what is to run once it has committed.
    private func unit<T: Sendable>(writes: Bool, _ body: @escaping @Sendable (PostgresUnit) throws -> T)
        async throws -> T
    {
        let logger = connections.direct.logger
        let (value, after) = try await mapped {
            try await connections.withConnection { connection in
                let session = Session(connection: connection, logger: logger, prepares: true)
                let unit = PostgresUnit(session, store: self, writes: writes)
                return (try unit.run { try body(unit) }, unit.afterCommit)
            }
        }
        for action in after { action() }
        return value
    }

    // One prepared statement each, run from the caller's task on a connection of the pool. A
    // token's device is read once, then kept (``PhoneDeviceCache``: a batch for it checks it again).
    public func readPhoneDevice(tokenHash: String) async throws -> (account: String, device: DeviceID, name: String)? {
        if let known = phoneDevices.entry(tokenHash: tokenHash) { return known }
        let found = try await rows(prepared: Prepared.DeviceByToken.self, Self.deviceQuery(tokenHash: tokenHash))
            .first.map(Self.phoneDevice)
        if let found { phoneDevices.keep(found, tokenHash: tokenHash) }
        return found
    }

    public func readLiveViews(of devices: [OwnedDevice], viewers: Set<String>, limit: Int) async throws -> [LiveView] {
        guard !devices.isEmpty else { return [] }
        let query = Self.liveViewQuery(devices, viewers: viewers, limit: limit)
        return try Self.liveViews(try await rows(prepared: Prepared.LiveView.self, query), count: devices.count)
    }

    /// The rows of `query`, run as `key`'s prepared statement on a connection of the pool, from
    /// the caller's task: a read of one statement needs neither a transaction nor a thread.
    private func rows<Key: PreparedKey>(prepared key: Key.Type, _ query: PostgresQuery) async throws
        -> [PostgresRandomAccessRow]
    {
        let registered = Prepared.register(key, query.sql)
        assert(registered, "the text of \(key)'s statement changed: bind its values")
        let logger = connections.direct.logger
        return try await mapped {
            try await connections.withConnection { connection in
                let rows: EventLoopFuture<[PostgresRow]>
                if registered {
                    let promise = connection.eventLoop.makePromise(of: [PostgresRow].self)
                    promise.completeWithTask { try await Session.rows(of: key, query, on: connection, logger: logger) }
                    rows = promise.futureResult
                } else {
                    rows = connection.query(query, logger: logger).map(\.rows)
                }
                return try await Connections.watched(rows, on: connection).get().map { $0.makeRandomAccess() }
            }
        }
    }

    private func mapped<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw PostgresStoreError.from(error, location: location) }
    }
}

/// A value handed between a thread that waits and the one that works for it (``PostgresStore/unitNow(writes:_:)``):
/// the waiting one touches it neither while the other does nor before the other is done with it.
private final class Handed<Value>: @unchecked Sendable {
    var value: Value?
    init(_ value: Value) { self.value = value }
}
