import GPSCore

/// RMC, recommended minimum specific GNSS data.
///
/// `$--RMC,hhmmss.ss,A,llll.ll,a,yyyyy.yy,a,x.x,x.x,ddmmyy,x.x,a,m,s*hh`
public struct RMC: Equatable, Sendable {
    /// Field 1: UTC time of day, milliseconds.
    public var timeOfDay: Int?
    /// Field 2: A = valid, V = receiver warning (no fix).
    public var statusValid: Bool = false
    /// Fields 3-4: latitude, decimal degrees.
    public var latitude: Double?
    /// Fields 5-6: longitude, decimal degrees.
    public var longitude: Double?
    /// Field 7: speed over ground, converted from knots to metres per second.
    public var speed: Double?
    /// Field 8: course over ground, degrees true.
    public var track: Double?
    /// Field 9: UTC date.
    public var date: CivilDate?
    /// Field 12 (NMEA 2.3+): mode indicator A, D, E, F, M, N, P, R, S.
    public var modeIndicator: UInt8?

    static let minimumFields = 10

    static func decode(_ f: Fields) throws(NMEAError) -> RMC {
        var s = RMC()
        s.timeOfDay = try f.timeOfDay(1)
        switch try f.character(2) {
        case 0x41: s.statusValid = true  // A
        case 0x56, nil: s.statusValid = false  // V
        default: throw .badField(2)
        }
        s.latitude = try f.latitude(3)
        s.longitude = try f.longitude(5)
        if let knots = try f.unsignedDecimal(7) { s.speed = knots * Units.metresPerSecondPerKnot }
        s.track = try f.decimal(8)
        s.date = try f.dateDDMMYY(9)
        s.modeIndicator = try f.character(12)
        return s
    }
}
