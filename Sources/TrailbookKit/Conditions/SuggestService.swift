import Conditions
import Foundation
import GPSCore
import Pipeline
import Tides
import TrackModel

/// Why `suggest` could not answer, as one sentence.
public enum SuggestError: ServiceFailure, Equatable {
    case noRecords(kind: String)
    case notAField(String, kind: String, fields: [String])

    public var kind: FailureKind {
        switch self {
        case .noRecords: .missingInput
        case .notAField: .badRequest
        }
    }

    public var description: String {
        switch self {
        case .noRecords(let kind):
            "There are no records of the kind \(kind) in the store: mark some with their kind before asking what goes with them."
        case .notAField(let field, let kind, let fields):
            "The kind \(kind) has no field \(field) to rank records by (it has \(fields.joined(separator: ", ")))."
        }
    }
}

/// One bin of one condition: the records in it against the time spent out there in it.
public struct Suggestion: Equatable, Sendable {
    /// `day_phase`, `moon_phase`, `solunar`, `pressure`, `tide`, `wind` or `place`.
    public var condition: String
    public var bin: String
    /// Records of the kind (or the best of them) in the bin.
    public var count: Int
    /// Recorded time in the bin, hours.
    public var hours: Double
    /// Records per hour in the bin.
    public var rate: Double
    /// The bin's rate over the overall rate.
    public var lift: Double
    /// How likely at least `count` records would fall in the bin by chance, at the overall rate
    /// (Poisson).
    public var chance: Double
}

/// A stretch of the coming days whose computable conditions are the best bins.
public struct SuggestWindow: Equatable, Sendable {
    public var start: Int64
    public var end: Int64
    /// The best bins that hold throughout, e.g. `day_phase dawn (lift 2.9)`.
    public var why: [String]
}

/// What `suggest` found.
public struct SuggestReport: Equatable, Sendable {
    public var kind: String
    public var best: String?
    /// Records counted (those with recorded time around them) and all of the kind.
    public var counted: Int
    public var records: Int
    /// Recorded time out there, hours.
    public var hours: Double
    /// Records per hour overall.
    public var rate: Double
    /// Bins that pass the sample rule, best lift first.
    public var suggestions: [Suggestion]
    /// Every bin looked at, for those who want the whole table.
    public var bins: [Suggestion]
    public var windows: [SuggestWindow]
    /// Where the windows are computed for.
    public var windowsAt: Coordinate?
    public var windowsPlace: String?
    public var notes: [String]
    /// What the records were set against: the time out there (recorded tracks), or, when none
    /// goes with them, the time each condition holds over the days they span (the weaker
    /// comparison: it says when records happen, not how often for the time spent out there).
    public var basis: Basis = .timeOutThere

    public enum Basis: String, Equatable, Sendable {
        case timeOutThere = "time_out_there"
        case timeAvailable = "time_available"
    }
}

/// Learns which conditions go with the records of a kind: each condition's bins, the records per
/// hour out there in each against the overall rate, and the coming days that match the best.
public struct SuggestService {
    public let store: any TrackStoring
    public let zone: TimeZone
    /// The configured tide station: tide is binned, and computed ahead, only with one.
    public let tide: TideStation?

    /// A bin passes with at least this many records...
    public static let minimumCount = 5
    /// ...and when so many would fall in it by chance less often than this, shared among all
    /// bins looked at (Bonferroni).
    public static let significance = 0.05
    /// Recorded time is binned in slots this long (ms); a gap longer than `maximumGap` between
    /// two points is not time out there.
    static let slot: Int64 = 300_000
    static let maximumGap: Int64 = 600_000
    /// A ride that comes this close (m) to where a record of the kind was logged is time out there.
    public static let spotRadius = 500.0
    /// A record belongs to a ride when it lies within its span widened by this (ms).
    static let rideSlack: Int64 = 600_000
    /// The conditions in the order they are shown; the first four can be computed ahead.
    public static let conditions = ["day_phase", "moon_phase", "solunar", "tide", "pressure", "wind", "place"]
    static let computable: Set<String> = ["day_phase", "moon_phase", "solunar", "tide"]

    /// Whose records and rides: an account of the store; nil for the store's own user.
    public let account: String?

    public init(store: any TrackStoring, zone: TimeZone, tide: TideStation? = nil, account: String? = nil) {
        self.store = store
        self.zone = zone
        self.tide = tide
        self.account = account
    }

    /// High and low waters around `from`–`to` (enough to tell the state anywhere in it).
    func turns(_ from: Int64, _ to: Int64) -> [TideExtreme] {
        guard let tide else { return [] }
        return TidePrediction.extremes(
            tide,
            in: DateInterval(
                start: Self.date(from) - TidePrediction.reach, end: Self.date(to) + TidePrediction.reach))
    }

    /// The report for `kind`; with `best`, only the records in the top quarter by that field
    /// count. `now` and `days`: the windows' span.
    public func suggest(kind: RecordKind, best: String? = nil, now: Int64, days: Int = 7) async throws
        -> SuggestReport
    {
        let (store, account) = (self.store, self.account)
        let diary = DiaryService(store: store, zone: zone, account: account)
        let query = kindQuery(kind)
        // The kind's records, the account's places, rides, weather readings and devices on one
        // snapshot; then the points of the rides (below).
        let (records, places, rides, weather, ownDevices) = try await store.read {
            (
                try diary.records(query, in: $0), try $0.places(account: account),
                try $0.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: DeviceFilter(account: account)),
                try $0.weatherReadings(fromMilliseconds: .min, toMilliseconds: .max, account: account),
                try DiaryService(store: store, account: account).deviceIDs(in: $0)
            )
        }
        var all = records
        guard !all.isEmpty else { throw SuggestError.noRecords(kind: kind.name) }
        var notes: [String] = []
        let recordCount = all.count
        if let best {
            guard let field = kind.field(best) else {
                throw SuggestError.notAField(best, kind: kind.name, fields: kind.fields.map(\.name))
            }
            all = topQuarter(all, by: field, notes: &notes)
        }

        // Effort: the rides a record of the kind was logged on, or that come to where one was
        // (within `spotRadius` of it, or into a place holding one): a blank outing counts too.
        let homePlaces = places.filter { p in all.contains { p.excess($0.coordinate) <= 0 } }
        var spots: [Coordinate] = []
        for r in all where !spots.contains(where: { Geodesy.haversineDistance($0, r.coordinate) < Self.spotRadius / 5 })
        {
            spots.append(r.coordinate)
        }
        let (chosen, spotsSeen) = (all, spots)
        var (effortRides, counted, points) = try await store.read { tx in
            var effortRides: [StoredRide] = []
            var counted: [LocationRecord] = []
            var points: [Int64: [PlacedPoint]] = [:]
            for ride in rides {
                let held = chosen.filter {
                    $0.milliseconds >= ride.startMilliseconds - Self.rideSlack
                        && $0.milliseconds <= ride.endMilliseconds + Self.rideSlack
                }
                let ridePoints = try tx.pointsWithSegments(
                    fromMilliseconds: ride.startMilliseconds, toMilliseconds: ride.endMilliseconds + 1, devices: .all
                ).filter { $0.ride == ride.id }
                let comes =
                    !held.isEmpty
                    || ridePoints.contains { point in
                        let c = point.fix.coordinate!
                        return spotsSeen.contains { Geodesy.haversineDistance($0, c) <= Self.spotRadius }
                            || homePlaces.contains { $0.excess(c) <= 0 }
                    }
                guard comes else { continue }
                effortRides.append(ride)
                points[ride.id] = ridePoints
                counted += held.filter { r in !counted.contains { $0.id == r.id } }
            }
            return (effortRides, counted, points)
        }
        let uncounted = all.count - counted.count
        if uncounted > 0 {
            notes.append(
                "\(uncounted) of the \(GPSCore.counted(all.count, "record")) have no recorded track around them (within 10 minutes): "
                    + "they are not counted, as there is no time out there to set them against")
        }

        // Bin the recorded time, slot by slot.
        var hours: [String: [String: Double]] = [:]
        var weatherCovered = false
        for ride in effortRides {
            let list = points[ride.id] ?? []
            guard let first = list.first?.fix.coordinate else { continue }
            let periods = Sky.solunarPeriods(
                latitude: first.latitude, longitude: first.longitude,
                overlapping: DateInterval(
                    start: Self.date(ride.startMilliseconds),
                    end: Self.date(max(ride.endMilliseconds, ride.startMilliseconds + 1))))
            let tideTurns = turns(ride.startMilliseconds, ride.endMilliseconds)
            // The readings that can matter for this ride (interpolation and the 3-hour trend).
            let reach = WeatherImportService.maximumGap
            let nearby = weather.filter {
                $0.milliseconds >= ride.startMilliseconds - 2 * reach && $0.milliseconds <= ride.endMilliseconds + reach
            }
            var slotBins: (slot: Int64, bins: [String: String])?
            for (a, b) in zip(list, list.dropFirst()) where a.segment == b.segment {
                let from = a.fix.unixMilliseconds!
                let gap = b.fix.unixMilliseconds! - from
                guard gap > 0, gap <= Self.maximumGap else { continue }
                let slot = from / Self.slot
                if slotBins?.slot != slot {
                    var bins = Self.computed(at: from, a.fix.coordinate!, solunar: periods)
                    bins["place"] = Self.place(of: a.fix.coordinate!, in: places)
                    if let state = TidePrediction.state(at: Self.date(from), turns: tideTurns) {
                        bins["tide"] = state.rawValue
                    }
                    let here = WeatherImportService.conditions(nearby, at: from, devices: ownDevices)
                    for (key, value) in Self.weatherBins(here) {
                        bins[key] = value
                        weatherCovered = true
                    }
                    slotBins = (slot, bins)
                }
                for (condition, bin) in slotBins!.bins {
                    hours[condition, default: [:]][bin, default: 0] += Double(gap) / 3_600_000
                }
            }
        }
        var totalHours = hours["day_phase"]?.values.reduce(0, +) ?? 0
        // No time out there goes with any record: the records alone, against the time each
        // condition the sky decides holds over the days they span, where most of them are.
        var basis = SuggestReport.Basis.timeOutThere
        if totalHours == 0 {
            basis = .timeAvailable
            counted = all
            let (where_, placeName) = Self.windowPlace(all, places: places)
            let at = where_ ?? all[0].coordinate
            let times = all.map(\.milliseconds)
            hours = available(from: times.min()!, to: times.max()!, at: at)
            totalHours = hours["day_phase"]?.values.reduce(0, +) ?? 0
            notes.removeAll { $0.contains("have no recorded track around them") }
            notes.append(
                "no recorded time out there goes with these records, so they are set against the time each condition holds "
                    + "over the days they span (at \(placeName ?? String(format: "%.4f, %.4f", at.latitude, at.longitude))): "
                    + "the weaker comparison, as it tells when records happen, not how often for the time spent out there "
                    + "(record a track while out to learn that)")
        }

        // Bin the records.
        var counts: [String: [String: Int]] = [:]
        for record in counted {
            var bins = Self.computed(at: record.milliseconds, record.coordinate, solunar: nil)
            for value in record.conditions {
                if let (condition, bin) = Self.bin(value) { bins[condition] = bin }
            }
            bins["place"] = Self.place(of: record.coordinate, in: places)
            for (condition, bin) in bins where hours[condition] != nil {
                counts[condition, default: [:]][bin, default: 0] += 1
            }
        }

        let rate = totalHours > 0 ? Double(counted.count) / totalHours : 0
        var table: [Suggestion] = []
        for condition in Self.conditions {
            guard let binHours = hours[condition] else { continue }
            for (bin, h) in binHours where h > 0 {
                let count = counts[condition]?[bin] ?? 0
                let binRate = Double(count) / h
                table.append(
                    Suggestion(
                        condition: condition, bin: bin, count: count, hours: h, rate: binRate,
                        lift: rate > 0 ? binRate / rate : 0,
                        chance: Self.poissonTail(atLeast: count, mean: rate * h)))
            }
        }
        table.sort { ($0.condition, -$0.lift, $0.bin) < ($1.condition, -$1.lift, $1.bin) }
        let threshold = Self.significance / Double(max(table.count, 1))
        let passing = table.filter { $0.count >= Self.minimumCount && $0.lift > 1 && $0.chance < threshold }
            .sorted { ($0.lift, $1.condition, $1.bin) > ($1.lift, $0.condition, $0.bin) }

        let withoutTime = ["pressure", "wind"].filter { counts[$0] != nil && hours[$0] == nil }
        if basis == .timeOutThere, !weatherCovered, !withoutTime.isEmpty || weather.isEmpty {
            notes.append(
                "no weather readings cover the time out there: pressure and wind are not binned (import a station's readings with weather import)"
            )
        }
        if tide == nil {
            notes.append("no tide station is configured: tide is not binned")
        }
        if !table.isEmpty, passing.isEmpty {
            notes.append(
                "no bin has at least \(Self.minimumCount) records and a rate that chance would reach less than once in \(Int((1 / threshold).rounded())) tries: nothing to suggest yet"
            )
        }

        // Windows: the coming days at the place most records are at.
        let (at, placeName) = Self.windowPlace(counted.isEmpty ? all : counted, places: places)
        let leaders = Dictionary(grouping: passing.filter { Self.computable.contains($0.condition) }, by: \.condition)
            .compactMapValues { $0.max { $0.lift < $1.lift } }
        let windows = Self.windows(
            best: Array(leaders.values), at: at, from: now, days: days, tide: turns(now, now + Int64(days) * 86_400_000)
        )
        return SuggestReport(
            kind: kind.name, best: best, counted: counted.count, records: recordCount,
            hours: totalHours, rate: rate, suggestions: passing, bins: table, windows: windows, windowsAt: at,
            windowsPlace: placeName, notes: notes, basis: basis)
    }

    /// Hours each computable condition's bins hold from the local start of the day of `from` to
    /// the end of the day of `to`, at `at`: sampled every 10 minutes (every 30 over more than
    /// a year), with the solunar periods of each day.
    func available(from: Int64, to: Int64, at: Coordinate) -> [String: [String: Double]] {
        let start = LocalDay.start(LocalDay.of(from, in: zone), in: zone)
        let end = LocalDay.range(LocalDay.of(to, in: zone), in: zone).1
        let step: Int64 = end - start > 400 * 86_400_000 ? 1_800_000 : 600_000
        let tideTurns = turns(start, end)
        var hours: [String: [String: Double]] = [:]
        var dayStart = start
        while dayStart < end {
            let dayEnd = min(end, dayStart + 86_400_000)
            let periods = Sky.solunarPeriods(
                latitude: at.latitude, longitude: at.longitude,
                overlapping: DateInterval(start: Self.date(dayStart), end: Self.date(dayEnd)))
            var t = dayStart + step / 2
            while t < dayEnd {
                var bins = Self.computed(at: t, at, solunar: periods)
                if let state = TidePrediction.state(at: Self.date(t), turns: tideTurns) {
                    bins["tide"] = state.rawValue
                }
                for (condition, bin) in bins {
                    hours[condition, default: [:]][bin, default: 0] += Double(step) / 3_600_000
                }
                t += step
            }
            dayStart = dayEnd
        }
        return hours
    }

    private func kindQuery(_ kind: RecordKind) -> DiaryService.RecordQuery {
        var query = DiaryService.RecordQuery()
        query.kind = kind
        return query
    }

    /// The records whose `field` value is in the top quarter (at least one), by its SI value.
    private func topQuarter(_ records: [LocationRecord], by field: KindField, notes: inout [String])
        -> [LocationRecord]
    {
        let valued = records.compactMap { r -> (LocationRecord, Double)? in
            guard let text = r.fields.first(where: { $0.key == field.name })?.value.description,
                let value = field.sortValue(text)
            else { return nil }
            return (r, value)
        }.sorted { $0.1 > $1.1 }
        let keep = max(1, valued.count / 4)
        notes.append(
            "only the best quarter by \(field.name) counts: \(keep) of \(GPSCore.counted(records.count, "record")) (\(records.count - valued.count) have no \(field.name))"
        )
        return valued.prefix(keep).map(\.0).sorted { $0.milliseconds < $1.milliseconds }
    }

    // MARK: bins

    static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }

    /// The bins that come from the sky alone; `solunar` nil: searched around the moment.
    static func computed(at ms: Int64, _ c: Coordinate, solunar: [SolunarPeriod]?) -> [String: String] {
        let moment = date(ms)
        let kind =
            solunar.map { Sky.solunarKind(at: moment, in: $0) }
            ?? Sky.solunarKind(at: moment, latitude: c.latitude, longitude: c.longitude)
        return [
            "day_phase": Sky.dayPhase(at: moment, latitude: c.latitude, longitude: c.longitude).rawValue,
            "moon_phase": Sky.moonPhaseName(at: moment).rawValue,
            "solunar": kind?.rawValue ?? "none",
        ]
    }

    /// The condition and bin a stored value falls in, if it is one that is binned.
    static func bin(_ value: ConditionValue) -> (String, String)? {
        let text = value.value.description
        switch value.key {
        case "sun.phase": return ("day_phase", text)
        case "moon.phase_name": return ("moon_phase", text)
        case "solunar.period": return ("solunar", text)
        case "weather.pressure_trend": return ("pressure", text)
        case "weather.wind_octant": return ("wind", text)
        case "tide.state": return ("tide", text)
        default: return nil
        }
    }

    static func weatherBins(_ values: [ConditionValue]) -> [String: String] {
        var bins: [String: String] = [:]
        for value in values {
            if let (condition, bin) = bin(value) { bins[condition] = bin }
        }
        return bins
    }

    static func place(of c: Coordinate, in places: [Place]) -> String {
        places.filter { $0.excess(c) <= 0 }.min { $0.excess(c) < $1.excess(c) }?.name ?? "elsewhere"
    }

    /// P(X ≥ k) for X Poisson with `mean`.
    static func poissonTail(atLeast k: Int, mean: Double) -> Double {
        guard k > 0 else { return 1 }
        guard mean > 0 else { return 0 }
        var term = exp(-mean)  // P(X = 0)
        var below = 0.0
        for i in 0..<k {
            if i > 0 { term *= mean / Double(i) }
            below += term
        }
        // For large means exp(-mean) underflows; fall back on the log-space sum.
        if exp(-mean) == 0 {
            var logBelow = -Double.infinity
            for i in 0..<k {
                let logTerm = -mean + Double(i) * log(mean) - lgamma(Double(i + 1))
                logBelow = max(logBelow, logTerm) + log1p(exp(-abs(logBelow - logTerm)))
            }
            below = exp(logBelow)
        }
        return max(0, min(1, 1 - below))
    }

    // MARK: windows

    static func windowPlace(_ records: [LocationRecord], places: [Place]) -> (Coordinate?, String?) {
        let named = Dictionary(grouping: records.map { place(of: $0.coordinate, in: places) }, by: { $0 })
            .filter { $0.key != "elsewhere" }
        if let top = named.max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }),
            let p = places.first(where: { $0.name == top.key })
        {
            return (p.center, p.name)
        }
        return (records.max { $0.milliseconds < $1.milliseconds }?.coordinate, nil)
    }

    /// Stretches of the `days` after `now` where the most of `best` hold at once (at least one).
    static func windows(best: [Suggestion], at c: Coordinate?, from now: Int64, days: Int, tide: [TideExtreme])
        -> [SuggestWindow]
    {
        guard let c, !best.isEmpty, days > 0 else { return [] }
        let end = now + Int64(days) * 86_400_000
        let periods = Sky.solunarPeriods(
            latitude: c.latitude, longitude: c.longitude, overlapping: DateInterval(start: date(now), end: date(end)))
        var steps: [(ms: Int64, held: [Suggestion])] = []
        var t = now
        while t < end {
            var bins = computed(at: t, c, solunar: periods)
            bins["tide"] = TidePrediction.state(at: date(t), turns: tide)?.rawValue
            steps.append((t, best.filter { bins[$0.condition] == $0.bin }))
            t += slot
        }
        let most = steps.map(\.held.count).max() ?? 0
        guard most > 0 else { return [] }
        var windows: [SuggestWindow] = []
        var open: (start: Int64, held: [Suggestion])?
        for (ms, held) in steps + [(end, [])] {
            let matches = held.count == most
            if let current = open, !matches || held.map(\.bin) != current.held.map(\.bin) {
                windows.append(
                    SuggestWindow(
                        start: current.start, end: ms,
                        why: current.held.sorted { $0.lift > $1.lift }.map {
                            "\($0.condition) \($0.bin) (lift \(String(format: "%.1f", $0.lift)))"
                        }))
                open = nil
            }
            if matches, open == nil { open = (ms, held) }
        }
        return windows
    }
}
