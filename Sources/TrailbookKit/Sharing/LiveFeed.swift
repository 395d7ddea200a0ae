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
    /// Hears why a read for ``announced(owner:device:)`` failed.
    private let failed: @Sendable (any Error) -> Void
    private var subscribers: [UUID: (viewer: String, continuation: AsyncStream<Event>.Continuation)] = [:]
    private var ticker: Task<Void, Never>?
    private var closed = false
    /// The devices announced since the last read began, in the order they came, and whether
    /// a read is running (``announced(owner:device:)``).
    private var pending: [OwnedDevice] = []
    private var pendingSet: Set<OwnedDevice> = []
    private var reading = false
    /// The most devices one read covers.
    static let readLimit = 256

    public init(
        store: any TrackStoring, movingWithin: Double = 120, failed: @escaping @Sendable (any Error) -> Void = { _ in }
    ) {
        sharing = SharingService(store: store)
        self.movingWithin = movingWithin
        self.failed = failed
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
    /// with the `live` scope gets the device's newest position. One read runs at a time, for
    /// every device announced since the one before began: a phone's request does not wait for
    /// it, a device announced during a read is read once more after it (its newest position),
    /// and when phones post faster than one read per point, a read covers many of them (one
    /// statement on PostgreSQL). Announcements from this process's phones and, through the
    /// database, from other processes' come here alike.
    public func announced(owner: String, device: String) {
        guard !subscribers.isEmpty else { return }
        let key = OwnedDevice(owner: owner, device: device)
        if pendingSet.insert(key).inserted { pending.append(key) }
        guard !reading else { return }
        reading = true
        Task {
            while let devices = await nextRead() {
                do {
                    try await published(devices)
                } catch {
                    failed(error)
                }
            }
        }
    }

    /// The devices of the next read (at most ``readLimit``), or nil when none is waiting (and
    /// then the reading is over).
    private func nextRead() -> [OwnedDevice]? {
        guard !pending.isEmpty else {
            reading = false
            return nil
        }
        let devices = Array(pending.prefix(Self.readLimit))
        pending.removeFirst(devices.count)
        pendingSet.subtract(devices)
        return devices
    }

    /// Reads `owner`'s `device` for the viewers now and delivers what they may see (awaited:
    /// ``announced(owner:device:)`` does this for the server's phones).
    public nonisolated func published(owner: String, device: String, now: Int64 = UTCTimestamp.now()) async throws {
        try await published([OwnedDevice(owner: owner, device: device)], now: now)
    }

    /// ``published(owner:device:now:)`` for several devices, in one read.
    nonisolated func published(_ devices: [OwnedDevice], now: Int64 = UTCTimestamp.now()) async throws {
        let viewers = await self.viewers()
        guard !viewers.isEmpty else { return }
        await deliver(try await positions(devices, viewers: viewers, now: now))
    }

    /// Who is watching now.
    public func viewers() -> Set<String> { Set(subscribers.values.map(\.viewer)) }

    /// What each of `viewers` may see of each of `devices` now: the grants and the newest points
    /// read together (one statement on PostgreSQL).
    public nonisolated func positions(
        _ devices: [OwnedDevice], viewers: Set<String>, now: Int64 = UTCTimestamp.now()
    ) async throws -> [(friend: SharingService.Friend, viewer: String)] {
        let views = try await sharing.store.readLiveViews(
            of: devices, viewers: viewers, limit: SharingService.recentFixes)
        return views.flatMap { view -> [(friend: SharingService.Friend, viewer: String)] in
            guard let recent = view.recent else { return [] }
            return view.grants.filter { $0.scopes.contains("live") && $0.isActive(at: now) }.map {
                (SharingService.friend(recent, as: $0, now: now, movingWithin: movingWithin), $0.viewer)
            }
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
