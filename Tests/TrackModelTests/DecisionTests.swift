import Testing
import TrackModel

/// The rules the stores share, as pure values: each store only fetches the rows a rule names and
/// carries out its plan (the store contract runs them on both engines).
@Suite struct PointPlacementTests {
    /// Segments 5 s apart at most, rides 60 s.
    let rule = PointPlacement(segmentGapSeconds: 5, rideGapSeconds: 60)
    func span(_ segment: Int64, _ ride: Int64, _ start: Int64, _ end: Int64) -> PointPlacement.Span {
        PointPlacement.Span(segment: segment, ride: ride, start: start, end: end)
    }

    @Test func aPointInsideASegmentJoinsIt() {
        #expect(rule.plan(at: 10_000, before: span(1, 1, 0, 20_000), after: nil) == .init(segment: 1, ride: 1))
    }

    @Test func aPointNearOneNeighbourJoinsItsSegmentAndRide() {
        #expect(rule.plan(at: 24_000, before: span(1, 1, 0, 20_000), after: nil) == .init(segment: 1, ride: 1))
        #expect(rule.plan(at: 16_000, before: nil, after: span(2, 1, 20_000, 30_000)) == .init(segment: 2, ride: 1))
    }

    @Test func aPointCloseToBothBridgesThemTheEarlierKeepsItsId() {
        let plan = rule.plan(at: 23_000, before: span(1, 1, 0, 20_000), after: span(2, 2, 26_000, 40_000))
        #expect(plan == .init(segment: 1, absorbedSegment: 2, ride: 1, absorbedRide: 2))
        // Of one ride already: only the segments merge.
        let sameRide = rule.plan(at: 23_000, before: span(1, 1, 0, 20_000), after: span(2, 1, 26_000, 40_000))
        #expect(sameRide == .init(segment: 1, absorbedSegment: 2, ride: 1))
    }

    @Test func aGapLongerThanASegmentsButShorterThanARidesStartsASegmentInTheRide() {
        #expect(rule.plan(at: 50_000, before: span(1, 1, 0, 20_000), after: nil) == .init(ride: 1))
        // Within a ride's gap of both neighbours, in rides apart: the rides join, the segments not.
        let plan = rule.plan(at: 50_000, before: span(1, 1, 0, 20_000), after: span(2, 2, 90_000, 99_000))
        #expect(plan == .init(ride: 1, absorbedRide: 2))
    }

    @Test func aPointFarFromEverythingStartsARide() {
        #expect(rule.plan(at: 500_000, before: span(1, 1, 0, 20_000), after: span(2, 2, 900_000, 910_000)) == .init())
        #expect(rule.plan(at: 5, before: nil, after: nil) == .init())
    }

    @Test func theRideGapIsAtLeastTheSegmentGap() {
        let odd = PointPlacement(segmentGapSeconds: 30, rideGapSeconds: 10)
        #expect(odd.segmentGap == 30_000 && odd.rideGap == 30_000)
    }
}

@Suite struct ShareCodeRedemptionTests {
    let rule = ShareCodeRedemption(maxFailures: 5, window: 900_000)
    let now: Int64 = 1_781_418_600_000
    var code: ShareCodeRedemption.Code {
        .init(id: 7, owner: 1, scopes: "live,motion", historyHours: 24, expires: now + 60_000)
    }

    @Test func aLiveCodeOfAnotherGrantsAndIsUsedUp() {
        #expect(rule.plan(viewer: 2, failures: 4, code: code, now: now) == .grant(code))
    }

    @Test func anUnknownViewerChangesNothing() {
        #expect(rule.plan(viewer: nil, failures: 0, code: code, now: now) == .refuse(.unknown))
    }

    @Test func tooManyFailuresShutTheViewerOutBeforeTheCodeIsLookedAt() {
        #expect(rule.plan(viewer: 2, failures: 5, code: code, now: now) == .refuse(.throttled))
        #expect(rule.plan(viewer: 2, failures: 5, code: nil, now: now) == .refuse(.throttled), "no failure noted")
        #expect(rule.failuresSince(now: now) == now - 900_000)
    }

    @Test func aMissingOrExpiredCodeIsAFailure() {
        #expect(rule.plan(viewer: 2, failures: 0, code: nil, now: now) == .noteFailure)
        var expired = code
        expired.expires = now
        #expect(rule.plan(viewer: 2, failures: 0, code: expired, now: now) == .noteFailure, "expired at its time")
    }

    @Test func theViewersOwnCodeIsRefusedAndStays() {
        #expect(rule.plan(viewer: 1, failures: 0, code: code, now: now) == .refuse(.own))
    }
}
