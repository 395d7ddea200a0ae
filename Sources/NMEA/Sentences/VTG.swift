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

    static func decode(_ f: Fields) throws(NMEAError) -> VTG {
        var s = VTG()
        s.track = try f.decimal(1)
        let unitLetters = (try? f.character(2)) == 0x54 || f.count >= 9  // "T"
        if unitLetters {
            if let knots = try f.unsignedDecimal(5) {
                s.speed = knots * Units.metresPerSecondPerKnot
            } else if let kmh = try f.unsignedDecimal(7) {
                s.speed = kmh / 3.6
            }
            s.modeIndicator = try f.character(9)
        } else if let knots = try f.unsignedDecimal(3) {
            s.speed = knots * Units.metresPerSecondPerKnot
        }
        return s
    }
}
