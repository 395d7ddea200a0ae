import GPSCore
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

@Suite struct OverlapMergeTests {
    func row(_ id: Int64, _ start: Int64, _ end: Int64) -> StoredRange { StoredRange(id: id, start: start, end: end) }

    @Test func aRangeThatOverlapsNothingIsANewRow() {
        let plan = OverlapMerge.plan(start: 100, end: 200, candidates: [row(1, 0, 99), row(2, 201, 300)])
        #expect(plan == OverlapMerge(keep: nil, start: 100, end: 200))
    }

    @Test func theEarliestOverlappingRowKeepsItsIdAndSpansThemAll() {
        // Given in the order a store fetches them: the one before, then those inside.
        let plan = OverlapMerge.plan(
            start: 100, end: 200, candidates: [row(9, 50, 120), row(3, 150, 160), row(4, 190, 400)])
        #expect(plan == OverlapMerge(keep: 9, absorbed: [3, 4], start: 50, end: 400))
    }

    @Test func touchingAtOneMillisecondIsOverlapping() {
        #expect(OverlapMerge.plan(start: 100, end: 200, candidates: [row(1, 0, 100)]).keep == 1)
        #expect(OverlapMerge.plan(start: 100, end: 200, candidates: [row(1, 200, 250)]).keep == 1)
    }

    @Test func ofTwoStartingTogetherTheLowerIdStays() {
        let plan = OverlapMerge.plan(start: 0, end: 10, candidates: [row(7, 5, 6), row(6, 5, 8)])
        #expect(plan.keep == 6 && plan.absorbed == [7])
    }
}

@Suite struct RunNumberingTests {
    func point(_ t: Int64, ride: Int, segment: Int) -> KeptPoint { keptPoint(t, ride: ride, segment: segment) }

    @Test func aNumberSeenFirstMakesARideAndSegmentByItsFirstPoint() {
        let numbering = RunNumbering()
        let plan = numbering.plan(
            fresh: [
                point(1_000, ride: 1, segment: 1), point(2_000, ride: 1, segment: 1), point(3_000, ride: 1, segment: 2),
            ],
            drops: [1: ["accuracy": 2], 5: ["jump": 1]], storedRides: [], storedSegments: [])
        #expect(plan.newRides == [1_000])
        #expect(plan.newSegments == [.init(ride: .new(0), start: 1_000), .init(ride: .new(0), start: 3_000)])
        #expect(plan.rides == [.new(0): .init(start: 1_000, end: 3_000, count: 3)])
        #expect(plan.segments[.new(1)] == .init(start: 3_000, end: 3_000, count: 1))
        #expect(plan.drops == [.new(0): ["accuracy": 2]], "ride 5 has no row: its drops are not kept")
    }

    @Test func aPointInsideAStoredRideContinuesIt() {
        let plan = RunNumbering().plan(
            fresh: [point(1_500, ride: 1, segment: 1)],
            storedRides: [StoredRange(id: 4, start: 0, end: 1_000), StoredRange(id: 8, start: 1_400, end: 9_000)],
            storedSegments: [StoredRange(id: 30, start: 1_400, end: 1_600)])
        #expect(plan.newRides.isEmpty && plan.newSegments.isEmpty)
        #expect(plan.rides == [.stored(8): .init(start: 1_500, end: 1_500, count: 1)])
        #expect(plan.segments == [.stored(30): .init(start: 1_500, end: 1_500, count: 1)])
    }

    @Test func theNextBatchKeepsTheRowsTheNumbersGot() {
        var numbering = RunNumbering()
        let first = numbering.plan(fresh: [point(1_000, ride: 1, segment: 1)], storedRides: [], storedSegments: [])
        numbering.settle(first, madeRides: [41], madeSegments: [70])
        #expect(numbering.rides == [1: 41] && numbering.segments == [1: 70])
        // A later batch of the same numbers: no new rows, even when no stored range covers its points.
        let second = numbering.plan(
            fresh: [point(9_000, ride: 1, segment: 1)], drops: [1: ["hdop": 3]], storedRides: [], storedSegments: [])
        #expect(second.newRides.isEmpty && second.newSegments.isEmpty)
        #expect(second.rides == [.stored(41): .init(start: 9_000, end: 9_000, count: 1)])
        #expect(second.drops == [.stored(41): ["hdop": 3]])
    }

    @Test func aBatchWithNothingNewStillCountsItsDropsOnKnownRides() {
        var numbering = RunNumbering()
        numbering.settle(
            numbering.plan(fresh: [point(1_000, ride: 2, segment: 1)], storedRides: [], storedSegments: []),
            madeRides: [5], madeSegments: [6])
        let plan = numbering.plan(fresh: [], drops: [2: ["accuracy": 1]], storedRides: [], storedSegments: [])
        #expect(plan.rides.isEmpty && plan.drops == [.stored(5): ["accuracy": 1]])
    }
}

@Suite struct ImportTallyTests {
    func point(_ t: Int64, ride: Int, segment: Int = 1) -> KeptPoint { keptPoint(t, ride: ride, segment: segment) }

    @Test func aRidesDropsGoWithTheStreamThatStoredPointsOfIt() throws {
        let streams = [
            ImportStream(points: [point(0, ride: 1), point(1_000, ride: 1)], drops: [1: ["accuracy": 4]]),
            ImportStream(points: [point(0, ride: 1), point(1_000, ride: 1)], drops: [1: ["accuracy": 4]]),
        ]
        var tally = ImportTally()
        // The first stream stored both points; the second (the same log again) none.
        tally.stored(at: 0, ride: 1, stream: 0)
        tally.stored(at: 1_000, ride: 1, stream: 0)
        var claimed: [String] = []
        var drops: [Int64: [String: Int]] = [:]
        let (phone, tablet) = (DeviceID(rawValue: 1), DeviceID(rawValue: 2))
        let touched = tally.join(
            streams, devices: [phone, tablet],
            claimRide: {
                claimed.append("ride of \($0) \($1)-\($2)")
                return $0 == phone ? 10 : 11
            },
            claimSegment: {
                claimed.append("segment of \($0) \($1) \($2)-\($3) \($4.map(String.init) ?? "uncounted")")
                return ($0 == phone ? 20 : 21, false)
            },
            addDrops: { drops[$0, default: [:]].merge($1, uniquingKeysWith: +) })
        #expect(
            claimed == [
                "ride of 1 0-1000", "segment of 1 10 0-1000 2", "ride of 2 0-1000", "segment of 2 11 0-1000 uncounted",
            ])
        #expect(drops == [10: ["accuracy": 4]], "counted once")
        #expect(touched == [phone: .init(rides: [10], segments: [20]), tablet: .init(rides: [11], segments: [21])])
        #expect(tally.outcome.points == 2 && tally.range! == (0, 1_000))
    }

    @Test func aSegmentIsToldItsCountOnlyWhenEveryPointOfItsRideWentIn() throws {
        // Ride 1: two segments (2 and 1 points); ride 2: one of 2; ride 3: one of 2.
        let points = [
            point(0, ride: 1, segment: 1), point(1_000, ride: 1, segment: 1), point(60_000, ride: 1, segment: 2),
            point(900_000, ride: 2, segment: 3), point(901_000, ride: 2, segment: 3),
            point(1_800_000, ride: 3, segment: 4), point(1_801_000, ride: 3, segment: 4),
        ]
        var tally = ImportTally()
        tally.stored(count: 3, from: 0, to: 60_000, rides: [1: 3], stream: 0)
        tally.stored(at: 900_000, ride: 2, stream: 0)  // the other point of ride 2 was in the store
        tally.stored(count: 1, from: 1_800_000, to: 1_800_000, rides: [3: 0], stream: 0)  // which one: unknown
        var told: [Int64: Int?] = [:]
        let device = DeviceID(rawValue: 1)
        var next: Int64 = 100
        let touched = tally.join(
            [ImportStream(points: points, drops: [3: ["speed": 1]])], devices: [device],
            claimRide: { _, _, _ in 10 },
            claimSegment: { _, _, start, _, count in
                told[start] = count
                next += 1
                return (next, count != nil)
            },
            addDrops: { ride, _ in #expect(ride == 10, "ride 3 stored some: its drops count") })
        #expect(told == [0: 2, 60_000: 1, 900_000: nil, 1_800_000: nil])
        #expect(touched[device]?.segments == [103, 104], "the segments told their count are not counted again")
    }

    @Test func knownGapsSpareReadsOnlyWhereNothingIsStored() {
        var gaps = KnownGaps()
        let rides = KnownGaps.Key(device: DeviceID(rawValue: 1), segments: false)
        let segments = KnownGaps.Key(device: DeviceID(rawValue: 1), segments: true)
        #expect(!gaps.holds(rides, 0, 10), "nothing known at first")
        // The store was read for [100, 200]: a row ends at 50, the next begins at 1,000.
        gaps.made(
            rides, end: 200,
            read: [StoredRange(id: 1, start: 0, end: 50), StoredRange(id: 2, start: 1_000, end: 1_100)])
        #expect(gaps.holds(rides, 201, 999))
        #expect(!gaps.holds(rides, 200, 300), "touches the row just made")
        #expect(!gaps.holds(rides, 900, 1_000), "touches the next stored row")
        #expect(!gaps.holds(segments, 300, 400), "segments are known apart")
        #expect(!gaps.holds(KnownGaps.Key(device: DeviceID(rawValue: 2), segments: false), 300, 400), "devices too")
        // A row made inside moves the start; nothing after: open to the end of time.
        gaps.made(rides, end: 400, read: nil)
        #expect(!gaps.holds(rides, 300, 500) && gaps.holds(rides, 401, 999))
        gaps.made(rides, end: 2_000, read: [])
        #expect(gaps.holds(rides, 2_001, .max - 1))
        gaps.forget(rides)
        #expect(!gaps.holds(rides, 2_001, 3_000), "a merge forgets")
    }

    @Test func aFileThatStoredNothingIsForgottenElseNoted() {
        var nothing = ImportTally()
        #expect(nothing.close(places: 0, events: 0) == .forget)
        var placesOnly = ImportTally()
        #expect(placesOnly.close(places: 2, events: 0) == .note(points: 0, start: nil, end: nil))
        #expect(placesOnly.outcome.places == 2)
        var some = ImportTally()
        some.stored(count: 3, from: 5_000, to: 9_000, rides: [1: 2, 2: 1], stream: 0)
        some.stored(at: 1_000, ride: 3, stream: 1)
        #expect(some.close(places: 0, events: 1) == .note(points: 4, start: 1_000, end: 9_000))
    }
}

/// A point at `t` (ms) with the run-local numbers given.
func keptPoint(_ t: Int64, ride: Int, segment: Int) -> KeptPoint {
    var fix = Fix()
    UTCTimestamp.set(t, on: &fix)
    fix.coordinate = Coordinate(latitude: 47.37, longitude: 8.54)
    fix.mode = .threeD
    return KeptPoint(fix: fix, ride: ride, segment: segment)
}

@Suite struct PlacementTallyTests {
    @Test func countsFollowTheMergesAndTheDropsTheNewestPoint() {
        var tally = PlacementTally()
        #expect(tally.dropRide == nil, "nothing placed: the store's latest ride")
        tally.placed(at: 5_000, segment: 10, ride: 1, plan: .init(segment: 10, ride: 1))
        tally.placed(at: 90_000, segment: 20, ride: 2, plan: .init())
        tally.placed(at: 1_000, segment: 10, ride: 1, plan: .init(segment: 10, ride: 1))
        #expect(tally.dropRide == 2, "the newest point's ride")
        // A point between them bridges both: ride 2 and segment 20 are absorbed by ride 1 and segment 10.
        tally.placed(
            at: 40_000, segment: 10, ride: 1, plan: .init(segment: 10, absorbedSegment: 20, ride: 1, absorbedRide: 2))
        #expect(tally.segments == [10: 4] && tally.rides == [1: 4])
        #expect(tally.dropRide == 1, "the newest point's ride went into ride 1")
    }
}

/// What a removal takes, decided before a row is deleted.
@Suite struct RemovalPlanTests {
    func record(_ id: Int64, at ms: Int64, manual: Bool = false, device: Int64? = 7) -> RemovalPlan.Record {
        RemovalPlan.Record(id: id, milliseconds: ms, manual: manual, device: device)
    }

    @Test func recordsGoAllTogetherOrNotAtAll() {
        let found = [record(1, at: 1_000), record(3, at: 3_000)]
        #expect(RemovalPlan.records([1, 2, 3, 4], found: found) == .failure(.init(ids: [2, 4])))
        guard case .success(let plan) = RemovalPlan.records([1, 3], found: found) else {
            Issue.record("records the account has are removed")
            return
        }
        #expect(plan.records == [1, 3])
        #expect(
            plan.ride == nil && plan.recordsAtPoints == nil && plan.recordsInTime == nil && plan.daySummaries.isEmpty)
    }

    @Test func aRecordAtAStoredPointTakesThePointAManualOneDoesNot() {
        let found = [
            record(1, at: 1_000), record(2, at: 2_000, manual: true), record(3, at: 3_000, device: nil),
            record(4, at: 4_000, device: 9),
        ]
        let plan = try? RemovalPlan.records([1, 2, 3, 4], found: found).get()
        #expect(
            plan?.points == [
                RemovalPlan.Span(devices: [7], from: 1_000, to: 1_001),
                RemovalPlan.Span(devices: [9], from: 4_000, to: 4_001),
            ])
    }

    @Test func aRideTakesItsDevicesPointsFirstToLastAndTheRecordsAtThem() {
        #expect(RemovalPlan.ride(5, device: 7, start: 10_000, end: 20_000, accountDevices: [8]) == nil)
        let plan = RemovalPlan.ride(5, device: 7, start: 10_000, end: 20_000, accountDevices: [7, 8])
        let span = RemovalPlan.Span(devices: [7], from: 10_000, to: 20_001)
        #expect(plan?.points == [span])
        #expect(plan?.recordsAtPoints == span, "records made at its points, not the manual ones in its time")
        #expect(plan?.recordsInTime == nil && plan?.records == [])
        #expect(plan?.ride == 5)
    }

    @Test func aTimeRangeTakesRecordsPointsAndTheDaysSummaries() {
        let day = CivilDate(year: 2026, month: 6, day: 14)!
        let plan = RemovalPlan.time(from: 1_000, to: 5_000, days: [day], accountDevices: [7, 8])
        #expect(plan.recordsInTime == 1_000...4_999, "manual records too, the end not included")
        #expect(plan.points == [RemovalPlan.Span(devices: [7, 8], from: 1_000, to: 5_000)])
        #expect(plan.daySummaries == [day])
        #expect(plan.ride == nil && plan.records.isEmpty)
        // An account with no devices: its records and summaries still go.
        let bare = RemovalPlan.time(from: 1_000, to: 5_000, days: [], accountDevices: [])
        #expect(bare.points.isEmpty && bare.recordsInTime == 1_000...4_999)
        #expect(RemovalPlan.time(from: 5_000, to: 5_000, days: [], accountDevices: [7]).recordsInTime == nil)
    }
}
