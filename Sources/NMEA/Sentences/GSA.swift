/// GSA, GNSS DOP and active satellites.
///
/// `$--GSA,a,x,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,xx,p.p,h.h,v.v,s*hh`
public struct GSA: Equatable, Sendable {
    public init() {}

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

    /// Fills `r`: mode in `code`, the satellites in `satellites`, pdop, hdop and vdop in `a`,
    /// `b`, `c`, the system ID in `count`.
    static func decode(_ f: Fields, into r: inout SentenceRecord) throws(NMEAError) {
        r.code = try f.integerSlot(2)
        if r.code >= 0 && !(1...3).contains(r.code) { throw .badField(2) }
        var n = 0
        for i in 3...14 {
            let id = try f.integerSlot(i)
            if id >= 0 {
                guard id < 65_536 else { throw .badField(i) }
                r.setSatellite(n, UInt16(id))
                n += 1
            }
        }
        r.satelliteCount = UInt8(n)
        r.a = try f.unsignedDecimalSlot(15)
        r.b = try f.unsignedDecimalSlot(16)
        r.c = try f.unsignedDecimalSlot(17)
        r.count = (try? f.integerSlot(18)) ?? -1
    }

    init(_ r: SentenceRecord) {
        mode = r.code.present
        satelliteCount = Int(r.satelliteCount)
        for k in 0..<satelliteCount { satelliteLanes[k] = r.satellite(k) }
        pdop = r.a.present
        hdop = r.b.present
        vdop = r.c.present
        systemID = r.count.present
    }
}
