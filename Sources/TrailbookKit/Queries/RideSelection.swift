import Formats
import Foundation
import GPSCore
import Reports
import TrackModel
import Visits

/// Why a query finds nothing to work on.
public enum QueryError: ServiceFailure, Equatable {
    case noRide(Int64, store: String)
    /// No rides in what was asked for (`name`: "2026-06-14", "ride 3"), with the zone of the days.
    case noRides(String, zone: String)

    public var kind: FailureKind { .missingInput }

    public var description: String {
        switch self {
        case .noRide(let id, let store): return "There is no ride \(id) in \(store)."
        case .noRides(let name, let zone): return "No rides stored on \(name) (\(zone))."
        }
    }
}

/// The stored rides a summary, an export or a page covers, with their points.
public struct RideSelection {
    /// Which rides.
    public enum Scope: Sendable {
        case ride(Int64)
        /// A local day, cut where the person was (``DayZone``).
        case day(CivilDate)
        /// Local days from `first` to `last`, both included; nil: without that bound.
        case days(first: CivilDate?, last: CivilDate?)
    }

    public var rides: [(ride: StoredRide, points: [TrackPoint])]
    /// `[from, to)` covered, ms since 1970 UTC.
    public var from: Int64
    public var to: Int64
    /// A name for titles: "ride 3", "2026-06-14", "2026-06-01 to 2026-06-14".
    public var name: String
    /// Days cut around stays: the kept moves (``VisitService/find``) that overlap them, and the
    /// days' own `[from, to)` (``from``/``to`` also take in the whole of the rides). Nil for a
    /// ride asked for by its id, an export, or days not cut.
    public var moves: [Trip]?
    public var days: (from: Int64, to: Int64)?

    /// Loads the rides; an unknown ride, or no rides on the days, fails. Days of several devices
    /// are one timeline (``FusedPoints``): where two devices were there at once, the points of
    /// the better one are kept, and a ride with none kept is not in the selection; with `fused`
    /// false (an export, which gives each device's rides as stored) every point is.
    ///
    /// Days (not a ride asked for by its id, not an export) are cut around the stays of the
    /// person's timeline (``moving(_:stays:)``, with `stays`; nil: not cut): a night at home, or
    /// a phone lying still for hours, is no ride and no part of one.
    public static func load(
        _ scope: Scope, store: any TrackStoring, zone: TimeZone, devices: DeviceFilter = .all, fused: Bool = true,
        stays: StayCut? = StayCut()
    ) async throws -> RideSelection {
        var from: Int64
        var to: Int64
        let name: String
        var only: Int64?
        // Days are cut where the person was (``DayZone``): a day in Tokyo is Tokyo's day.
        var cut = zone
        switch scope {
        case .ride(let id):
            name = "ride \(id)"
            only = id
        case .day(let day):
            name = day.description
        case .days(let first, let last):
            name = "\(first?.description ?? "start") to \(last?.description ?? "end")"
        }
        let path = store.path
        // Days cut around stays are their moves: a day of Google's visits and activities alone
        // (no points) has moves, not rides.
        let byMoves = fused && only == nil && stays != nil
        // The span, its rides and their points on one snapshot.
        var stored: [StoredRide]
        var all: [PlacedPoint]
        (from, to, cut, stored, all) = try await store.read { [only] tx in
            var (from, to, cut) = (Int64(0), Int64(0), zone)
            switch scope {
            case .ride(let id):
                guard let range = try tx.rideRange(id) else { throw QueryError.noRide(id, store: path) }
                (from, to) = (range.start, range.end + 1)
            case .day(let day):
                (from, to, cut) = try DayZone.range(first: day, last: day, store: tx, devices: devices, zone: zone)
            case .days(let first, let last):
                (from, to, cut) = try DayZone.range(
                    first: first, last: last, store: tx, devices: devices, zone: zone)
            }
            var stored = try tx.rides(fromMilliseconds: from, toMilliseconds: to, devices: devices)
            if let only { stored = stored.filter { $0.id == only } }
            if stored.isEmpty {
                if byMoves { return (from, to, cut, stored, []) }
                throw QueryError.noRides(name, zone: cut.displayIdentifier)
            }
            let all = try tx.pointsWithSegments(
                fromMilliseconds: stored.map(\.startMilliseconds).min()!,
                toMilliseconds: stored.map(\.endMilliseconds).max()! + 1, devices: devices)
            return (from, to, cut, stored, all)
        }
        if fused, only == nil, FusedPoints.spansDevices(devices) { all = FusedPoints.fuse(all) }
        var byRide: [Int64: [TrackPoint]] = [:]
        for p in all { byRide[p.ride, default: []].append(TrackPoint(fix: p.fix, segment: p.segment)) }
        if fused, only == nil { stored = stored.filter { byRide[$0.id] != nil } }
        var rides = stored.map { ($0, byRide[$0.id] ?? []) }
        var moves: [Trip]?
        let days = (from: from, to: to)
        if fused, only == nil, let stays {
            let found = try await VisitService.find(
                store: store, fromMilliseconds: from, toMilliseconds: to, devices: devices, rules: stays.rules,
                zone: zone)
            rides = moving(rides, stays: stays.stays(found))
            moves = found.trips.filter { YearReview.share($0, from: from, to: to) > 0 }
            stored = rides.map(\.0)
            if stored.isEmpty, moves?.isEmpty != false { throw QueryError.noRides(name, zone: cut.displayIdentifier) }
        }
        // Days count what was done in them: a ride over midnight is cut there (docs/TIMELINE.md,
        // "Midnight"), so two days never count the same minutes.
        if fused, only == nil {
            rides = within(rides, from: from, to: to)
            stored = rides.map(\.0)
            if stored.isEmpty, moves?.isEmpty != false { throw QueryError.noRides(name, zone: cut.displayIdentifier) }
        }
        if only == nil, !stored.isEmpty {
            from = min(from, stored.map(\.startMilliseconds).min()!)
            to = max(to, stored.map(\.endMilliseconds).max()! + 1)
        }
        return RideSelection(
            rides: rides, from: from, to: to, name: name, moves: moves, days: moves == nil ? nil : days)
    }

    /// Which stays cut rides: the visits found with `rules` (the config's `visits.*`) that last
    /// `minimumSeconds` or more (10 minutes, as long as a stop that ends a receiver's ride by
    /// default, `segments.ride_stop`).
    public struct StayCut: Sendable {
        public var rules: VisitRules
        public var minimumSeconds: Double

        public init(rules: VisitRules = VisitRules(), minimumSeconds: Double = 600) {
            self.rules = rules
            self.minimumSeconds = minimumSeconds
        }

        /// The stays of `found` that cut rides.
        public func stays(_ found: VisitFindings) -> [RideParts.Stay] {
            found.visits.filter { $0.seconds >= minimumSeconds }.map {
                RideParts.Stay(start: $0.start, end: $0.end, center: $0.center)
            }
        }
    }

    /// Each ride's moving parts (``RideParts``): a ride cut by a stay is listed as its parts
    /// (each with the ride's id, its own times and points; its drops on the first), a ride
    /// that is all stay not at all. A part that leaves (reaches) a stay begins (ends) at the
    /// stay's centre: the way from where the person stood to the first fix past the stay's edge
    /// is counted, at the speed of the part's first (last) leg.
    public static func moving(_ rides: [(StoredRide, [TrackPoint])], stays: [RideParts.Stay])
        -> [(StoredRide, [TrackPoint])]
    {
        guard !stays.isEmpty else { return rides }
        return rides.flatMap { ride, points -> [(StoredRide, [TrackPoint])] in
            let parts = RideParts.parts(points.map { $0.fix.unixMilliseconds ?? 0 }, stays: stays)
            if parts.map(\.points) == [points.indices], parts[0].leaves == nil, parts[0].reaches == nil {
                return [(ride, points)]
            }
            return parts.enumerated().map { n, part in
                var kept = Array(points[part.points])
                if let from = part.leaves?.center, let step = Self.step(from, kept[0], kept[1]) {
                    kept.insert(step, at: 0)
                }
                if let to = part.reaches?.center, let step = Self.step(to, kept[kept.count - 1], kept[kept.count - 2]) {
                    kept.append(step)
                }
                var piece = ride
                piece.startMilliseconds = kept.first!.fix.unixMilliseconds ?? ride.startMilliseconds
                piece.endMilliseconds = kept.last!.fix.unixMilliseconds ?? ride.endMilliseconds
                piece.pointCount = part.points.count
                piece.segmentCount = Set(kept.map(\.segment)).count
                if n > 0 { piece.drops = [:] }
                return (piece, kept)
            }
        }
    }

    /// Each ride's part in `[from, to)`: a ride that begins before or ends after is its points
    /// within (its drops with the part where it began), one with none there is left out.
    static func within(_ rides: [(StoredRide, [TrackPoint])], from: Int64, to: Int64) -> [(StoredRide, [TrackPoint])] {
        rides.compactMap { ride, points in
            guard ride.startMilliseconds < from || ride.endMilliseconds >= to else { return (ride, points) }
            let kept = points.filter { p in p.fix.unixMilliseconds.map { $0 >= from && $0 < to } ?? false }
            guard let first = kept.first?.fix.unixMilliseconds, let last = kept.last?.fix.unixMilliseconds else {
                return nil
            }
            var piece = ride
            (piece.startMilliseconds, piece.endMilliseconds) = (first, last)
            piece.pointCount = kept.count
            piece.segmentCount = Set(kept.map(\.segment)).count
            if ride.startMilliseconds < from { piece.drops = [:] }
            return (piece, kept)
        }
    }

    /// The point at `place` (a stay's centre) one leg away from `end` (a part's first or last
    /// point, `next` beside it): at the time the leg's speed puts it; nil when it is under 5 m
    /// away or the leg is slower than 0.5 m/s.
    static func step(_ place: Coordinate, _ end: TrackPoint, _ next: TrackPoint) -> TrackPoint? {
        guard let t = end.fix.unixMilliseconds, let u = next.fix.unixMilliseconds, let a = end.fix.coordinate,
            let b = next.fix.coordinate, t != u
        else { return nil }
        let speed = Geodesy.haversineDistance(a, b) / (Double(abs(u - t)) / 1000)
        let away = Geodesy.haversineDistance(place, a)
        guard away >= 5, speed >= 0.5 else { return nil }
        let ms = Int64((away / speed * 1000).rounded())
        var fix = end.fix
        fix.coordinate = place
        let at = u > t ? t - ms : t + ms
        UTCTimestamp.set(at, on: &fix)
        return TrackPoint(fix: fix, segment: end.segment)
    }

    /// Each ride's statistics and, for more than one ride, their total.
    public func statistics(
        _ options: StatisticsOptions = StatisticsOptions()
    ) -> (rides: [(ride: StoredRide, statistics: RideStatistics)], total: RideStatistics?) {
        let perRide = rides.map { r in (r.ride, RideStatistics.compute(r.points, drops: r.ride.drops, options: options))
        }
        return (perRide, perRide.count > 1 ? RideStatistics.total(perRide.map(\.1)) : nil)
    }

    /// Each kept move of the days with its statistics, and for more than one their total: the
    /// move's distance and moving time are the kept ones (its share within the days, as `year`
    /// counts them, docs/TIMELINE.md), so a day has one answer; its climb, altitudes, speeds,
    /// splits and quality come from the selection's points within its time. Nil when the
    /// selection has no kept moves (``moves``).
    public func moveStatistics(_ options: StatisticsOptions = StatisticsOptions())
        -> (moves: [(move: Trip, statistics: RideStatistics)], total: RideStatistics?)?
    {
        guard let moves, let (from, to) = days else { return nil }
        // One timeline of the selection's points, each ride's segments numbered apart.
        var segments: [Int64: [Int64: Int64]] = [:]
        var numbered: Int64 = 0
        var timeline: [TrackPoint] = []
        for (ride, points) in rides {
            for p in points {
                let n: Int64
                if let known = segments[ride.id]?[p.segment] {
                    n = known
                } else {
                    n = numbered
                    numbered += 1
                    segments[ride.id, default: [:]][p.segment] = n
                }
                timeline.append(TrackPoint(fix: p.fix, segment: n))
            }
        }
        timeline.sort { ($0.fix.unixMilliseconds ?? 0) < ($1.fix.unixMilliseconds ?? 0) }
        let times = timeline.map { $0.fix.unixMilliseconds ?? 0 }
        // A ride's drops (fixes the rules dropped) go with the move it began in, or the nearest.
        var drops = [[String: Int]](repeating: [:], count: moves.count)
        for (ride, _) in rides where !ride.drops.isEmpty && !moves.isEmpty {
            let t = ride.startMilliseconds
            let n = moves.indices.min { a, b in
                func away(_ m: Trip) -> Int64 { t < m.start ? m.start - t : t > m.end ? t - m.end : 0 }
                return away(moves[a]) < away(moves[b])
            }!
            drops[n].merge(ride.drops, uniquingKeysWith: +)
        }
        let perMove = zip(moves, drops).map { move, drops -> (move: Trip, statistics: RideStatistics) in
            let (start, end) = (max(move.start, from), min(move.end, to - 1))
            let (first, last) = (Self.first(in: times, atLeast: start), Self.first(in: times, atLeast: end + 1))
            var s = RideStatistics.compute(Array(timeline[first..<last]), drops: drops, options: options)
            let share = YearReview.share(move, from: from, to: to)
            (s.start, s.end) = (start, end)
            s.elapsed = Double(end - start) / 1000
            s.distance = move.distance * share
            s.moving = move.movingSeconds * share
            s.averageMovingSpeed = s.moving > 0 ? s.distance / s.moving : nil
            return (move, s)
        }
        guard perMove.count > 1 else { return (perMove, nil) }
        return (perMove, RideStatistics.total(perMove.map(\.statistics)))
    }

    /// The index of the first of `sorted` that is `least` or more (`sorted.count` for none).
    static func first(in sorted: [Int64], atLeast least: Int64) -> Int {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < least { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The selection as a file's content, for the GPX, GeoJSON, KML, CSV and JSON writers: its
    /// rides as segments, with `records` the records of `account`'s diary in its time (the store's
    /// own user's for nil) with what they carry, and with `timeline` the stays and moves of that
    /// time as places (``TimelinePlaces``) in place of those an earlier export wrote.
    public func export(
        store: any TrackStoring, records: Bool, account: String? = nil, timeline: TimelinePlaces? = nil
    ) async throws -> TrackExport {
        let rides = rides.map { ride, points in
            TrackExport.Ride(id: ride.id, segments: DayReport.segments(points).map { $0.map(\.fix) })
        }
        let (from, to) = (self.from, self.to)
        let kept =
            records
            ? try await store.read { try $0.records(fromMilliseconds: from, toMilliseconds: to, account: account) }
            : []
        var places =
            kept
            .filter { r in timeline == nil || !r.fields.contains { $0.key == TimelinePlaces.key } }
            .map {
                r in
                TrackExport.Place(
                    id: r.id!, milliseconds: r.milliseconds, coordinate: r.coordinate, altitude: r.altitude,
                    notes: r.notes.map(\.text), photos: r.photos.map { store.mediaDirectory + "/" + $0.file },
                    fields: r.fields.map { ($0.key, $0.value.description) })
            }
        if let timeline {
            places += try await timeline.places(store: store, from: from, to: to)
            places.sort { $0.milliseconds < $1.milliseconds }
        }
        return TrackExport(name: "Trailbook \(name)", rides: rides, places: places)
    }
}
