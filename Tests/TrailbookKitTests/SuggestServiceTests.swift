import Conditions
import Foundation
import GPSCore
import Pipeline
import Reports
import RideSimulator
import Testing
import Tides
import TrackModel
import TrailbookKit
import TrailbookTestSupport

@testable import TrackStore

/// `suggest` on a planted season: outings on a lake, catches logged with their kind, the
/// conditions captured as `mark` captures them.
@Suite struct SuggestServiceTests {
    static let lake = Coordinate(latitude: 47.2, longitude: 8.6)
    static let zone = TimeZone(identifier: "Europe/Zurich")!
    /// 2026-04-01T00:00:00Z and the number of days of the season.
    static let seasonStart: Int64 = 1_775_001_600_000
    static let seasonDays = 180
    let catchKind = RecordKind(
        name: "catch",
        fields: [
            {
                var f = KindField(name: "species", type: .choice)
                f.values = ["pike", "perch"]
                return f
            }(), KindField(name: "weight", type: .mass),
        ])

    struct Outing {
        let start: Int64
        let end: Int64
        /// Civil dawn to sunrise that morning, when the outing holds it.
        let dawn: (Int64, Int64)?
    }

    /// Every other day an outing of 3 h: on even ones from an hour before civil dawn, on the
    /// others from a random hour of the day. One point a minute.
    func season(_ store: TrackStore, random: inout SeededGenerator, at place: Coordinate = lake) throws -> [Outing] {
        var outings: [Outing] = []
        var points: [KeptPoint] = []
        for day in stride(from: 0, to: Self.seasonDays, by: 2) {
            let midnight = Self.seasonStart + Int64(day) * 86_400_000
            let utcDay = DateInterval(
                start: Date(timeIntervalSince1970: Double(midnight) / 1000), duration: 86_400)
            let sun = Sky.sunConditions(
                at: utcDay.start, latitude: place.latitude, longitude: place.longitude, day: utcDay)
            let dawnStart = Int64(sun.civilDawn!.timeIntervalSince1970 * 1000)
            let sunrise = Int64(sun.rise!.timeIntervalSince1970 * 1000)
            let start =
                day % 4 == 0
                ? dawnStart - 3_600_000
                : midnight + Int64(random.uniform(6...17) * 3_600_000)
            let end = start + 3 * 3_600_000
            outings.append(
                Outing(start: start, end: end, dawn: start < dawnStart && end > sunrise ? (dawnStart, sunrise) : nil))
            for minute in 0...180 {
                var fix = Fix()
                UTCTimestamp.set(start + Int64(minute) * 60_000, on: &fix)
                fix.coordinate = Coordinate(
                    latitude: place.latitude + 0.001 * sin(Double(minute) / 20),
                    longitude: place.longitude + 0.001 * cos(Double(minute) / 20))
                fix.mode = .threeD
                points.append(KeptPoint(fix: fix, ride: outings.count, segment: outings.count))
            }
        }
        try store.writeNow { tx in try tx.makeWriter(device: tx.device(named: "default")).write(points, drops: [:]) }
        return outings
    }

    /// Poisson-distributed count with `mean` (Knuth's method; means here are small).
    func poisson(_ mean: Double, _ random: inout SeededGenerator) -> Int {
        let limit = exp(-mean)
        var product = random.uniform(0...1)
        var count = 0
        while product > limit {
            count += 1
            product *= random.uniform(0...1)
        }
        return count
    }

    func mark(_ diary: DiaryService, at ms: Int64, weight: Double, place: Coordinate = lake) async throws {
        _ = try await diary.mark(
            .given(place, altitude: nil, time: ms),
            fields: [Field(key: "species", value: .text("pike")), Field(key: "weight", value: .text("\(weight)kg"))],
            kind: catchKind)
    }

    /// Catches at 0.3 an hour, anywhere in the outings; with `planted`, three more (heavier) in
    /// each dawn that falls in the last quarter moon.
    func catches(planted: Bool, seed: UInt64) async throws -> (SuggestService, [Outing]) {
        let store = try TrackStore(path: try Samples.temporaryDirectory() + "/s.sqlite")
        var random = SeededGenerator(seed: seed)
        let outings = try season(store, random: &random)
        let diary = DiaryService(store: store, zone: Self.zone)
        for outing in outings {
            for _ in 0..<poisson(0.3 * 3, &random) {
                let at = outing.start + Int64(random.uniform(0...1) * Double(outing.end - outing.start))
                try await mark(diary, at: at, weight: random.uniform(0.5...3))
            }
            guard planted, let (from, to) = outing.dawn,
                Sky.moonPhaseName(at: Date(timeIntervalSince1970: Double(from + to) / 2000)) == .lastQuarter
            else { continue }
            for _ in 0..<3 {
                try await mark(
                    diary, at: from + Int64(random.uniform(0...1) * Double(to - from)), weight: random.uniform(3...6))
            }
        }
        return (SuggestService(store: store, zone: Self.zone), outings)
    }

    /// 2026-10-01T00:00Z: the last quarter of 2 October is in the coming week.
    static let october: Int64 = seasonStart + 183 * 86_400_000

    @Test func dawnInTheLastQuarterLeadsAPlantedSeason() async throws {
        let (service, outings) = try await catches(planted: true, seed: 7)
        let report = try await service.suggest(kind: catchKind, now: Self.october)
        #expect(report.counted == report.records, "every catch lies in an outing")
        #expect(abs(report.hours - Double(outings.count) * 3) < 0.01, "\(report.hours) h out there")
        let top = report.suggestions.prefix(2).map { "\($0.condition) \($0.bin)" }
        #expect(Set(top) == ["day_phase dawn", "moon_phase last quarter"], "\(report.suggestions)")
        for s in report.suggestions {
            #expect(s.count >= SuggestService.minimumCount && s.lift > 1)
        }
        // The coming week's windows are dawns in the last quarter, at the lake.
        #expect(!report.windows.isEmpty)
        for w in report.windows {
            let middle = Date(timeIntervalSince1970: Double(w.start + w.end) / 2000)
            #expect(Sky.dayPhase(at: middle, latitude: Self.lake.latitude, longitude: Self.lake.longitude) == .dawn)
            #expect(Sky.moonPhaseName(at: middle) == .lastQuarter)
            #expect(w.why.count == 2 && w.end - w.start <= 3_600_000, "\(w)")
        }
        // The heaviest quarter are mostly the planted dawn fish: dawn leads, and only they count.
        let heavy = try await service.suggest(kind: catchKind, best: "weight", now: Self.october)
        #expect(heavy.suggestions.first.map { "\($0.condition) \($0.bin)" } == "day_phase dawn", "\(heavy.suggestions)")
        #expect(heavy.counted == report.records / 4)
        await #expect(throws: SuggestError.notAField("size", kind: "catch", fields: ["species", "weight"])) {
            try await service.suggest(kind: catchKind, best: "size", now: Self.october)
        }

        // The day report of a day with a catch and the overlay show the table and the windows,
        // and the table fits a phone's width.
        let store = service.store
        let records = try await store.read {
            try $0.records(fromMilliseconds: .min, toMilliseconds: .max, account: nil)
        }
        let first = try #require(records.first)
        let day = LocalTime.today(in: Self.zone, now: Date(timeIntervalSince1970: Double(first.milliseconds) / 1000))
        let tables = SuggestTables(store: store, zone: Self.zone, kinds: ["catch": catchKind], now: Self.october)
        let input = try await DayReportInputs.load(
            day, store: store, zone: Self.zone, imperial: false, embedPhotos: false, suggest: tables)
        #expect(input.suggestions.first?.rows.first.map { "\($0.condition) \($0.bin)" } == "day_phase dawn")
        let html = DayReport.render(input)
        #expect(html.contains("What goes with your records") && html.contains(">last quarter</td><td>33</td>"))
        #expect(html.contains("Sat 2026-10-03 07:00–07:30: day phase dawn (lift 3.0), moon phase last quarter"))
        var pages: [String: String] = [:]
        _ = try await OverlayPages.render(
            [day, day.adding(days: 2)], title: { _ in "season" }, store: store, zone: Self.zone, style: .init(),
            suggest: tables
        ) { name, page in pages[name] = page }
        #expect(pages["index.html"]?.contains(">dawn</td><td>27</td>") == true)
        let file = try Samples.temporaryDirectory() + "/day.html"
        try html.write(toFile: file, atomically: true, encoding: .utf8)
        let layout = try Chromium.layout(of: file, width: 390)
        #expect(layout.overflowing.isEmpty && layout.scrollWidth <= layout.viewport, "\(layout.overflowing)")
    }

    @Test func randomCatchesGiveNoSuggestion() async throws {
        for seed: UInt64 in [1, 2, 3] {
            let report = try await catches(planted: false, seed: seed).0.suggest(kind: catchKind, now: Self.october)
            #expect(report.records > 30)
            #expect(report.suggestions.isEmpty, "seed \(seed): \(report.suggestions)")
            #expect(report.windows.isEmpty)
            #expect(report.notes.contains { $0.hasPrefix("no bin has at least 5 records") }, "\(report.notes)")
            // The table itself is all there: every day phase and moon phase has time.
            #expect(Set(report.bins.filter { $0.condition == "moon_phase" }.map(\.bin)).count == 8)
        }
    }

    @Test func aRisingTidePlantedAtAHarbourLeadsAndComesAgain() async throws {
        let harbour = Coordinate(latitude: 48.546, longitude: -123.013)
        let station = try TideDatabase.station("9449880")
        let store = try TrackStore(path: try Samples.temporaryDirectory() + "/t.sqlite")
        var random = SeededGenerator(seed: 11)
        let outings = try season(store, random: &random, at: harbour)
        let zone = TimeZone(identifier: "America/Los_Angeles")!
        let diary = DiaryService(store: store, zone: zone, tide: station)
        func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: Double(ms) / 1000) }
        func state(_ ms: Int64) -> TideState? { TidePrediction.moment(station, at: date(ms))?.state }
        for outing in outings {
            let turns = TidePrediction.extremes(
                station,
                in: DateInterval(
                    start: date(outing.start) - TidePrediction.reach, end: date(outing.end) + TidePrediction.reach))
            func anywhere() -> Int64 { outing.start + Int64(random.uniform(0...1) * Double(outing.end - outing.start)) }
            for _ in 0..<poisson(0.9, &random) { try await mark(diary, at: anywhere(), weight: 1, place: harbour) }
            // Two more while the tide rises, when it does during the outing.
            var planted = 0
            for _ in 0..<40 where planted < 2 {
                let at = anywhere()
                if TidePrediction.state(at: date(at), turns: turns) == .rising {
                    try await mark(diary, at: at, weight: 2, place: harbour)
                    planted += 1
                }
            }
        }
        let report = try await SuggestService(store: store, zone: zone, tide: station).suggest(
            kind: catchKind, now: Self.october)
        #expect(report.suggestions.first.map { "\($0.condition) \($0.bin)" } == "tide rising", "\(report.suggestions)")
        let tideHours = report.bins.filter { $0.condition == "tide" }.map(\.hours).reduce(0, +)
        #expect(abs(tideHours - report.hours) < 0.01, "every minute out there has a tide state")
        #expect(!report.notes.contains { $0.contains("tide") }, "\(report.notes)")
        #expect(!report.windows.isEmpty)
        for w in report.windows {
            #expect(state((w.start + w.end) / 2) == .rising && w.why.contains { $0.hasPrefix("tide rising") }, "\(w)")
        }
    }

    @Test func keptWeatherReadingsBinTheTimeOutThere() async throws {
        let (service, _) = try await catches(planted: false, seed: 5)
        // A station's hourly readings over the season: pressure swinging ±8 hPa over four days.
        let readings = (0..<(Self.seasonDays * 24 + 24)).map { h -> WeatherReading in
            let ms = Self.seasonStart + Int64(h) * 3_600_000
            return WeatherReading(
                milliseconds: ms, pressure: 1013 + 8 * sin(Double(h) / 96 * 2 * .pi), windSpeed: 3,
                windDirection: Double((h * 37) % 360))
        }
        _ = try await service.store.write { [readings] in try $0.addWeatherReadings(readings, account: nil) }
        let report = try await service.suggest(kind: catchKind, now: Self.october)
        let pressure = report.bins.filter { $0.condition == "pressure" }
        #expect(Set(pressure.map(\.bin)) == ["falling", "steady", "rising"], "\(pressure)")
        #expect(abs(pressure.map(\.hours).reduce(0, +) - report.hours) < 0.01, "every slot has a trend")
        #expect(abs(report.bins.filter { $0.condition == "wind" }.map(\.hours).reduce(0, +) - report.hours) < 0.01)
        #expect(!report.notes.contains { $0.contains("weather") }, "\(report.notes)")
    }
}
