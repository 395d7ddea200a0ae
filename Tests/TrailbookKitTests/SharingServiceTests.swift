import Foundation
import GPSCore
import Logging
import Pipeline
import Synchronization
import Testing
import TrailbookKit
import TrailbookTestSupport

@testable import TrackStore

/// Pairing, grants, motion and the live feed on a real store, without a server.
@Suite struct SharingServiceTests {
    /// 2026-06-14T06:30:00Z.
    let t0: Int64 = 1_781_418_600_000

    func setUp() throws -> (SharingService, TrackStore, DeviceID) {
        let store = try TrackStore(path: try Samples.temporaryDirectory() + "/s.sqlite")
        for name in ["ana", "ben", "cat"] {
            _ = try store.writeNow { try $0.addAccount(name: name, passwordHash: "v1$x") }
        }
        let phone = try #require(
            try store.writeNow { try $0.addDevice(named: "phone", account: "ana", tokenHash: "t") })
        return (SharingService(store: store), store, phone)
    }

    func fix(_ ms: Int64, lon: Double, speed: Double? = nil) -> Fix {
        var f = Fix()
        UTCTimestamp.set(ms, on: &f)
        f.coordinate = Coordinate(latitude: 47.37, longitude: lon)
        f.speed = speed
        f.mode = .twoD
        return f
    }

    /// What a phone sent that is no position is kept in its batch's unit of work: a batch refused
    /// for one of its points keeps none of its messages, and one stored keeps them with its points,
    /// received when the batch was.
    @Test func aBatchsMessagesAreKeptWithItsPointsOrNotAtAll() async throws {
        let (_, store, phone) = try setUp()
        let ingest = PhoneIngest(store: store, configuration: PipelineConfiguration(), logger: Logger(label: "test"))
        let trip = (type: "overland.trip", body: #"{"feature":{"properties":{"type":"trip"}}}"#)
        let now = t0 + 60_000
        let twoYearsAgo = fix(t0 - 2 * 366 * 86_400_000, lon: 8.54)
        await #expect(throws: IngestError.self) {
            try await ingest.ingest([twoYearsAgo], device: phone, account: "ana", messages: [trip], now: now)
        }
        #expect(try store.readNow { try $0.deviceMessages(account: "ana") }.isEmpty, "nothing of the refused batch")
        let stored = try await ingest.ingest(
            [fix(t0, lon: 8.54)], device: phone, account: "ana", messages: [trip], now: now)
        #expect(stored == 1)
        let kept = try store.readNow { try $0.deviceMessages(account: "ana") }
        #expect(kept.map(\.type) == ["overland.trip"] && kept.map(\.receivedMilliseconds) == [now], "\(kept)")
    }

    /// A phone whose clock ran ahead: its points more than ten minutes ahead of the server's clock
    /// are dropped (counted as `ahead` on its ride), the rest of the batch stored, and the real
    /// points after them are the device's newest, not late ones.
    @Test func aPointAheadOfTheClockIsDroppedAndTheRestStored() async throws {
        let (_, store, phone) = try setUp()
        let ingest = PhoneIngest(store: store, configuration: PipelineConfiguration(), logger: Logger(label: "test"))
        let ana = DeviceFilter.account("ana", device: nil)
        let now = t0 + 60_000
        let ahead = fix(now + PhoneIngest.aheadTolerance + 3_600_000, lon: 8.56)
        let nearlyAhead = fix(now + PhoneIngest.aheadTolerance - 1000, lon: 8.545)
        #expect(try await ingest.ingest([fix(t0, lon: 8.54), ahead], device: phone, account: "ana", now: now) == 1)
        // A minute later: the next real point is stored as the newest; a point within the
        // tolerance (a clock a few minutes fast) is kept.
        let later = fix(t0 + 60_000, lon: 8.541)
        #expect(try await ingest.ingest([later], device: phone, account: "ana", now: now + 60_000) == 1)
        let newest = try store.readNow { try $0.latestPoint(devices: ana) }
        #expect(newest?.unixMilliseconds == t0 + 60_000, "\(String(describing: newest))")
        #expect(try await ingest.ingest([nearlyAhead], device: phone, account: "ana", now: now) == 1)
        let rides = try store.readNow { try $0.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: ana) }
        #expect(rides.map(\.drops["ahead"]) == [1], "\(rides)")
        #expect(rides.map(\.pointCount) == [3])
    }

    /// A device's batches sent at once go one after the other through its lane (its turn is
    /// awaited, no lock is held across a unit of work): every point is stored once, in one ride.
    @Test func oneDevicesBatchesAtOnceAreStoredOneAfterTheOther() async throws {
        let (_, store, phone) = try setUp()
        let ingest = PhoneIngest(store: store, configuration: PipelineConfiguration(), logger: Logger(label: "test"))
        let ana = DeviceFilter.account("ana", device: nil)
        func point(_ i: Int) -> Fix { fix(t0 + Int64(i) * 1000, lon: 8.54 + 1e-4 * Double(i)) }
        let batches: [[Fix]] = (0..<20).map { b in (0..<5).map { point(b * 5 + $0) } }
        let stored = try await withThrowingTaskGroup(of: Int.self) { group in
            for batch in batches {
                group.addTask { try await ingest.ingest(batch, device: phone, account: "ana", now: self.t0 + 200_000) }
            }
            return try await group.reduce(0, +)
        }
        let points = try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max, devices: ana) }
        #expect(stored == points.count && Set(points.map(\.unixMilliseconds)).count == points.count, "\(stored)")
        #expect(points.count >= 90, "the rules keep nearly all of 100 points 1 s apart: \(points.count)")
        let rides = try store.readNow { try $0.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: ana) }
        #expect(rides.count == 1 && rides.first?.pointCount == points.count, "\(rides)")
    }

    @Test func codesAreCrockfordAndForgiveTyping() async throws {
        let (sharing, _, _) = try setUp()
        let (code, expires) = try await sharing.createCode(owner: "ana", scopes: ["live"], historyHours: 0, now: t0)
        #expect(code.range(of: #"^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$"#, options: .regularExpression) != nil)
        #expect(expires == t0 + 15 * 60_000)
        // Typed in lower case, without the dash, with O for 0 and l for 1.
        let typed = code.lowercased().replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "0", with: "o")
            .replacingOccurrences(of: "1", with: "l")
        #expect(try await sharing.redeem(typed, viewer: "ben", now: t0 + 1000).owner == "ana")
        await #expect(throws: SharingError.badScopes("everything")) {
            try await sharing.createCode(owner: "ana", scopes: ["everything"], historyHours: 0)
        }
        #expect(
            SharingError.badScopes("everything").description
                == "'everything' is not a scope; scopes are events, history, live, motion.")
        await #expect(throws: SharingError.unknownCode) {
            try await sharing.redeem(code, viewer: "cat", now: t0 + 2000)
        }
    }

    /// A refused code still counts: the unit of work that notes the failure commits before the
    /// refusal is thrown, so the fifth wrong code locks the viewer out even of a right one.
    @Test func wrongCodesCountThoughTheyAreRefused() async throws {
        let (sharing, _, _) = try setUp()
        let (code, _) = try await sharing.createCode(owner: "ana", scopes: ["live"], historyHours: 0, now: t0)
        for (i, guess) in ["AAAA-AAAA", "BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD", "EEEE-EEEE"].enumerated() {
            await #expect(throws: SharingError.unknownCode) {
                try await sharing.redeem(guess, viewer: "cat", now: t0 + Int64(i) * 1000)
            }
        }
        await #expect(throws: SharingError.throttled) { try await sharing.redeem(code, viewer: "cat", now: t0 + 9000) }
        #expect(try await sharing.redeem(code, viewer: "ben", now: t0 + 9000).owner == "ana", "Ben is not Cat")
    }

    @Test func movingComesFromTheRecentFixesNotOneSpeed() {
        // Standing still with one noisy speed value: not moving.
        let still = (0..<10).map { fix(t0 + Int64($0) * 5000, lon: 8.54, speed: $0 == 9 ? 6 : 0) }
        #expect(!SharingService.moving(still))
        // No speeds, but 100 m in 45 s: moving.
        let walking = (0..<10).map { fix(t0 + Int64($0) * 5000, lon: 8.54 + Double($0) * 0.000_15) }
        #expect(SharingService.moving(walking))
    }

    @Test func theFeedDeliversToViewersWithALiveGrantOnly() async throws {
        let (sharing, store, phone) = try setUp()
        let code = try await sharing.createCode(owner: "ana", scopes: ["live"], historyHours: 0).code
        _ = try await sharing.redeem(code, viewer: "ben")
        let feed = LiveFeed(store: store)
        let bens = await feed.subscribe(viewer: "ben")
        let cats = await feed.subscribe(viewer: "cat")
        let now = UTCTimestamp.now()
        try store.writeNow {
            try $0.makeWriter(device: phone).write(
                [KeptPoint(fix: fix(now, lon: 8.54), ride: 1, segment: 1)], drops: [:])
        }
        try await feed.published(owner: "ana", device: "phone")
        await feed.close(viewer: "cat")
        // A heartbeat (every 15 s) may come between on a loaded machine: only positions count.
        func nextPosition(_ events: inout AsyncStream<LiveFeed.Event>.Iterator) async -> SharingService.Friend? {
            while let event = await events.next() {
                if case .position(let friend) = event { return friend }
            }
            return nil
        }
        var seen: [SharingService.Friend] = []
        var bensIterator = bens.makeAsyncIterator()
        if let f = await nextPosition(&bensIterator) { seen.append(f) }
        #expect(seen.map(\.user) == ["ana"] && seen.first?.moving == nil, "no motion scope, no motion: \(seen)")
        var catsIterator = cats.makeAsyncIterator()
        #expect(await nextPosition(&catsIterator) == nil, "Cat's stream ended with no position in it")
        // Paused: nothing more reaches Ben.
        _ = try await sharing.update(owner: "ana", viewer: "ben", paused: true, expires: nil)
        try await feed.published(owner: "ana", device: "phone")
        await feed.closeAll()
        #expect(await nextPosition(&bensIterator) == nil, "nothing after the pause")
        #expect(await feed.count == 0)
    }

    /// Announcements come faster than reads: each announced device reaches the viewer at its
    /// newest, however many announcements it had, and a device with no grant reaches nobody.
    /// Live means live: a friend sees the phone that posts, not a history imported into the
    /// account, even when the import's points are newer; a revoked phone is still its last place.
    @Test func importsAreNeverSeenLive() async throws {
        let (sharing, store, phone) = try setUp()
        let code = try await sharing.createCode(owner: "ana", scopes: ["live", "motion"], historyHours: 0).code
        _ = try await sharing.redeem(code, viewer: "ben")
        let now = UTCTimestamp.now()
        try store.writeNow {
            try $0.makeWriter(device: phone).write(
                [KeptPoint(fix: fix(now - 60_000, lon: 8.54), ride: 1, segment: 1)], drops: [:])
        }
        let imported = try #require(try store.writeNow { try $0.device(named: "imported-google-1", account: "ana") })
        try store.writeNow {
            try $0.makeWriter(device: imported).write(
                [KeptPoint(fix: fix(now - 1000, lon: 8.60), ride: 1, segment: 1)], drops: [:])
        }
        #expect(try await sharing.friends(of: "ben", now: now).map(\.device) == ["phone"])
        #expect(try store.writeNow { try $0.revokeDevice(named: "phone", account: "ana", at: now) })
        #expect(try await sharing.friends(of: "ben", now: now).map(\.device) == ["phone"])
    }

    @Test func announcedDevicesReachTheViewerAtTheirNewest() async throws {
        let (sharing, store, phone) = try setUp()
        for owner in ["ana", "cat"] {
            let code = try await sharing.createCode(owner: owner, scopes: ["live"], historyHours: 0).code
            _ = try await sharing.redeem(code, viewer: "ben")
        }
        let bike = try #require(try store.writeNow { try $0.addDevice(named: "bike", account: "cat", tokenHash: "b") })
        let other = try #require(
            try store.writeNow { try $0.addDevice(named: "tablet", account: "ben", tokenHash: "o") })
        let failures = Mutex(0)
        let feed = LiveFeed(store: store) { _ in failures.withLock { $0 += 1 } }
        let bens = await feed.subscribe(viewer: "ben")
        let now = UTCTimestamp.now()
        for i in 0..<20 {
            for (device, lon) in [(phone, 8.5), (bike, 9.5), (other, 10.5)] {
                try store.writeNow {
                    try $0.makeWriter(device: device).write(
                        [
                            KeptPoint(
                                fix: fix(now - 20_000 + Int64(i) * 1000, lon: lon + Double(i) * 0.001), ride: 1,
                                segment: 1)
                        ],
                        drops: [:])
                }
            }
            await feed.announced(owner: "ana", device: "phone")
            await feed.announced(owner: "cat", device: "bike")
            await feed.announced(owner: "ben", device: "tablet")
        }
        // The last longitude each friend reached, once both friends' newest came (the stream is
        // ended after 60 s, so that a missing one fails instead of waiting for ever).
        let bound = Task {
            try await Task.sleep(for: .seconds(60))
            await feed.closeAll()
        }
        defer { bound.cancel() }
        var newest: [String: Double] = [:]
        var events = bens.makeAsyncIterator()
        while newest["ana"] != 8.519 || newest["cat"] != 9.519, let event = await events.next() {
            if case .position(let friend) = event {
                newest[friend.user] = ((friend.fix.coordinate?.longitude ?? 0) * 1000).rounded() / 1000
            }
        }
        #expect(
            newest == ["ana": 8.519, "cat": 9.519], "each friend at the newest point, ben's own device not: \(newest)")
        #expect(failures.withLock { $0 } == 0)
        await feed.closeAll()
    }

    /// The shared track as lines: read a day at a time, never further back than the grant.
    @Test func theSharedTrackIsDrawnAsFarBackAsTheGrantSays() async throws {
        let (sharing, store, phone) = try setUp()
        let code = try await sharing.createCode(owner: "ana", scopes: ["live", "history"], historyHours: 48, now: t0)
            .code
        _ = try await sharing.redeem(code, viewer: "ben", now: t0)
        // A point every minute for four days, east 100 m each time; a gap of an hour each day.
        var points: [KeptPoint] = []
        for m in 0..<(4 * 1440) where m % 1440 >= 60 {
            points.append(
                KeptPoint(
                    fix: fix(t0 + Int64(m) * 60_000, lon: 8 + Double(m) * 100 / 75_500), ride: m / 1440 + 1,
                    segment: 1))
        }
        try store.writeNow { try $0.makeWriter(device: phone).write(points, drops: [:]) }
        let now = t0 + 4 * 86_400_000
        let lines = try await sharing.trackLines(of: "ana", viewer: "ben", hours: 24 * 366, now: now)
        // The last 48 hours: two days, each a line of its own (the hour without points between).
        #expect(lines.count == 2 && lines.allSatisfy { $0.device == "phone" }, "\(lines.map(\.line.count))")
        let west = try #require(lines.first?.line.first?.longitude)
        #expect(west >= 8 + Double(2 * 1440 + 60) * 100 / 75_500 - 1e-6, "nothing older than 48 h: \(west)")
        let day = try await sharing.trackLines(of: "ana", viewer: "ben", hours: 24, now: now)
        #expect(day.count == 1, "the last day only")
        await #expect(throws: SharingError.noHistory("ana")) {
            try await sharing.trackLines(of: "ana", viewer: "cat", hours: 24, now: now)
        }
    }
}
