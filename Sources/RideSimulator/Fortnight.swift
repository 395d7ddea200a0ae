import Foundation
import GPSCore

/// A fortnight with known truth, from Monday 2026-06-01 00:00 in Zurich (UTC+2): home, work, a
/// canteen, a park to run to, a friend across town; a weekend in Konstanz (Germany) by car; the
/// next in London (UTC+1) by two flights. The truth for tests of visit and trip detection. Multipath of 30 m at every stay (and a reflection
/// 150-400 m off one fix in 50), nights and afternoons without a fix, flights mostly dark.
public enum Fortnight {
    public static let home = Coordinate(latitude: 47.3600, longitude: 8.5300)
    public static let work = Coordinate(latitude: 47.3900, longitude: 8.5150)
    public static let canteen = Coordinate(latitude: 47.3920, longitude: 8.5190)
    public static let park = Coordinate(latitude: 47.3430, longitude: 8.5050)
    public static let friend = Coordinate(latitude: 47.4200, longitude: 8.6000)
    public static let cafe = Coordinate(latitude: 47.3705, longitude: 8.5390)
    public static let konstanz = Coordinate(latitude: 47.6600, longitude: 9.1750)
    public static let lakeside = Coordinate(latitude: 47.6640, longitude: 9.1850)
    public static let zurichAirport = Coordinate(latitude: 47.4581, longitude: 8.5555)
    public static let heathrow = Coordinate(latitude: 51.4700, longitude: -0.4543)
    public static let hotel = Coordinate(latitude: 51.5074, longitude: -0.1278)
    public static let museum = Coordinate(latitude: 51.4967, longitude: -0.1764)

    /// 2026-06-01T00:00+02:00.
    public static let start =
        Int64(CivilDate(year: 2026, month: 5, day: 31)!.daysSinceEpoch) * 86_400_000 + 22 * 3_600_000

    public typealias Step = HistorySimulator.Step

    public static func simulator(stayInterval: Int = 60, moveInterval: Int = 10, seed: UInt64 = 7) -> HistorySimulator {
        var steps: [Step] = []
        var clock: Int64 = 0  // ms since the start, as the simulator counts them
        /// Stay (with a dark spell in the middle when asked) until `hour` of day `day` (0-based).
        func stay(until day: Int, _ hour: Double, dark: Int = 0) {
            // Whole seconds that end at or just before the hour: never after it, so the next
            // fortnight, starting at its midnight, never overlaps this one.
            let seconds = Int((Int64(day * 86_400 + Int(hour * 3600)) * 1000 - clock) / 1000)
            precondition(seconds > dark, "the plan runs backwards at day \(day) \(hour)")
            if dark > 0 {
                let before = (seconds - dark) / 2
                steps += [.stay(seconds: before), .dark(seconds: dark), .stay(seconds: seconds - dark - before)]
            } else {
                steps.append(.stay(seconds: seconds))
            }
            clock += Int64(seconds) * 1000
        }
        var position = home
        func go(_ to: Coordinate, _ mode: String, _ speed: Double, darkShare: Double = 0) {
            steps.append(.move(to: to, speed: speed, mode: mode, darkShare: darkShare))
            clock += Int64((Geodesy.haversineDistance(position, to) / speed * 1000).rounded())
            position = to
        }
        func weekday(_ day: Int, evening: String) {
            stay(until: day, 7.5, dark: day == 0 ? 5 * 3600 : 0)
            go(work, "cycling", 5.5)
            stay(until: day, 12)
            go(canteen, "walking", 1.4)
            stay(until: day, 12.75)
            go(work, "walking", 1.4)
            stay(until: day, 17.5, dark: 2 * 3600)
            switch evening {
            case "run":
                go(home, "cycling", 5.5)
                stay(until: day, 18.5)
                go(park, "running", 3)
                stay(until: day, 19.25)
                go(home, "running", 3)
            case "friend":
                go(friend, "car", 12)
                stay(until: day, 21)
                go(home, "car", 12)
            default:
                go(home, "cycling", 5.5)
            }
            // The night at home, the phone asleep from 01:00 to 06:00.
            stay(until: day + 1, 1)
            steps.append(.dark(seconds: 5 * 3600))
            clock += 5 * 3_600_000
        }
        for day in 0..<5 { weekday(day, evening: ["", "run", "friend", "run", ""][day]) }
        // Saturday: the café, then by car to Konstanz, a night there, the lakeside, back Sunday.
        stay(until: 5, 9)
        go(cafe, "walking", 1.4)
        stay(until: 5, 10.5)
        go(home, "walking", 1.4)
        stay(until: 5, 11)
        go(konstanz, "car", 27)
        stay(until: 6, 10)
        go(lakeside, "walking", 1.4)
        stay(until: 6, 13)
        go(home, "car", 27)
        stay(until: 7, 1)
        steps.append(.dark(seconds: 5 * 3600))
        clock += 5 * 3_600_000
        for day in 7..<11 { weekday(day, evening: ["run", "", "friend", ""][day - 7]) }
        // Friday: to the airport after work, a flight to London (its middle without a fix).
        stay(until: 11, 7.5)
        go(work, "cycling", 5.5)
        stay(until: 11, 16, dark: 2 * 3600)
        go(zurichAirport, "car", 15)
        stay(until: 11, 18.5)
        go(heathrow, "plane", 230, darkShare: 0.6)
        stay(until: 11, 20.5)
        go(hotel, "car", 13)
        // Saturday in London: a museum on foot.
        stay(until: 12, 10)
        go(museum, "walking", 1.4)
        stay(until: 12, 14)
        go(hotel, "walking", 1.4)
        // Sunday: back.
        stay(until: 13, 11)
        go(heathrow, "car", 13)
        stay(until: 13, 13)
        go(zurichAirport, "plane", 230, darkShare: 0.6)
        stay(until: 13, 17)
        go(home, "car", 15)
        stay(until: 14, 0)
        var simulator = HistorySimulator(start: home, startMilliseconds: start, steps: steps)
        simulator.stayInterval = stayInterval
        simulator.moveInterval = moveInterval
        simulator.seed = seed
        return simulator
    }
}
