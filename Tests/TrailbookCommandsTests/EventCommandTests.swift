import Foundation
import GPSCore
import RideSimulator
import Testing
import TrailbookTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Places, `events`, and the events `import` and `record` find in the same log.
@Suite(.serialized) struct EventCommandTests {
    static let home = Coordinate(latitude: 47.3700, longitude: 8.5400)
    static let work = Geodesy.destination(from: home, bearing: 90, distance: 1000)
    /// Where the device stays at work: near the edge of its 100 m circle, with 30 m of multipath.
    static let desk = Geodesy.destination(from: work, bearing: 0, distance: 85)

    /// A short day: at home, to work, a stay with noise at the edge, the fix lost, home again.
    static let day: [DaySimulator.Epoch] = DaySimulator.run(
        from: home, date: CivilDate(year: 2026, month: 6, day: 3)!, startTimeOfDay: 7 * 3_600_000,
        legs: [
            .stay(seconds: 200, noise: 8), .travel(to: desk, speed: 8), .stay(seconds: 400, noise: 30),
            .noFix(seconds: 45), .travel(to: home, speed: 8), .stay(seconds: 200, noise: 8),
        ], seed: 7)

    /// A folder with the day's log and a store that knows home and work.
    func prepared() async throws -> (dir: String, log: String, store: String) {
        let dir = try Samples.temporaryDirectory()
        let log = dir + "/day.nmea"
        try Data(Self.day.flatMap { $0.sentences.joined().utf8 }).write(to: URL(fileURLWithPath: log))
        let store = dir + "/store.sqlite"
        for (name, c) in [("home", Self.home), ("work", Self.work)] {
            let r = try await run([
                "place", "add", name, "--lat", "\(c.latitude)", "--lon", "\(c.longitude)", "--store", store,
            ])
            #expect(r.status == 0, "\(r.stderr)")
        }
        return (dir, log, store)
    }

    /// `events --json` of the day: [type place] per event, in order.
    func events(_ store: String, types: [String] = [], range: [String] = ["--day", "2026-06-03"]) async throws
        -> [[String: Any]]
    {
        let r = try await run(
            ["events"] + range + ["--time-zone", "UTC", "--json", "--store", store]
                + types.flatMap { ["--type", $0] })
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        return doc?["events"] as? [[String: Any]] ?? []
    }

    static func summary(_ events: [[String: Any]]) -> [String] {
        events.map { e in
            [e["time"] as? String ?? "?", e["type"] as? String ?? "?", e["place"] as? String].compactMap { $0 }
                .joined(separator: " ")
        }
    }

    @Test func placesAreAddedListedAndRemoved() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/store.sqlite"
        #expect(
            try await run(["place", "add", "home", "--lat", "47.37", "--lon", "8.54", "--radius", "150", "--store", store])
                .status == 0)
        let twice = try await run(["place", "add", "home", "--lat", "47", "--lon", "8", "--store", store])
        #expect(twice.status == 64 && twice.stderr.contains("already a place named home"), "\(twice.stderr)")
        let radius = try await run(["place", "add", "far", "--lat", "47", "--lon", "8", "--radius", "0", "--store", store])
        #expect(radius.status == 64 && radius.stderr.contains("radius"), "\(radius.stderr)")
        let both = try await run(["place", "add", "x", "--here", "--lat", "47", "--lon", "8", "--store", store])
        #expect(both.status == 64, "\(both.stderr)")
        let nowhere = try await run(["place", "add", "here", "--here", "--store", store])
        #expect(nowhere.status == 66 && nowhere.stderr.contains("no stored point"), "\(nowhere.stderr)")
        // A polygon from GeoJSON (a Feature, as geojson.io saves one).
        let park = dir + "/park.geojson"
        try Data(
            #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[8.55,47.37],[8.56,47.37],[8.56,47.38],[8.55,47.38],[8.55,47.37]]]}}"#
                .utf8
        ).write(to: URL(fileURLWithPath: park))
        let added = try await run(["place", "add", "park", "--geojson", park, "--store", store])
        #expect(added.status == 0 && added.stdout.contains("a polygon of 4 corners"), "\(added.stdout)\(added.stderr)")
        let line = dir + "/line.geojson"
        try Data(#"{"type":"LineString","coordinates":[[8.55,47.37],[8.56,47.37]]}"#.utf8).write(
            to: URL(fileURLWithPath: line))
        let notPolygon = try await run(["place", "add", "path", "--geojson", line, "--store", store])
        #expect(notPolygon.status == 65 && notPolygon.stderr.contains("not a GeoJSON polygon"), "\(notPolygon.stderr)")

        let list = try await run(["place", "list", "--json", "--store", store])
        let places =
            (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["places"]
            as? [[String: Any]] ?? []
        #expect(places.map { $0["name"] as? String } == ["home", "park"])
        #expect(places.first?["radius_m"] as? Double == 150)
        #expect((places.last?["polygon"] as? [Any])?.count == 4)
        #expect(try await run(["place", "rm", "park", "--store", store]).status == 0)
        let gone = try await run(["place", "rm", "park", "--store", store])
        #expect(gone.status == 66 && gone.stderr.contains("no place named park"), "\(gone.stderr)")
        #expect(try await run(["place", "list", "--store", store]).stdout.contains("home: 150 m around 47.370000, 8.540000"))
    }

    @Test func importFindsTheEventsOnceAndADryRunStoresNone() async throws {
        let (_, log, store) = try await prepared()
        let dry = try await run(["import", "--dry-run", "--events", "--json", "--store", store, log])
        #expect(dry.status == 0, "\(dry.stderr)")
        let shown =
            (try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])?["events"]
            as? [[String: Any]] ?? []
        let places = Self.summary(shown).filter { $0.contains("place.") }.map {
            $0.split(separator: " ").dropFirst().joined(separator: " ")
        }
        #expect(places == ["place.depart home", "place.arrive work", "place.depart work", "place.arrive home"])
        #expect(
            Self.summary(shown).contains { $0.contains("fix.lost") }
                && Self.summary(shown).contains { $0.contains("fix.regained") })
        #expect(try await events(store).isEmpty, "a dry run stores no events")

        let first = try await run(["import", "--store", store, log])
        #expect(first.status == 0 && first.stdout.contains("\(shown.count) events"), "\(first.stdout)\(first.stderr)")
        let stored = try await events(store)
        #expect(Self.summary(stored) == Self.summary(shown))
        let again = try await run(["import", "--reimport", "--store", store, log])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.summary(try await events(store)) == Self.summary(shown), "imported again: the same events, once")
        let arrivals = try await events(store, types: ["place.arrive"])
        #expect(arrivals.map { $0["place"] as? String } == ["work", "home"])
        let text = try await run(["events", "--day", "2026-06-03", "--time-zone", "UTC", "--store", store])
        #expect(
            text.stdout.contains("2026-06-03 07:0") && text.stdout.contains("place.depart  home  (imported)"),
            "\(text.stdout)")
        let stranger = try await run(["events", "--user", "nobody", "--store", store])
        #expect(stranger.status == 66 && stranger.stderr.contains("There is no account nobody"), "\(stranger.stderr)")
        let badType = try await run(["events", "--type", "place.arrival", "--store", store])
        #expect(badType.status == 64 && badType.stderr.contains("not an event type"), "\(badType.stderr)")
        // Removing the day removes its events too.
        let removed = try await run(["rm", "--day", "2026-06-03", "--time-zone", "UTC", "--yes", "--json", "--store", store])
        let counts = try JSONSerialization.jsonObject(with: Data(removed.stdout.utf8)) as? [String: Any]
        #expect(counts?["events"] as? Int == shown.count, "\(removed.stdout)\(removed.stderr)")
        #expect(try await events(store).isEmpty)
    }

    @Test func aLiveRecorderFindsTheEventsImportFinds() async throws {
        let (dir, log, store) = try await prepared()
        #expect(try await run(["import", "--store", store, "--device-name", "bike", log]).status == 0)
        let recorded = dir + "/recorded.sqlite"
        for (name, c) in [("home", Self.home), ("work", Self.work)] {
            _ = try await run([
                "place", "add", name, "--lat", "\(c.latitude)", "--lon", "\(c.longitude)", "--store", recorded,
            ])
        }
        #expect(try recordLive(Self.day, store: recorded, dir: dir) == 0)
        // The receiver's connection is noted at the wall clock's time (today), the rest at the fixes' times.
        let connected = try await events(
            recorded, types: ["device.connected"], range: ["--from", "2026-06-04", "--to", "2100-01-01"])
        #expect(connected.count == 1, "the recorder notes the receiver: \(connected)")
        let live = try await events(recorded)
        let fromLive = Self.summary(live.filter { !($0["type"] as? String ?? "").hasPrefix("device.") })
        #expect(fromLive == Self.summary(try await events(store)), "live: \(fromLive)")
        #expect(fromLive.count >= 8, "\(fromLive)")
    }

    @Test func aRecorderSendsTheAlertsOfItsEventsCuesAndTasks() async throws {
        let (dir, log, _) = try await prepared()
        let store = dir + "/alerting.sqlite"
        for (name, c) in [("home", Self.home), ("work", Self.work)] {
            _ = try await run(["place", "add", name, "--lat", "\(c.latitude)", "--lon", "\(c.longitude)", "--store", store])
        }
        let hook = try HookReceiver(secret: "x", directory: dir)
        try hook.start()
        defer { hook.stop() }
        let setup = [
            ["cue", "add", "buy bread", "--depart", "home", "--once"],
            [
                "alert", "add", "--on", "place.arrive,cue,task.due", "--webhook", "http://127.0.0.1:\(hook.port)/r",
                "--secret", "x",
            ],
        ]
        for arguments in setup {
            let r = try await run(arguments + ["--store", store])
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
        }
        // Its time taken as it is added (on a busy machine the adds above may take seconds); one
        // that falls due before the recorder starts fires once, late.
        let task = try await run(["task", "add", "stretch", "--at", LocalTimeText.inSeconds(4), "--store", store])
        #expect(task.status == 0, "\(task.stderr)")
        // A replay shows which alerts the log's events would have sent live, and sends none.
        let dry = try await run(["import", "--dry-run", "--events", "--json", "--store", store, log])
        let would =
            (try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [String: Any])?["alerts"]
            as? [[String: Any]] ?? []
        #expect(
            would.map { "\($0["type"] ?? "") \($0["alert"] ?? "") \($0["channel"] ?? "")" } == [
                "cue 1 webhook", "place.arrive 1 webhook", "place.arrive 1 webhook",
            ], "leaving home (the cue), arriving at work, at home: \(dry.stdout)")
        let dryText = try await run(["import", "--dry-run", "--events", "--store", store, log])
        #expect(dryText.stdout.contains("→ alert 1 (webhook) would send it live"), "\(dryText.stdout)")
        #expect(hook.requests().isEmpty)
        // The notifier sends within a second or two of each commit.
        #expect(
            try recordLive(Self.day, store: store, dir: dir, name: "ttyAlerts", arguments: ["--device-name", "bike"]) {
                hook.requests().count >= 4
            } == 0)
        let titles = hook.requests().compactMap { request -> String? in
            #expect(request["verified"] as? Bool == true)
            let body = try? JSONSerialization.jsonObject(with: Data((request["body"] as? String ?? "").utf8))
            return (body as? [String: Any])?["title"] as? String
        }
        #expect(
            Set(titles) == [
                "Reminder: buy bread", "bike arrived at work", "bike arrived at home", "Task due: stretch",
            ],
            "\(titles)")
        #expect(titles.count == 4, "each once: \(titles)")
        let tasks = try await run(["task", "list", "--json", "--store", store])
        #expect(tasks.stdout.contains("last_fired"), "\(tasks.stdout)")
    }
}

extension EventCommandTests {
    /// `alert test ID` sends one message marked as a test straight to the alert's channel, not
    /// through the outbox; an alert the store does not have is said with exit 66.
    @Test func alertTestSendsOneMarkedMessageStraightToTheChannel() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/store.sqlite"
        let hook = try HookReceiver(secret: "x", directory: dir)
        try hook.start()
        defer { hook.stop() }
        let add = try await run([
            "alert", "add", "--on", "place.arrive", "--webhook", "http://127.0.0.1:\(hook.port)/r", "--secret", "x",
            "--store", store,
        ])
        #expect(add.status == 0, "\(add.stderr)")
        let sent = try await run(["alert", "test", "1", "--json", "--store", store])
        #expect(sent.status == 0, "\(sent.stderr)")
        let message = try JSONSerialization.jsonObject(with: Data(sent.stdout.utf8)) as? [String: Any]
        #expect(message?["test"] as? Bool == true, "\(sent.stdout)")
        let requests = hook.requests()
        #expect(requests.count == 1 && requests.first?["verified"] as? Bool == true, "\(requests)")
        #expect(try await run(["alert", "log", "--store", store]).stdout.contains("No deliveries"), "not through the outbox")
        let missing = try await run(["alert", "test", "9", "--store", store])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("There is no alert 9"), "\(missing.stderr)")
        // An alert at a place the account does not have: refused, and nothing added.
        let nowhere = try await run([
            "alert", "add", "--on", "place.arrive", "--place", "Atlantis", "--desktop", "--store", store,
        ])
        #expect(
            nowhere.status == 66 && nowhere.stderr.contains("There is no place named Atlantis"), "\(nowhere.stderr)")
        #expect(
            try await run(["alert", "list", "--json", "--store", store]).stdout.components(separatedBy: "\"id\"").count == 2)
    }

    @Test func theTimelineOfADayInTheCommandAndTheReport() async throws {
        let (dir, log, store) = try await prepared()
        #expect(try await run(["import", "--store", store, "--device-name", "bike", log]).status == 0)
        let marked = try await run([
            "mark", "--at", "2026-06-03T07:20:00Z", "--lat", "47.37", "--lon", "8.55", "--note", "Coffee\nand more",
            "--store", store,
        ])
        #expect(marked.status == 0, "\(marked.stderr)")
        let r = try await run(["timeline", "2026-06-03", "--time-zone", "UTC", "--json", "--store", store])
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let entries = doc?["entries"] as? [[String: Any]] ?? []
        let summary = entries.map { e in
            [e["kind"] as? String, e["title"] as? String].compactMap { $0 }.joined(separator: " ")
        }
        // Home (from the day's start: the log begins there), the ride to work, the visit at work
        // with the lost fix in it, the record, home again until the last fix.
        let visits = summary.filter { $0.hasPrefix("visit") }
        #expect(visits == ["visit home", "visit work", "visit home"], "\(summary)")
        #expect(summary.contains("event bike lost its fix") && summary.contains("record record 1"), "\(summary)")
        #expect(summary.contains { $0.hasPrefix("ride ") }, "\(summary)")
        let starts = entries.compactMap { $0["start"] as? String }
        #expect(starts == starts.sorted(), "in time order")
        #expect(entries.first?["start"] as? String == "2026-06-03T00:00:00.000Z", "home since the day began")
        // The log ends at home: the stay ends at the last fix, not at midnight.
        let lastFix = entries.filter { $0["kind"] as? String == "ride" }.compactMap { $0["end"] as? String }.max()
        #expect(lastFix != nil)
        #expect(
            entries.last(where: { $0["kind"] as? String == "visit" })?["end"] as? String == lastFix,
            "home until the last fix \(lastFix ?? "")")
        #expect(entries.first(where: { $0["kind"] as? String == "record" })?["detail"] as? String == "Coffee")
        let text = try await run(["timeline", "2026-06-03", "--time-zone", "UTC", "--store", store])
        #expect(
            text.stdout.contains("⌂ visit   work") && text.stdout.contains("✚ record  record 1  · Coffee"),
            "\(text.stdout)")

        // The day report draws it: lanes with icons and labels, or a list.
        let lanes = dir + "/lanes.html"
        let list = dir + "/list.html"
        #expect(
            try await run([
                "report", "day", "2026-06-03", "--time-zone", "UTC", "-o", lanes, "--palette", "colorblind", "--store",
                store,
            ]).status == 0)
        #expect(
            try await run([
                "report", "day", "2026-06-03", "--time-zone", "UTC", "-o", list, "--view", "list", "--store", store,
            ])
            .status == 0)
        let page = try String(contentsOfFile: lanes, encoding: .utf8)
        #expect(page.contains("<div id=\"timeline\"") && page.contains("⌂ work</div>") && page.contains("#0072b2"))
        #expect(page.contains("title=\"event: bike lost its fix"), "each moment says what it is")
        let rows = try String(contentsOfFile: list, encoding: .utf8)
        #expect(!rows.contains("<div id=\"timeline\"") && rows.contains("<table class=\"timeline\">"))
        #expect(rows.contains("<a href=\"#record-1\">record 1</a>") && rows.contains("⌂ visit"), "\(rows.count)")
        let bad = try await run(["report", "day", "2026-06-03", "--view", "bars", "--store", store])
        #expect(bad.status == 64 && bad.stderr.contains("--view is timeline or list"))
    }
}

/// Times as `task add --at` takes them.
enum LocalTimeText {
    /// ISO 8601 UTC, `seconds` from now.
    static func inSeconds(_ seconds: Double) -> String {
        let f = ISO8601DateFormatter()
        return f.string(from: Date().addingTimeInterval(seconds))
    }
}
