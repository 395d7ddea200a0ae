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

    /// Fills `r`: status in `valid`, the mode indicator in `indicator`.
    static func decode(_ f: Fields, into r: inout SentenceRecord) throws(NMEAError) {
        r.latitude = try f.latitudeSlot(1)
        r.longitude = try f.longitudeSlot(3)
        r.timeOfDay = try f.timeSlot(5)
        switch try f.character(6) {
        case 0x41, nil: r.valid = true
        case 0x56: r.valid = false
        default: throw .badField(6)
        }
        r.indicator = try f.character(7) ?? 0
    }

    init(_ r: SentenceRecord) {
        latitude = r.latitude.present
        longitude = r.longitude.present
        timeOfDay = r.time
        statusValid = r.valid
        modeIndicator = r.indicator == 0 ? nil : r.indicator
    }
}
