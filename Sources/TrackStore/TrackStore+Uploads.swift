import Foundation
import GPSCore
internal import GRDB

extension SQLiteStoring {
    public func uploadCursor(device: DeviceID, server: String) throws -> Int64? {
        try pool.read { db in
            try UploadCursorRow.fetchOne(db, key: ["device_id": device.rawValue, "server": server])?.sentMs
        }
    }

    public func setUploadCursor(device: DeviceID, server: String, milliseconds: Int64) throws {
        try pool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO upload_cursor (device_id, server, sent_ms) VALUES (?, ?, ?)
                    ON CONFLICT (device_id, server) DO UPDATE SET sent_ms = max(sent_ms, excluded.sent_ms)
                    """,
                arguments: [device.rawValue, server, milliseconds])
        }
    }

    public func points(device: DeviceID, after milliseconds: Int64?, limit: Int) throws -> [Fix] {
        try pool.read { db in
            try Row.fetchAll(
                db, sql: "SELECT \(PointKey.columns) FROM point WHERE key >= ? AND key < ? ORDER BY key LIMIT ?",
                arguments: Self.keyRange(device.rawValue, from: (milliseconds ?? PointKey.earliest - 1) + 1, to: .max)
                    + [limit]
            ).map(Fix.init(storedRow:))
        }
    }

    public func pointCount(device: DeviceID, after milliseconds: Int64?) throws -> Int {
        try pool.read { db in
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM point WHERE key >= ? AND key < ?",
                arguments: Self.keyRange(device.rawValue, from: (milliseconds ?? PointKey.earliest - 1) + 1, to: .max)
            ) ?? 0
        }
    }
}
