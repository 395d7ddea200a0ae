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
        return try store.session(body)
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
public protocol PostgresStoring: StoreWriting {
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

    public func writeNow<T>(_ body: (any StoreWriting) throws -> T) throws -> T {
        let (value, after) = try mapped { try connections.withConnection { try unit(writingOn: $0, body) } }
        for action in after { action() }
        return value
    }

    /// Runs `body` on one snapshot (a repeatable-read, read-only transaction).
    public func readNow<T>(_ body: (any StoreReading) throws -> T) throws -> T {
        try mapped { try connections.withConnection { try unit(readingOn: $0, body) } }
    }

    // The units wait for their connection without holding a thread, then wait on their
    // connection's replies on the store's thread pool, never on the cooperative threads.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreWriting) throws -> T) async throws -> T {
        let (value, after) = try await mappedAsync { try await connections.run { try self.unit(writingOn: $0, body) } }
        for action in after { action() }
        return value
    }

    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreReading) throws -> T) async throws -> T {
        try await mappedAsync { try await connections.run { try self.unit(readingOn: $0, body) } }
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
    private func unit<T>(writingOn session: Session, _ body: (any StoreWriting) throws -> T) throws
        -> (T, [@Sendable () -> Void])
    {
        try writing(on: session) { session in
            let unit = PostgresUnit(session, store: self)
            return (try body(unit), unit.afterCommit)
        }
    }

    /// `body` as a read unit on `session`: one snapshot, nothing written.
    private func unit<T>(readingOn session: Session, _ body: (any StoreReading) throws -> T) throws -> T {
        try session.transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { session in
            try body(PostgresUnit(session, store: self))
        }
    }

    private func mappedAsync<T>(_ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch { throw PostgresStoreError.from(error, location: location) }
    }
}
