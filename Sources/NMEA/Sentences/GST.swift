/// GST, GNSS pseudorange error statistics.
///
/// `$--GST,hhmmss.ss,r.r,a.a,b.b,o.o,la.la,lo.lo,al.al*hh`
public struct GST: Equatable, Sendable {
    /// Field 1: UTC time of day, milliseconds.
    public var timeOfDay: Int?
    /// Field 6: 1-sigma latitude error, metres.
    public var latitudeError: Double?
    /// Field 7: 1-sigma longitude error, metres.
    public var longitudeError: Double?
    /// Field 8: 1-sigma altitude error, metres.
    public var altitudeError: Double?

    static let minimumFields = 9

    static func decode(_ f: Fields) throws(NMEAError) -> GST {
        var s = GST()
        s.timeOfDay = try f.timeOfDay(1)
        s.latitudeError = try f.unsignedDecimal(6)
        s.longitudeError = try f.unsignedDecimal(7)
        s.altitudeError = try f.unsignedDecimal(8)
        return s
    }
}
