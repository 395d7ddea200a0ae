import Foundation
import GPSCore
import TrackModel

/// Friends' new positions as they are stored, to the viewers who may see them at that moment.
/// A viewer subscribes (a live page, an event stream) and gets a stream of events; the grant is
/// checked for every position, so a paused or revoked grant stops the positions at once, and
/// ``close(viewer:)`` ends that viewer's streams (they reconnect and see what they may).
public actor LiveFeed {
    /// What a viewer's stream carries.
    public enum Event: Sendable {
        case position(SharingService.Friend)
        /// Every ``heartbeatSeconds``: lets a server find out that a client has gone.
        case heartbeat
    }

    public static let heartbeatSeconds: Double = 15

    private let sharing: SharingService
    /// Motion only from fixes this recent, seconds (`events.moving_within`).
    private let movingWithin: Double
    private var subscribers: [UUID: (viewer: String, continuation: AsyncStream<Event>.Continuation)] = [:]
    private var ticker: Task<Void, Never>?
    private var closed = false
    /// The devices whose newest position is being read for ``relayed(owner:device:failed:)``, and
    /// whether another announcement came meanwhile.
    private var relaying: [DeviceKey: Bool] = [:]

    private struct DeviceKey: Hashable {
        var owner: String
        var device: String
    }

    public init(store: any TrackStoring, movingWithin: Double = 120) {
        sharing = SharingService(store: store)
        self.movingWithin = movingWithin
    }

    /// A new stream for `viewer`; it ends when ``close(viewer:)`` or ``closeAll()`` is called,
    /// or when the consumer stops listening.
    public func subscribe(viewer: String) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(256))
        if closed {
            continuation.finish()
            return stream
        }
        let id = UUID()
        subscribers[id] = (viewer, continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.remove(id) }
        }
        if ticker == nil {
            ticker = Task { [weak self] in
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(Self.heartbeatSeconds))
                    await self?.beat()
                }
            }
        }
        return stream
    }

    /// How many streams are open (for tests and the log).
    public var count: Int { subscribers.count }

    private func remove(_ id: UUID) { subscribers[id] = nil }

    private func beat() {
        for s in subscribers.values { s.continuation.yield(.heartbeat) }
    }

    /// `owner`'s `device` stored new points: each subscribed viewer whose grant is in force
    /// with the `live` scope gets the device's newest position. The store is read outside the
    /// feed's isolation (``positions(owner:device:viewers:now:)``), so that one device's reads do
    /// not hold up another's.
    public nonisolated func published(owner: String, device: String, now: Int64 = UTCTimestamp.now()) async throws {
        let viewers = await self.viewers()
        guard !viewers.isEmpty else { return }
        await deliver(try await positions(owner: owner, device: device, viewers: viewers, now: now))
    }

    /// ``published(owner:device:now:)`` for announcements that may come faster than they are read
    /// (another server process's phones): one read at a time per device, and announcements that
    /// come during it make one more read, of the newest position, after it. `failed` hears why a
    /// read failed.
    public func relayed(owner: String, device: String, failed: @escaping @Sendable (any Error) -> Void) {
        let key = DeviceKey(owner: owner, device: device)
        if relaying[key] != nil {
            relaying[key] = true
            return
        }
        relaying[key] = false
        Task {
            repeat {
                do {
                    try await published(owner: owner, device: device)
                } catch {
                    failed(error)
                }
            } while again(key)
        }
    }

    /// Whether `key`'s device was announced again during its read (else its reading is over).
    private func again(_ key: DeviceKey) -> Bool {
        if relaying[key] == true {
            relaying[key] = false
            return true
        }
        relaying[key] = nil
        return false
    }

    /// Who is watching now.
    public func viewers() -> Set<String> { Set(subscribers.values.map(\.viewer)) }

    /// What each of `viewers` may see of `owner`'s `device` now: the grants and the newest points
    /// read together (one statement on PostgreSQL, for every point a phone sends).
    public nonisolated func positions(
        owner: String, device: String, viewers: Set<String>, now: Int64 = UTCTimestamp.now()
    ) async throws -> [(friend: SharingService.Friend, viewer: String)] {
        let view = try await sharing.store.readLiveView(
            owner: owner, device: device, viewers: viewers, limit: SharingService.recentFixes)
        let grants = view.grants.filter { $0.scopes.contains("live") && $0.isActive(at: now) }
        guard !grants.isEmpty, let recent = view.recent else { return [] }
        return grants.map {
            (SharingService.friend(recent, as: $0, now: now, movingWithin: movingWithin), $0.viewer)
        }
    }

    /// Hands positions to the viewers' streams.
    public func deliver(_ positions: [(friend: SharingService.Friend, viewer: String)]) {
        for (friend, viewer) in positions {
            for s in subscribers.values where s.viewer == viewer { s.continuation.yield(.position(friend)) }
        }
    }

    /// Ends `viewer`'s streams (after a revocation or a pause).
    public func close(viewer: String) {
        for (id, s) in subscribers where s.viewer == viewer {
            s.continuation.finish()
            subscribers[id] = nil
        }
    }

    /// Ends every stream and refuses new ones (the server is stopping).
    public func closeAll() {
        closed = true
        for s in subscribers.values { s.continuation.finish() }
        subscribers = [:]
        ticker?.cancel()
        ticker = nil
    }
}
