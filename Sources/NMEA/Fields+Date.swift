import GPSCore

extension Fields {
    /// A `ddmmyy` date (RMC field 9), nil when empty. Two-digit years 69...99 are 1969...1999
    /// and 00...68 are 2000...2068, the window POSIX `strptime %y` uses.
    public func dateDDMMYY(_ i: Int) throws(NMEAError) -> CivilDate? {
        guard let v = try integer(i) else { return nil }
        guard range(i).count == 6 else { throw .badField(i) }
        let yy = v % 100
        guard let date = CivilDate(year: yy >= 69 ? 1900 + yy : 2000 + yy, month: v / 100 % 100, day: v / 10_000)
        else { throw .badField(i) }
        return date
    }
}
