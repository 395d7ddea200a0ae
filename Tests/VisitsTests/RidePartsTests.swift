import GPSCore
import Testing
import Visits

@Suite struct RidePartsTests {
    /// Points a minute apart from 0 to `minutes`, in ms.
    func minutes(_ minutes: Int) -> [Int64] { (0...minutes).map { Int64($0) * 60_000 } }

    func stay(_ from: Int, _ to: Int) -> RideParts.Stay {
        RideParts.Stay(start: Int64(from) * 60_000, end: Int64(to) * 60_000)
    }

    @Test func aRideWithoutAStayIsOneMove() {
        #expect(RideParts.moving(minutes(30), stays: []) == [0..<31])
        #expect(RideParts.moving(minutes(30), stays: [stay(40, 60)]) == [0..<31], "a stay after it")
    }

    @Test func aStayInsideCutsTheRideInTwoAndKeepsItsEnds() {
        // Moving 0-10, staying 10-40, moving 40-50: the stay's first and last points are the moves'.
        #expect(RideParts.moving(minutes(50), stays: [stay(10, 40)]) == [0..<11, 40..<51])
    }

    @Test func aRideThatIsAllStayIsNoRide() {
        #expect(RideParts.moving(minutes(480), stays: [stay(0, 480)]).isEmpty, "a night at home")
        #expect(RideParts.moving(minutes(480), stays: [stay(-60, 600)]).isEmpty, "inside a longer stay")
    }

    @Test func aStayBetweenTwoPointsCutsThoughNoPointIsInside() {
        // A phone asleep for the night: its last point of the evening and first of the morning
        // are the stay's ends.
        let times: [Int64] = [0, 60_000, 120_000, 36_000_000, 36_060_000, 36_120_000]
        #expect(
            RideParts.moving(times, stays: [RideParts.Stay(start: 120_000, end: 36_000_000)]) == [0..<3, 3..<6])
    }

    @Test func leadingAndTrailingStaysAreLeftOut() {
        #expect(RideParts.moving(minutes(60), stays: [stay(0, 20), stay(45, 60)]) == [20..<46])
    }

    @Test func twoStaysMakeThreeMovesAndAnEmptyStayCutsNothing() {
        #expect(
            RideParts.moving(minutes(90), stays: [stay(60, 70), stay(20, 30), stay(80, 80)])
                == [0..<21, 30..<61, 70..<91])
    }

    @Test func aPartKnowsTheStaysItLeavesAndReaches() {
        let home = Coordinate(latitude: 47.37, longitude: 8.54)
        let stays = [
            RideParts.Stay(start: 0, end: 10 * 60_000, center: home),
            RideParts.Stay(start: 40 * 60_000, end: 50 * 60_000),
        ]
        let parts = RideParts.parts(minutes(60), stays: stays)
        #expect(parts.map(\.points) == [10..<41, 50..<61])
        #expect(parts[0].leaves?.center == home && parts[0].reaches == stays[1], "\(parts)")
        #expect(parts[1].leaves == stays[1] && parts[1].reaches == nil)
        // A stay long before the ride's first point is not the one it leaves.
        let later = RideParts.parts((30...40).map { Int64($0) * 60_000 }, stays: [stays[0]])
        #expect(later.count == 1 && later[0].leaves == nil)
    }
}
