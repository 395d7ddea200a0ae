import GPSCore
import NMEA
import Testing

@Suite struct AssemblerTests {
    @Test func mergesOneEpoch() throws {
        let fixes = decode(
            sentence("GNRMC,101010.00,A,4722.61400,N,00832.50200,E,10.000,90.00,140626,,,A")
                + sentence("GNVTG,91.00,T,,M,11.000,N,20.372,K,A")
                + sentence("GNGGA,101010.00,4722.61400,N,00832.50200,E,2,09,0.80,410.5,M,47.3,M,,")
                + sentence("GNGSA,A,3,01,02,03,04,,,,,,,,,1.50,0.80,1.20,1")
                + sentence("GNGSA,A,3,65,66,,,,,,,,,,,1.50,0.80,1.20,2")
                + sentence("GPGSV,2,1,07,01,10,100,30,02,20,200,31,03,30,300,32,04,40,010,33")
                + sentence("GLGSV,1,1,03,65,10,100,30,66,20,200,31,67,30,300,32")
                + sentence("GNGST,101010.00,1.2,,,,0.9,0.8,1.9"))
        let f = try #require(fixes.first)
        #expect(fixes.count == 1)
        #expect(f.date == CivilDate(year: 2026, month: 6, day: 14) && f.timeOfDay == 36_610_000)
        #expect(f.mode == .threeD && f.quality == .dgps)
        #expect(f.altitudeMSL == 410.5 && f.geoidSeparation == 47.3)
        #expect(abs(f.speed! - 10 * 1852 / 3600.0) < 1e-12, "RMC speed wins over VTG")
        #expect(f.track == 90)
        #expect(f.hdop == 0.8 && f.vdop == 1.2 && f.pdop == 1.5)
        #expect(f.satellitesUsed == 9 && f.satellitesInView == 10)
        #expect(f.latitudeError == 0.9 && f.longitudeError == 0.8 && f.altitudeError == 1.9)
    }

    @Test func statusVAndQualityZeroGiveNoFix() {
        let fixes = decode(
            sentence("GPRMC,000001,V,4722.614,N,00832.502,E,0,0,140626,,")
                + sentence("GPGGA,000002,4722.614,N,00832.502,E,0,05,1.0,10.0,M,,M,,")
                + sentence("GPGLL,4722.614,N,00832.502,E,000003,V,N")
                + sentence("GPGGA,000004,4722.614,N,00832.502,E,8,05,1.0,10.0,M,,M,,"))
        #expect(fixes.count == 4)
        #expect(fixes.allSatisfy { $0.mode == .noFix && $0.coordinate == nil })
    }

    @Test func gsaCannotEraseAPositionAndSetsTwoD() {
        let fixes = decode(
            sentence("GPGGA,000001,4722.614,N,00832.502,E,1,05,1.0,10.0,M,,M,,") + sentence("GPGSA,A,1,,,,,,,,,,,,,,,")
                + sentence("GPGGA,000002,4722.614,N,00832.502,E,1,03,1.0,10.0,M,,M,,")
                + sentence("GPGSA,A,2,01,02,03,,,,,,,,,,2.0,1.0,1.7"))
        #expect(fixes.map(\.mode) == [.threeD, .twoD])
        #expect(fixes[1].altitudeMSL == 10.0, "the receiver's altitude is kept in a 2D fix")
    }

    @Test func ggaPositionPreferredOverLessPreciseRMC() {
        let fixes = decode(
            sentence("GPGGA,193221.00,2037.72792,N,08704.08478,W,1,04,1.7,-30.40,M,-13.9,M,,")
                + sentence("GPRMC,193221.00,A,2037.7279,N,08704.0848,W,00.1,201.8,231207,01,W,A"))
        #expect(abs(fixes[0].coordinate!.latitude - (20 + 37.72792 / 60)) < 1e-12)
    }

    @Test func nullIslandIsNoFix() {
        let fixes = decode(sentence("GPGGA,000001,0000.000,N,00000.000,E,1,05,1.0,10.0,M,,M,,"))
        #expect(fixes.first?.coordinate == nil)
    }
}

@Suite struct DateTests {
    @Test func midnightRollsOverWithoutADateSentence() throws {
        let fixes = decode(try String(decoding: sampleBytes("edge/rollover.nmea"), as: UTF8.self))
        #expect(
            fixes.map { $0.date?.description } == [
                "1999-12-31", "2000-01-01", "2000-01-01", "2068-01-01", "1969-01-01",
            ])
    }

    @Test func backFillsBeforeTheFirstDate() throws {
        let fixes = decode(try String(decoding: sampleBytes("edge/midnight.nmea"), as: UTF8.self))
        #expect(
            fixes.map { $0.date?.description } == [
                "2026-06-14", "2026-06-14", "2026-06-15", "2026-06-15", "2026-06-15",
            ])
    }

    @Test func fallbackDateForLogsWithoutDates() throws {
        let text = String(decoding: try sampleBytes("edge/no-date.nmea"), as: UTF8.self)
        #expect(decode(text).allSatisfy { $0.date == nil && $0.timeOfDay != nil })
        let dated = decode(text, fallbackDate: CivilDate(year: 2026, month: 6, day: 14))
        #expect(dated.allSatisfy { $0.date == CivilDate(year: 2026, month: 6, day: 14) })
    }

    @Test func fallbackDateRollsOverToo() {
        let text =
            sentence("GPGGA,235959,4722.614,N,00832.502,E,1,05,1.0,10.0,M,,M,,")
            + sentence("GPGGA,000000,4722.614,N,00832.502,E,1,05,1.0,10.0,M,,M,,")
        let fixes = decode(text, fallbackDate: CivilDate(year: 2026, month: 12, day: 31))
        #expect(fixes.map { $0.date?.description } == ["2026-12-31", "2027-01-01"])
    }

    @Test func logDatesWinOverFallback() {
        let text =
            sentence("GPGGA,120000,4722.614,N,00832.502,E,1,05,1.0,10.0,M,,M,,")
            + sentence("GPRMC,120001,A,4722.614,N,00832.502,E,0,0,010726,,")
        let fixes = decode(text, fallbackDate: CivilDate(year: 2020, month: 1, day: 1))
        #expect(fixes.map { $0.date?.description } == ["2026-07-01", "2026-07-01"])
    }

    /// A ZDA at a time of its own (no position then) dates the epochs before it (back-filled,
    /// across midnight) and after it, in every chunking, and wins over the fallback date; at the
    /// very end of a log too.
    @Test(arguments: [0, 1, 7])
    func zdaBetweenEpochsDatesThem(chunk: Int) {
        let gga = { (t: String) in sentence("GPGGA,\(t),4722.614,N,00832.502,E,1,05,1.0,10.0,M,,M,,") }
        let text =
            gga("235958") + gga("235959") + sentence("GPZDA,235959.50,31,12,2026,00,00") + gga("000000")
            + gga("000001")
        let (fixes, _) = decode(
            Array(text.utf8), chunkSize: chunk, fallbackDate: CivilDate(year: 2020, month: 1, day: 1))
        #expect(fixes.map { $0.date?.description } == ["2026-12-31", "2026-12-31", "2027-01-01", "2027-01-01"])
        let last = gga("120000") + sentence("GPZDA,120000.50,14,06,2026,00,00")
        #expect(decode(last).map { $0.date?.description } == ["2026-06-14"])
    }

    /// Decimal degrees in a ddmm field (fewer than four digits before the point) are malformed.
    @Test func decimalDegreesAreMalformed() {
        let (fixes, stats) = decode(
            Array(
                (sentence("GPGGA,161405.680,37.352387,N,121.953086,W,1,08,0.9,20.0,M,,,,")
                    + sentence("GPGGA,161406,3721.1432,N,912.0,W,1,08,0.9,20.0,M,,,,")
                    + sentence("GPGGA,161407,3721.1432,N,00912.0,W,1,08,0.9,20.0,M,,,,")).utf8))
        #expect(stats.malformed == 2)
        #expect(fixes.count == 1)
        #expect(abs((fixes.first?.coordinate?.longitude ?? 0) + 9.2) < 1e-9)
    }
}
