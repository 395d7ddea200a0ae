import GPSCore
import Testing
import Visits

/// The user's edits of the timeline's shape (``TimelineEdit``), on a made-up day: home, a ride
/// to the office, the office, a walk to the café, the café, a walk back, the office.
@Suite struct TimelineEditsTests {
    static let hour: Int64 = 3_600_000
    static let home = Coordinate(latitude: 47.36, longitude: 8.53)
    static let office = Coordinate(latitude: 47.39, longitude: 8.515)
    static let cafe = Coordinate(latitude: 47.392, longitude: 8.519)

    static func visit(_ from: Double, _ to: Double, _ at: Coordinate, fixes: Int = 100) -> Visit {
        var v = Visit(start: Int64(from * 3_600_000), end: Int64(to * 3_600_000), center: at, spread: 10, fixes: fixes)
        v.id = Int64(from * 10)
        return v
    }

    static func trip(_ from: Double, _ to: Double, _ a: Coordinate, _ b: Coordinate, _ mode: TravelMode) -> Trip {
        let distance = Geodesy.haversineDistance(a, b)
        let seconds = (to - from) * 3600
        var t = Trip(
            start: Int64(from * 3_600_000), end: Int64(to * 3_600_000), from: a, to: b, distance: distance,
            mode: mode, movingSeconds: seconds, medianSpeed: distance / seconds, highSpeed: distance / seconds * 1.3,
            fixes: 60)
        t.id = Int64(from * 10) + 1
        return t
    }

    /// The day as detected.
    static func day() -> (visits: [Visit], trips: [Trip]) {
        (
            [visit(0, 7.5, home), visit(8, 12, office), visit(12.1, 13, cafe), visit(13.1, 17, office)],
            [
                trip(7.5, 8, home, office, .cycling), trip(12, 12.1, office, cafe, .walking),
                trip(13, 13.1, cafe, office, .walking),
            ]
        )
    }

    func applied(_ edits: [TimelineEdit]) -> (visits: [Visit], trips: [Trip]) {
        var (visits, trips) = Self.day()
        TimelineEdit.apply(edits, visits: &visits, trips: &trips, radius: 100)
        return (visits, trips)
    }

    func hours(_ v: [Visit]) -> [String] { v.map { "\(Double($0.start) / 3_600_000)-\(Double($0.end) / 3_600_000)" } }
    func hours(_ t: [Trip]) -> [String] { t.map { "\(Double($0.start) / 3_600_000)-\(Double($0.end) / 3_600_000)" } }

    @Test func aStayRemovedJoinsTheMovesAroundIt() {
        let (visits, trips) = applied([.remove(at: 12 * Self.hour + 30 * 60_000)])
        #expect(hours(visits) == ["0.0-7.5", "8.0-12.0", "13.1-17.0"])
        #expect(hours(trips) == ["7.5-8.0", "12.0-13.1"])
        let walk = trips[1]
        let day = Self.day().trips
        #expect(walk.distance == day[1].distance + day[2].distance && walk.id == day[1].id)
        #expect(walk.from == Self.office && walk.to == Self.office && walk.mode == .walking)
    }

    @Test func aMoveRemovedJoinsTheStaysAroundItWhenTheyAreOnePlace() {
        // The walk to the café is no move here: the café and the office are 380 m apart.
        let kept = applied([.remove(at: 12 * Self.hour + 3 * 60_000)])
        #expect(kept.trips.count == 2 && kept.visits.count == 4)
        // Two stays at the office with a "move" between (the phone drifting): one stay.
        var visits = [Self.visit(8, 12, Self.office), Self.visit(12.1, 17, Self.office)]
        var trips = [Self.trip(12, 12.1, Self.office, Self.office, .walking)]
        TimelineEdit.apply([.remove(at: 12 * Self.hour + 60_000)], visits: &visits, trips: &trips, radius: 100)
        #expect(hours(visits) == ["8.0-17.0"] && trips.isEmpty && visits[0].fixes == 260 && visits[0].id == 80)
    }

    @Test func newTimesMoveTheStayAndItsMoves() {
        // The office from 8:15 (the ride took longer) to 11:45; the walk after it starts then.
        let (visits, trips) = applied([
            .times(at: 9 * Self.hour, from: 8 * Self.hour + 900_000, to: 11 * Self.hour + 2_700_000)
        ])
        #expect(hours(visits) == ["0.0-7.5", "8.25-11.75", "12.1-13.0", "13.1-17.0"])
        #expect(hours(trips) == ["7.5-8.25", "11.75-12.1", "13.0-13.1"])
        // Longer over its neighbours: the café gives way (cut where the office now ends).
        let longer = applied([.times(at: 9 * Self.hour, from: 8 * Self.hour, to: 12 * Self.hour + 1_800_000)])
        #expect(hours(longer.visits) == ["0.0-7.5", "8.0-12.5", "12.5-13.0", "13.1-17.0"], "\(hours(longer.visits))")
        #expect(hours(longer.trips) == ["7.5-8.0", "13.0-13.1"])
    }

    @Test func stayMergedWithAnotherTakesInAllBetween() {
        let (visits, trips) = applied([.merge(at: 9 * Self.hour, other: 14 * Self.hour)])
        #expect(hours(visits) == ["0.0-7.5", "8.0-17.0"] && hours(trips) == ["7.5-8.0"])
        #expect(visits[1].fixes == 300 && visits[1].id == 80 && visits[1].center == Self.office)
        // A stay merged with itself changes nothing.
        #expect(applied([.merge(at: 9 * Self.hour, other: 10 * Self.hour)]).visits == Self.day().visits)
    }

    @Test func aStaySplitIsTwo() {
        let (visits, _) = applied([.split(at: 9 * Self.hour, from: 10 * Self.hour)])
        #expect(hours(visits) == ["0.0-7.5", "8.0-10.0", "10.0-12.0", "12.1-13.0", "13.1-17.0"])
        #expect(visits[1].id == 80 && visits[2].id == nil && visits[1].fixes + visits[2].fixes == 100)
        // At its very start it is no split.
        #expect(applied([.split(at: 9 * Self.hour, from: 8 * Self.hour)]).visits == Self.day().visits)
    }

    @Test func aStayAddedCutsTheMoveThroughIt() {
        // A stop at a bakery for ten minutes on the ride to the office.
        let bakery = Coordinate(latitude: 47.375, longitude: 8.522)
        let (visits, trips) = applied([
            .add(from: 7 * Self.hour + 2_700_000, to: 7 * Self.hour + 3_300_000, center: bakery)
        ])
        #expect(hours(visits) == ["0.0-7.5", "7.75-7.916666666666667", "8.0-12.0", "12.1-13.0", "13.1-17.0"])
        #expect(trips.count == 4 && trips[0].end == visits[1].start && trips[1].start == visits[1].end)
        let ride = Self.day().trips[0]
        // The ride's two parts: half its time before the stop, a sixth after.
        #expect(abs(trips[0].distance + trips[1].distance - ride.distance * 2 / 3) < 1)
        #expect(trips[0].id == ride.id && trips[1].id == nil && trips[1].mode == .cycling)
    }

    @Test func editsApplyInTheOrderMadeAndMissesChangeNothing() {
        // Split the office, then remove its second half: nothing from 10 to the walk at 12.
        let (visits, _) = applied([.split(at: 9 * Self.hour, from: 10 * Self.hour), .remove(at: 11 * Self.hour)])
        #expect(hours(visits) == ["0.0-7.5", "8.0-10.0", "12.1-13.0", "13.1-17.0"])
        // A moment in nothing (before the day) changes nothing.
        let missed = applied([.remove(at: -Self.hour), .times(at: -Self.hour, from: 0, to: Self.hour)])
        #expect(missed.visits == Self.day().visits && missed.trips == Self.day().trips)
    }
}
