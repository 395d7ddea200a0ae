import Foundation
import GPSCore
import Reports
import Synchronization
import TrackModel
import Visits

/// The overlay of many days as the web app draws it (`/days`), without reading every point of
/// every day on each look: each ride's lines (simplified to each of ``tolerances``), extent,
/// distance and moving time are worked out once and kept in memory, and in the server's
/// ``ViewCache`` when it has one (so they outlive the server), and worked out again when its
/// points, start or end changed. A view draws the lines simplified to the most that stays within
/// half a pixel of its map. A ride across midnight is worked out and kept for the part in each
/// day, as the day pages show it. A server keeps one for all its accounts (ride ids are the
/// store's).
public final class OverlayShapes: Sendable {
    /// A ride's lines (one per segment, at each of ``tolerances``), extent and figures. The
    /// lines are kept packed (a few bytes a point, ``PackedWriter``), each tolerance's apart:
    /// a view unpacks only the one it draws.
    struct Shape: Sendable {
        var corners: [Coordinate]
        var distance: Double
        var moving: Double
        /// The lines at each of ``tolerances``, packed.
        var packed: [[UInt8]]

        init(lines: [[[Coordinate]]], corners: [Coordinate], distance: Double, moving: Double) {
            (self.corners, self.distance, self.moving) = (corners, distance, moving)
            packed = lines.map { level in
                var writer = PackedWriter()
                writer.int(Int64(level.count))
                for line in level {
                    writer.int(Int64(line.count))
                    var (lat, lon): (Int64, Int64) = (0, 0)
                    for c in line {
                        let (a, b) = (Self.e7(c.latitude), Self.e7(c.longitude))
                        writer.int(a - lat)
                        writer.int(b - lon)
                        (lat, lon) = (a, b)
                    }
                }
                return writer.bytes
            }
        }

        /// The lines at ``tolerances``[`level`].
        func lines(_ level: Int) -> [[Coordinate]] {
            var reader = PackedReader(packed[level])
            // Packed here: it reads back.
            return
                (try? (0..<reader.count()).map { _ in
                    var (lat, lon): (Int64, Int64) = (0, 0)
                    return try (0..<reader.count()).map { _ in
                        lat += try reader.int()
                        lon += try reader.int()
                        return Self.coordinate(lat, lon)
                    }
                }) ?? []
        }

        static func e7(_ degrees: Double) -> Int64 { Int64((degrees * 1e7).rounded()) }

        /// As the stores read their 1e-7 degrees.
        static func coordinate(_ lat: Int64, _ lon: Int64) -> Coordinate {
            Coordinate(latitude: Double(lat) / 1e7, longitude: Double(lon) / 1e7)
        }
    }

    typealias RideState = ViewCache.RideState

    /// How far a kept line may stray from the points, metres: from below what a fix is sure of
    /// (for a map of a town) to a pixel of a map of a continent.
    public static let tolerances = [2.0, 20, 200, 2000]

    /// A ride's part in one day: its id and the part's `[from, to)`, ms.
    struct Part: Hashable, Sendable {
        var ride: Int64
        var from: Int64
        var to: Int64
    }

    private let kept = Mutex<[Part: (RideState, Shape)]>([:])
    /// Where the parts outlive the server (nil: in memory only).
    let cache: ViewCache?

    public init(cache: ViewCache? = nil) { self.cache = cache }

    /// How many rides' parts are kept in memory.
    var keptParts: Int { kept.withLock { $0.count } }
    /// How many parts were worked out from the points (not found kept).
    private let worked = Atomic(0)
    var workedOut: Int { worked.load(ordering: .relaxed) }

    /// The part of `ride` in `[from, to)`, read from the store.
    static func shape(_ ride: StoredRide, store: any TrackStoring, account: String?, from: Int64, to: Int64)
        async throws -> Shape
    {
        let devices: DeviceFilter = account.map { .account($0, device: ride.device) } ?? .named(ride.device)
        let points = try await store.read {
            try $0.pointsWithSegments(fromMilliseconds: from, toMilliseconds: to, devices: devices)
        }
        .filter { $0.ride == ride.id }.map { TrackPoint(fix: $0.fix, segment: $0.segment) }
        let statistics = RideStatistics.compute(points, drops: ride.drops, options: StatisticsOptions())
        var lines = DayReport.segments(points).map { $0.compactMap(\.fix.coordinate) }.filter { !$0.isEmpty }
        let all = lines.joined()
        let corners =
            all.isEmpty
            ? []
            : [
                Coordinate(latitude: all.map(\.latitude).min()!, longitude: all.map(\.longitude).min()!),
                Coordinate(latitude: all.map(\.latitude).max()!, longitude: all.map(\.longitude).max()!),
            ]
        var levels: [[[Coordinate]]] = []
        for metres in tolerances {
            lines = lines.map { simplified($0, metres: metres) }
            levels.append(lines)
        }
        return Shape(lines: levels, corners: corners, distance: statistics.distance, moving: statistics.moving)
    }

    /// `line` without the points that lie within `metres` of the line through those kept.
    static func simplified(_ line: [Coordinate], metres: Double) -> [Coordinate] {
        guard let origin = line.first, line.count > 2 else { return line }
        let east = 111_320 * cos(origin.latitude * .pi / 180)
        let plane = line.map { c in
            (x: (c.longitude - origin.longitude) * east, y: (c.latitude - origin.latitude) * 110_574)
        }
        return Simplify.indices(plane, tolerance: metres).map { line[$0] }
    }

    /// The parts of `rides` in each day from `first` to `last` (local days in `zone`), each with
    /// its ride's state.
    static func parts(_ rides: [StoredRide], first: CivilDate, last: CivilDate, zone: TimeZone)
        -> [(day: CivilDate, part: Part, ride: StoredRide)]
    {
        var out: [(CivilDate, Part, StoredRide)] = []
        for ride in rides {
            let (a, b) = (ride.startMilliseconds, ride.endMilliseconds + 1)
            // The part in each day it touches (all of it, on one day).
            var day = max(LocalDay.of(a, in: zone), first)
            while day <= min(LocalDay.of(b - 1, in: zone), last) {
                let (dayStart, dayEnd) = LocalDay.range(day, in: zone)
                out.append((day, Part(ride: ride.id, from: max(a, dayStart), to: min(b, dayEnd)), ride))
                day = day.adding(days: 1)
            }
        }
        return out
    }

    /// The shapes of `rides`' parts in each day from `first` to `last`: from memory, else from
    /// the cache file, else worked out from the store's points (and kept in both).
    func shapes(
        _ rides: [StoredRide], first: CivilDate, last: CivilDate, zone: TimeZone, store: any TrackStoring,
        account: String?
    ) async throws -> [CivilDate: [Shape]] {
        let wanted = Self.parts(rides, first: first, last: last, zone: zone)
        let keys = Set(wanted.map(\.part))
        var known = kept.withLock { all in all.filter { keys.contains($0.key) } }
        if let cache, wanted.contains(where: { known[$0.part]?.0 != RideState($0.ride) }) {
            let missing = Set(wanted.filter { known[$0.part]?.0 != RideState($0.ride) }.map(\.part.ride))
            let filed = try await cache.parts(of: Array(missing)).filter { keys.contains($0.key) }
            known.merge(filed) { $1 }
            kept.withLock { $0.merge(filed) { $1 } }
        }
        var fresh: [Part: (RideState, Shape)] = [:]
        var byDay: [CivilDate: [Shape]] = [:]
        for (day, part, ride) in wanted {
            let state = RideState(ride)
            let shape: Shape
            if let (s, k) = known[part], s == state {
                shape = k
            } else {
                shape = try await Self.shape(ride, store: store, account: account, from: part.from, to: part.to)
                worked.add(1, ordering: .relaxed)
                fresh[part] = (state, shape)
            }
            if !shape.corners.isEmpty { byDay[day, default: []].append(shape) }
        }
        if !fresh.isEmpty {
            // What was kept of an older state of these rides goes (a ride a phone is still
            // adding to gets a new part on every look).
            let current = Dictionary(rides.map { ($0.id, RideState($0)) }) { a, _ in a }
            kept.withLock { all in
                all = all.filter { key, k in current[key.ride].map { $0 == k.0 } ?? true }
                all.merge(fresh) { $1 }
            }
            try await cache?.keep(parts: fresh)
        }
        return byDay
    }

    /// Works out and files in the cache what is not there yet of `account`'s rides, every day
    /// each touches in `zone`, without keeping it in memory (the server does this once it
    /// starts). Stops early when `stop` says so; returns the parts worked out.
    @discardableResult
    public func fill(account: String, zone: TimeZone, store: any TrackStoring, stop: () -> Bool = { false })
        async throws -> Int
    {
        guard let cache else { return 0 }
        let rides = try await store.read {
            try $0.rides(
                fromMilliseconds: .min, toMilliseconds: .max, devices: DeviceFilter(account: account))
        }
        guard let first = rides.map({ LocalDay.of($0.startMilliseconds, in: zone) }).min(),
            let last = rides.map({ LocalDay.of($0.endMilliseconds, in: zone) }).max()
        else { return 0 }
        let filed = try await cache.partStates(of: rides.map(\.id))
        let wanted = Self.parts(rides, first: first, last: last, zone: zone)
        // Parts cut at another zone's midnights (the account's zone changed) go.
        try await cache.forget(parts: Set(filed.keys).subtracting(wanted.map(\.part)))
        var done = 0
        var batch: [Part: (RideState, Shape)] = [:]
        for (_, part, ride) in wanted where filed[part] != RideState(ride) {
            if stop() { break }
            batch[part] = (
                RideState(ride),
                try await Self.shape(ride, store: store, account: account, from: part.from, to: part.to)
            )
            done += 1
            if batch.count >= 64 {
                try await cache.keep(parts: batch)
                batch = [:]
            }
        }
        try await cache.keep(parts: batch)
        return done
    }

    /// The longest range whose days count only their moving parts, and the points of devices
    /// recording at once as one (a week: the overlay's default). Both read every point of such a
    /// day: over a year of two devices at 1 Hz that took two minutes (docs/BENCHMARKS.md).
    public static let stayCutDays = 7

    /// A day's figures as the overlay counts them, with the ``signature(of:rides:said:remembered:rules:)``
    /// of what they were worked out from. nil figures: the sum of the day's shapes (no stay cut
    /// a ride and no two devices recorded at once).
    struct DayFigures: Sendable {
        var signature: UInt64
        var figures: (distance: Double, moving: Double)?
    }

    /// A day of an account in a zone.
    struct DayKey: Hashable, Sendable {
        var account: String
        var zone: String
        var day: CivilDate
    }

    private let counted = Mutex<[DayKey: DayFigures]>([:])
    /// How many days' figures were worked out from the points (not found kept).
    private let daysWorked = Atomic(0)
    var daysWorkedOut: Int { daysWorked.load(ordering: .relaxed) }

    /// How far around a day the visit detector reads (``VisitService``: two days at most).
    static let detectorReach: Int64 = 2 * 86_400_000

    /// What the figures of the day `[from, to)` come from: the rides and Google's visits and
    /// segments (`said`: id and time) within ``detectorReach`` of it, whether the account has
    /// remembered places (the detector reads otherwise), and the visit rules.
    static func signature(
        of range: (from: Int64, to: Int64), rides: [StoredRide], said: [(id: Int64, at: Int64)], remembered: Bool,
        rules: VisitRules
    ) -> UInt64 {
        let (a, b) = (range.from - detectorReach, range.to + detectorReach)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ value: Int64) {
            for shift in stride(from: 0, to: 64, by: 8) {
                hash = (hash ^ UInt64(truncatingIfNeeded: value >> Int64(shift)) & 0xFF) &* 0x100_0000_01b3
            }
        }
        for r in rides where r.startMilliseconds < b && r.endMilliseconds >= a {
            for v in [r.id, Int64(r.pointCount), r.startMilliseconds, r.endMilliseconds] { add(v) }
        }
        for r in said where r.at >= a && r.at < b {
            add(r.id)
            add(r.at)
        }
        add(remembered ? 1 : 0)
        for byte in String(describing: rules).utf8 { add(Int64(byte)) }
        return hash
    }

    /// The figures of `days` (local days in `zone` with rides among `rides`) that count only
    /// the rides' moving parts (``RideSelection/StayCut``) and the points of devices recording at
    /// once as one (``FusedPoints``): both read every point of a day, so each day's are kept (in
    /// memory and the cache file) with the signature of what they came from, and worked out
    /// again only when it changed.
    func dayFigures(
        _ days: [CivilDate], rides: [StoredRide], store: any TrackStoring, zone: TimeZone, devices: DeviceFilter,
        rules: VisitRules
    ) async throws -> [CivilDate: (distance: Double, moving: Double)] {
        guard let first = days.min(), let last = days.max() else { return [:] }
        let account = devices.account ?? ""
        let (from, to) = (LocalDay.start(first, in: zone), LocalDay.start(last.adding(days: 1), in: zone))
        let (a, b) = (from - Self.detectorReach, to + Self.detectorReach)
        let (nearby, records, found) = try await store.read {
            (
                try $0.rides(fromMilliseconds: a, toMilliseconds: b, devices: devices),
                try $0.records(fromMilliseconds: a, toMilliseconds: b, account: devices.account),
                try $0.foundPlaces(account: devices.account)
            )
        }
        let around = nearby.sorted { $0.id < $1.id }
        let said = records.filter { r in r.fields.contains { DayReportInput.saidBy[$0.key] != nil } }.compactMap { r in
            r.id.map { ($0, r.milliseconds) }
        }
        let remembered = found.contains { $0.suggestion != nil }
        var signatures: [CivilDate: UInt64] = [:]
        for day in days {
            let (a, b) = LocalDay.range(day, in: zone)
            signatures[day] = Self.signature(
                of: (a, b), rides: around, said: said, remembered: remembered, rules: rules)
        }
        let key = { (day: CivilDate) in DayKey(account: account, zone: zone.identifier, day: day) }
        var known = counted.withLock { all in
            Dictionary(uniqueKeysWithValues: days.compactMap { d in all[key(d)].map { (d, $0) } })
        }
        if let cache, days.contains(where: { known[$0]?.signature != signatures[$0] }) {
            let filed = try await cache.days(account: account, zone: zone.identifier, days)
            for (day, f) in filed where f.signature == signatures[day] { known[day] = f }
        }
        let missing = days.filter { known[$0]?.signature != signatures[$0] }
        if !missing.isEmpty {
            let worked = try await Self.workOut(
                missing, rides: rides, store: store, zone: zone, devices: devices, rules: rules)
            daysWorked.add(missing.count, ordering: .relaxed)
            var fresh: [CivilDate: DayFigures] = [:]
            for day in missing {
                fresh[day] = DayFigures(signature: signatures[day]!, figures: worked[day] ?? nil)
            }
            known.merge(fresh) { $1 }
            counted.withLock { all in for (day, f) in fresh { all[key(day)] = f } }
            try await cache?.keep(account: account, zone: zone.identifier, days: fresh)
        }
        return known.compactMapValues(\.figures)
    }

    /// The figures of `days` that are not the sum of their shapes: those where a stay of the
    /// person's timeline cuts a ride, or two devices' rides overlap.
    static func workOut(
        _ days: [CivilDate], rides: [StoredRide], store: any TrackStoring, zone: TimeZone, devices: DeviceFilter,
        rules: VisitRules
    ) async throws -> [CivilDate: (distance: Double, moving: Double)?] {
        guard let first = days.min(), let last = days.max() else { return [:] }
        let (from, to) = (LocalDay.start(first, in: zone), LocalDay.start(last.adding(days: 1), in: zone))
        var spans: [CivilDate: [(from: Int64, to: Int64, device: String)]] = [:]
        for (day, part, ride) in Self.parts(rides, first: first, last: last, zone: zone) {
            spans[day, default: []].append((part.from, part.to, ride.device))
        }
        // The stays of the person's timeline in these days: finding them reads every point.
        let stays = RideSelection.StayCut(rules: rules).stays(
            try await VisitService.find(
                store: store, fromMilliseconds: from, toMilliseconds: to, devices: devices, rules: rules, zone: zone))
        var out: [CivilDate: (distance: Double, moving: Double)?] = [:]
        for day in days {
            let (a, b) = LocalDay.range(day, in: zone)
            let daySpans = spans[day] ?? []
            let dayStays = stays.filter { $0.start < b && $0.end > a }
            // A day whose rides hold a stay (a phone's night at home) counts its rides' moving
            // parts, as the day page does; where rides of two devices overlap, their fused points.
            let cuts = dayStays.contains { s in daySpans.contains { s.start < $0.to && s.end > $0.from } }
            let fused = FusedPoints.spansDevices(devices) && FusedPoints.overlap(daySpans)
            out[day] =
                cuts || fused
                ? try await store.read {
                    try FusedPoints.figures(store: $0, from: a, to: b, devices: devices, stays: dayStays)
                } : nil
        }
        return out
    }

    /// Works out and files in the cache the day figures (``dayFigures(_:rides:store:zone:devices:rules:)``)
    /// of `account`'s days in `zone`, a week at a time from the newest, that are not there yet;
    /// stops between weeks when `stop` says so. Returns the days worked out.
    @discardableResult
    public func fillDays(
        account: String, zone: TimeZone, store: any TrackStoring, rules: VisitRules, stop: () -> Bool = { false }
    ) async throws -> Int {
        guard let cache else { return 0 }
        let devices = DeviceFilter(account: account)
        let rides = try await store.read {
            try $0.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: devices)
        }
        guard let first = rides.map({ LocalDay.of($0.startMilliseconds, in: zone) }).min(),
            let last = rides.map({ LocalDay.of($0.endMilliseconds, in: zone) }).max()
        else { return 0 }
        let withRides = Set(Self.parts(rides, first: first, last: last, zone: zone).map(\.day))
        var done = 0
        var end = last
        while end >= first, !stop() {
            let start = max(first, end.adding(days: -(Self.stayCutDays - 1)))
            let week = (start.daysSinceEpoch...end.daysSinceEpoch).map { CivilDate(daysSinceEpoch: $0) }
                .filter(withRides.contains)
            let (a, b) = (LocalDay.start(start, in: zone), LocalDay.start(end.adding(days: 1), in: zone))
            let before = daysWorked.load(ordering: .relaxed)
            _ = try await dayFigures(
                week, rides: rides.filter { $0.startMilliseconds < b && $0.endMilliseconds >= a }, store: store,
                zone: zone, devices: devices, rules: rules)
            done += daysWorked.load(ordering: .relaxed) - before
            end = start.adding(days: -1)
        }
        return done
    }

    /// The days among `days` (local days in `zone`) with rides or records of `devices`, as the
    /// overlay draws them; `link` is where each day's row points.
    public func days(
        _ days: [CivilDate], store: any TrackStoring, zone: TimeZone, devices: DeviceFilter,
        rules: VisitRules = VisitRules(), link: (CivilDate) -> String
    ) async throws -> [OverlayReport.Day] {
        guard let first = days.first, let last = days.last else { return [] }
        let (from, to) = (LocalDay.start(first, in: zone), LocalDay.start(last.adding(days: 1), in: zone))
        // The days' rides, records and the summaries of the days with either, on one snapshot.
        let (rides, records, summaries) = try await store.read { tx in
            let rides = try tx.rides(fromMilliseconds: from, toMilliseconds: to, devices: devices)
            let records = try tx.records(fromMilliseconds: from, toMilliseconds: to, account: devices.account)
            var summaries: [CivilDate: String] = [:]
            let shown = Set(Self.parts(rides, first: first, last: last, zone: zone).map(\.day))
                .union(records.map { LocalDay.of($0.milliseconds, in: zone) })
            for day in shown { summaries[day] = try tx.daySummary(day, account: devices.account) }
            return (rides, records, summaries)
        }
        let byDay = try await shapes(
            rides, first: first, last: last, zone: zone, store: store, account: devices.account)
        var places: [CivilDate: [Coordinate]] = [:]
        for r in records {
            places[LocalDay.of(r.milliseconds, in: zone), default: []].append(r.coordinate)
        }
        // The map the view draws (as OverlayReport fits it), and the lines that stay within half a
        // pixel of it.
        let corners = byDay.values.joined().flatMap(\.corners) + places.values.joined()
        let map = MapProjection(
            fitting: corners, width: OverlayReport.mapSize.width, height: OverlayReport.mapSize.height)
        let level = Self.tolerances.lastIndex { $0 <= map.metresPerPixel / 2 } ?? 0
        // Each day's kept moves (docs/TIMELINE.md), as the day page, `summary` and `year` count
        // them. Without a kept timeline: a week or less counts each day's moving parts, the points
        // of devices recording at once as one (``DayFigures``); a longer range its rides as stored.
        // (The moves as every reader has them: the user's edits applied.)
        let kept =
            try await store.read { try TimelineKeeper.answers($0, to: to, devices: devices, rules: rules) }
            ? try await VisitService.find(
                store: store, fromMilliseconds: from, toMilliseconds: to, devices: devices, rules: rules, zone: zone
            ).trips : nil
        let counted =
            if let kept {
                TimelineKeeper.byDay(kept) { _ in zone }
            } else if rides.isEmpty || days.count > Self.stayCutDays {
                [CivilDate: (distance: Double, moving: Double)]()
            } else {
                try await dayFigures(
                    days.filter { byDay[$0] != nil }, rides: rides, store: store, zone: zone, devices: devices,
                    rules: rules)
            }
        return days.compactMap { day -> OverlayReport.Day? in
            let shapes = byDay[day] ?? []
            guard !shapes.isEmpty || places[day] != nil else { return nil }
            // A day of stays only moved nothing, whatever its rides' points wandered.
            var figures: (distance: Double, moving: Double) = (0, 0)
            if let found = counted[day] {
                figures = found
            } else if kept == nil {
                figures = (shapes.map(\.distance).reduce(0, +), shapes.map(\.moving).reduce(0, +))
            }
            return OverlayReport.Day(
                date: day.description, lines: shapes.flatMap { $0.lines(level) },
                distance: figures.distance, moving: figures.moving, link: link(day),
                summary: summaries[day],
                places: places[day] ?? [])
        }
    }
}

extension OverlayShapes.Shape {
    /// The shape for ``ViewCache``: its corners and figures, then each tolerance's packed lines.
    func pack(into writer: inout PackedWriter) {
        writer.int(Int64(corners.count))
        for c in corners {
            writer.int(Self.e7(c.latitude))
            writer.int(Self.e7(c.longitude))
        }
        writer.double(distance)
        writer.double(moving)
        writer.int(Int64(packed.count))
        for level in packed {
            writer.int(Int64(level.count))
            writer.bytes += level
        }
    }

    init(packed reader: inout PackedReader) throws {
        corners = try (0..<reader.count()).map { _ in Self.coordinate(try reader.int(), try reader.int()) }
        distance = try reader.double()
        moving = try reader.double()
        packed = try (0..<reader.count()).map { _ in try reader.bytes(try reader.count()) }
    }
}
