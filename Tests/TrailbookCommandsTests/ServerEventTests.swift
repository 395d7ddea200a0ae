import Foundation
import GPSCore
import RideSimulator
import Testing
import TrailbookTestSupport

/// Events from phones on the server: OwnTracks regions become places, the detector runs on
/// what phones post, a silent phone goes offline and comes back.
@Suite struct ServerEventTests {
    static let home = Coordinate(latitude: 47.3700, longitude: 8.5400)

    @Test(arguments: StoreKind.allCases) func phonesHaveEventsAtTheirRegions(_ kind: StoreKind) async throws {
        let (store, folder) = try newStore(kind)
        #expect(
            try await run(
                ["user", "add", "ana", "--password-stdin", "--store", store],
                input: Data("correct horse battery staple".utf8)
            ).status == 0)
        let token = try await deviceToken("phone", user: "ana", store: store)
        let config = folder + "/config.toml"
        try "[events]\noffline_after = 5\n".write(toFile: config, atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let basic = "Basic " + Data("ana:\(token)".utf8).base64EncodedString()

        // The phone's region, as OwnTracks sends it: a place of ana's.
        let now = Date()
        let waypoint =
            #"{"_type":"waypoint","desc":"home","lat":47.37,"lon":8.54,"rad":80,"tst":\#(Int(now.timeIntervalSince1970))}"#
        let (status, _) = try await HTTP.request(
            URL(string: "\(server.url!)/pub")!, method: "POST", body: Data(waypoint.utf8),
            headers: ["Authorization": basic, "Content-Type": "application/json"])
        #expect(status == 200)
        #expect(
            try storeRows(store, "select name, cast(radius_m as integer), source from place") == "home 80 owntracks\n")

        // Home, then away: Overland batches of the last half hour.
        let start = now.addingTimeInterval(-1800)
        let seconds = Int(start.timeIntervalSince1970)
        let date = CivilDate(daysSinceEpoch: seconds / 86_400)
        let away = Geodesy.destination(from: Self.home, bearing: 45, distance: 1000)
        let epochs = DaySimulator.run(
            from: Self.home, date: date, startTimeOfDay: (seconds % 86_400) * 1000,
            legs: [.stay(seconds: 200, noise: 8), .travel(to: away, speed: 8), .stay(seconds: 200, noise: 8)], seed: 3)
        try await Self.postOverland(epochs, token: token, server: server) { i in i == 0 ? 0.5 : 0.15 }
        func events() async throws -> [String] { try await Self.events(of: "ana", store: store) }
        // Silent for 5 s: offline (checked every 1.25 s). (A slow machine may already have seen
        // the phone offline between batches: device events are checked apart from the others.)
        var seen: [String] = []
        for _ in 0..<240 where seen.last != "device.offline" {
            try await Task.sleep(for: .milliseconds(250))
            seen = try await events()
        }
        #expect(
            seen.filter { !$0.hasPrefix("device.") } == [
                "motion.moving", "place.depart home", "motion.stopped", "battery.low",
            ], "\(seen)")
        #expect(seen.last == "device.offline", "\(seen)")
        // It posts again: connected.
        let point = URL(
            string:
                "\(server.url!)/osmand?id=\(token)&timestamp=\(Int(Date().timeIntervalSince1970))&lat=47.38&lon=8.55")!
        #expect(try await HTTP.request(point).0 == 200)
        // Next after what was seen (on a slow machine it may be silent again by the time we read).
        let after = try await events()
        #expect(after.dropFirst(seen.count).first == "device.connected", "\(after)")
        #expect(
            try await run(["events", "--from", "2000-01-01", "--store", store]).stdout.contains("No events"),
            "not the store's own")
    }

    /// A place made on the command line for an account gives every app of it arrivals and
    /// departures (not only OwnTracks, whose regions come by themselves).
    @Test func aPlaceAddedForAnAccountGivesItsPhonesEvents() async throws {
        let (store, folder) = try newStore(.sqlite)
        #expect(
            try await run(
                ["user", "add", "ana", "--password-stdin", "--store", store],
                input: Data("correct horse battery staple".utf8)
            ).status == 0)
        let token = try await deviceToken("overland", user: "ana", store: store)
        let added = try await run([
            "place", "add", "home", "--user", "ana", "--lat", "47.37", "--lon", "8.54", "--radius", "80", "--store",
            store,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let nobody = try await run(["place", "add", "x", "--user", "nobody", "--lat", "1", "--lon", "1", "--store", store])
        #expect(nobody.status == 66 && nobody.stderr.contains("There is no account nobody"), "\(nobody)")
        let listed = try await run(["place", "list", "--user", "ana", "--json", "--store", store])
        #expect(listed.stdout.contains("\"home\""), "\(listed)")
        #expect(try await run(["place", "list", "--store", store]).stdout.contains("No places"), "not the store's own")
        // An alert on her arrivals and departures: a trip sent 25 minutes late is stored, not sent.
        let hook = try HookReceiver(secret: "s", directory: folder)
        try hook.start()
        defer { hook.stop() }
        let alert = try await run([
            "alert", "add", "--user", "ana", "--on", "place.arrive,place.depart", "--webhook",
            "http://127.0.0.1:\(hook.port)/ana", "--secret", "s", "--store", store,
        ])
        #expect(alert.status == 0, "\(alert.stderr)")
        let server = try ServeCommandTests.RunningServer(store: store)
        defer { _ = server.stop() }
        let seconds = Int(Date().timeIntervalSince1970) - 1800
        let epochs = await Self.outAndBack(from: seconds)
        try await Self.postOverland(epochs, token: token, server: server)
        let events = try await Self.events(of: "ana", store: store).filter { $0.hasPrefix("place.") }
        #expect(events == ["place.depart home", "place.arrive home"], "\(events)")
        let log = try await run(["alert", "log", "--user", "ana", "--store", store])
        let lines = log.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains("late, not sent") }, "\(log.stdout)")
        #expect(lines.last?.contains("overland left home") == true, "\(log.stdout)")
        let json = try await run(["alert", "log", "--user", "ana", "--json", "--store", store])
        #expect(json.stdout.contains("\"state\" : \"dropped\""), "\(json.stdout)")
        try await Task.sleep(for: .seconds(2))
        #expect(hook.requests().isEmpty, "nothing sent: \(hook.requests())")
        #expect(try await run(["alert", "log", "--store", store]).stdout.contains("No deliveries"), "not the store's own")
    }

    /// 200 s at home, 1 km out at 8 m/s, 100 s there, back, 400 s at home, from `seconds` since 1970.
    static func outAndBack(from seconds: Int) async -> [DaySimulator.Epoch] {
        let away = Geodesy.destination(from: home, bearing: 45, distance: 1000)
        return DaySimulator.run(
            from: home, date: CivilDate(daysSinceEpoch: seconds / 86_400), startTimeOfDay: (seconds % 86_400) * 1000,
            legs: [
                .stay(seconds: 200, noise: 8), .travel(to: away, speed: 8), .stay(seconds: 100, noise: 8),
                .travel(to: home, speed: 8), .stay(seconds: 400, noise: 8),
            ], seed: 5)
    }

    /// Posts `epochs` as Overland batches of 200 points, each with the battery level `battery(i)`.
    static func postOverland(
        _ epochs: [DaySimulator.Epoch], token: String, server: ServeCommandTests.RunningServer,
        battery: (Int) -> Double = { _ in 0.9 }
    ) async throws {
        let iso = ISO8601DateFormatter()
        for (i, batch) in stride(from: 0, to: epochs.count, by: 200).map({
            Array(epochs[$0..<min($0 + 200, epochs.count)])
        })
        .enumerated() {
            let features = batch.map { e -> String in
                let c = e.fix.coordinate!
                let t = iso.string(from: Date(timeIntervalSince1970: Double(e.fix.unixMilliseconds!) / 1000))
                return #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(c.longitude),\#(c.latitude)]},"#
                    + #""properties":{"timestamp":"\#(t)","horizontal_accuracy":\#(e.fix.horizontalError!),"#
                    + #""battery_level":\#(battery(i))}}"#
            }
            let body = #"{"locations":["# + features.joined(separator: ",") + "]}"
            let (status, reply) = try await HTTP.request(
                URL(string: "\(server.url!)/overland")!, method: "POST", body: Data(body.utf8),
                headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"])
            #expect(status == 200 && reply == #"{"result":"ok"}"#, "\(status) \(reply)")
        }
    }

    /// The account's events as "type place text" lines.
    static func events(of user: String, store: String) async throws -> [String] {
        let r = try await run([
            "events", "--user", user, "--from", "2000-01-01", "--to", "2100-01-01", "--json", "--store", store,
        ])
        let list =
            (try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["events"]
            as? [[String: Any]] ?? []
        return list.map {
            [$0["type"] as? String, $0["place"] as? String, $0["text"] as? String].compactMap { $0 }.joined(
                separator: " ")
        }
    }

    @Test func friendsWithTheEventsScopeHearOfArrivalsAndTheirAlertsSendThem() async throws {
        let (store, folder) = try newStore(.sqlite)
        let password = "correct horse battery staple"
        for user in ["ana", "ben", "cat"] {
            #expect(
                try await run(["user", "add", user, "--password-stdin", "--store", store], input: Data(password.utf8)).status
                    == 0)
        }
        let token = try await deviceToken("phone", user: "ana", store: store)
        let hook = try HookReceiver(secret: "bens secret", directory: folder)
        try hook.start()
        defer { hook.stop() }
        let added = try await run([
            "alert", "add", "--user", "ben", "--on", "friend.arrive,friend.depart", "--webhook",
            "http://127.0.0.1:\(hook.port)/ben", "--secret", "bens secret", "--store", store,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let server = try ServeCommandTests.RunningServer(store: store)
        defer { _ = server.stop() }
        func api(_ path: String, _ body: String, as user: String) async throws -> (Int, String) {
            try await HTTP.request(
                URL(string: "\(server.url!)\(path)")!, method: "POST", body: Data(body.utf8),
                headers: ["Authorization": "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()])
        }
        // Ana shares her events with Ben, only her position with Cat.
        for (viewer, scopes) in [("ben", #"["live","events"]"#), ("cat", #"["live"]"#)] {
            let reply = try await api("/api/share-codes", #"{"scopes":\#(scopes)}"#, as: "ana")
            let code = try #require(
                (try JSONSerialization.jsonObject(with: Data(reply.1.utf8)) as? [String: Any])?["code"] as? String)
            #expect(try await api("/api/share-codes/redeem", #"{"code":"\#(code)"}"#, as: viewer).0 == 200)
        }
        // Her home, as her phone's region.
        let now = Date()
        let waypoint =
            #"{"_type":"waypoint","desc":"home","lat":47.37,"lon":8.54,"rad":80,"tst":\#(Int(now.timeIntervalSince1970))}"#
        let basic = "Basic " + Data("ana:\(token)".utf8).base64EncodedString()
        #expect(
            try await HTTP.request(
                URL(string: "\(server.url!)/pub")!, method: "POST", body: Data(waypoint.utf8),
                headers: ["Authorization": basic, "Content-Type": "application/json"]
            ).0 == 200)
        // Out and back home in the last quarter of an hour (alerts.max_delay: older events are not sent).
        let seconds = Int(now.timeIntervalSince1970) - 1000
        let epochs = await Self.outAndBack(from: seconds)
        try await Self.postOverland(epochs, token: token, server: server)
        // The server's notifier sends Ben's alerts within a few seconds.
        for _ in 0..<80 where hook.requests().count < 2 { try await Task.sleep(for: .milliseconds(250)) }
        let bens = try await Self.events(of: "ben", store: store)
        #expect(bens == ["friend.depart home ana", "friend.arrive home ana"], "\(bens)")
        #expect(try await Self.events(of: "cat", store: store).isEmpty, "cat's grant has no events scope")
        #expect(try await Self.events(of: "ana", store: store).contains("place.arrive home"))
        let sent = hook.requests()
        #expect(sent.count == 2, "\(sent)")
        #expect(sent.allSatisfy { $0["verified"] as? Bool == true && $0["path"] as? String == "/ben" })
        let titles = sent.compactMap {
            (try? JSONSerialization.jsonObject(with: Data(($0["body"] as? String ?? "").utf8)) as? [String: Any])?[
                "title"] as? String
        }
        #expect(titles == ["ana left home", "ana arrived at home"], "\(titles)")
        let listed = try await run(["alert", "list", "--user", "ben", "--store", store])
        #expect(listed.stdout.contains("2 delivered, 0 waiting, 0 dropped"), "\(listed.stdout)")
    }
}
