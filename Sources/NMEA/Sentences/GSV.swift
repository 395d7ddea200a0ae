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

    /// Fills `r`: total in `code`, number in `count`, satellites in view in `count2` (the
    /// per-satellite fields are not read).
    static func decode(_ f: Fields, into r: inout SentenceRecord) throws(NMEAError) {
        let total = try f.integerSlot(1)
        guard total >= 1 else { throw .badField(1) }
        let number = try f.integerSlot(2)
        guard number >= 1, number <= total else { throw .badField(2) }
        r.code = total
        r.count = number
        r.count2 = try f.integerSlot(3)
    }

    init(_ r: SentenceRecord) {
        total = Int(r.code)
        number = Int(r.count)
        satellitesInView = r.count2.present
    }
}
