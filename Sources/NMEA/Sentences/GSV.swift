/// GSV, GNSS satellites in view (one of several sentences of a sky view).
///
/// `$--GSV,t,n,ss,id,el,az,snr,...*hh`
public struct GSV: Equatable, Sendable {
    /// Field 1: number of sentences in this sky view.
    public var total: Int
    /// Field 2: this sentence's number, 1-based.
    public var number: Int
    /// Field 3: satellites in view for this talker.
    public var satellitesInView: Int?

    static let minimumFields = 4

    static func decode(_ f: Fields) throws(NMEAError) -> GSV {
        guard let total = try f.integer(1), total >= 1 else { throw .badField(1) }
        guard let number = try f.integer(2), number >= 1, number <= total else { throw .badField(2) }
        return GSV(total: total, number: number, satellitesInView: try f.integer(3))
    }
}
