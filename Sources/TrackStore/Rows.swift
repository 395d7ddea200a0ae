import Foundation
import GPSCore
internal import GRDB

// GRDB record types: one per table, how its rows are read and written (columns in snake case).
// The one exception is the `point` row, bound by hand in TrackWriter: a boxed record per point
// cost more than SQLite's insert itself.

/// Columns in snake case (`created_ms`) for properties in camel case (`createdMs`).
protocol SnakeCaseRecord: Codable, FetchableRecord, PersistableRecord {}

extension SnakeCaseRecord {
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}

/// `user`: a person; a local store has one, `me`.
struct UserRow: SnakeCaseRecord {
    static let databaseTableName = "user"
    var id: Int64?
    var name: String
    var createdMs: Int64
    /// The password's versioned hash (nil: cannot log in, like the local `me`).
    var passwordHash: String? = nil
}

/// `device`: a receiver, gpsd, a phone, or imports under one name, of a user.
struct DeviceRow: SnakeCaseRecord {
    static let databaseTableName = "device"
    var id: Int64?
    var userId: Int64
    var name: String
    var createdMs: Int64
    /// SHA-256 of the device's token (nil: no token, a receiver or imports).
    var tokenHash: String? = nil
    var revokedMs: Int64? = nil
}

/// `ride`: a device's ride, its time range and point count.
struct RideRow: SnakeCaseRecord {
    static let databaseTableName = "ride"
    var id: Int64?
    var deviceId: Int64
    var startMs: Int64
    var endMs: Int64
    var pointCount: Int
}

/// `segment`: a stretch of a ride without a gap.
struct SegmentRow: SnakeCaseRecord {
    static let databaseTableName = "segment"
    var id: Int64?
    var rideId: Int64
    var deviceId: Int64
    var startMs: Int64
    var endMs: Int64
    var pointCount: Int
}

/// `drop_count`: fixes of a ride the rules dropped, by reason.
struct DropCountRow: SnakeCaseRecord {
    static let databaseTableName = "drop_count"
    var rideId: Int64
    var reason: String
    var count: Int
}

/// `import`: a file imported, known by the SHA-256 of its bytes.
struct ImportRow: SnakeCaseRecord {
    static let databaseTableName = "import"
    var id: Int64?
    var userId: Int64
    var sha256: String
    var name: String
    var bytes: Int
    var importedMs: Int64
    var points: Int
    var startMs: Int64?
    var endMs: Int64?

    var stored: StoredImport {
        StoredImport(
            id: id!, name: name, importedMilliseconds: importedMs, points: points, startMilliseconds: startMs,
            endMilliseconds: endMs)
    }
}

/// `record`: a place at a time with something attached (manual, or a stored point's).
struct RecordRow: SnakeCaseRecord {
    static let databaseTableName = "record"
    var id: Int64?
    var t: Int64
    var lat: Int64
    var lon: Int64
    var alt: Int64?
    var manual: Bool
    var createdMs: Int64
    /// The device of the point it is; nil for a manual record (the user's).
    var deviceId: Int64?
    /// The account whose diary it is in (set on every insert; nullable only as SQLite adds columns).
    var userId: Int64?

    /// Without its notes, photos and fields.
    var record: LocationRecord {
        LocationRecord(
            id: id, milliseconds: t, coordinate: Coordinate(latitude: Double(lat) / 1e7, longitude: Double(lon) / 1e7),
            altitude: alt.map { Double($0) / 100 }, manual: manual)
    }
}

/// `note`: text on a record.
struct NoteRow: SnakeCaseRecord {
    static let databaseTableName = "note"
    var id: Int64?
    var recordId: Int64
    var text: String
    var createdMs: Int64
    var updatedMs: Int64

    var note: Note {
        Note(id: id!, recordID: recordId, text: text, createdMilliseconds: createdMs, updatedMilliseconds: updatedMs)
    }
}

/// `photo`: a file in the media folder, one per content.
struct PhotoRow: SnakeCaseRecord {
    static let databaseTableName = "photo"
    var sha256: String
    var file: String
    var bytes: Int
    var takenMs: Int64?
    var name: String

    init(_ p: Photo) {
        (sha256, file, bytes, takenMs, name) = (p.sha256, p.file, p.bytes, p.takenMilliseconds, p.name)
    }

    var photo: Photo { Photo(sha256: sha256, file: file, bytes: bytes, takenMilliseconds: takenMs, name: name) }
}

/// `record_photo`: which photos a record shows.
struct RecordPhotoRow: SnakeCaseRecord {
    static let databaseTableName = "record_photo"
    var recordId: Int64
    var sha256: String
}

/// `field`: a key and a text or a number, on a record.
struct FieldRow: SnakeCaseRecord {
    static let databaseTableName = "field"
    var recordId: Int64
    var key: String
    var text: String?
    var number: Double?

    init(record: Int64, _ field: Field) {
        (recordId, key) = (record, field.key)
        (text, number) = field.value.columns
    }

    var field: Field { Field(key: key, value: FieldValue(text: text, number: number)) }
}

/// `record_condition`: one value of a record's conditions, with its source.
struct ConditionRow: SnakeCaseRecord {
    static let databaseTableName = "record_condition"
    var recordId: Int64
    var key: String
    var text: String?
    var number: Double?
    var source: String

    init(record: Int64, _ value: ConditionValue) {
        (recordId, key, source) = (record, value.key, value.source.rawValue)
        (text, number) = value.value.columns
    }

    var condition: ConditionValue {
        ConditionValue(
            key: key, value: FieldValue(text: text, number: number),
            source: ConditionValue.Source(rawValue: source) ?? .user)
    }
}

/// `weather_reading`: one reading of a weather station.
struct WeatherRow: SnakeCaseRecord {
    static let databaseTableName = "weather_reading"
    var userId: Int64
    var t: Int64
    var deviceId: Int64
    var temperatureC: Double?
    var pressureHpa: Double?
    var windSpeedMs: Double?
    var windDirDeg: Double?
    var cloudPct: Double?

    init(_ r: WeatherReading, user: Int64) {
        userId = user
        (t, deviceId, temperatureC, pressureHpa) = (r.milliseconds, r.device?.rawValue ?? 0, r.temperature, r.pressure)
        (windSpeedMs, windDirDeg, cloudPct) = (r.windSpeed, r.windDirection, r.cloud)
    }

    var reading: WeatherReading {
        WeatherReading(
            milliseconds: t, temperature: temperatureC, pressure: pressureHpa, windSpeed: windSpeedMs,
            windDirection: windDirDeg, cloud: cloudPct, device: deviceId == 0 ? nil : DeviceID(rawValue: deviceId))
    }
}

/// `day_summary`: the text of a local day.
struct DaySummaryRow: SnakeCaseRecord {
    static let databaseTableName = "day_summary"
    var userId: Int64
    /// YYYY-MM-DD.
    var day: String
    var text: String
    var updatedMs: Int64
}

/// `pause_switch`: a user's pause; 0 until resumed, else until that time.
struct PauseSwitchRow: SnakeCaseRecord {
    static let databaseTableName = "pause_switch"
    var userId: Int64
    var pausedUntilMs: Int64
}

/// `recorder`: what the running recorder of a device last reported.
struct RecorderRow: SnakeCaseRecord {
    static let databaseTableName = "recorder"
    var deviceId: Int64
    var pid: Int32
    var source: String
    var startedMs: Int64
    var heartbeatMs: Int64
    var lastFixMs: Int64?
    var lastFixSeenMs: Int64?
    var paused: Bool

    init(_ s: RecorderStatus, device: DeviceID) {
        deviceId = device.rawValue
        (pid, source, startedMs, heartbeatMs) = (s.pid, s.source, s.startedMilliseconds, s.heartbeatMilliseconds)
        (lastFixMs, lastFixSeenMs, paused) = (s.lastFixMilliseconds, s.lastFixSeenMilliseconds, s.paused)
    }

    func status(device name: String?) -> RecorderStatus {
        var s = RecorderStatus(
            pid: pid, source: source, startedMilliseconds: startedMs, heartbeatMilliseconds: heartbeatMs,
            paused: paused)
        s.lastFixMilliseconds = lastFixMs
        s.lastFixSeenMilliseconds = lastFixSeenMs
        s.device = name
        return s
    }
}

/// `share_code`: a one-time pairing code's hash, what it grants, until when.
struct ShareCodeRow: SnakeCaseRecord {
    static let databaseTableName = "share_code"
    var id: Int64?
    var ownerId: Int64
    var codeHash: String
    var scopes: String
    var historyHours: Int
    var expiresMs: Int64
}

/// `grant`: an owner lets a viewer see them, within scopes.
struct GrantRow: SnakeCaseRecord {
    static let databaseTableName = "grant"
    var ownerId: Int64
    var viewerId: Int64
    var scopes: String
    var historyHours: Int
    var createdMs: Int64
    var paused = false
    var expiresMs: Int64?
}

/// `device_state`: what a phone said of itself with its newest point.
struct DeviceStateRow: SnakeCaseRecord {
    static let databaseTableName = "device_state"
    var deviceId: Int64
    var atMs: Int64
    var battery: Double?
    var accuracy: Double?
}

/// `redeem_failure`: a failed code redemption of an account.
struct RedeemFailureRow: SnakeCaseRecord {
    static let databaseTableName = "redeem_failure"
    var userId: Int64
    var atMs: Int64
}

/// `upload_cursor`: the newest point of a device a server acknowledged.
struct UploadCursorRow: SnakeCaseRecord {
    static let databaseTableName = "upload_cursor"
    var deviceId: Int64
    var server: String
    var sentMs: Int64
}

/// `device_message`: a message of a phone app that is not a position.
struct DeviceMessageRow: SnakeCaseRecord {
    static let databaseTableName = "device_message"
    var id: Int64?
    var deviceId: Int64
    var receivedMs: Int64
    var type: String
    var body: String
}
