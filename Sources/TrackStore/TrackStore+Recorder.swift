import Foundation
import GPSCore
internal import GRDB

extension TrackStore {
    /// The pause switch of the local user: nil when collection is not paused, 0 when paused until
    /// resumed, else the time (ms since 1970, UTC) it is paused until.
    public func pausedUntil() throws -> Int64? {
        try pool.read { db in
            try Int64.fetchOne(
                db,
                sql: """
                    SELECT p.paused_until_ms FROM pause_switch p JOIN user u ON u.id = p.user_id WHERE u.name = ?
                    """,
                arguments: [Self.localUser])
        }
    }

    /// Sets the pause switch (`until`: 0 for until resumed), or clears it with nil.
    public func setPausedUntil(_ until: Int64?) throws {
        try pool.write { db in
            let user = try Self.localUserID(db)
            if let until {
                try db.execute(
                    sql: """
                        INSERT INTO pause_switch (user_id, paused_until_ms) VALUES (?, ?)
                        ON CONFLICT (user_id) DO UPDATE SET paused_until_ms = excluded.paused_until_ms
                        """,
                    arguments: [user, until])
            } else {
                try db.execute(sql: "DELETE FROM pause_switch WHERE user_id = ?", arguments: [user])
            }
        }
    }

    /// Writes the status of the recorder of `device` (replacing the one before).
    public func writeRecorderStatus(_ s: RecorderStatus, device: DeviceID) throws {
        try pool.write { db in
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO recorder
                        (device_id, pid, source, started_ms, heartbeat_ms, last_fix_ms, last_fix_seen_ms, paused)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    device.rawValue, s.pid, s.source, s.startedMilliseconds, s.heartbeatMilliseconds,
                    s.lastFixMilliseconds, s.lastFixSeenMilliseconds, s.paused,
                ])
        }
    }

    /// Removes the status of the recorder of `device` (it stopped).
    public func removeRecorderStatus(device: DeviceID) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM recorder WHERE device_id = ?", arguments: [device.rawValue])
        }
    }

    /// The statuses recorders left, newest heartbeat first.
    public func recorderStatuses() throws -> [RecorderStatus] {
        try pool.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT r.*, d.name AS device FROM recorder r JOIN device d ON d.id = r.device_id
                    ORDER BY r.heartbeat_ms DESC
                    """
            ).map { row in
                var s = RecorderStatus(
                    pid: row["pid"], source: row["source"], startedMilliseconds: row["started_ms"],
                    heartbeatMilliseconds: row["heartbeat_ms"], paused: row["paused"])
                s.lastFixMilliseconds = row["last_fix_ms"]
                s.lastFixSeenMilliseconds = row["last_fix_seen_ms"]
                s.device = row["device"]
                return s
            }
        }
    }
}
