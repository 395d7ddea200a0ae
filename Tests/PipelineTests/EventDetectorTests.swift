import GPSCore
import Pipeline
import RideSimulator
import Testing

/// The event detector on simulated days whose truth is known.
@Suite struct EventDetectorTests {
    static let home = Coordinate(latitude: 47.3700, longitude: 8.5400)
    static let work = Geodesy.destination(from: home, bearing: 90, distance: 3000)
    static let cafe = Geodesy.destination(from: work, bearing: 30, distance: 1500)
    static let places = [
        Place(name: "home", center: home, radius: 100), Place(name: "work", center: work, radius: 100),
    ]
    /// Where the device stays at work: 85 m from the centre of a 100 m place, so that 30 m of
    /// multipath noise carries the reported position over the edge again and again.
    static let desk = Geodesy.destination(from: work, bearing: 0, distance: 85)

    static let day: [DaySimulator.Epoch] = DaySimulator.run(
        from: Geodesy.destination(from: home, bearing: 200, distance: 20),
        date: CivilDate(year: 2026, month: 6, day: 3)!, startTimeOfDay: 7 * 3_600_000,
        legs: [
            .stay(seconds: 600, noise: 10), .travel(to: desk, speed: 5), .stay(seconds: 7200, noise: 30),
            .travel(to: cafe, speed: 4), .stay(seconds: 300, noise: 5), .noFix(seconds: 60),
            .travel(to: home, speed: 5), .stay(seconds: 600, noise: 10),
        ], seed: 18)

    static func detect(_ epochs: [DaySimulator.Epoch], rules: EventRules = EventRules()) -> [TrailEvent] {
        var detector = EventDetector(rules: rules, places: places)
        return epochs.flatMap { detector.observe($0.fix) }
    }

    /// The true moments the device crossed a place's edge, in order, as (time, entering).
    static func crossings(_ epochs: [DaySimulator.Epoch], _ place: Place, reported: Bool = false) -> [(Int64, Bool)] {
        var inside: Bool?
        var out: [(Int64, Bool)] = []
        for e in epochs {
            guard let p = reported ? e.fix.coordinate : e.truth else { continue }
            let now = place.excess(p) <= 0
            if let inside, inside != now { out.append((e.fix.unixMilliseconds!, now)) }
            inside = now
        }
        return out
    }

    @Test func arrivalsAndDeparturesWithinAMinuteWithoutFlapping() {
        let events = Self.detect(Self.day)
        let placeEvents = events.filter { $0.type == .placeArrive || $0.type == .placeDepart }
        #expect(
            placeEvents.map { "\($0.type.rawValue) \($0.place!)" } == [
                "place.depart home", "place.arrive work", "place.depart work", "place.arrive home",
            ])
        // The truth: home left, work reached and left, home reached.
        let truth =
            (Self.crossings(Self.day, Self.places[0]) + Self.crossings(Self.day, Self.places[1])).sorted { $0.0 < $1.0 }
        #expect(truth.count == 4)
        for (event, (moment, _)) in zip(placeEvents, truth) {
            #expect(abs(event.milliseconds - moment) <= 60_000, "\(event.type.rawValue) \(event.place!)")
        }
        print(
            "event minus truth, s:",
            zip(placeEvents, truth).map { "\($0.type.rawValue) \($0.place!) \(Double($0.milliseconds - $1.0) / 1000)" })
        // The noise really crosses the edge: a detector without hysteresis would flap.
        let naive = Self.crossings(Self.day, Self.places[1], reported: true).count
        #expect(naive > 20, "the reported position crossed work's edge \(naive) times")
    }

    /// Switched on at home and ridden off within 30 s: the stream starts at home (its first two
    /// fixes lie inside with their accuracy), and leaving it is a departure, within a minute of
    /// the true crossing. A stream that starts outside, near the edge, does not.
    @Test func aStreamThatStartsInsideAPlaceDepartsWhenItLeaves() {
        for (seconds, noise) in [(5, 3.0), (30, 10.0)] {
            let ride = DaySimulator.run(
                from: Geodesy.destination(from: Self.home, bearing: 200, distance: 20),
                date: CivilDate(year: 2026, month: 6, day: 3)!, startTimeOfDay: 7 * 3_600_000,
                legs: [
                    .stay(seconds: seconds, noise: noise), .travel(to: Self.work, speed: 6),
                    .stay(seconds: 400, noise: 5),
                ], seed: 7)
            let events = Self.detect(ride).filter { $0.type == .placeDepart || $0.type == .placeArrive }
            #expect(events.map { "\($0.type.rawValue) \($0.place!)" } == ["place.depart home", "place.arrive work"])
            if let depart = events.first, let truth = Self.crossings(ride, Self.places[0]).first {
                #expect(abs(depart.milliseconds - truth.0) <= 60_000, "\(seconds) s at home")
            }
        }
        let nearby = DaySimulator.run(
            from: Geodesy.destination(from: Self.home, bearing: 0, distance: 160),
            date: CivilDate(year: 2026, month: 6, day: 3)!, startTimeOfDay: 7 * 3_600_000,
            legs: [.stay(seconds: 20, noise: 3), .travel(to: Self.cafe, speed: 6)], seed: 7)
        #expect(Self.detect(nearby).filter { $0.place == "home" }.isEmpty, "never at home: no departure")
    }

    @Test func stopsAndStartsAndTheLostFix() {
        let events = Self.detect(Self.day)
        #expect(
            events.filter { $0.type == .motionMoving || $0.type == .motionStopped }.map(\.type.rawValue) == [
                "motion.moving", "motion.stopped", "motion.moving", "motion.stopped", "motion.moving",
                "motion.stopped",
            ])
        // Each stop begins within a minute of the true arrival at its spot.
        let stops = events.filter { $0.type == .motionStopped }.map(\.milliseconds)
        let start = Self.day[0].fix.unixMilliseconds!
        let atWork: Int64 = 600 + 3000 / 5
        let atCafe: Int64 = atWork + 7200 + 1500 / 4
        let arrivals = [atWork, atCafe].map { start + $0 * 1000 }
        for (stop, arrival) in zip(stops, arrivals) { #expect(abs(stop - arrival) <= 60_000) }
        let lost = events.filter { $0.type == .fixLost || $0.type == .fixRegained }
        #expect(lost.map(\.type) == [.fixLost, .fixRegained])
        #expect(lost.count == 2 && lost[1].milliseconds - lost[0].milliseconds == 60_000)
    }

    @Test func replayingGivesTheSameEvents() {
        #expect(Self.detect(Self.day) == Self.detect(Self.day))
        // Fed in two halves with a fresh look at the places in between: the same.
        var detector = EventDetector(rules: EventRules(), places: Self.places)
        var events: [TrailEvent] = []
        for (i, epoch) in Self.day.enumerated() {
            if i == 5000 { detector.setPlaces(Self.places) }
            events += detector.observe(epoch.fix)
        }
        #expect(events == Self.detect(Self.day))
    }

    @Test func aPolygonPlace() {
        let square = [(0.0, 0.0), (0.0, 200.0), (200.0, 200.0), (200.0, 0.0)].map { east, north in
            Geodesy.destination(
                from: Geodesy.destination(from: Self.home, bearing: 90, distance: east), bearing: 0, distance: north)
        }
        let place = Place(name: "park", polygon: square)!
        #expect(place.excess(place.center) < -90 && place.excess(place.center) > -110)
        let outside = Geodesy.destination(from: Self.home, bearing: 270, distance: 50)
        #expect(abs(place.excess(outside) - 50) < 1)
        #expect(Place(name: "line", polygon: Array(square.prefix(2))) == nil)
    }

    @Test func batteryLowOncePerFall() {
        var detector = EventDetector(rules: EventRules(), places: [])
        let levels = [50.0, 21, 19, 18, 15, 22, 19, 26, 18]
        let fired = levels.enumerated().flatMap { detector.observe(battery: $1, at: Int64($0)) }
        #expect(fired.map(\.milliseconds) == [2, 8])
        #expect(fired.first?.details["battery_pct"] == 19)
    }
}
