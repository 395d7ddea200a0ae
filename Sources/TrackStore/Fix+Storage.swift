import GPSCore
internal import GRDB
internal import GRDBSQLite

extension Fix {
    /// A fix read back from a `point` row selected with ``PointKey/columns`` (read by position,
    /// in that order: a lookup by name for each of 30 M rows costs more than the query).
    init(storedRow row: Row) {
        self.init()
        UTCTimestamp.set(row[0] as Int64, on: &self)
        let lat: Int64 = row[2]
        let lon: Int64 = row[3]
        coordinate = Coordinate(latitude: Double(lat) / 1e7, longitude: Double(lon) / 1e7)
        altitudeMSL = (row[4] as Int64?).map { Double($0) / 100 }
        speed = (row[5] as Int64?).map { Double($0) / 100 }
        track = (row[6] as Int64?).map { Double($0) / 100 }
        hdop = (row[7] as Int64?).map { Double($0) / 100 }
        let modeSats: Int = row[8]
        mode = FixMode(rawValue: modeSats % 4) ?? .unknown
        satellitesUsed = modeSats / 4 == 0 ? nil : modeSats / 4
        sensors = (row[9] as Int64?).map(Sensors.init(packed:))
    }
}

extension Fix {
    /// The same from the current row of a statement stepped by hand (`sqlite3_step`), without
    /// GRDB's row: what a cursor over a day or a year of points spends most on otherwise.
    init(storedStatement s: OpaquePointer) {
        self.init()
        func optional(_ column: Int32) -> Int64? {
            sqlite3_column_type(s, column) == SQLITE_NULL ? nil : sqlite3_column_int64(s, column)
        }
        UTCTimestamp.set(sqlite3_column_int64(s, 0), on: &self)
        coordinate = Coordinate(
            latitude: Double(sqlite3_column_int64(s, 2)) / 1e7, longitude: Double(sqlite3_column_int64(s, 3)) / 1e7)
        altitudeMSL = optional(4).map { Double($0) / 100 }
        speed = optional(5).map { Double($0) / 100 }
        track = optional(6).map { Double($0) / 100 }
        hdop = optional(7).map { Double($0) / 100 }
        let modeSats = Int(sqlite3_column_int64(s, 8))
        mode = FixMode(rawValue: modeSats % 4) ?? .unknown
        satellitesUsed = modeSats / 4 == 0 ? nil : modeSats / 4
        sensors = optional(9).map(Sensors.init(packed:))
    }
}

/// The key of a `point` row: its device and its UTC time in one integer, `device << 43 | (ms +
/// 2^42)`, the rowid. Rows of a device sit together in time order, a device's time range is one
/// range of keys, and SQLite appends increasing rowids into full pages (a two-column key in a
/// `WITHOUT ROWID` table took 42.7 bytes per point against 34 for this; docs/BENCHMARKS.md).
/// Times from 1830 to 2109 fit; device ids up to 2^20.
enum PointKey {
    static let timeBits: Int64 = 43
    static let offset: Int64 = 1 << 42
    static let timeMask: Int64 = (1 << 43) - 1
    /// The earliest and latest time a key holds (ms since 1970).
    static let earliest = -offset
    static let latest = offset - 1

    static func key(device: Int64, milliseconds t: Int64) -> Int64 { (device << timeBits) + (t + offset) }

    /// Whether a key can hold the time `t`.
    static func holds(_ t: Int64) -> Bool { t >= earliest && t <= latest }

    /// Keys of `device` for times in `[from, to)`, clamped to what a key holds.
    static func range(device: Int64, from: Int64, to: Int64) -> (low: Int64, high: Int64) {
        let a = Swift.min(Swift.max(from, earliest), latest + 1)
        let b = Swift.min(Swift.max(to, earliest), latest + 1)
        return ((device << timeBits) + (a + offset), (device << timeBits) + (b + offset))
    }

    static func milliseconds(ofKey key: Int64) -> Int64 { (key & timeMask) - offset }

    /// SQL for a row's time and device.
    static let timeSQL = "((key & \(timeMask)) - \(offset))"
    static let deviceSQL = "(key >> \(timeBits))"
    /// The columns of a point row as the readers expect them (`t`, `device_id`, values), in the
    /// order ``GPSCore/Fix/init(storedRow:)`` reads them.
    static let columns =
        "\(timeSQL) AS t, \(deviceSQL) AS device_id, lat, lon, alt, speed, track, hdop, mode_sats, sensors, import_id"
    /// The columns an insert of a point row names, in the order ``KeptPoint`` binds them.
    static let insertColumns = "key, lat, lon, alt, speed, track, hdop, mode_sats, sensors"
}

extension SQLiteStoring {
    /// The keys of `device`'s points in `[from, to)`, as the two arguments of `key >= ? AND key < ?`.
    static func keyRange(_ device: Int64, from: Int64, to: Int64) -> StatementArguments {
        let r = PointKey.range(device: device, from: from, to: to)
        return [r.low, r.high]
    }
}

extension Statement {
    /// Runs a write statement whose arguments were bound directly (`sqlite3_bind_*`, for
    /// inserts of hundreds of rows at once) to its end; SQLite's error as GRDB's.
    func stepOnce(_ db: Database) throws {
        let code = sqlite3_step(sqliteStatement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(
                resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                sql: sql)
        }
    }
}
