import GPSCore
import Testing

@Suite struct CivilDateTests {
    @Test(arguments: [
        (1970, 1, 1, 0), (2000, 2, 29, 11_016), (1969, 12, 31, -1), (2026, 6, 14, 20_618), (2068, 12, 31, 36_159),
    ])
    func daysSinceEpoch(year: Int, month: Int, day: Int, days: Int) throws {
        let d = try #require(CivilDate(year: year, month: month, day: day))
        #expect(d.daysSinceEpoch == days)
        #expect(CivilDate(daysSinceEpoch: days) == d)
    }

    @Test func roundTripOverFourHundredYears() {
        for days in stride(from: -80_000, through: 80_000, by: 37) {
            #expect(CivilDate(daysSinceEpoch: days).daysSinceEpoch == days)
        }
    }

    @Test func rejectsImpossibleDays() {
        #expect(CivilDate(year: 2027, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2100, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2000, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 2026, month: 4, day: 31) == nil)
        #expect(CivilDate(year: 2026, month: 13, day: 1) == nil)
    }

    @Test func addingCrossesMonthAndYear() {
        #expect(CivilDate(year: 1999, month: 12, day: 31)!.adding(days: 1) == CivilDate(year: 2000, month: 1, day: 1))
        #expect(CivilDate(year: 2024, month: 2, day: 28)!.adding(days: 1) == CivilDate(year: 2024, month: 2, day: 29))
        #expect(CivilDate(year: 2026, month: 3, day: 1)!.adding(days: -1) == CivilDate(year: 2026, month: 2, day: 28))
    }

    @Test func isoTextRoundTrip() {
        #expect(CivilDate(iso: "2026-06-14")?.description == "2026-06-14")
        #expect(CivilDate(iso: "2026-6-14") == nil)
        #expect(CivilDate(iso: "14.06.2026") == nil)
    }
}
