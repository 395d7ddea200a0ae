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

    static func decode(_ f: Fields) throws(NMEAError) -> GNS {
        var s = GNS()
        s.timeOfDay = try f.timeOfDay(1)
        s.latitude = try f.latitude(2)
        s.longitude = try f.longitude(4)
        for c in f.characters(6) {
            switch c {
            case 0x41, 0x44, 0x50, 0x52, 0x46, 0x45: s.valid = true  // A D P R F E
            case 0x4E, 0x4D, 0x53: break  // N M S
            default: throw .badField(6)
            }
        }
        s.satellitesUsed = try f.integer(7)
        s.hdop = try f.unsignedDecimal(8)
        s.altitude = try f.decimal(9)
        s.geoidSeparation = try f.decimal(10)
        return s
    }
}
