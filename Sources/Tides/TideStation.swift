import Foundation

/// One harmonic constituent of a station: h = f·A·cos(ω·t + (V₀+u) − κ), t in hours since the
/// start of the year (UTC), ω in degrees an hour, κ the station's phase lag (Greenwich epoch).
public struct Constituent: Sendable, Equatable {
    public var name: String
    /// Degrees per hour.
    public var speed: Double
    /// In the station's units.
    public var amplitude: Double
    /// Degrees.
    public var epoch: Double
    /// Node factor f and equilibrium argument V₀+u (degrees) per year.
    public var nodeFactors: [Int: Double]
    public var equilibria: [Int: Double]
}

/// A subordinate station's offsets from its reference: high and low waters come later (or
/// earlier) by a time and are scaled and shifted in height.
public struct TideOffsets: Sendable, Equatable {
    /// Seconds.
    public var highTime: Double
    public var lowTime: Double
    public var highMultiply: Double
    public var lowMultiply: Double
    public var highAdd: Double
    public var lowAdd: Double
}

/// A tide station read from a harmonic constants database, ready to predict water levels for
/// the years it was read for.
public struct TideStation: Sendable, Equatable {
    public var name: String
    /// The agency's id, e.g. NOAA's 9449880.
    public var id: String
    public var latitude: Double
    public var longitude: Double
    /// `feet` or `meters`, as the database gives heights.
    public var units: String
    /// The datum heights are above, e.g. "Mean Lower Low Water".
    public var datum: String
    /// Mean sea level above the datum (the constant term), in `units`.
    public var datumOffset: Double
    public var constituents: [Constituent]
    /// For a subordinate station, its offsets (the constituents are its reference's).
    public var offsets: TideOffsets?
    /// Where the constants come from, e.g. "CO-OPS Metadata API".
    public var source: String

    /// Metres per unit of the station's heights.
    public var metresPerUnit: Double { units == "feet" ? 0.3048 : 1 }
}

/// A high or low water.
public struct TideExtreme: Sendable, Equatable {
    public var time: Date
    /// Metres above the station's datum.
    public var height: Double
    public var high: Bool
}

/// The water at a moment: height, and where in the cycle it is.
public enum TideState: String, Sendable, Codable, CaseIterable {
    case rising, high, falling, low
}

public struct TideMoment: Sendable, Equatable {
    /// Metres above the station's datum.
    public var height: Double
    public var state: TideState
    public var previous: TideExtreme?
    public var next: TideExtreme?
}

/// Predictions from a station's constants.
public enum TidePrediction {
    /// High and low water count as `high`/`low` within this many seconds of their time.
    public static let slackWindow: Double = 3600
    /// How far to look for the turns around a moment: a mixed tide can go 15 hours and more
    /// from a high to the next low when the day's second pair fades.
    public static let reach: Double = 26 * 3600

    static func yearStart(_ year: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: 1, day: 1))!
    }

    static func year(of date: Date) -> Int {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.component(.year, from: date)
    }

    /// The water level of the harmonic constants (a reference station's) at `date`, in the
    /// station's units; nil outside the years read.
    public static func harmonicLevel(_ station: TideStation, at date: Date) -> Double? {
        let year = year(of: date)
        let hours = date.timeIntervalSince(yearStart(year)) / 3600
        var level = station.datumOffset
        for c in station.constituents where c.amplitude != 0 {
            guard let f = c.nodeFactors[year], let v = c.equilibria[year] else { return nil }
            level += f * c.amplitude * cos((c.speed * hours + v - c.epoch) * .pi / 180)
        }
        return level
    }

    /// High and low waters of the harmonic constants in `interval`: found in 10-minute steps,
    /// then placed to the second by a parabola through the minute samples around each turn.
    static func harmonicExtremes(_ station: TideStation, in interval: DateInterval) -> [TideExtreme] {
        let coarse = 600.0
        let start = interval.start.timeIntervalSince1970
        let end = interval.end.timeIntervalSince1970
        func level(_ s: Double) -> Double? { harmonicLevel(station, at: Date(timeIntervalSince1970: s)) }
        var extremes: [TideExtreme] = []
        var t = start - coarse
        guard var a = level(t), var b = level(t + coarse) else { return [] }
        while t + coarse <= end + coarse {
            guard let c = level(t + 2 * coarse) else { break }
            if (b > a && b >= c) || (b < a && b <= c), let turn = refine(around: t + coarse, high: b > a, level) {
                if turn.time >= start && turn.time < end,
                    extremes.last.map({ turn.time - $0.time.timeIntervalSince1970 > 60 }) ?? true
                {
                    extremes.append(
                        TideExtreme(
                            time: Date(timeIntervalSince1970: turn.time), height: turn.level * station.metresPerUnit,
                            high: b > a))
                }
            }
            (a, b) = (b, c)
            t += coarse
        }
        return extremes
    }

    /// The turn near `centre` (within 10 minutes either side): the best minute sample, then a
    /// parabola through it and its neighbours.
    static func refine(around centre: Double, high: Bool, _ level: (Double) -> Double?) -> (
        time: Double, level: Double
    )? {
        let minute = 60.0
        var samples: [(Double, Double)] = []
        for i in -11...11 {
            guard let v = level(centre + Double(i) * minute) else { return nil }
            samples.append((centre + Double(i) * minute, v))
        }
        let inner = 1..<(samples.count - 1)
        guard let best = inner.max(by: { high ? samples[$0].1 < samples[$1].1 : samples[$0].1 > samples[$1].1 })
        else { return nil }
        let (a, b, c) = (samples[best - 1].1, samples[best].1, samples[best + 1].1)
        let denominator = a - 2 * b + c
        let shift = denominator == 0 ? 0 : 0.5 * (a - c) / denominator
        return (samples[best].0 + shift * minute, b - 0.25 * (a - c) * shift)
    }

    /// High and low waters in `interval`, heights in metres above the datum; a subordinate
    /// station's are its reference's, moved and scaled by its offsets.
    public static func extremes(_ station: TideStation, in interval: DateInterval) -> [TideExtreme] {
        guard let o = station.offsets else { return harmonicExtremes(station, in: interval) }
        let margin = max(abs(o.highTime), abs(o.lowTime)) + 60
        let wide = DateInterval(
            start: interval.start.addingTimeInterval(-margin), end: interval.end.addingTimeInterval(margin))
        let metres = station.metresPerUnit
        return harmonicExtremes(station, in: wide).map { e in
            let height = e.height / metres
            return TideExtreme(
                time: e.time.addingTimeInterval(e.high ? o.highTime : o.lowTime),
                height: (e.high ? height * o.highMultiply + o.highAdd : height * o.lowMultiply + o.lowAdd) * metres,
                high: e.high)
        }.filter { interval.contains($0.time) && $0.time < interval.end }
    }

    /// The water at `date`: its height (metres above the datum) and state. Between high and low
    /// water the height follows a half cosine (for a reference station this matches the harmonic
    /// sum at the turns, and is what tide tables do for subordinate stations); `high` and `low`
    /// within an hour of the turn. Nil when no turns are found around it (outside the years read).
    public static func moment(_ station: TideStation, at date: Date) -> TideMoment? {
        let around = DateInterval(start: date.addingTimeInterval(-reach), end: date.addingTimeInterval(reach))
        let turns = extremes(station, in: around)
        let previous = turns.last { $0.time <= date }
        let next = turns.first { $0.time > date }
        guard let previous, let next else { return nil }
        let height: Double
        if station.offsets == nil, let level = harmonicLevel(station, at: date) {
            height = level * station.metresPerUnit
        } else {
            let fraction = date.timeIntervalSince(previous.time) / next.time.timeIntervalSince(previous.time)
            height =
                previous.height + (next.height - previous.height) * (1 - cos(.pi * fraction)) / 2
        }
        return TideMoment(
            height: height, state: state(previous: previous, next: next, at: date), previous: previous, next: next)
    }

    static func state(previous: TideExtreme, next: TideExtreme, at date: Date) -> TideState {
        if date.timeIntervalSince(previous.time) <= slackWindow { return previous.high ? .high : .low }
        if next.time.timeIntervalSince(date) <= slackWindow { return next.high ? .high : .low }
        return next.high ? .rising : .falling
    }

    /// The state at `date` from high and low waters found once for a longer span (in time
    /// order); nil when they do not surround it.
    public static func state(at date: Date, turns: [TideExtreme]) -> TideState? {
        guard let after = turns.firstIndex(where: { $0.time > date }), after > 0 else { return nil }
        return state(previous: turns[after - 1], next: turns[after], at: date)
    }
}
