/// GGA, Global Positioning System fix data.
///
/// `$--GGA,hhmmss.ss,llll.ll,a,yyyyy.yy,a,q,nn,h.h,a.a,M,g.g,M,d.d,rrrr*hh`
public struct GGA: Equatable, Sendable {
    public init() {}

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

    /// Fills `r`: quality in `code`, satellites in `count`, hdop, altitude and geoid
    /// separation in `a`, `b`, `c`.
    static func decode(_ f: Fields, into r: inout SentenceRecord) throws(NMEAError) {
        r.timeOfDay = try f.timeSlot(1)
        r.latitude = try f.latitudeSlot(2)
        r.longitude = try f.longitudeSlot(4)
        r.code = try f.integerSlot(6)
        if r.code > 9 { throw .badField(6) }
        r.count = try f.integerSlot(7)
        r.a = try f.unsignedDecimalSlot(8)
        r.b = try f.decimalSlot(9)
        r.c = try f.decimalSlot(11)
    }

    init(_ r: SentenceRecord) {
        timeOfDay = r.time
        latitude = r.latitude.present
        longitude = r.longitude.present
        quality = r.code.present
        satellitesUsed = r.count.present
        hdop = r.a.present
        altitude = r.b.present
        geoidSeparation = r.c.present
    }
}
