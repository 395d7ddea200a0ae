import GPSCore
internal import GRDB

/// How a fix is stored: scaled integers (see the `point` table in ``Schema``). Latitude and
/// longitude keep 1e-7 degrees (about 1 cm), altitude centimetres, speed cm/s, track and HDOP
/// hundredths; the date and time are the row's key in milliseconds. Rows are written from
/// ``TrackWriter/KeptPoint``; records (`record` table) use the same scales.
enum StoredScale {
    /// Degrees as the stored integer (1e-7 degrees).
    static func degrees(_ value: Double) -> Int64 { Int64((value * 1e7).rounded()) }
    /// Metres, m/s, degrees of track or HDOP as the stored integer (hundredths).
    static func hundredths(_ value: Double) -> Int64 { Int64((value * 100).rounded()) }
}

extension Fix {
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
