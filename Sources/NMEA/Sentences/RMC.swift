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

    /// Fills `r`: status in `valid`, speed and track in `a`, `b`, the mode indicator in `indicator`.
    static func decode(_ f: Fields, into r: inout SentenceRecord) throws(NMEAError) {
        r.timeOfDay = try f.timeSlot(1)
        switch try f.character(2) {
        case 0x41: r.valid = true  // A
        case 0x56, nil: r.valid = false  // V
        default: throw .badField(2)
        }
        r.latitude = try f.latitudeSlot(3)
        r.longitude = try f.longitudeSlot(5)
        let knots = try f.unsignedDecimalSlot(7)
        if !knots.isNaN { r.a = knots * Units.metresPerSecondPerKnot }
        r.b = try f.decimalSlot(8)
        if let date = try f.dateDDMMYY(9) { r.setDate(date) }
        r.indicator = try f.character(12) ?? 0
    }

    init(_ r: SentenceRecord) {
        timeOfDay = r.time
        statusValid = r.valid
        latitude = r.latitude.present
        longitude = r.longitude.present
        speed = r.a.present
        track = r.b.present
        date = r.date
        modeIndicator = r.indicator == 0 ? nil : r.indicator
    }
}
