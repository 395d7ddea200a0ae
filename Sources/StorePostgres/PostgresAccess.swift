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
    public func writeNow<T>(_ body: (any StoreWriting) throws -> T) throws -> T { try writeUnit(body) }

    /// ``writeNow(_:)`` with the unit as what it is, for the store's own upkeep.
    func writeUnit<T>(_ body: (PostgresUnit) throws -> T) throws -> T {
        let (value, after) = try mapped { try connections.withConnection { try unit(writingOn: $0, body) } }
        for action in after { action() }
        return value
    }

    /// Runs `body` on one snapshot (a repeatable-read, read-only transaction).
    public func readNow<T>(_ body: (any StoreReading) throws -> T) throws -> T { try readUnit(body) }

    /// ``readNow(_:)`` with the unit as what it is, for the store's own upkeep.
    func readUnit<T>(_ body: (PostgresUnit) throws -> T) throws -> T {
        try mapped { try connections.withConnection { try unit(readingOn: $0, body) } }
    }

    // A unit takes one of the offload helper's threads, then waits there for its connection and
    // on its replies: a unit never holds a connection while it waits for a thread (with both
    // bounded at 16, that wait could be a cycle: connections held by units waiting for threads
    // held by units waiting for connections).
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriting) throws -> T) async throws -> T {
        try await Blocking.run { try self.writeNow(body) }
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReading) throws -> T) async throws -> T {
        try await Blocking.run { try self.readNow(body) }
    }

    // One prepared statement each, run from the caller's task on a leased connection. A token's
    // device is read once, then kept (``PhoneDeviceCache``: a batch for it checks it again).
    public func readPhoneDevice(tokenHash: String) async throws -> (account: String, device: DeviceID, name: String)? {
        if let known = phoneDevices.entry(tokenHash: tokenHash) { return known }
        let found = try await mappedAsync {
            try await connections.rows(prepared: Prepared.DeviceByToken.self, Self.deviceQuery(tokenHash: tokenHash))
                .first.map(Self.phoneDevice)
        }
        if let found { phoneDevices.keep(found, tokenHash: tokenHash) }
        return found
    }

    public func readLiveViews(of devices: [OwnedDevice], viewers: Set<String>, limit: Int) async throws -> [LiveView] {
        guard !devices.isEmpty else { return [] }
        return try await mappedAsync {
            try Self.liveViews(
                await connections.rows(
                    prepared: Prepared.LiveView.self,
                    Self.liveViewQuery(devices, viewers: viewers, limit: limit)),
                count: devices.count)
        }
    }

    /// `body` as a write unit on `session`, with what is to run once it has committed.
    private func unit<T>(writingOn session: Session, _ body: (PostgresUnit) throws -> T) throws
        -> (T, [@Sendable () -> Void])
    {
        let unit = PostgresUnit(session, store: self, writes: true)
        return (try unit.run { try body(unit) }, unit.afterCommit)
    }

    /// `body` as a read unit on `session`: one snapshot, nothing written.
    private func unit<T>(readingOn session: Session, _ body: (PostgresUnit) throws -> T) throws -> T {
        let unit = PostgresUnit(session, store: self, writes: false)
        return try unit.run { try body(unit) }
    }

    private func mappedAsync<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw PostgresStoreError.from(error, location: location) }
    }
}
