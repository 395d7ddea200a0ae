import Foundation
import GPSCore

/// Finds visits and the trips between them in a stream of fixes in time order, in bounded
/// memory (a stay not yet long enough to count keeps its fixes, at most ``VisitRules/minDuration``
/// of them; a trip keeps only its ``TripProfile``).
///
/// A stay grows while each fix is within the radius of the mean of its fixes. A fix outside is
/// held: when the next ones come back, the held ones were a reflection and are passed over; when
/// the fixes outside go on for 30 s (three of them at least) or two minutes (two), the person
/// left. The stay then ends at its last fix there, and is a visit when it lasted
/// ``VisitRules/minDuration``; otherwise its fixes were on the way. A time without fixes is bridged
/// when the next fix is where the person was (up to ``VisitRules/maxGap``).
public struct StayDetector: Sendable {
    public let rules: VisitRules
    private var stay: Stay?
    private var held: [VisitPoint] = []
    private var trip: TripProfile?
    private var lastMilliseconds: Int64 = .min
    /// Fixes not looked at: less accurate than the rules allow, or not later than the one before.
    public private(set) var passedOver = 0

    public init(rules: VisitRules = VisitRules()) {
        self.rules = rules
    }

    /// The visits and trips of `points` (in time order), in time order.
    public static func movements(_ points: some Sequence<VisitPoint>, rules: VisitRules = VisitRules()) -> [Movement] {
        var detector = StayDetector(rules: rules)
        var found: [Movement] = []
        for p in points { detector.add(p) { found.append($0) } }
        detector.finish { found.append($0) }
        return found
    }

    public mutating func add(_ p: VisitPoint, _ emit: (Movement) -> Void) {
        guard p.milliseconds > lastMilliseconds, (p.accuracy ?? 0) <= rules.maxAccuracy else {
            passedOver += 1
            return
        }
        if lastMilliseconds != .min, Double(p.milliseconds - lastMilliseconds) / 1000 > rules.maxGap {
            // Too long without a fix to know what happened in between.
            close(emit, ongoing: false)
        }
        lastMilliseconds = p.milliseconds
        place(p, emit)
    }

    /// Ends the stream: a stay long enough is the last visit (``Visit/ongoing``).
    public mutating func finish(_ emit: (Movement) -> Void) {
        close(emit, ongoing: true)
    }

    private mutating func place(_ p: VisitPoint, _ emit: (Movement) -> Void) {
        guard stay != nil else {
            stay = Stay(p)
            return
        }
        let reach = Swift.max(rules.radius, p.accuracy ?? 0)
        if stay!.metres(to: p) <= reach {
            held = []
            // In place: a copy would make every append copy the stay's fixes.
            stay!.add(p, minDuration: rules.minDuration)
            return
        }
        held.append(p)
        let span = held.last!.milliseconds - held.first!.milliseconds
        guard (held.count >= 3 && span >= 30_000) || (held.count >= 2 && span >= 120_000) else { return }
        // Gone: the stay ends at its last fix there.
        let again = held
        held = []
        let s = stay!
        stay = nil
        depart(s, emit)
        for q in again { place(q, emit) }
    }

    /// The stay `s` is over: a visit when long enough (the trip to it ends at its first fix, the
    /// next one starts at its last), otherwise its fixes were on the way.
    private mutating func depart(_ stay: Stay, _ emit: (Movement) -> Void, ongoing: Bool = false) {
        var s = stay
        if s.seconds >= rules.minDuration {
            let way = ongoing ? [] : s.trimDeparture()
            for q in s.arrival + [s.first] {
                if trip == nil { trip = TripProfile(q) } else { trip!.add(q) }
            }
            if let t = trip, t.fixes > 1 { emit(.trip(t.trip)) }
            var v = s.visit
            v.ongoing = ongoing
            emit(.visit(v))
            trip = TripProfile(s.last)
            for q in way { trip!.add(q) }
        } else {
            for q in s.fixes {
                if trip == nil { trip = TripProfile(q) } else { trip!.add(q) }
            }
        }
    }

    /// Ends what is under way: the stay, the fixes held outside it, the trip.
    private mutating func close(_ emit: (Movement) -> Void, ongoing: Bool) {
        let leftover = held
        held = []
        if let s = stay { depart(s, emit, ongoing: ongoing) }
        stay = nil
        for q in leftover {
            if trip == nil { trip = TripProfile(q) } else { trip!.add(q) }
        }
        if let t = trip, t.fixes > 1 { emit(.trip(t.trip)) }
        trip = nil
    }
}

/// A stay under way: the mean of its fixes in a plane tangent at its first one, and their spread.
///
/// Its edges are trimmed to where the person stood: the fixes of the way in (each nearer the
/// centre than the one before, all farther than twice the spread) and of the way out (each
/// farther) belong to the trips, so a visit starts and ends within a fix or two of the truth
/// whatever the speed of arrival.
struct Stay: Sendable {
    private(set) var first: VisitPoint
    private(set) var last: VisitPoint
    private(set) var count = 0
    /// Its fixes while it is too short to be a visit (they belong to a trip if it stays so).
    private(set) var fixes: [VisitPoint] = []
    /// The fixes of the way in, trimmed off when the stay became long enough.
    private(set) var arrival: [VisitPoint] = []
    /// The last fixes there, each farther from the centre than the one before: the way out so far.
    private var leaving: [(point: VisitPoint, distance: Double)] = []
    /// The last fix before the way out began.
    private var standing: VisitPoint
    private var trimmed = false
    private var sumX = 0.0, sumY = 0.0, sumXX = 0.0, sumYY = 0.0
    private let origin: Coordinate
    private let metresPerDegreeX: Double
    static let metresPerDegreeY = 111_132.0

    init(_ p: VisitPoint) {
        origin = p.coordinate
        first = p
        last = p
        standing = p
        metresPerDegreeX = Self.metresPerDegreeY * cos(p.coordinate.latitude * .pi / 180)
        add(p, minDuration: .infinity)
    }

    var seconds: Double { Double(last.milliseconds - first.milliseconds) / 1000 }

    var center: Coordinate {
        let n = Double(Swift.max(count, 1))
        var lon = origin.longitude + sumX / n / Swift.max(metresPerDegreeX, 1e-6)
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        return Coordinate(latitude: origin.latitude + sumY / n / Self.metresPerDegreeY, longitude: lon)
    }

    /// How far `p` is from the centre, metres, in the plane tangent at the stay's first fix (no
    /// trigonometry: within a few hundred metres, where a fix is compared with the radius, the
    /// plane is within centimetres of the sphere).
    func metres(to p: VisitPoint) -> Double {
        let n = Double(Swift.max(count, 1))
        let (x, y) = offset(p)
        let dx = x - sumX / n
        let dy = y - sumY / n
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Root mean square distance of the fixes from the centre, metres.
    var spread: Double {
        let n = Double(Swift.max(count, 1))
        return Swift.max(0, (sumXX + sumYY) / n - (sumX * sumX + sumY * sumY) / (n * n)).squareRoot()
    }

    /// How far from the centre a fix of the way in or out is at least, metres.
    var edge: Double { Swift.max(25, 2 * spread) }

    private func offset(_ p: VisitPoint) -> (x: Double, y: Double) {
        var dLon = p.coordinate.longitude - origin.longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        return (dLon * metresPerDegreeX, (p.coordinate.latitude - origin.latitude) * Self.metresPerDegreeY)
    }

    private mutating func sum(_ p: VisitPoint, _ sign: Double) {
        let (x, y) = offset(p)
        sumX += sign * x
        sumY += sign * y
        sumXX += sign * x * x
        sumYY += sign * y * y
        count += sign > 0 ? 1 : -1
    }

    mutating func add(_ p: VisitPoint, minDuration: Double) {
        let before = last
        sum(p, 1)
        last = p
        if !fixes.isEmpty || count == 1 { fixes.append(p) }
        let d = metres(to: p)
        if d > edge, d > leaving.last?.distance ?? 0 {
            if leaving.isEmpty { standing = before }
            leaving.append((p, d))
        } else {
            leaving = []
        }
        guard seconds >= minDuration else { return }
        guard !trimmed else {
            // Long enough again after the way in was cut: its fixes are no longer needed.
            if !fixes.isEmpty { fixes = [] }
            return
        }
        // Long enough: the way in is not part of it. Where the person stands is the mean of the
        // later half of the time (on the way in a phone reports more often than standing still,
        // so the mean of all fixes leans towards the way in).
        trimmed = true
        let half = first.milliseconds + (last.milliseconds - first.milliseconds) / 2
        let standing = fixes.filter { $0.milliseconds >= half }
        var (x, y, xx, yy) = (0.0, 0.0, 0.0, 0.0)
        for q in standing {
            let o = offset(q)
            (x, y, xx, yy) = (x + o.x, y + o.y, xx + o.x * o.x, yy + o.y * o.y)
        }
        let n = Double(standing.count)
        let limit = Swift.max(25, 2 * Swift.max(0, (xx + yy) / n - (x * x + y * y) / (n * n)).squareRoot())
        func distance(_ q: VisitPoint) -> Double {
            let o = offset(q)
            return ((o.x - x / n) * (o.x - x / n) + (o.y - y / n) * (o.y - y / n)).squareRoot()
        }
        var cut = 0
        while cut + 1 < fixes.count {
            let d = distance(fixes[cut])
            guard d > limit, d > distance(fixes[cut + 1]) else { break }
            cut += 1
        }
        arrival = Array(fixes[..<cut])
        for q in arrival { sum(q, -1) }
        first = fixes[cut]
        fixes = seconds >= minDuration ? [] : Array(fixes[cut...])
    }

    /// The fixes of the way out (each farther than the one before, beyond the edge), taken off.
    mutating func trimDeparture() -> [VisitPoint] {
        let out = leaving.map(\.point)
        guard !out.isEmpty, out.count < count else { return [] }
        for q in out { sum(q, -1) }
        leaving = []
        last = standing
        return out
    }

    var visit: Visit {
        Visit(start: first.milliseconds, end: last.milliseconds, center: center, spread: spread, fixes: count)
    }
}
