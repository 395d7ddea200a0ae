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

    /// Fills `r`: the three error estimates in `a`, `b`, `c`.
    static func decode(_ f: Fields, into r: inout SentenceRecord) throws(NMEAError) {
        r.timeOfDay = try f.timeSlot(1)
        r.a = try f.unsignedDecimalSlot(6)
        r.b = try f.unsignedDecimalSlot(7)
        r.c = try f.unsignedDecimalSlot(8)
    }

    init(_ r: SentenceRecord) {
        timeOfDay = r.time
        latitudeError = r.a.present
        longitudeError = r.b.present
        altitudeError = r.c.present
    }
}
