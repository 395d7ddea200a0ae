/// GSA, GNSS DOP and active satellites.
///
/// `$--GSA,a,x,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,p.p,h.h,v.v,s*hh`
public struct GSA: Equatable, Sendable {
    /// Field 2: 1 = no fix, 2 = 2D, 3 = 3D.
    public var mode: Int?
    /// Fields 3-14: IDs of the satellites used in the solution (first `satelliteCount` lanes).
    public var satelliteLanes = SIMD16<UInt16>(repeating: 0)
    /// How many of ``satelliteLanes`` are filled.
    public var satelliteCount = 0

    /// IDs of the satellites used in the solution.
    public var satelliteIDs: [Int] { (0..<satelliteCount).map { Int(satelliteLanes[$0]) } }
    /// Field 15: PDOP.
    public var pdop: Double?
    /// Field 16: HDOP.
    public var hdop: Double?
    /// Field 17: VDOP.
    public var vdop: Double?
    /// Field 18 (NMEA 4.10+): GNSS system ID, when given.
    public var systemID: Int?

    static let minimumFields = 18

    static func decode(_ f: Fields) throws(NMEAError) -> GSA {
        var s = GSA()
        s.mode = try f.integer(2)
        if let m = s.mode, !(1...3).contains(m) { throw .badField(2) }
        for i in 3...14 {
            if let id = try f.integer(i) {
                guard id < 65_536 else { throw .badField(i) }
                s.satelliteLanes[s.satelliteCount] = UInt16(id)
                s.satelliteCount += 1
            }
        }
        s.pdop = try f.unsignedDecimal(15)
        s.hdop = try f.unsignedDecimal(16)
        s.vdop = try f.unsignedDecimal(17)
        s.systemID = try? f.integer(18)
        return s
    }
}
