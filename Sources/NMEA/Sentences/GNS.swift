/// GNS, GNSS fix data (multi-constellation successor of GGA).
///
/// `$--GNS,hhmmss.ss,llll.ll,a,yyyyy.yy,a,c--c,xx,x.x,x.x,x.x,x.x,x.x,a*hh`
public struct GNS: Equatable, Sendable {
    /// Field 1: UTC time of day, milliseconds.
    public var timeOfDay: Int?
    /// Fields 2-3: latitude, decimal degrees.
    public var latitude: Double?
    /// Fields 4-5: longitude, decimal degrees.
    public var longitude: Double?
    /// Field 6: one mode character per constellation; valid when any is a fix (A, D, P, R, F, E).
    public var valid: Bool = false
    /// Field 7: satellites in use.
    public var satellitesUsed: Int?
    /// Field 8: HDOP.
    public var hdop: Double?
    /// Field 9: altitude above mean sea level, metres.
    public var altitude: Double?
    /// Field 10: geoid separation, metres.
    public var geoidSeparation: Double?

    static let minimumFields = 7

    /// Fills `r` as GGA does (without a quality), "a fix" in `valid`.
    static func decode(_ f: Fields, into r: inout SentenceRecord) throws(NMEAError) {
        r.timeOfDay = try f.timeSlot(1)
        r.latitude = try f.latitudeSlot(2)
        r.longitude = try f.longitudeSlot(4)
        for c in f.characters(6) {
            switch c {
            case 0x41, 0x44, 0x50, 0x52, 0x46, 0x45: r.valid = true  // A D P R F E
            case 0x4E, 0x4D, 0x53: break  // N M S
            default: throw .badField(6)
            }
        }
        r.count = try f.integerSlot(7)
        r.a = try f.unsignedDecimalSlot(8)
        r.b = try f.decimalSlot(9)
        r.c = try f.decimalSlot(10)
    }

    init(_ r: SentenceRecord) {
        timeOfDay = r.time
        latitude = r.latitude.present
        longitude = r.longitude.present
        valid = r.valid
        satellitesUsed = r.count.present
        hdop = r.a.present
        altitude = r.b.present
        geoidSeparation = r.c.present
    }
}
