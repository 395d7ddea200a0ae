import GPSCore

/// An edit of the timeline's shape that the user made (docs/TIMELINE.md, "Edits"). Each names
/// the stay or move it changes by a moment inside it, as the other corrections do, and is
/// applied over whatever the detection found, in the order the edits were made: so it stands
/// when the detection is done again (new points, other `[visits]` settings, a new version).
public enum TimelineEdit: Equatable, Sendable {
    /// The stay at `at` (or, where no stay holds it, the move) never happened. A stay's moves on
    /// either side become one move; a move's stays on either side, within twice the stay radius
    /// of each other, one stay.
    case remove(at: Int64)
    /// The stay at `at` ran from `from` to `to`; what else it now covers gives way, and the moves
    /// that met it meet it at its new times.
    case times(at: Int64, from: Int64, to: Int64)
    /// The stays at `at` and at `other`, and everything between them, are one stay.
    case merge(at: Int64, other: Int64)
    /// The stay at `at` is two: the second from `from`.
    case split(at: Int64, from: Int64)
    /// A stay the detection missed, at `center` from `from` to `to`; what it covers gives way (a
    /// move through it becomes the way there and the way on).
    case add(from: Int64, to: Int64, center: Coordinate)
}

extension TimelineEdit {
    /// Applies `edits` in order to `visits` and `trips` (in time order, and left so). An edit
    /// whose moment no stay (or move) holds any more changes nothing. `radius` is the stay radius
    /// (`visits.radius`).
    public static func apply(_ edits: [TimelineEdit], visits: inout [Visit], trips: inout [Trip], radius: Double) {
        guard !edits.isEmpty else { return }
        var timeline = Shape(visits: visits, trips: trips)
        for edit in edits { timeline.apply(edit, radius: radius) }
        visits = timeline.visits.sorted { $0.start < $1.start }
        trips = timeline.trips.sorted { $0.start < $1.start }
    }

    /// Where two entries count as meeting: a move runs from a stay's last fix to the next one's
    /// first, so its ends are the stays' (a minute's leeway).
    static let meets: Int64 = 60_000
}

/// The stays and moves an edit changes.
struct Shape {
    var visits: [Visit]
    var trips: [Trip]

    func visit(at t: Int64) -> Int? { visits.firstIndex { $0.start <= t && t <= $0.end } }
    func trip(at t: Int64) -> Int? { trips.firstIndex { $0.start <= t && t <= $0.end } }

    mutating func apply(_ edit: TimelineEdit, radius: Double) {
        switch edit {
        case .remove(let at):
            if let i = visit(at: at) {
                removeVisit(i)
            } else if let i = trip(at: at) {
                removeTrip(i, radius: radius)
            }
        case .times(let at, let from, let to):
            guard from < to, let i = visit(at: at) else { return }
            var v = visits.remove(at: i)
            let before = trips.firstIndex { abs($0.end - v.start) <= TimelineEdit.meets }
            let after = trips.firstIndex { abs($0.start - v.end) <= TimelineEdit.meets }
            let (wasBefore, wasAfter) = (before.map { trips[$0] }, after.map { trips[$0] })
            (v.start, v.end) = (from, to)
            giveWay(from, to)
            // The moves that met the stay meet it still (a stay made shorter: the move took longer).
            if let t = wasBefore, let j = trips.firstIndex(where: { $0.start == t.start }), trips[j].end < from {
                trips[j].end = from
            }
            if let t = wasAfter, let j = trips.firstIndex(where: { $0.end == t.end }), trips[j].start > to {
                trips[j].start = to
            }
            visits.append(v)
        case .merge(let at, let other):
            guard let i = visit(at: at), let j = visit(at: other), i != j else { return }
            let (a, b) = (min(visits[i].start, visits[j].start), max(visits[i].end, visits[j].end))
            let inside = visits.filter { $0.start >= a && $0.end <= b }
            var merged = inside.max { $0.fixes < $1.fixes } ?? visits[i]
            merged.id = visits[min(i, j)].id
            (merged.start, merged.end) = (a, b)
            merged.fixes = inside.map(\.fixes).reduce(0, +)
            merged.spread = inside.map(\.spread).max() ?? merged.spread
            merged.ongoing = inside.contains { $0.ongoing }
            (merged.place, merged.placeCorrected) = (nil, false)
            visits.removeAll { $0.start >= a && $0.end <= b }
            trips.removeAll { $0.start >= a && $0.end <= b }
            visits.append(merged)
        case .split(let at, let from):
            guard let i = visit(at: at), visits[i].start < from, from < visits[i].end else { return }
            let v = visits[i]
            var (first, second) = (v, v)
            first.end = from
            second.start = from
            first.ongoing = false
            second.id = nil
            let share = Double(from - v.start) / Double(v.end - v.start)
            first.fixes = max(1, Int((Double(v.fixes) * share).rounded()))
            second.fixes = max(1, v.fixes - first.fixes)
            visits[i] = first
            visits.append(second)
        case .add(let from, let to, let center):
            guard from < to else { return }
            giveWay(from, to)
            visits.append(Visit(start: from, end: to, center: center, spread: 0, fixes: 1))
        }
    }

    /// A stay taken away: the moves on either side, when both meet it, become one.
    mutating func removeVisit(_ i: Int) {
        let v = visits.remove(at: i)
        guard let a = trips.firstIndex(where: { abs($0.end - v.start) <= TimelineEdit.meets }),
            let b = trips.firstIndex(where: { abs($0.start - v.end) <= TimelineEdit.meets }), a != b
        else { return }
        let (x, y) = (trips[a], trips[b])
        var joined = x.movingSeconds >= y.movingSeconds ? x : y
        joined.id = x.id
        (joined.start, joined.end, joined.from, joined.to) = (x.start, y.end, x.from, y.to)
        joined.distance = x.distance + y.distance
        joined.movingSeconds = x.movingSeconds + y.movingSeconds
        if joined.movingSeconds > 0 {
            joined.medianSpeed =
                (x.medianSpeed * x.movingSeconds + y.medianSpeed * y.movingSeconds) / joined.movingSeconds
        }
        joined.highSpeed = max(x.highSpeed, y.highSpeed)
        joined.fixes = x.fixes + y.fixes + v.fixes
        trips.removeAll { $0.start == x.start || $0.start == y.start }
        trips.append(joined)
    }

    /// A move taken away: the stays on either side, when both meet it and lie within twice the
    /// stay radius of each other, become one.
    mutating func removeTrip(_ i: Int, radius: Double) {
        let t = trips.remove(at: i)
        guard let a = visits.firstIndex(where: { abs($0.end - t.start) <= TimelineEdit.meets }),
            let b = visits.firstIndex(where: { abs($0.start - t.end) <= TimelineEdit.meets }), a != b,
            Geodesy.haversineDistance(visits[a].center, visits[b].center) <= 2 * radius
        else { return }
        var joined = visits[a].fixes >= visits[b].fixes ? visits[a] : visits[b]
        joined.id = visits[a].id
        (joined.start, joined.end) = (visits[a].start, visits[b].end)
        joined.fixes = visits[a].fixes + visits[b].fixes + t.fixes
        joined.spread = max(visits[a].spread, visits[b].spread)
        joined.ongoing = visits[b].ongoing
        let (x, y) = (visits[a].start, visits[b].start)
        visits.removeAll { $0.start == x || $0.start == y }
        visits.append(joined)
    }

    /// Everything over `[from, to]` gives way to a stay there: what lies within goes, what
    /// overlaps an end is cut there, what spans it is cut in two around it.
    mutating func giveWay(_ from: Int64, _ to: Int64) {
        var kept: [Visit] = []
        for v in visits {
            if v.end <= from || v.start >= to {
                kept.append(v)
                continue
            }
            if v.start < from {
                var head = v
                head.end = from
                head.ongoing = false
                kept.append(head)
            }
            if v.end > to {
                var tail = v
                tail.start = to
                if v.start < from { tail.id = nil }
                kept.append(tail)
            }
        }
        visits = kept
        var ways: [Trip] = []
        for t in trips {
            if t.end <= from || t.start >= to {
                ways.append(t)
                continue
            }
            if t.start < from { ways.append(Self.part(of: t, from: t.start, to: from)) }
            if t.end > to {
                var tail = Self.part(of: t, from: to, to: t.end)
                if t.start < from { tail.id = nil }
                ways.append(tail)
            }
        }
        trips = ways
    }

    /// The part of move `t` from `a` to `b`: its figures in proportion to its time, its ends where
    /// a steady way from its start to its end would have been then.
    static func part(of t: Trip, from a: Int64, to b: Int64) -> Trip {
        let span = Double(t.end - t.start)
        func at(_ ms: Int64) -> Coordinate {
            let f = span > 0 ? Double(ms - t.start) / span : 0
            return Coordinate(
                latitude: t.from.latitude + (t.to.latitude - t.from.latitude) * f,
                longitude: t.from.longitude + (t.to.longitude - t.from.longitude) * f)
        }
        let share = span > 0 ? Double(b - a) / span : 1
        var part = t
        (part.start, part.end, part.from, part.to) = (a, b, at(a), at(b))
        part.distance = t.distance * share
        part.movingSeconds = t.movingSeconds * share
        part.fixes = max(1, Int((Double(t.fixes) * share).rounded()))
        return part
    }
}
