import Foundation
import Logging
import NIOCore
import PostgresNIO
import TrackModel

extension PostgresStore: AnnouncingStore {
    /// What the other processes on this database commit, heard with LISTEN on a connection of
    /// its own. When the connection breaks (the database restarted), it connects and listens
    /// again every second until it can; what was announced meanwhile is not replayed.
    public func announcements() -> AsyncStream<StoreAnnouncement> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: StoreAnnouncement.self, bufferingPolicy: .bufferingNewest(4096))
        let listener = Listener(pool: pool, instance: instance, continuation: continuation)
        continuation.onTermination = { _ in listener.stop() }
        listener.start()
        return stream
    }
}

/// One LISTEN connection and its reconnection, all on the pool's event loop (nothing blocks).
final class Listener: @unchecked Sendable {
    let pool: ConnectionPool
    let instance: String
    let continuation: AsyncStream<StoreAnnouncement>.Continuation
    let eventLoop: any EventLoop
    /// Touched on `eventLoop` only.
    private var connection: PostgresConnection?
    private var stopped = false

    init(pool: ConnectionPool, instance: String, continuation: AsyncStream<StoreAnnouncement>.Continuation) {
        self.pool = pool
        self.instance = instance
        self.continuation = continuation
        eventLoop = pool.group.next()
    }

    func start() { eventLoop.execute { self.connect() } }

    func stop() {
        eventLoop.execute {
            self.stopped = true
            if let connection = self.connection {
                let _: EventLoopFuture<Void> = connection.close()
            }
            self.connection = nil
        }
    }

    private func connect() {
        guard !stopped else { return }
        PostgresConnection.connect(
            on: eventLoop, configuration: pool.configuration, id: Int.random(in: 1_000_000...9_999_999),
            logger: pool.logger
        ).flatMap { connection -> EventLoopFuture<PostgresConnection> in
            connection.addListener(channel: PostgresStore.channel) { [weak self] _, notification in
                self?.heard(notification.payload)
            }
            return connection.query("LISTEN \(unescaped: PostgresStore.channel)", logger: self.pool.logger).map {
                _ in connection
            }
        }.whenComplete { result in
            switch result {
            case .success(let connection):
                guard !self.stopped else {
                    let _: EventLoopFuture<Void> = connection.close()
                    return
                }
                self.connection = connection
                connection.closeFuture.whenComplete { _ in
                    self.connection = nil
                    self.retry()
                }
            case .failure: self.retry()
            }
        }
    }

    private func retry() {
        guard !stopped else { return }
        eventLoop.scheduleTask(in: .seconds(1)) { self.connect() }
    }

    private func heard(_ payload: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: String],
            object["from"] != instance
        else { return }
        switch object["kind"] {
        case "positions":
            if let account = object["account"], let device = object["device"] {
                continuation.yield(.positions(account: account, device: device))
            }
        case "grant":
            if let viewer = object["viewer"] { continuation.yield(.grant(viewer: viewer)) }
        default: break
        }
    }
}
