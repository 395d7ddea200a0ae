/// VTG, course over ground and ground speed.
///
/// `$--VTG,x.x,T,x.x,M,x.x,N,x.x,K,m*hh`; NMEA 1.x receivers omit the unit letters:
/// `$--VTG,x.x,x.x,x.x,x.x*hh` (true, magnetic, knots, km/h).
public struct VTG: Equatable, Sendable {
    /// Field 1: course over ground, degrees true.
    public var track: Double?
    /// Field 5 (knots), else field 7 (km/h), in metres per second.
    public var speed: Double?
    /// Field 9 (NMEA 2.3+): mode indicator; N means the data are not valid.
    public var modeIndicator: UInt8?

    static let minimumFields = 5

    /// Fills `r`: speed and track in `a`, `b`, the mode indicator in `indicator`.
    static func decode(_ f: Fields, into r: inout SentenceRecord) throws(NMEAError) {
        r.b = try f.decimalSlot(1)
        let unitLetters = (try? f.character(2)) == 0x54 || f.count >= 9  // "T"
        if unitLetters {
            if let knots = try f.unsignedDecimal(5) {
                r.a = knots * Units.metresPerSecondPerKnot
            } else if let kmh = try f.unsignedDecimal(7) {
                r.a = kmh / 3.6
            }
            r.indicator = try f.character(9) ?? 0
        } else if let knots = try f.unsignedDecimal(3) {
            r.a = knots * Units.metresPerSecondPerKnot
        }
    }

    init(_ r: SentenceRecord) {
        track = r.b.present
        speed = r.a.present
        modeIndicator = r.indicator == 0 ? nil : r.indicator
    }
}
