/// GGA, Global Positioning System fix data.
///
/// `$--GGA,hhmmss.ss,llll.ll,a,yyyyy.yy,a,q,nn,h.h,a.a,M,g.g,M,d.d,rrrr*hh`
public struct GGA: Equatable, Sendable {
    /// Field 1: UTC time of day, milliseconds.
    public var timeOfDay: Int?
    /// Fields 2-3: latitude, decimal degrees, negative south.
    public var latitude: Double?
    /// Fields 4-5: longitude, decimal degrees, negative west.
    public var longitude: Double?
    /// Field 6: quality indicator 0...8.
    public var quality: Int?
    /// Field 7: satellites in use.
    public var satellitesUsed: Int?
    /// Field 8: horizontal dilution of precision.
    public var hdop: Double?
    /// Field 9: antenna altitude above mean sea level, metres (field 10 is the unit, M).
    public var altitude: Double?
    /// Field 11: geoid separation, metres (field 12 is the unit, M).
    public var geoidSeparation: Double?

    static let minimumFields = 7

    static func decode(_ f: Fields) throws(NMEAError) -> GGA {
        var s = GGA()
        s.timeOfDay = try f.timeOfDay(1)
        s.latitude = try f.latitude(2)
        s.longitude = try f.longitude(4)
        s.quality = try f.integer(6)
        if let q = s.quality, q > 9 { throw .badField(6) }
        s.satellitesUsed = try f.integer(7)
        s.hdop = try f.unsignedDecimal(8)
        s.altitude = try f.decimal(9)
        s.geoidSeparation = try f.decimal(11)
        return s
    }
}
