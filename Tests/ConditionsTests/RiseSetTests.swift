import Conditions
import Foundation
import Testing

/// Sunrise, sunset, moonrise and moonset for whole years against the US Naval Observatory's
/// published tables (Tests/ConditionsTests/Fixtures/usno-*.txt; see Fixtures/README.md).
@Suite struct RiseSetTests {
    /// Matches the table's events and the computed ones for the year one to one: each printed
    /// time has a computed event of the same kind within `tolerance` minutes once rounded to the
    /// minute (as the table is), and no event is computed that the table lacks. A day printed
    /// up or down all day has no event and the matching state. Returns the largest difference
    /// in minutes, the events compared and how many differ by a minute.
    func compare(_ table: USNOTable, body: Body, tolerance: Double) -> (worst: Double, events: Int, offByOne: Int) {
        let year = DateInterval(start: table.days.first!.start, end: table.days.last!.start.addingTimeInterval(86_400))
        let computed = Sky.horizonEvents(of: body, latitude: table.latitude, longitude: table.longitude, in: year)
        var unmatched = computed
        var worst = 0.0
        var events = 0
        var offByOne = 0
        let place = "\(table.latitude), \(table.longitude)"
        for day in table.days {
            let label = "\(body) on \(day.start.formatted(.iso8601.year().month().day())) at \(place)"
            for (entries, rising) in [(day.rises, true), (day.sets, false)] {
                for entry in entries {
                    switch entry {
                    case .time(let printed):
                        let candidates = unmatched.indices.filter { unmatched[$0].rising == rising }
                        let nearest = candidates.min {
                            abs(unmatched[$0].time.timeIntervalSince(printed))
                                < abs(unmatched[$1].time.timeIntervalSince(printed))
                        }
                        guard let nearest else {
                            Issue.record(
                                "\(label): the table has \(rising ? "a rise" : "a set") at \(printed), none computed")
                            continue
                        }
                        let rounded = (unmatched[nearest].time.timeIntervalSince1970 / 60).rounded() * 60
                        let difference = abs(rounded - printed.timeIntervalSince1970) / 60
                        worst = max(worst, difference)
                        events += 1
                        if difference > 0 { offByOne += 1 }
                        #expect(
                            difference <= tolerance,
                            "\(label): the table has \(printed), computed \(unmatched[nearest].time)")
                        unmatched.remove(at: nearest)
                    case .upAllDay, .downAllDay:
                        let interval = DateInterval(start: day.start, duration: 86_400)
                        let sun = Sky.sunConditions(
                            at: day.start, latitude: table.latitude, longitude: table.longitude, day: interval)
                        #expect(sun.rise == nil && sun.set == nil, "\(label): the table has no rise or set")
                        #expect(sun.upAllDay == (entry == .upAllDay), "\(label): the table has \(entry)")
                    }
                }
            }
        }
        #expect(unmatched.isEmpty, "computed events the table does not have at \(place): \(unmatched)")
        return (worst, events, offByOne)
    }

    @Test(arguments: ["usno-sun-2019-W081-N29", "usno-sun-2019-W150-S60", "usno-sun-2019-E000-N80"])
    func sunriseAndSunsetWithinAMinuteForAYear(fixture: String) throws {
        let table = try USNOTable(fixture: fixture)
        #expect(table.days.count == 365)
        let result = compare(table, body: .sun, tolerance: 1)
        print(
            "\(fixture): \(result.events) events, \(result.offByOne) a minute off, none more (largest \(result.worst) min)"
        )
    }

    @Test(arguments: ["usno-moon-2019-W081-N29", "usno-moon-2050-E150-S45"])
    func moonriseAndMoonsetWithinFiveMinutesForAYear(fixture: String) throws {
        let table = try USNOTable(fixture: fixture)
        #expect(table.days.count == 365)
        let result = compare(table, body: .moon, tolerance: 5)
        print(
            "\(fixture): \(result.events) events, \(result.offByOne) a minute off, none more (largest \(result.worst) min)"
        )
    }

    /// 80° N: no sunrise from November to February (polar night), no sunset from mid-April to
    /// August (midnight sun), answered as such rather than as missing numbers.
    @Test func polarDaysAreAnsweredAsSuch() throws {
        let utc = TimeZone(identifier: "UTC")!
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        func day(_ month: Int, _ dayOfMonth: Int) -> DateInterval {
            DateInterval(
                start: calendar.date(from: DateComponents(year: 2019, month: month, day: dayOfMonth))!, duration: 86_400
            )
        }
        let winter = Sky.sunConditions(at: day(1, 10).start, latitude: 80, longitude: 0, day: day(1, 10))
        #expect(winter.rise == nil && winter.set == nil && winter.upAllDay == false && winter.phase == .night)
        let summer = day(6, 21)
        let june = Sky.sunConditions(at: summer.start, latitude: 80, longitude: 0, day: summer)
        #expect(june.rise == nil && june.set == nil && june.upAllDay == true && june.phase == .day)
        #expect(june.civilDawn == nil && june.nauticalDusk == nil)
        // The southern pole's winter at the same moment.
        let south = Sky.sunConditions(at: summer.start, latitude: -80, longitude: 0, day: summer)
        #expect(south.upAllDay == false)
    }
}
