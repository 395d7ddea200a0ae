import Foundation
import GPSCore

/// A journey: time away from home that held a night elsewhere, or went farther than a set
/// distance (a day trip to another city). Found from the stays and moves (the kept timeline's),
/// as Google's Timeline lists trips away by itself.
public struct TripAway: Equatable, Sendable {
    /// When home was left (the end of the last stay at home; the first stay's start when the
    /// data begins away), and when it was reached again (`ongoing`: not yet).
    public var start: Int64
    public var end: Int64
    public var ongoing: Bool
    /// The stays away and the moves from leaving home to being back, in time order.
    public var stays: [Visit]
    public var moves: [Trip]
    /// The local days whose night (03:00) was spent away.
    public var nights: [CivilDate]
    /// How far from home it went, metres.
    public var farthest: Double
    /// Distance by mode, metres.
    public var distanceByMode: [TravelMode: Double]
}

/// Finds the trips away in a timeline.
public enum TripsAway {
    /// The hour of the night a stay must hold to be where the night was spent.
    public static let nightHour = 3

    /// The trips away in `visits` and `trips` (in time order) from the place `home` (a stay's
    /// ``Visit/place``) at `homeCenter`: each run of stays elsewhere between two stays at home that
    /// held a night away (03:00 local in `zone`) or went `awayMetres` or farther from home.
    public static func find(
        visits: [Visit], trips: [Trip], home: Int, homeCenter: Coordinate, zone: TimeZone,
        awayMetres: Double = 100_000
    ) -> [TripAway] {
        var found: [TripAway] = []
        var away: [Visit] = []
        var leftHome: Int64?
        func close(backAt: Int64?) {
            defer {
                away = []
                leftHome = nil
            }
            guard let first = away.first, let last = away.last else { return }
            let start = leftHome ?? first.start
            let end = backAt ?? last.end
            let moves = trips.filter { $0.start >= start && $0.end <= end }
            let nights = away.flatMap { nightsHeld(by: $0, zone: zone) }
            let farthest =
                (away.map(\.center) + moves.flatMap { [$0.from, $0.to] }).map {
                    Geodesy.haversineDistance(homeCenter, $0)
                }.max() ?? 0
            guard !nights.isEmpty || farthest >= awayMetres else { return }
            var byMode: [TravelMode: Double] = [:]
            for m in moves { byMode[m.mode, default: 0] += m.distance }
            found.append(
                TripAway(
                    start: start, end: end, ongoing: backAt == nil, stays: away, moves: moves,
                    nights: Array(Set(nights)).sorted { $0.daysSinceEpoch < $1.daysSinceEpoch }, farthest: farthest,
                    distanceByMode: byMode))
        }
        for v in visits.sorted(by: { $0.start < $1.start }) {
            if v.place == home {
                close(backAt: v.start)
                leftHome = v.end
            } else {
                away.append(v)
            }
        }
        close(backAt: nil)
        return found
    }

    /// The local days whose 03:00 falls within the stay.
    public static func nightsHeld(by v: Visit, zone: TimeZone) -> [CivilDate] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var nights: [CivilDate] = []
        var day = calendar.startOfDay(for: Date(timeIntervalSince1970: Double(v.start) / 1000))
        let end = Date(timeIntervalSince1970: Double(v.end) / 1000)
        while day <= end {
            if let night = calendar.date(bySettingHour: nightHour, minute: 0, second: 0, of: day),
                Int64(night.timeIntervalSince1970 * 1000) >= v.start, night <= end
            {
                let parts = calendar.dateComponents([.year, .month, .day], from: day)
                if let y = parts.year, let m = parts.month, let d = parts.day,
                    let date = CivilDate(year: y, month: m, day: d)
                {
                    nights.append(date)
                }
            }
            guard let next = calendar.date(byAdding: .day, value: 1, to: day) else { break }
            day = next
        }
        return nights
    }
}
