import Foundation
import GPSCore

/// A spot visited again and again: the visits whose centres lie within
/// ``VisitRules/placeRadius`` of it.
public struct VisitPlace: Equatable, Sendable {
    /// 1, 2, ... in the order of first visit: the same history gives the same numbers.
    public var id: Int
    /// The visits' centres weighted by how long each lasted.
    public var center: Coordinate
    public var visits: Int
    public var seconds: Double
    /// The user's own place it lies in, when it does (their name wins).
    public var name: String?
    /// What the time spent there suggests: "home" (most nights), "work" (weekday days).
    public var suggestion: String?
}

/// Groups visits into places, in time order: a visit joins the nearest place within the radius,
/// or starts a new one; the user's own places (a circle or polygon they drew) name what lies in
/// them. Home is the place with the most nights (00:00-06:00 local) on at least 3 days; work the
/// other with the most weekday hours 09:00-17:00 on at least 3 days.
public enum PlaceClusters {
    public static func assign(
        _ visits: inout [Visit], rules: VisitRules = VisitRules(), userPlaces: [Place] = [], zone: TimeZone
    ) -> [VisitPlace] {
        var places: [VisitPlace] = []
        // The places by cell of a grid at least the radius wide everywhere the visits are, so
        // that a visit looks only at the places of its cell and the eight around it (a history of
        // years has thousands of places and tens of thousands of visits).
        var grid = Grid(radius: rules.placeRadius, visits: visits)
        for i in visits.indices {
            let v = visits[i]
            // The nearest within the radius; of two as near, the first made (as a look at every
            // place in turn found it).
            var best: (index: Int, distance: Double)?
            for j in grid.near(v.center) {
                let d = Geodesy.haversineDistance(places[j].center, v.center)
                guard d <= rules.placeRadius else { continue }
                if let b = best, d > b.distance || d == b.distance && j > b.index { continue }
                best = (j, d)
            }
            let weight = Swift.max(v.seconds, 1)
            if let best {
                var p = places[best.index]
                let total = p.seconds + weight
                let before = p.center
                p.center = Coordinate(
                    latitude: (p.center.latitude * p.seconds + v.center.latitude * weight) / total,
                    longitude: (p.center.longitude * p.seconds + v.center.longitude * weight) / total)
                p.visits += 1
                p.seconds = total
                places[best.index] = p
                grid.move(best.index, from: before, to: p.center)
                visits[i].place = p.id
            } else {
                let id = places.count + 1
                places.append(VisitPlace(id: id, center: v.center, visits: 1, seconds: weight))
                grid.add(places.count - 1, at: v.center)
                visits[i].place = id
            }
        }
        name(&places, visits: visits, userPlaces: userPlaces, zone: zone)
        return places
    }

    /// Names the places the user's own places hold (the smallest that holds the centre), and
    /// suggests home and work.
    public static func name(_ places: inout [VisitPlace], visits: [Visit], userPlaces: [Place], zone: TimeZone) {
        for j in places.indices {
            let inside = userPlaces.filter { $0.excess(places[j].center) <= 0 }
            places[j].name = inside.min { $0.radius < $1.radius }?.name
        }
        suggestHomeAndWork(&places, visits: visits, zone: zone)
    }

    static func suggestHomeAndWork(_ places: inout [VisitPlace], visits: [Visit], zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var nights: [Int: (seconds: Double, days: Set<Int>)] = [:]
        var workdays: [Int: (seconds: Double, days: Set<Int>)] = [:]
        for v in visits {
            guard let place = v.place else { continue }
            // Walk the visit a local day at a time.
            var dayStart = calendar.startOfDay(for: Date(timeIntervalSince1970: Double(v.start) / 1000))
            let end = Date(timeIntervalSince1970: Double(v.end) / 1000)
            while dayStart < end {
                let day = Int(dayStart.timeIntervalSince1970 / 86_400)
                func overlap(_ fromHour: Int, _ toHour: Int) -> Double {
                    let a = calendar.date(byAdding: .hour, value: fromHour, to: dayStart)!
                    let b = calendar.date(byAdding: .hour, value: toHour, to: dayStart)!
                    let lo = Swift.max(a.timeIntervalSince1970, Double(v.start) / 1000)
                    let hi = Swift.min(b.timeIntervalSince1970, Double(v.end) / 1000)
                    return Swift.max(0, hi - lo)
                }
                let night = overlap(0, 6)
                if night >= 3 * 3600 {
                    nights[place, default: (0, [])].seconds += night
                    nights[place, default: (0, [])].days.insert(day)
                }
                let weekday = calendar.component(.weekday, from: dayStart)
                let work = (2...6).contains(weekday) ? overlap(9, 17) : 0
                if work >= 3 * 3600 {
                    workdays[place, default: (0, [])].seconds += work
                    workdays[place, default: (0, [])].days.insert(day)
                }
                dayStart = calendar.date(byAdding: .day, value: 1, to: dayStart)!
            }
        }
        func most(_ table: [Int: (seconds: Double, days: Set<Int>)], except: Int?) -> Int? {
            table.filter { $0.key != except && $0.value.days.count >= 3 }
                .max { ($0.value.seconds, -$0.key) < ($1.value.seconds, -$1.key) }?.key
        }
        let home = most(nights, except: nil)
        let work = most(workdays, except: home)
        for j in places.indices {
            if places[j].id == home { places[j].suggestion = "home" }
            if places[j].id == work { places[j].suggestion = "work" }
        }
    }
}

/// Places (by index) in cells of a latitude-longitude grid whose cells are at least `radius`
/// wide wherever the visits lie: the places within `radius` of a point are among those of its
/// cell and the eight around it. Columns count from 180° W, the last one (wider, up to twice as
/// wide) beside the first across the antimeridian.
struct Grid {
    private let latitudeStep: Double
    private let longitudeStep: Double
    private let columns: Int
    private var cells: [Cell: [Int]] = [:]

    private struct Cell: Hashable {
        var row: Int
        var column: Int
    }

    init(radius: Double, visits: [Visit]) {
        // A degree of latitude is at least 110.5 km; a degree of longitude that times the cosine
        // of the latitude, smallest at the visits' farthest from the equator (a tenth of a margin).
        let metres = Swift.max(radius, 1) * 1.1
        latitudeStep = metres / 110_500
        // Within 11 km of a pole, one column: every longitude is near.
        let farthest = visits.map { abs($0.center.latitude) }.max() ?? 0
        longitudeStep = farthest > 89.9 ? 360 : Swift.min(metres / (110_500 * cos(farthest * .pi / 180)), 360)
        columns = Swift.max(1, Int((360 / longitudeStep).rounded(.down)))
    }

    private func cell(_ c: Coordinate) -> Cell {
        let column = Int(((c.longitude + 180) / longitudeStep).rounded(.down))
        return Cell(
            row: Int((c.latitude / latitudeStep).rounded(.down)), column: Swift.min(Swift.max(column, 0), columns - 1))
    }

    mutating func add(_ index: Int, at c: Coordinate) { cells[cell(c), default: []].append(index) }

    mutating func move(_ index: Int, from a: Coordinate, to b: Coordinate) {
        let (from, to) = (cell(a), cell(b))
        guard from != to else { return }
        cells[from]?.removeAll { $0 == index }
        cells[to, default: []].append(index)
    }

    /// The places of the cell of `c` and the eight around it.
    func near(_ c: Coordinate) -> [Int] {
        let home = cell(c)
        let around = Set([home.column - 1, home.column, home.column + 1].map { ($0 + columns) % columns })
        var found: [Int] = []
        for row in (home.row - 1)...(home.row + 1) {
            for column in around {
                if let here = cells[Cell(row: row, column: column)] { found += here }
            }
        }
        return found
    }
}
