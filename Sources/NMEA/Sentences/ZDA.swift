import GPSCore

/// ZDA, time and date.
///
/// `$--ZDA,hhmmss.ss,dd,mm,yyyy,zh,zm*hh`
public struct ZDA: Equatable, Sendable {
    /// Field 1: UTC time of day, milliseconds.
    public var timeOfDay: Int?
    /// Fields 2-4: UTC day, month, four-digit year.
    public var date: CivilDate?

    static let minimumFields = 5

    /// Fills `r`: the date.
    static func decode(_ f: Fields, into r: inout SentenceRecord) throws(NMEAError) {
        r.timeOfDay = try f.timeSlot(1)
        let day = try f.integer(2)
        let month = try f.integer(3)
        let year = try f.integer(4)
        if let day, let month, let year {
            guard f.range(4).count == 4 else { throw .badField(4) }
            guard let d = CivilDate(year: year, month: month, day: day) else { throw .badField(2) }
            r.setDate(d)
        }
    }

    init(_ r: SentenceRecord) {
        timeOfDay = r.time
        date = r.date
    }
}
