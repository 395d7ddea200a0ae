import Foundation
import GPSCore
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
    public func zone(of visit: Visit) -> TimeZone? {
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

/// Finds visits and trips in the stored points (every device of the filter, in time order) on
/// demand, from the time asked for and half a day or a day on either side (so a stay across
/// midnight, or a night at home, is whole). A place keeps the id it was first found with; the user's
/// corrections (``MovementCorrection``) are applied. With a gazetteer loaded
/// (`trailbook geocoder import`), each place gets the nearest populated place in it.
public enum VisitService {
    /// How much time of points is read at once, ms.
    static let window: Int64 = 2 * 86_400_000

    /// What the detector found in the points of `[a, b)`.
    struct Detected {
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
    /// year at 1 Hz never sits in memory.
    static func detect(store: any TrackStoring, from a: Int64, to b: Int64, devices: DeviceFilter, rules: VisitRules)
        throws -> Detected
    {
        var detector = StayDetector(rules: rules)
        var found = Detected()
        let collect: (Movement) -> Void = { m in
            switch m {
            case .visit(let v): found.visits.append(v)
            case .trip(let t): found.trips.append(t)
            }
        }
        var (start, stop) = (a, b)
        if start == .min || stop == .max {
            let rides = try store.rides(fromMilliseconds: a, toMilliseconds: b, devices: devices)
            guard let first = rides.first, let newest = try store.latestPoint(devices: devices)?.unixMilliseconds else {
                return found
            }
            start = max(start, first.startMilliseconds)
            stop = min(stop, newest + 1)
        }
        var count = 0
        while start < stop {
            let end = stop - start > window ? start + window : stop
            try store.forEachPoint(fromMilliseconds: start, toMilliseconds: end, devices: devices) { fix in
                count += 1
                if let p = VisitPoint(fix) { detector.add(p, collect) }
            }
            start = end
        }
        detector.finish(collect)
        (found.points, found.passedOver) = (count, detector.passedOver)
        return found
    }

    /// The visits and trips of the days `[from, to)`, read with `pads[0]` on either side, and
    /// the span read in the end. A visit or trip at either edge that reaches into the days may
    /// have begun earlier (it starts at the first fix read) or go on later (it was still under
    /// way at the end of the reading; a night without fixes may follow): that side is read out to
    /// the next pad, and so on to the last.
    ///
    /// No point is read twice. Later, the detector simply goes on. Earlier, a new detector
    /// reads the points before the edge and then the first reading's points up to its first
    /// visit, which are kept for that; when it is then where the first detector was after that
    /// visit (``StayDetector/isAt(theSameStateAs:)``), the first reading's visits and trips from
    /// there on stand. When it is not, everything is read again from the last pad.
    static func detectDays(
        store: any TrackStoring, from: Int64, to: Int64, pads: [Int64], devices: DeviceFilter, rules: VisitRules
    ) throws -> (found: Detected, a: Int64, b: Int64) {
        var (a, b) = (from - pads[0], to + pads[0])
        /// A detector fed fixes, keeping those up to its first visit.
        struct Reading {
            var detector: StayDetector
            var emitted: [Movement] = []
            var fixes = 0
            /// The first fix's time.
            var first: Int64?
            var kept: [VisitPoint] = []
            var keeping = true
            /// The detector just after its first visit, and how many movements it had emitted.
            var split: (detector: StayDetector, emitted: Int)?

            mutating func add(_ p: VisitPoint) {
                if first == nil { first = p.milliseconds }
                let before = emitted.count
                detector.add(p) { emitted.append($0) }
                guard keeping else { return }
                kept.append(p)
                if emitted[before...].contains(where: \.isVisit) {
                    keeping = false
                    split = (detector, emitted.count)
                }
            }

            /// Whether what it found first began at its first fix and reaches `from` (itself, or
            /// the first visit after the way in to it): it may have begun before.
            func mayBeginEarlier(than from: Int64) -> Bool {
                guard let m = emitted.first, let first, m.start - first <= 60_000 else { return false }
                return (emitted.first(where: \.isVisit) ?? m).end >= from
            }

            mutating func read(_ store: any TrackStoring, _ a: Int64, _ b: Int64, _ devices: DeviceFilter) throws {
                try store.forEachPoint(fromMilliseconds: a, toMilliseconds: b, devices: devices) { fix in
                    fixes += 1
                    if let p = VisitPoint(fix) { add(p) }
                }
            }
        }
        var reading = Reading(detector: StayDetector(rules: rules))
        try reading.read(store, a, b, devices)
        // Later: while what is under way at `b` reaches it, go on.
        var level = 0
        while true {
            var probe = reading.detector
            var tail: [Movement] = []
            probe.finish { tail.append($0) }
            // What `finish` hands over was still under way.
            if level + 1 < pads.count, tail.contains(where: { $0.start < to }) {
                level += 1
                try reading.read(store, b, to + pads[level], devices)
                b = to + pads[level]
                continue
            }
            reading.detector = probe
            reading.emitted += tail
            break
        }
        var passedOver = reading.detector.passedOver
        var fixes = reading.fixes
        // Earlier: while what was under way at `a` reaches into the days, look before it.
        level = 0
        while level + 1 < pads.count, reading.mayBeginEarlier(than: from) {
            level += 1
            let earlier = from - pads[level]
            guard let split = reading.split else {
                let all = try detect(store: store, from: from - pads.last!, to: b, devices: devices, rules: rules)
                return (all, from - pads.last!, b)
            }
            var again = Reading(detector: StayDetector(rules: rules))
            try again.read(store, earlier, a, devices)
            for p in reading.kept { again.add(p) }
            guard again.detector.isAt(theSameStateAs: split.detector) else {
                let all = try detect(store: store, from: from - pads.last!, to: b, devices: devices, rules: rules)
                return (all, from - pads.last!, b)
            }
            fixes += again.fixes
            passedOver += again.detector.passedOver - split.detector.passedOver
            again.emitted += reading.emitted[split.emitted...]
            reading = again
            a = earlier
        }
        var found = Detected(points: fixes, passedOver: passedOver)
        for m in reading.emitted { found.add(m) }
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

    public static func find(
        store: any TrackStoring, fromMilliseconds from: Int64, toMilliseconds to: Int64, devices: DeviceFilter,
        rules: VisitRules, zone: TimeZone
    ) throws -> VisitFindings {
        // The time asked for and half a day on either side, once home and work are remembered
        // from a look at several days (a day alone cannot tell them); a day on either side
        // before that, or when a stay runs past the half day (a night away from 11:00 to 13:00).
        let stored = try store.foundPlaces(account: devices.account)
        let remembered = stored.contains { $0.suggestion != nil }
        func padded(_ pad: Int64) -> (Int64, Int64) { (from == .min ? from : from - pad, to == .max ? to : to + pad) }
        var (a, b) = padded(remembered ? 43_200_000 : 86_400_000)
        var found: Detected
        if remembered, a != .min, b != .max, b - a <= 4 * 86_400_000 {
            (found, a, b) = try detectDays(
                store: store, from: from, to: to, pads: [43_200_000, 86_400_000], devices: devices, rules: rules)
        } else {
            found = try detect(store: store, from: a, to: b, devices: devices, rules: rules)
            let cut = cut(found, from: from, to: to, a: a, b: b)
            if remembered, cut.start || cut.end {
                let wider = padded(86_400_000)
                (a, b) = (cut.start ? wider.0 : a, cut.end ? wider.1 : b)
                found = try detect(store: store, from: a, to: b, devices: devices, rules: rules)
            }
        }
        var (visits, trips, count) = (found.visits, found.trips, found.points)
        // Google's activity segments (imported as records) say how a trip went where no phone did.
        if let first = trips.first, let last = trips.last {
            Trip.hear(
                try said(store: store, from: first.start, to: last.end, account: devices.account), in: &trips)
        }
        let userPlaces = try store.places(account: devices.account)
        let clusters = PlaceClusters.assign(&visits, rules: rules, userPlaces: userPlaces, zone: zone)
        let (ids, known, addresses) = try remember(
            clusters, stored: stored, store: store, account: devices.account, radius: rules.placeRadius)
        let corrections = try store.corrections(account: devices.account).compactMap { c -> Remembered.Correction? in
            switch c.kind {
            case .mode: TravelMode(rawValue: c.value).map { .mode(at: c.milliseconds, $0) }
            case .place: Int(c.value).map { .place(at: c.milliseconds, $0) }
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
        if wide, (home, work) != (storedHome, storedWork) {
            try store.suggestFoundPlaces(
                home: home.map(Int64.init), work: work.map(Int64.init), account: devices.account)
        }
        for j in places.indices {
            places[j].suggestion = places[j].id == home ? "home" : places[j].id == work ? "work" : nil
        }
        visits = visits.filter { $0.end >= from && $0.start < to }
        trips = trips.filter { $0.end >= from && $0.start < to }
        let used = Set(visits.compactMap(\.place))
        var findings = VisitFindings(
            visits: visits, trips: trips,
            places: Dictionary(uniqueKeysWithValues: places.filter { used.contains($0.id) }.map { ($0.id, $0) }),
            points: count, passedOver: found.passedOver)
        findings.addresses = addresses.filter { used.contains($0.key) && !$0.value.isEmpty }
        if try !used.isEmpty && store.hasGazetteer() {
            var lookup = GazetteerLookup(store: store)
            for (id, place) in findings.places {
                findings.localities[id] = try lookup.nearest(place.center)?.entry
            }
        }
        return findings
    }

    /// The remembered id of each place found, and the places remembered: a place found for the
    /// first time is remembered (in one unit of work that looks again, so two readings at once
    /// remember it once), its id kept from then on.
    /// `stored`: the account's places as the store held them before this reading.
    static func remember(
        _ found: [VisitPlace], stored: [FoundPlace], store: any TrackStoring, account: String?, radius: Double
    ) throws -> (ids: [Int: Int], known: [Remembered.Known], addresses: [Int: String]) {
        func known(_ unit: any StoreUnit) throws -> [Remembered.Known] {
            try unit.foundPlaces(account: account).map { .init(id: Int($0.id), center: $0.center, name: $0.name) }
        }
        let addresses = Dictionary(
            stored.compactMap { p in p.address.map { (Int(p.id), $0) } }, uniquingKeysWith: { a, _ in a })
        let all = stored.map { Remembered.Known(id: Int($0.id), center: $0.center, name: $0.name) }
        let ids = Remembered.match(found, known: all, radius: radius)
        if ids.count == found.count { return (ids, all, addresses) }
        let (newIDs, known) = try store.writeNow { unit in
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

    /// The activities of Google's activity segments (records with `google` = activity, their
    /// `activity_type` and `until`) that overlap `[from, to)`.
    static func said(store: any TrackStoring, from: Int64, to: Int64, account: String?) throws -> [Trip.Said] {
        try store.records(fromMilliseconds: from - 86_400_000, toMilliseconds: to, account: account).compactMap { r in
            func text(_ key: String) -> String? {
                guard case .text(let t) = r.fields.first(where: { $0.key == key })?.value else { return nil }
                return t
            }
            guard text("google") == "activity",
                let activity = text("activity_type").flatMap(MotionActivity.init(word:)),
                let end = text("until").flatMap({ UTCTimestamp.milliseconds(Substring($0)) }), end > from
            else { return nil }
            return Trip.Said(start: r.milliseconds, end: end, activity: activity)
        }
    }

    /// "3.6 km", "850 m".
    public static func distance(_ metres: Double) -> String {
        metres < 1000 ? "\(Int(metres.rounded())) m" : String(format: "%.1f km", metres / 1000)
    }
}
