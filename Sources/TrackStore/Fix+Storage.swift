import GPSCore
internal import GRDB
internal import GRDBSQLite

/// How a fix is stored: scaled integers (see the `point` table in ``Schema``). Latitude and
/// longitude keep 1e-7 degrees (about 1 cm), altitude centimetres, speed cm/s, track and HDOP
/// hundredths; the date and time are the row's key in milliseconds.
extension Fix {
    /// Binds the values of the `point` row for this fix (which must have a time and a position)
    /// to the eight parameters of `statement` (t, lat, lon, alt, speed, track, hdop, mode_sats),
    /// straight through SQLite's C API: the per-point path of an import, where building a boxed
    /// argument array per point cost more than SQLite's insert itself.
    func bindStorageValues(to statement: OpaquePointer) {
        let c = coordinate!
        let sats = satellitesUsed.map { Swift.min(Swift.max($0, 0), 255) } ?? 0
        func bind(_ index: Int32, _ value: Int64?) {
            if let value { sqlite3_bind_int64(statement, index, value) } else { sqlite3_bind_null(statement, index) }
        }
        bind(1, unixMilliseconds!)
        bind(2, Int64((c.latitude * 1e7).rounded()))
        bind(3, Int64((c.longitude * 1e7).rounded()))
        bind(4, altitudeMSL.map { Int64(($0 * 100).rounded()) })
        bind(5, speed.map { Int64(($0 * 100).rounded()) })
        bind(6, track.map { Int64(($0 * 100).rounded()) })
        bind(7, hdop.map { Int64(($0 * 100).rounded()) })
        bind(8, Int64(mode.rawValue + 4 * sats))
    }

    /// A fix read back from a `point` row.
    init(storedRow row: Row) {
        self.init()
        UTCTimestamp.set(row["t"], on: &self)
        let lat: Int64 = row["lat"]
        let lon: Int64 = row["lon"]
        coordinate = Coordinate(latitude: Double(lat) / 1e7, longitude: Double(lon) / 1e7)
        altitudeMSL = (row["alt"] as Int64?).map { Double($0) / 100 }
        speed = (row["speed"] as Int64?).map { Double($0) / 100 }
        track = (row["track"] as Int64?).map { Double($0) / 100 }
        hdop = (row["hdop"] as Int64?).map { Double($0) / 100 }
        let modeSats: Int = row["mode_sats"]
        mode = FixMode(rawValue: modeSats % 4) ?? .unknown
        satellitesUsed = modeSats / 4 == 0 ? nil : modeSats / 4
    }
}
