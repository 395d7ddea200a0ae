import Foundation
import GPSCore
import TrackModel

/// The pause switch, kept in the store (so it also holds for a recorder started later).
public enum PauseSwitch {
    /// Whether collection is paused at `now`, and until when (nil: until resumed).
    public static func pause(in store: any StoreReading, now: Int64) throws -> (paused: Bool, until: Int64?) {
        guard let until = try store.pausedUntil() else { return (false, nil) }
        if until == 0 { return (true, nil) }
        return (now < until, until)
    }
}

/// Pausing, resuming and the state of running recorders, as the diary commands and the server
/// show them.
public struct RecorderControl: Sendable {
    public let store: any TrackStoring

    public init(store: any TrackStoring) { self.store = store }

    /// Pauses collection until `until` (ms since 1970 UTC), or until resumed when nil.
    public func pause(until: Int64?) async throws { try await store.write { try $0.setPausedUntil(until ?? 0) } }

    /// Resumes collection; returns whether it was paused.
    public func resume(now: Int64 = UTCTimestamp.now()) async throws -> Bool {
        try await store.write { tx in
            let was = try PauseSwitch.pause(in: tx, now: now).paused
            try tx.setPausedUntil(nil)
            return was
        }
    }

    /// The recorders, the pause and the last stored point.
    public struct Overview: Sendable {
        /// Recorders with a heartbeat in the last 5 s from a process that still exists, freshest
        /// first.
        public var running: [RecorderStatus]
        public var paused: Bool
        /// Until when (nil: until resumed, or not paused).
        public var pausedUntil: Int64?
        public var lastStoredPoint: Int64?
    }

    public func overview(now: Int64 = UTCTimestamp.now()) async throws -> Overview {
        let (pause, statuses, latest) = try await store.read { tx in
            (try PauseSwitch.pause(in: tx, now: now), try tx.recorderStatuses(), try tx.latestPoint(devices: .all))
        }
        let running = statuses.filter {
            now - $0.heartbeatMilliseconds < 5000 && (kill($0.pid, 0) == 0 || errno == EPERM)
        }
        return Overview(
            running: running, paused: pause.paused, pausedUntil: pause.paused ? pause.until : nil,
            lastStoredPoint: latest?.unixMilliseconds)
    }
}
