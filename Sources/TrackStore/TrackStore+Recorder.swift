import Foundation
import GPSCore
internal import GRDB

extension SQLiteStoring {
    /// The pause switch of the local user: nil when collection is not paused, 0 when paused until
    /// resumed, else the time (ms since 1970, UTC) it is paused until.
    public func pausedUntil() throws -> Int64? {
        try pool.read { db in
            guard let user = try UserRow.filter(Column("name") == TrackStore.localUser).fetchOne(db)?.id else {
                return nil
            }
            return try PauseSwitchRow.fetchOne(db, key: user)?.pausedUntilMs
        }
    }

    /// Sets the pause switch (`until`: 0 for until resumed), or clears it with nil.
    public func setPausedUntil(_ until: Int64?) throws {
        try pool.write { db in
            let user = try SQLiteUnit.localUserID(db)
            if let until {
                try PauseSwitchRow(userId: user, pausedUntilMs: until).insert(db, onConflict: .replace)
            } else {
                try PauseSwitchRow.deleteOne(db, key: user)
            }
        }
    }

    /// Writes the status of the recorder of `device` (replacing the one before).
    public func writeRecorderStatus(_ s: RecorderStatus, device: DeviceID) throws {
        try pool.write { db in
            try RecorderRow(s, device: device).insert(db, onConflict: .replace)
        }
    }

    /// Removes the status of the recorder of `device` (it stopped).
    public func removeRecorderStatus(device: DeviceID) throws {
        try pool.write { db in
            _ = try RecorderRow.deleteOne(db, key: device.rawValue)
        }
    }

    /// The statuses recorders left, newest heartbeat first.
    public func recorderStatuses() throws -> [RecorderStatus] {
        try pool.read { db in
            let names = try Self.deviceNames(db)
            return try RecorderRow.order(Column("heartbeat_ms").desc).fetchAll(db).map {
                $0.status(device: names[$0.deviceId])
            }
        }
    }
}
