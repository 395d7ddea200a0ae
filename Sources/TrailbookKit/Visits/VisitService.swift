import Foundation
import GPSCore
import Synchronization
import TrackModel
import Visits

/// What the points of a time say about where the person was: visits, the trips between them,
/// and the places the visits make.
public struct VisitFindings: Sendable {
    public var visits: [Visit]
    public var trips: [Trip]
    /// The places of `visits`, by id.
    public var places: [Int: VisitPlace]
    /// The populated place of the gazetteer nearest each place (by place id), when one is loaded.
    public var localities: [Int: GazetteerEntry] = [:]
    /// Each place's street address from the user's own geocoder (by place id), where it gave one.
    public var addresses: [Int: String] = [:]
    /// Points read, and those not looked at (too vague or not later than the one before).
    public var points: Int
    public var passedOver: Int

    /// The visit's place as a person would call it: their own place's name, home or work as
    /// suggested, else "place N".
    public func name(of visit: Visit) -> String {
        guard let id = visit.place, let place = places[id] else { return "somewhere" }
        return Self.name(of: place)
    }

    public static func name(of place: VisitPlace) -> String {
        place.name ?? place.suggestion.map { "\($0) (suggested)" } ?? "place \(place.id)"
    }

    /// "Zürich, CH": the populated place nearest the visit's place, when the gazetteer has one.
    public func locality(of visit: Visit) -> String? {
        visit.place.flatMap { localities[$0] }.map { "\($0.name), \($0.country)" }
    }

    /// The street address of the visit's place, when the user's geocoder gave one.
    public func address(of visit: Visit) -> String? { visit.place.flatMap { addresses[$0] } }

    /// "Kloten, CH" and "Hounslow, GB": the populated places of the visits a trip left and reached.
    public func localities(of trip: Trip) -> (from: String?, to: String?) {
        let left = visits.last { $0.end == trip.start }
        let reached = visits.first { $0.start == trip.end }
        return (left.flatMap(locality(of:)), reached.flatMap(locality(of:)))
    }

    /// The time zone where the visit was: its populated place's, when the gazetteer gives one.
    /// A visit far from every populated place (an airport, a hut) takes the zone of the visit
    /// nearest in time that has one, when that zone's time lies within 3 hours of the visit's
    /// solar time, else a fixed offset at its solar time (``ConditionsService/zone(near:at:configured:)``).
    public func zone(of visit: Visit) -> TimeZone? {
        if let own = placeZone(of: visit) { return own }
        guard !localities.isEmpty else { return nil }
        let nearest = visits.filter { placeZone(of: $0) != nil }.min {
            Swift.min(abs($0.start - visit.start), abs($0.end - visit.start))
                < Swift.min(abs($1.start - visit.start), abs($1.end - visit.start))
        }
        guard let near = nearest.flatMap(placeZone(of:)) else { return nil }
        return ConditionsService.zone(near: visit.center.longitude, at: visit.start, configured: near)
    }

    private func placeZone(of visit: Visit) -> TimeZone? {
        visit.place.flatMap { localities[$0] }.flatMap { TimeZone(identifier: $0.zone) }
    }

    /// The zone at moment `ms` on the way: that of the visit the trip left (or reached, when it
    /// left none).
    public func zone(at ms: Int64) -> TimeZone? {
        let visit =
            visits.last { $0.start <= ms && ms <= $0.end } ?? visits.last { $0.end <= ms } ?? visits.first
        return visit.flatMap(zone(of:))
    }

    /// Visits and trips in time order.
    public var movements: [Movement] {
        (visits.map(Movement.visit) + trips.map(Movement.trip)).sorted { $0.start < $1.start }
    }
}

/// Finds visits and trips in the stored points (every device of the filter, fused into one
/// timeline by ``FusedPoints``, in time order) on
/// demand, from the time asked for and half a day or a day on either side (so a stay across
/// midnight, or a night at home, is whole). A place keeps the id it was first found with; the user's
/// corrections (``MovementCorrection``) are applied. With a gazetteer loaded
/// (`trailbook geocoder import`), each place gets the nearest populated place in it.
public enum VisitService {
    /// How much time of points is read at once, ms.
    static let window: Int64 = 2 * 86_400_000

    /// What the detector found in the points of `[a, b)`.
    struct Detected: Sendable {
        var visits: [Visit] = []
        var trips: [Trip] = []
        var points = 0
        var passedOver = 0

        mutating func add(_ m: Movement) {
            switch m {
            case .visit(let v): visits.append(v)
            case .trip(let t): trips.append(t)
            }
        }
    }

    /// Runs the detector over the points of `[a, b)` (an open end: from the first ride's start,
    /// to the newest point), two days of points at a time with the detector carried across: a
    /// year at 1 Hz never sits in memory. With a `memo`, the detector's state at the start of the
    /// newest ride is kept, and a later look whose earlier rides are as they were goes on from
    /// there: it reads only the points since.
    ///
    /// Each window is a read unit of its own that the detector is carried into (``Run``): it
    /// takes the points as they are read, none is held. (Reading the next window beside the
    /// detector, as an import's look at years once did on a thread of its own, was measured no
    /// faster with the reads in units, and held two windows of points: docs/BENCHMARKS.md.)
    static func detect(
        store: any TrackStoring, from a: Int64, to b: Int64, devices: DeviceFilter, rules: VisitRules,
        memo: DetectionMemo? = nil, progress: (@Sendable (_ done: Int64, _ of: (Int64, Int64)) -> Void)? = nil
    ) async throws -> Detected {
        let run = Carried(Run(detector: StayDetector(rules: rules)))
        var (start, stop) = (a, b)
        var rides: [StoredRide] = []
        if start == .min || stop == .max || memo != nil {
            rides = try await store.read { try $0.rides(fromMilliseconds: a, toMilliseconds: b, devices: devices) }
            // No ride in [a, b), no point (each is of a ride): nothing to read. Without this an
            // account with no point that year had it read two days at a time on every look.
            if rides.isEmpty { return Detected() }
        }
        if start == .min || stop == .max {
            guard let first = rides.first,
                let newest = try await store.read({ try $0.latestPoint(devices: devices) })?.unixMilliseconds
            else {
                return Detected()
            }
            start = max(start, first.startMilliseconds)
            stop = min(stop, newest + 1)
        }
        // Points of several devices are fused; where one device at most has rides in the whole
        // range, no window needs a look at its rides for that (years read two days at a time:
        // that look was a seventh of the reading).
        var mayFuse = FusedPoints.spansDevices(devices)
        if mayFuse {
            let all =
                rides.isEmpty
                ? try await store.read { try $0.rides(fromMilliseconds: a, toMilliseconds: b, devices: devices) }
                : rides
            mayFuse = Set(all.map(\.device)).count > 1
        }
        func read(to end: Int64) async throws {
            guard start < end else { return }
            let span = (start, stop)
            var read: (@Sendable (Int64) -> Void)?
            if let progress { read = { progress($0, span) } }
            try await eachWindow(
                store: store, from: start, to: end, devices: devices, mayFuse: mayFuse, run, progress: read
            ) {
                $0.take($1)
            }
            start = end
        }
        if let memo {
            let key = DetectionMemo.Key(devices: devices, from: a, rules: rules)
            if let kept = memo.entry(key, start: start, stop: stop, rides: rides) {
                run.change { $0 = Run(detector: kept.detector, found: kept.found, count: kept.points) }
                start = kept.at
            }
            // Read up to the newest ride's start, and keep the detector there.
            if let at = rides.map(\.startMilliseconds).max(), at > start, at < stop {
                try await read(to: at)
                let entry = run.change {
                    DetectionMemo.Entry(
                        at: at, detector: $0.detector, found: $0.found, points: $0.count,
                        rides: DetectionMemo.states(rides, before: at))
                }
                memo.keep(key, entry)
            }
        }
        try await read(to: stop)
        return run.change { run in
            var found = run.found
            run.detector.finish { found.add($0) }
            (found.points, found.passedOver) = (run.count, run.detector.passedOver)
            return found
        }
    }

    /// A value carried into read units and back out of them, changed where it is: a copy taken
    /// into a unit would duplicate the detector's buffers while both live (a walk of days is one
    /// trip in it). Its lock is taken by one caller at a time, never across an await.
    final class Carried<Value: Sendable>: Sendable {
        private let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }

        func change<T: Sendable>(_ body: (inout Value) throws -> T) rethrows -> T {
            try value.withLock { try body(&$0) }
        }
    }

    /// The detector under way and what it has found, carried into each window's read unit.
    struct Run: Sendable {
        var detector: StayDetector
        var found = Detected()
        var count = 0

        mutating func take(_ fix: Fix) {
            count += 1
            if let p = VisitPoint(fix) { add(p) }
        }

        /// (The detector hands over to `found` in a method of its own: a caller's closure that
        /// changed `run.found` while `run.detector` changes would be two accesses to `run`.)
        mutating func add(_ p: VisitPoint) { detector.add(p) { found.add($0) } }
    }

    /// The points of `[from, to)` handed to `body` with `state` in time order, read two days
    /// (``window``) at a time, each window in a read unit of its own that `state` is carried
    /// into.
    static func eachWindow<State: Sendable>(
        store: any TrackStoring, from: Int64, to: Int64, devices: DeviceFilter, mayFuse: Bool,
        _ state: Carried<State>, progress: (@Sendable (Int64) -> Void)? = nil,
        _ body: @escaping @Sendable (inout State, Fix) throws -> Void
    ) async throws {
        var start = from
        while start < to {
            let next = to - start > window ? start + window : to
            try await store.read { [start] tx in
                try state.change { state in
                    try FusedPoints.forEach(store: tx, from: start, to: next, devices: devices, mayFuse: mayFuse) {
                        try body(&state, $0)
                    }
                }
            }
            start = next
            progress?(next)
        }
    }

    /// ``detectDays(store:from:to:near:earlier:devices:rules:)``'s detector, what it has handed
    /// over and the fixes read, carried into each read unit.
    struct DaysRun: Sendable {
        var detector: StayDetector
        var emitted: [Movement] = []
        var fixes = 0

        mutating func add(_ p: VisitPoint) { detector.add(p) { emitted.append($0) } }
    }

    /// The visits and trips of the days `[from, to)`, read with `near` ms on either side, and the
    /// span read in the end; no point is read twice.
    ///
    /// When nothing was over before the days begin (what was under way at the first fix read
    /// still is: a night away from the morning before), it may have begun earlier: the detector
    /// starts again at the first of `earlier` (ms before the days, each farther) that finds
    /// something over before them, or the last, with the points up to the days kept for that.
    /// When something is still under way at the end that began before the days end (a stay
    /// past the half day, or before a night without fixes), the detector goes on to the last of
    /// `earlier` after them.
    static func detectDays(
        store: any TrackStoring, from: Int64, to: Int64, near: Int64, earlier: [Int64], devices: DeviceFilter,
        rules: VisitRules
    ) async throws -> (found: Detected, a: Int64, b: Int64) {
        let far = earlier.last ?? near
        var (a, b) = (from - near, to + near)
        let run = Carried(DaysRun(detector: StayDetector(rules: rules)))
        func read(_ start: Int64, _ end: Int64, keep: Bool = false) async throws -> [VisitPoint] {
            try await store.read { tx in
                try run.change { run in
                    var kept: [VisitPoint] = []
                    try FusedPoints.forEach(store: tx, from: start, to: end, devices: devices) { fix in
                        run.fixes += 1
                        guard let p = VisitPoint(fix) else { return }
                        run.add(p)
                        // Kept only while nothing is over: then no look before is needed.
                        if keep, run.emitted.isEmpty { kept.append(p) } else if !kept.isEmpty { kept = [] }
                    }
                    return kept
                }
            }
        }
        var before = try await read(a, from, keep: true)
        for pad in earlier where run.change({ $0.emitted.isEmpty }) {
            run.change { $0.detector = StayDetector(rules: rules) }
            let more = try await read(from - pad, a, keep: true)
            run.change { run in for p in before { run.add(p) } }
            before = more + before
            a = from - pad
        }
        _ = try await read(from, b)
        var tail: [Movement] = []
        var probe = run.change { $0.detector }
        probe.finish { tail.append($0) }
        // What `finish` hands over was still under way.
        if tail.contains(where: { $0.start < to }) {
            _ = try await read(b, to + far)
            b = to + far
            tail = run.change { run in
                var tail: [Movement] = []
                run.detector.finish { tail.append($0) }
                return tail
            }
        } else {
            run.change { $0.detector = probe }
        }
        let (detector, emitted, fixes) = run.change { ($0.detector, $0.emitted, $0.fixes) }
        var found = Detected(points: fixes, passedOver: detector.passedOver)
        for m in emitted + tail { found.add(m) }
        return (found, a, b)
    }

    /// Whether a stay that touches `[from, to)` may have begun before `a` (the first visit starts
    /// within a minute of it), and whether one may go on after `b` (the last reaches within a
    /// minute of it).
    static func cut(_ found: Detected, from: Int64, to: Int64, a: Int64, b: Int64) -> (start: Bool, end: Bool) {
        // An open range reads everything there is.
        guard a != .min, b != .max else { return (false, false) }
        let start = found.visits.first.map { $0.end >= from && $0.start - a <= 60_000 } ?? false
        let end = found.visits.last.map { $0.start < to && b - $0.end <= 60_000 } ?? false
        return (start, end)
    }

    /// What the detector finds for `[from, to)`, and the span it read: the time asked for and
    /// half a day on either side, once home and work are `remembered` from a look at several
    /// days (a day alone cannot tell them); a day on either side before that, or when a stay
    /// runs past the half day (a night away from 11:00 to 13:00).
    static func detected(
        store: any TrackStoring, from: Int64, to: Int64, devices: DeviceFilter, rules: VisitRules, remembered: Bool,
        memo: DetectionMemo?
    ) async throws -> (found: Detected, a: Int64, b: Int64) {
        func padded(_ pad: Int64) -> (Int64, Int64) { (from == .min ? from : from - pad, to == .max ? to : to + pad) }
        var (a, b) = padded(remembered ? 43_200_000 : 86_400_000)
        var found: Detected
        if remembered, a != .min, b != .max, b - a <= 4 * 86_400_000 {
            (found, a, b) = try await detectDays(
                store: store, from: from, to: to, near: 43_200_000, earlier: [57_600_000, 86_400_000], devices: devices,
                rules: rules)
        } else {
            found = try await detect(
                store: store, from: a, to: b, devices: devices, rules: rules, memo: memo)
            let cut = cut(found, from: from, to: to, a: a, b: b)
            if remembered, cut.start || cut.end {
                let wider = padded(86_400_000)
                (a, b) = (cut.start ? wider.0 : a, cut.end ? wider.1 : b)
                found = try await detect(
                    store: store, from: a, to: b, devices: devices, rules: rules, memo: memo)
            }
        }
        return (found, a, b)
    }

    /// The visits and trips of a span as detection and what Google (or Dawarich) said make them,
    /// before places are found, named or corrected: what the kept timeline keeps.
    struct Made: Sendable {
        var visits: [Visit]
        var trips: [Trip]
        var points: Int
        var passedOver: Int
        /// The span read.
        var a: Int64
        var b: Int64
        /// The visits said of the span (their names name the places).
        var said: [SaidVisit]
    }

    /// Detects `[from, to)` (``detected(store:from:to:devices:rules:remembered:memo:)``) and
    /// merges in what was said of it: a visit is a visit for its hours, points or not, and names
    /// its place; an activity says how a trip went where no phone did.
    static func detectedAndSaid(
        store: any TrackStoring, from: Int64, to: Int64, devices: DeviceFilter, rules: VisitRules, remembered: Bool,
        memo: DetectionMemo?
    ) async throws -> Made {
        let (found, a, b) = try await detected(
            store: store, from: from, to: to, devices: devices, rules: rules, remembered: remembered, memo: memo)
        return try await withSaid(found, a: a, b: b, store: store, account: devices.account)
    }

    /// What was found in `[a, b)` with what was said of it merged in.
    static func withSaid(_ found: Detected, a: Int64, b: Int64, store: any TrackStoring, account: String?)
        async throws -> Made
    {
        var (visits, trips) = (found.visits, found.trips)
        let (saidVisits, saidTrips) = try await said(
            store: store, from: a == .min ? a : a - 86_400_000, to: b, account: account)
        SaidVisit.merge(saidVisits.filter { $0.end > a && $0.start < b }, visits: &visits, trips: &trips)
        if let first = trips.first, let last = trips.last {
            Trip.hear(
                saidTrips.filter { $0.end > first.start && $0.start < last.end }.compactMap { t in
                    t.activity.map { Trip.Said(start: t.start, end: t.end, activity: $0) }
                }, in: &trips)
        }
        // A segment Google knew with no point of it (only its start and end): a trip of its own.
        SaidTrip.merge(saidTrips.filter { $0.end > a && $0.start < b }, visits: visits, trips: &trips)
        return Made(
            visits: visits, trips: trips, points: found.points, passedOver: found.passedOver, a: a, b: b,
            said: saidVisits)
    }

    /// Reads `[from, to)` into `memo` as ``find(store:fromMilliseconds:toMilliseconds:devices:rules:zone:memo:)``
    /// would, without naming or remembering anything: the server reads each account's year so
    /// in the background, and the year in review's next look reads only the points since.
    public static func prime(
        store: any TrackStoring, fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter,
        rules: VisitRules, memo: DetectionMemo
    ) async throws {
        let remembered = try await store.read { try $0.foundPlaces(account: devices.account) }.contains {
            $0.suggestion != nil
        }
        _ = try await detected(
            store: store, from: from, to: to, devices: devices, rules: rules, remembered: remembered, memo: memo)
    }

    /// The visits, trips and places of `[from, to)`. With `keep`, the places found are
    /// remembered (numbered for good, home and work suggested).
    public static func find(
        store: any TrackStoring, fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter,
        rules: VisitRules, zone: TimeZone, memo: DetectionMemo? = nil, keep: Bool = false
    ) async throws -> VisitFindings {
        let account = devices.account
        let stored = try await store.read { try $0.foundPlaces(account: account) }
        let remembered = stored.contains { $0.suggestion != nil }
        // The kept timeline when it was made with these rules (docs/TIMELINE.md); else worked out
        // here, nothing of it kept.
        let made: Made
        if let kept = try await TimelineKeeper.read(
            store: store, from: from, to: to, devices: devices, rules: rules, remembered: remembered)
        {
            made = kept
        } else {
            made = try await detectedAndSaid(
                store: store, from: from, to: to, devices: devices, rules: rules, remembered: remembered, memo: memo)
        }
        var (visits, trips, count, a, b, saidVisits) = (made.visits, made.trips, made.points, made.a, made.b, made.said)
        let (userPlaces, stated) = try await store.read {
            (try $0.places(account: account), try $0.corrections(account: account))
        }
        // The user's edits of the timeline's shape first, in the order made (docs/TIMELINE.md, "Edits").
        TimelineEdit.apply(
            stated.sorted { $0.id < $1.id }.compactMap(Self.edit), visits: &visits, trips: &trips,
            radius: rules.radius)
        let clusters = PlaceClusters.assign(&visits, rules: rules, userPlaces: userPlaces, zone: zone)
        let (ids, known, addresses) = try await remember(
            clusters, stored: stored, store: store, account: account, radius: rules.placeRadius, keep: keep)
        let corrections = stated.compactMap {
            c -> Remembered.Correction? in
            switch c.kind {
            case .mode: TravelMode(rawValue: c.value).map { .mode(at: c.milliseconds, $0) }
            case .place: Int(c.value).map { .place(at: c.milliseconds, $0) }
            case .remove, .times, .merge, .split, .add: nil
            }
        }
        var places = Remembered.apply(
            corrections, visits: &visits, trips: &trips, ids: ids, known: known, userPlaces: userPlaces, zone: zone)
        // Home and work: a look at three days or more suggests them and they are remembered (a
        // look at a week or more replaces those remembered; a few days away do not make the hotel
        // home); every look shows those remembered where it suggests none of its own.
        let wide = a == .min || b == .max || b - a >= 3 * 86_400_000
        let long = a == .min || b == .max || b - a >= 7 * 86_400_000
        let storedHome = stored.first { $0.suggestion == "home" }.map { Int($0.id) }
        let storedWork = stored.first { $0.suggestion == "work" }.map { Int($0.id) }
        let (h, w) = (places.first { $0.suggestion == "home" }?.id, places.first { $0.suggestion == "work" }?.id)
        let home = long ? h ?? storedHome : wide ? storedHome ?? h : storedHome
        var work = long ? w ?? storedWork : wide ? storedWork ?? w : storedWork
        if work == home { work = nil }
        if keep, wide, (home, work) != (storedHome, storedWork) {
            try await store.write { [work] in
                try $0.suggestFoundPlaces(home: home.map(Int64.init), work: work.map(Int64.init), account: account)
            }
        }
        let googleNames = SaidVisit.names(saidVisits, visits: visits)
        for j in places.indices {
            places[j].suggestion = places[j].id == home ? "home" : places[j].id == work ? "work" : nil
            // The user's own name wins; else the name Google gave it.
            if places[j].name == nil { places[j].name = googleNames[places[j].id] }
        }
        visits = visits.filter { $0.end >= from && $0.start < to }
        trips = trips.filter { $0.end >= from && $0.start < to }
        let used = Set(visits.compactMap(\.place))
        var findings = VisitFindings(
            visits: visits, trips: trips,
            places: Dictionary(uniqueKeysWithValues: places.filter { used.contains($0.id) }.map { ($0.id, $0) }),
            points: count, passedOver: made.passedOver)
        findings.addresses = addresses.filter { used.contains($0.key) && !$0.value.isEmpty }
        if !used.isEmpty {
            let places = findings.places
            findings.localities = try await store.read { tx in
                guard try tx.hasGazetteer() else { return [:] }
                var lookup = GazetteerLookup(store: tx)
                return try places.compactMapValues { try lookup.nearest($0.center)?.entry }
            }
        }
        return findings
    }

    /// The remembered id of each place found, and the places remembered. A place found for the
    /// first time is numbered after the account's last; with `keep` it is remembered (in one
    /// unit of work that looks again, so two at once remember it once), its number kept from
    /// then on. Without, nothing is written: a reading shows the number the place will be kept
    /// under by the writes that keep what they find (an import, the server's round, a
    /// correction), when nothing else was found first.
    /// `stored`: the account's places as the store held them before this reading.
    static func remember(
        _ found: [VisitPlace], stored: [FoundPlace], store: any TrackStoring, account: String?, radius: Double,
        keep: Bool
    ) async throws -> (ids: [Int: Int], known: [Remembered.Known], addresses: [Int: String]) {
        @Sendable func known(_ unit: any StoreReading) throws -> [Remembered.Known] {
            try unit.foundPlaces(account: account).map { .init(id: Int($0.id), center: $0.center, name: $0.name) }
        }
        let addresses = Dictionary(
            stored.compactMap { p in p.address.map { (Int(p.id), $0) } }, uniquingKeysWith: { a, _ in a })
        let all = stored.map { Remembered.Known(id: Int($0.id), center: $0.center, name: $0.name) }
        let ids = Remembered.match(found, known: all, radius: radius)
        if ids.count == found.count { return (ids, all, addresses) }
        guard keep else {
            var (ids, all) = (ids, all)
            var next = all.map(\.id).max() ?? 0
            for p in found where ids[p.id] == nil {
                next += 1
                ids[p.id] = next
                all.append(.init(id: next, center: p.center))
            }
            return (ids, all, addresses)
        }
        let (newIDs, known) = try await store.write { unit in
            var all = try known(unit)
            var ids = Remembered.match(found, known: all, radius: radius)
            let new = found.filter { ids[$0.id] == nil }
            let added = try unit.rememberPlaces(new.map(\.center), milliseconds: UTCTimestamp.now(), account: account)
            for (p, a) in zip(new, added) {
                ids[p.id] = Int(a.id)
                all.append(.init(id: Int(a.id), center: a.center))
            }
            return (ids, all)
        }
        return (newIDs, known, addresses)
    }

    /// What Google knew of `[from, to)`, from its visits and activity segments imported as
    /// records (`google` = visit or activity, with `until`; Dawarich's visits alike, `dawarich` = visit): the visits with their place's name
    /// and id, and the activity segments with their ends, distance and `activity_type`.
    static func said(store: any TrackStoring, from: Int64, to: Int64, account: String?) async throws
        -> (visits: [SaidVisit], trips: [SaidTrip])
    {
        var visits: [SaidVisit] = []
        var trips: [SaidTrip] = []
        for r in try await store.read({ try $0.records(fromMilliseconds: from, toMilliseconds: to, account: account) })
        {
            func text(_ key: String) -> String? {
                guard case .text(let t) = r.fields.first(where: { $0.key == key })?.value else { return nil }
                return t
            }
            // Trailbook's own export names a stay's place `place` (its `name` is the waypoint's).
            let trailbook = text(TimelinePlaces.key)
            guard let kind = text("google") ?? text("dawarich") ?? trailbook,
                let end = text("until").flatMap({ UTCTimestamp.milliseconds(Substring($0)) }), end > from
            else { continue }
            switch kind {
            case "visit":
                visits.append(
                    SaidVisit(
                        start: r.milliseconds, end: end, coordinate: r.coordinate,
                        name: trailbook == nil ? text("name") : text("place"),
                        placeID: text("place_id")))
            case "activity":
                func number(_ key: String) -> Double? {
                    guard case .number(let n) = r.fields.first(where: { $0.key == key })?.value else { return nil }
                    return n
                }
                let to = number("end_latitude").flatMap { lat in
                    number("end_longitude").map { Coordinate(latitude: lat, longitude: $0) }
                }
                trips.append(
                    SaidTrip(
                        start: r.milliseconds, end: end, from: r.coordinate, to: to, distance: number("distance_m"),
                        activity: text("activity_type").flatMap(MotionActivity.init(word:))))
            default: continue
            }
        }
        return (visits, trips)
    }

    /// The edit of the timeline's shape a correction keeps; nil for a mode or a place (and a
    /// value that does not read).
    static func edit(_ c: MovementCorrection) -> TimelineEdit? {
        let parts = c.value.split(separator: " ")
        switch c.kind {
        case .mode, .place: return nil
        case .remove: return .remove(at: c.milliseconds)
        case .times:
            guard parts.count == 2, let from = Int64(parts[0]), let to = Int64(parts[1]) else { return nil }
            return .times(at: c.milliseconds, from: from, to: to)
        case .merge: return Int64(c.value).map { .merge(at: c.milliseconds, other: $0) }
        case .split: return Int64(c.value).map { .split(at: c.milliseconds, from: $0) }
        case .add:
            guard parts.count == 3, let to = Int64(parts[0]), let lat = Double(parts[1]), let lon = Double(parts[2])
            else { return nil }
            return .add(from: c.milliseconds, to: to, center: Coordinate(latitude: lat, longitude: lon))
        }
    }

    /// "3.6 km", "850 m".
    public static func distance(_ metres: Double) -> String {
        metres < 1000 ? "\(Int(metres.rounded())) m" : String(format: "%.1f km", metres / 1000)
    }
}
