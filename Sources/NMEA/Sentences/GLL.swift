/// GLL, geographic position, latitude/longitude.
///
/// `$--GLL,llll.ll,a,yyyyy.yy,a,hhmmss.ss,A,m*hh`; NMEA 1.5 receivers stop after field 4.
public struct GLL: Equatable, Sendable {
    /// Fields 1-2: latitude, decimal degrees.
    public var latitude: Double?
    /// Fields 3-4: longitude, decimal degrees.
    public var longitude: Double?
    /// Field 5: UTC time of day, milliseconds (absent in NMEA 1.5).
    public var timeOfDay: Int?
    /// Field 6: A = valid, V = invalid; absent (NMEA 1.5) counts as valid.
    public var statusValid: Bool = true
    /// Field 7 (NMEA 2.3+): mode indicator.
    public var modeIndicator: UInt8?

    static let minimumFields = 5

    static func decode(_ f: Fields) throws(NMEAError) -> GLL {
        var s = GLL()
        s.latitude = try f.latitude(1)
        s.longitude = try f.longitude(3)
        s.timeOfDay = try f.timeOfDay(5)
        switch try f.character(6) {
        case 0x41, nil: s.statusValid = true
        case 0x56: s.statusValid = false
        default: throw .badField(6)
        }
        s.modeIndicator = try f.character(7)
        return s
    }
}
