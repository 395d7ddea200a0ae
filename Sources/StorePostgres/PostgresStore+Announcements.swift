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
        let listener = Listener(connections: connections, instance: instance, continuation: continuation)
        continuation.onTermination = { _ in listener.stop() }
        listener.start()
        return stream
    }
}

/// One LISTEN connection and its reconnection, all on the store's event loop (nothing blocks).
final class Listener: Sendable {
    let connections: Connections
    let instance: String
    let continuation: AsyncStream<StoreAnnouncement>.Continuation
    let eventLoop: any EventLoop
    private struct State {
        var connection: PostgresConnection?
        var stopped = false
    }
    /// Touched on `eventLoop` only (NIO checks that).
    private let state: NIOLoopBoundBox<State>

    init(connections: Connections, instance: String, continuation: AsyncStream<StoreAnnouncement>.Continuation) {
        self.connections = connections
        self.instance = instance
        self.continuation = continuation
        eventLoop = connections.direct.loop
        state = .makeBoxSendingValue(State(), eventLoop: eventLoop)
    }

    func start() { eventLoop.execute { self.connect() } }

    func stop() {
        eventLoop.execute {
            self.state.value.stopped = true
            if let connection = self.state.value.connection {
                let _: EventLoopFuture<Void> = connection.close()
            }
            self.state.value.connection = nil
        }
    }

    private func connect() {
        guard !state.value.stopped else { return }
        PostgresConnection.connect(
            on: eventLoop, configuration: connections.direct.configuration, id: Int.random(in: 1_000_000...9_999_999),
            logger: connections.direct.logger
        ).flatMap { connection -> EventLoopFuture<PostgresConnection> in
            connection.addListener(channel: PostgresStore.channel) { [weak self] _, notification in
                self?.heard(notification.payload)
            }
            return connection.query("LISTEN \(unescaped: PostgresStore.channel)", logger: self.connections.direct.logger).map {
                _ in connection
            }
        }.whenComplete { result in
            switch result {
            case .success(let connection):
                guard !self.state.value.stopped else {
                    let _: EventLoopFuture<Void> = connection.close()
                    return
                }
                self.state.value.connection = connection
                connection.closeFuture.whenComplete { _ in
                    self.state.value.connection = nil
                    self.retry()
                }
            case .failure: self.retry()
            }
        }
    }

    private func retry() {
        guard !state.value.stopped else { return }
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
