import Foundation
import GPSCore
import Logging
import Pipeline
import Testing
import TrackModel
import TrailbookKit
import TrailbookTestSupport

@testable import TrackStore

/// Alerts through the outbox to real receivers on 127.0.0.1: a webhook receiver that verifies
/// the signature, an ntfy-style receiver, Debian's mosquitto, and (for the desktop only) a
/// `notify-send` stand-in, because CI has no D-Bus session for the real one to talk to.
@Suite(.serialized) struct AlertTests {
    static let home = Coordinate(latitude: 47.37, longitude: 8.54)
    static let logger = Logger(label: "test.alerts")

    func newStore(_ dir: String) throws -> TrackStore {
        let store = try TrackStore(path: dir + "/s.sqlite")
        #expect(
            try store.writeNow { try $0.addPlace(Place(name: "home", center: Self.home, radius: 100), account: nil) })
        return store
    }

    static func arrival(at ms: Int64 = 1_780_000_000_000) -> TrailEvent {
        TrailEvent(
            milliseconds: ms, type: .placeArrive, place: "home", coordinate: home, details: ["accuracy_m": 4])
    }

    /// Delivers until `done` holds or `seconds` pass.
    func deliver(
        _ notifier: Notifier, seconds: Double, until done: () -> Bool
    ) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !done() && Date() < deadline {
            try await notifier.deliverDue()
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    @Test func everyChannelGetsTheEventAndTheCueItFired() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = try newStore(dir)
        let hook = try HookReceiver(secret: "s3cret", directory: dir)
        try hook.start()
        let ntfy = try HookReceiver(directory: dir)
        try ntfy.start()
        let broker = try Mosquitto(directory: dir)
        let received = try broker.subscribe("trailbook/events")
        // The desktop's stand-in writes its arguments, one per line, and a blank line.
        let desktopLog = dir + "/notify-send.log"
        let standIn = dir + "/notify-send"
        try "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\"; done >> \(desktopLog)\necho >> \(desktopLog)\n".write(
            toFile: standIn, atomically: true, encoding: .utf8)
        chmod(standIn, 0o755)

        let service = AlertService(store: store)
        _ = try await service.add(
            types: [.placeArrive], place: "home", device: nil, quiet: nil, cooldown: 0,
            channel: .webhook(URL(string: "http://127.0.0.1:\(hook.port)/hook")!, secret: "s3cret"))
        _ = try await service.add(
            types: [.cue], place: nil, device: nil, quiet: nil, cooldown: 0,
            channel: .ntfy(URL(string: "http://127.0.0.1:\(ntfy.port)/trailbook")!))
        _ = try await service.add(
            types: [.placeArrive, .cue], place: nil, device: "bike", quiet: nil, cooldown: 0,
            channel: .mqtt(host: "127.0.0.1", port: broker.port, topic: "trailbook/events"))
        _ = try await service.add(types: [.cue], place: nil, device: nil, quiet: nil, cooldown: 0, channel: .desktop)
        // An alert of another device takes nothing.
        _ = try await service.add(
            types: [.placeArrive], place: nil, device: "car", quiet: nil, cooldown: 0,
            channel: .webhook(URL(string: "http://127.0.0.1:\(hook.port)/car")!, secret: nil))
        _ = try await CueService(store: store).add(text: "water the plants", place: "home", moment: .arrive, once: true)

        let device = try store.writeNow { try $0.device(named: "bike") }
        let outlet = EventOutlet(store: store, account: nil, alerting: true, zone: TimeZone(identifier: "UTC")!)
        let all = try await outlet.take([Self.arrival()], device: device, deviceName: "bike")
        #expect(all.map(\.type) == [.placeArrive, .cue])
        #expect(all.last?.text == "water the plants")

        var settings = AlertSettings()
        settings.timeout = 5
        let notifier = Notifier(
            store: store, settings: settings, logger: Self.logger,
            sender: AlertSender(timeout: 5, environment: ["TRAILBOOK_NOTIFY_SEND": standIn]))
        try await deliver(notifier, seconds: 60) {
            hook.requests().count >= 1 && ntfy.requests().count >= 1 && received().count >= 2
                && ((try? String(contentsOfFile: desktopLog, encoding: .utf8)) ?? "").contains("Reminder")
        }

        // The webhook: signed, verified by the receiver, the event as JSON.
        let hooks = hook.requests()
        #expect(hooks.count == 1, "\(hooks)")
        #expect(hooks.first?["verified"] as? Bool == true, "the receiver verified the HMAC: \(hooks)")
        #expect(hooks.first?["path"] as? String == "/hook")
        let body =
            try JSONSerialization.jsonObject(with: Data((hooks.first?["body"] as? String ?? "").utf8))
            as? [String: Any]
        let event = body?["event"] as? [String: Any]
        #expect(event?["type"] as? String == "place.arrive" && event?["place"] as? String == "home")
        #expect(event?["device"] as? String == "bike" && event?["lat"] as? Double == 47.37)
        #expect(body?["title"] as? String == "bike arrived at home")
        #expect(body?["test"] as? Bool == false)
        // ntfy: the message as the body, title, priority and tags as headers.
        let pushed = ntfy.requests()
        #expect(pushed.count == 1 && pushed.first?["path"] as? String == "/trailbook", "\(pushed)")
        let headers = pushed.first?["headers"] as? [String: String] ?? [:]
        #expect(headers["Title"] == "Reminder: water the plants", "\(headers)")
        #expect(headers["Priority"] == "high" && headers["Tags"] == "bell,cue", "\(headers)")
        #expect((pushed.first?["body"] as? String ?? "").contains("Reminder: water the plants"))
        // MQTT: both events, as JSON, through the broker.
        let messages = received().compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(
            messages.compactMap { ($0["event"] as? [String: Any])?["type"] as? String } == ["place.arrive", "cue"],
            "\(received())")
        // The desktop: title and line for notify-send.
        let desktop = (try? String(contentsOfFile: desktopLog, encoding: .utf8)) ?? ""
        #expect(
            desktop.contains("--app-name=Trailbook") && desktop.contains("Reminder: water the plants"), "\(desktop)")
        #expect(desktop.components(separatedBy: "Reminder: water the plants\n").count == 2, "once: \(desktop)")

        // Offered again (a batch stored twice), the same event is not sent again.
        try await outlet.take([Self.arrival()], device: device, deviceName: "bike")
        try await notifier.deliverDue()
        let counts = try store.readNow { try $0.alerts(account: nil) }.map {
            [$0.counts.delivered, $0.counts.waiting, $0.counts.dropped]
        }
        #expect(counts == [[1, 0, 0], [1, 0, 0], [2, 0, 0], [1, 0, 0], [0, 0, 0]], "\(counts)")
        #expect(hook.requests().count == 1)
        // The once cue is used up: the next arrival fires no cue.
        let later = try await outlet.take([Self.arrival(at: 1_780_000_600_000)], device: device, deviceName: "bike")
        #expect(later.map(\.type) == [.placeArrive])
        hook.stop()
        ntfy.stop()
        broker.stop()
    }

    @Test func aReceiverDownForThirtySecondsGetsTheEventOnceWhenBack() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = try newStore(dir)
        let hook = try HookReceiver(secret: "k", directory: dir)
        _ = try await AlertService(store: store).add(
            types: [.placeArrive], place: nil, device: nil, quiet: nil, cooldown: 0,
            channel: .webhook(URL(string: "http://127.0.0.1:\(hook.port)/down")!, secret: "k"))
        let device = try store.writeNow { try $0.device(named: "bike") }
        try await EventOutlet(store: store, account: nil, alerting: true).take(
            [Self.arrival()], device: device, deviceName: "bike")
        var settings = AlertSettings()
        settings.retryMax = 4
        settings.timeout = 2
        let notifier = Notifier(store: store, settings: settings, logger: Self.logger)
        // Down for 30 s: tried, failed, tried again later, nothing received.
        try await deliver(notifier, seconds: 30) { false }
        let waiting = try store.readNow { try $0.alerts(account: nil) }[0].counts
        #expect(waiting == DeliveryCounts(waiting: 1, delivered: 0, dropped: 0), "\(waiting)")
        try hook.start()
        try await deliver(notifier, seconds: 60) { !hook.requests().isEmpty }
        // A few more rounds: nothing is sent twice.
        for _ in 0..<5 {
            try await notifier.deliverDue()
            try await Task.sleep(for: .milliseconds(200))
        }
        let requests = hook.requests()
        #expect(requests.count == 1, "once: \(requests.count)")
        #expect(requests.first?["verified"] as? Bool == true)
        #expect(
            try store.readNow { try $0.alerts(account: nil) }[0].counts
                == DeliveryCounts(waiting: 0, delivered: 1, dropped: 0))
        hook.stop()
    }

    @Test func aDeliveryNotMadeInTimeIsDroppedWithItsReason() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = try newStore(dir)
        let refusing = try RefusingPort()  // bound, never listening: refused at once
        let port = refusing.port
        _ = try await AlertService(store: store).add(
            types: [.placeArrive], place: nil, device: nil, quiet: nil, cooldown: 0,
            channel: .webhook(URL(string: "http://127.0.0.1:\(port)/")!, secret: nil))
        try await EventOutlet(store: store, account: nil, alerting: true).take(
            [Self.arrival()], device: try store.writeNow { try $0.device(named: "bike") }, deviceName: "bike")
        var settings = AlertSettings()
        settings.giveUpAfter = 1
        settings.retryMax = 1
        let notifier = Notifier(store: store, settings: settings, logger: Self.logger)
        // Ends as soon as it is dropped; the bound is generous for a loaded machine.
        try await deliver(notifier, seconds: 60) {
            (try? store.readNow { try $0.alerts(account: nil) }[0].counts.dropped) == 1
        }
        #expect(
            try store.readNow { try $0.alerts(account: nil) }[0].counts
                == DeliveryCounts(waiting: 0, delivered: 0, dropped: 1))
        withExtendedLifetime(refusing) {}
    }

    @Test func quietHoursCooldownPlaceAndDeviceChooseTheAlerts() throws {
        let utc = TimeZone(identifier: "UTC")!
        let matcher = AlertMatcher(zone: utc)
        let night = Alert(
            id: 1, types: [.placeArrive], quiet: "22:00-07:00", channel: .desktop)
        let cool = Alert(id: 2, types: [.placeArrive, .placeDepart], cooldown: 600, channel: .desktop)
        let work = Alert(id: 3, types: [.placeArrive], place: "work", channel: .desktop)
        // 2026-05-28 23:30 UTC, then 06:59 and 07:00 the next day, then 07:10.
        let base: Int64 = 1_780_011_000_000
        let times: [Int64] = [base, base + 26_940_000, base + 27_000_000, base + 27_600_000]
        let events = times.map { Self.arrival(at: $0) }
        let d = matcher.deliveries(for: events, device: "bike", account: "me", alerts: [night, cool, work])
        let byAlert = Dictionary(grouping: d, by: \.alert).mapValues { $0.map(\.eventMilliseconds) }
        #expect(byAlert[1] == [times[2], times[3]], "quiet until 07:00")
        #expect(byAlert[2] == [times[0], times[1], times[3]], "10 min cooldown: \(byAlert[2] ?? [])")
        #expect(byAlert[3] == nil)
        #expect(QuietHours("7:00-8:00") == nil && QuietHours("22:00-22:00") == nil && QuietHours("08:00-09:30") != nil)
        #expect(d.allSatisfy { $0.key.hasPrefix("bike|") })
    }

    @Test func tasksFireOnceAtTheirTimeAndAMissedOneOnceLate() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = try newStore(dir)
        let zurich = TimeZone(identifier: "Europe/Zurich")!
        let tasks = TaskService(store: store)
        // Now: Saturday 2026-10-24 12:00 UTC (14:00 in Zurich, the day before the clocks go back).
        let now: Int64 = 1_792_843_200_000
        let daily = try await tasks.add(
            text: "feed the cat", at: "2026-10-24 08:00", rule: "daily", zone: zurich, now: now)
        // Its first time is past: due tomorrow at 08:00 Zurich, which is 07:00 UTC after the change.
        #expect(daily.dueMilliseconds == 1_792_911_600_000, "\(LocalTime.utc(daily.dueMilliseconds!))")
        let once = try await tasks.add(
            text: "post the letter", at: "2026-10-24 15:00", rule: nil, zone: zurich, now: now)
        await #expect(throws: ScheduleError.self) {
            try await tasks.add(text: "too late", at: "2026-10-24 13:00", rule: nil, zone: zurich, now: now)
        }
        await #expect(throws: ScheduleError.self) {
            try await tasks.add(text: "bad", at: "2026-10-24 15:00", rule: "FREQ=HOURLY", zone: zurich, now: now)
        }
        let device = try store.writeNow { try $0.device(named: "bike") }
        let outlet = EventOutlet(store: store, account: nil, alerting: true)
        #expect(try await tasks.fireDue(now: now, outlet: outlet, device: device, deviceName: "bike").isEmpty)
        // 15:00:30 Zurich: the letter is due (on time: no late_s).
        let fired = try await tasks.fireDue(
            now: once.dueMilliseconds! + 30_000, outlet: outlet, device: device, deviceName: "bike")
        #expect(fired.map(\.text) == ["post the letter"] && fired.first?.details["late_s"] == nil)
        #expect(
            try await tasks.fireDue(
                now: once.dueMilliseconds! + 60_000, outlet: outlet, device: device, deviceName: "bike"
            )
            .isEmpty)
        // Nothing ran for three days: the cat task fires once, late, and is next due the day after.
        let restart = daily.dueMilliseconds! + 3 * 86_400_000 + 3_600_000
        let missed = try await tasks.fireDue(now: restart, outlet: outlet, device: device, deviceName: "bike")
        #expect(missed.map(\.text) == ["feed the cat"])
        #expect(missed.first?.milliseconds == daily.dueMilliseconds)
        #expect(missed.first?.details["late_s"] == Double(3 * 86_400 + 3_600))
        let listed = try await tasks.list()
        #expect(listed[0].dueMilliseconds == daily.dueMilliseconds! + 4 * 86_400_000)
        #expect(listed[1].dueMilliseconds == nil && listed[1].firedMilliseconds == once.dueMilliseconds)
        try await tasks.done(daily.id)
        #expect(
            try await tasks.fireDue(now: restart + 2 * 86_400_000, outlet: outlet, device: device, deviceName: "bike")
                .isEmpty
        )
        let stored = try store.readNow {
            try $0.events(fromMilliseconds: 0, toMilliseconds: .max, types: [.taskDue], account: nil)
        }
        #expect(stored.map(\.event.text) == ["post the letter", "feed the cat"])
    }

    @Test func repeatRules() throws {
        let utc = TimeZone(identifier: "UTC")!
        // Monday 2026-11-23 09:00 UTC.
        let monday: Int64 = 1_795_424_400_000
        let day: Int64 = 86_400_000
        let weekly = try #require(try TaskRule.parse("FREQ=WEEKLY;BYDAY=MO,WE;INTERVAL=2"))
        #expect(weekly.next(from: monday, after: monday, zone: utc) == monday + 2 * day)
        #expect(weekly.next(from: monday + 2 * day, after: monday + 2 * day, zone: utc) == monday + 14 * day)
        let monthly = try #require(try TaskRule.parse("RRULE:FREQ=MONTHLY;UNTIL=20270101"))
        #expect(monthly.next(from: monday, after: monday, zone: utc) == monday + 30 * day)
        #expect(monthly.next(from: monday + 30 * day, after: monday + 30 * day, zone: utc) == nil, "past UNTIL")
        #expect(try TaskRule.parse("weekly")?.next(from: monday, after: monday + day, zone: utc) == monday + 7 * day)
        #expect(try TaskRule.parse("") == nil)
        for bad in ["FREQ=WEEKLY;BYDAY=XX", "FREQ=DAILY;COUNT=3", "INTERVAL=2", "FREQ=DAILY;INTERVAL=0"] {
            #expect(throws: ScheduleError.self, "\(bad)") { try TaskRule.parse(bad) }
        }
    }
}
