import Foundation
import Testing
import TrailbookTestSupport

@testable import TrackStore

/// `trailbook serve` as a process: it listens on loopback, answers, and stops on SIGTERM.
@Suite struct ServeCommandTests {
    /// A running server on a free loopback port, its base URL, and its standard error so far.
    final class RunningServer {
        let process = Process()
        /// Standard error goes to a file: a pipe nobody drains would fill and stop the server.
        let log: String
        private(set) var url: URL!

        /// `listen`: the address (port 0: one the system chooses); `log`: where its standard
        /// error goes (default: beside the store); `offline`: a config that names no base map is
        /// given `maps.tiles = "none"` (false: the default base map, which a test must not load).
        init(
            store: String, arguments extra: [String] = [], listen: String = "127.0.0.1:0", log: String? = nil,
            offline: Bool = true
        ) throws {
            let beside = store.hasPrefix("postgresql://") ? try Samples.temporaryDirectory() + "/db" : store
            self.log = log ?? beside + ".serve.log"
            let log = self.log
            FileManager.default.createFile(atPath: log, contents: nil)
            process.executableURL = try trailbookBinary()
            // Without a config of the test's own: a friend moves from fixes of the last day, not of the
            // last two minutes (events.moving_within), so that a machine slowed by the other tests does not
            // make a friend "silent" between a test's post and its check. The test of the window gives its own.
            // A config that names no base map gets none: the default, OpenStreetMap, is on the network,
            // which tests never reach.
            var extra = extra
            if let at = extra.firstIndex(of: "--config"), at + 1 < extra.count {
                let given = try String(contentsOfFile: extra[at + 1], encoding: .utf8)
                if offline && !given.contains("tiles") {
                    let offline = beside + ".offline.toml"
                    let none = "[maps]\ntiles = \"none\"\n"
                    let text =
                        given.contains("[maps]")
                        ? given.replacingOccurrences(of: "[maps]\n", with: none) : given + "\n" + none
                    try text.write(toFile: offline, atomically: true, encoding: .utf8)
                    extra[at + 1] = offline
                }
            } else {
                let calm = beside + ".calm.toml"
                try "[events]\nmoving_within = 86400\n\n\(offline ? "[maps]\ntiles = \"none\"\n" : "")".write(
                    toFile: calm, atomically: true, encoding: .utf8)
                extra += ["--config", calm]
            }
            process.arguments = ["serve", "--listen", listen, "--store", store, "--log-level", "debug"] + extra
            process.standardError = FileHandle(forWritingAtPath: log)
            process.standardOutput = FileHandle.nullDevice
            // Its view cache beside the store, not in the cache folder of whoever runs the tests.
            process.environment = ProcessInfo.processInfo.environment.merging(["XDG_CACHE_HOME": beside + ".cache"]) {
                $1
            }
            try process.run()
            // The port the system chose is in the start line.
            var text = ""
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline && process.isRunning {
                text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                if let range = text.range(of: #"listening on (http://127\.0\.0\.1:\d+)"#, options: .regularExpression) {
                    let address = text[range].split(separator: " ").last!
                    url = URL(string: String(address))
                    return
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
            process.terminate()
            throw RunError("trailbook serve did not say where it listens: \(text)")
        }

        /// A test that failed before ``stop()`` does not leave its server running.
        deinit {
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
        }

        /// Its standard error once it contains `text` (within a minute), nil if it never does.
        func logged(_ text: String) -> String? {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                if let seen = try? String(contentsOfFile: log, encoding: .utf8), seen.contains(text) { return seen }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return nil
        }

        /// Stops it with SIGTERM; its exit status and its standard error.
        func stop() -> (Int32, String) {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            return (process.terminationStatus, (try? String(contentsOfFile: log, encoding: .utf8)) ?? "")
        }
    }

    func get(_ url: URL) async throws -> (Int, String) { try await HTTP.request(url) }

    @Test func healthAnswersAndSigtermStopsGracefully() async throws {
        let dir = try Samples.temporaryDirectory()
        let server = try RunningServer(store: dir + "/s.sqlite")
        let (status, body) = try await get(server.url.appendingPathComponent("api/health"))
        #expect(status == 200 && body.contains("\"status\":\"ok\""), "\(status) \(body)")
        let (missing, _) = try await get(server.url.appendingPathComponent("nope"))
        #expect(missing == 404)
        let (exit, log) = server.stop()
        #expect(exit == 0, "\(log)")
        #expect(log.contains("GET /api/health 200"), "one line per request at debug: \(log)")
        #expect(log.contains("stopped"))
    }

    @Test func badListenAddressIsUsage() async throws {
        let r = try await run(["serve", "--listen", "localhost"])
        #expect(r.status == 64 && r.stderr.contains("--listen takes HOST:PORT"))
    }
}

/// `trailbook user` and `trailbook device` end to end.
@Suite struct AccountCommandTests {
    @Test func usersAndDeviceTokens() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        let short = try await run(["user", "add", "ana", "--password-stdin", "--store", store], input: Data("short\n".utf8))
        #expect(short.status == 65 && short.stderr.contains("at least 15 are needed"), "\(short.stderr)")
        let named = try await run(
            ["user", "add", "ana", "--password-stdin", "--store", store], input: Data("ana rides to the lake\n".utf8))
        #expect(named.status == 65 && named.stderr.contains("contains the account's name"))
        let added = try await run(
            ["user", "add", "ana", "--password-stdin", "--store", store],
            input: Data("correct horse battery staple\n".utf8))
        #expect(added.status == 0, "\(added.stderr)")
        let again = try await run(
            ["user", "add", "ana", "--password-stdin", "--store", store], input: Data("another long passphrase".utf8))
        #expect(again.status == 65 && again.stderr.contains("already an account ana"))
        #expect(try await run(["user", "add", "bob", "--store", store]).status == 64, "no password on the command line")
        let list = try await run(["user", "list", "--store", store, "--json"])
        #expect(list.stdout.contains("\"name\" : \"ana\"") && list.stdout.contains("\"password\" : true"))

        let device = try await run(["device", "add", "phone", "--user", "ana", "--store", store, "--json"])
        #expect(device.status == 0, "\(device.stderr)")
        let token = try #require(
            (try JSONSerialization.jsonObject(with: Data(device.stdout.utf8)) as? [String: String])?["token"])
        #expect(token.count == 52)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        #expect(bytes.range(of: Data(token.utf8)) == nil, "the token is not stored")
        #expect(try await run(["device", "add", "phone", "--user", "nobody", "--store", store]).status == 66)
        #expect(try await run(["device", "list", "--user", "ana", "--store", store]).stdout.contains("phone"))
        #expect(try await run(["device", "revoke", "phone", "--user", "ana", "--store", store]).status == 0)
        let listed = try await run(["device", "list", "--user", "ana", "--store", store])
        #expect(listed.stdout.contains("revoked"), "\(listed.stdout)")
        #expect(try await run(["device", "revoke", "phone", "--user", "ana", "--store", store]).status == 66)
        #expect(try await run(["user", "rm", "ana", "--store", store, "--yes"]).status == 0)
        #expect(try await !run(["user", "list", "--store", store]).stdout.contains("ana"))
    }
}

/// Phones posting to a running server in the apps' own shapes (issue 16, step 3).
@Suite struct PhoneIngestionTests {
    func request(
        _ url: URL, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> (Int, String) { try await HTTP.request(url, method: method, body: body, headers: headers) }

    /// Points in the store per device name.
    func pointsByDevice(_ store: String) throws -> [String: Int] {
        let text = try storeRows(
            store,
            store.hasPrefix("postgresql://")
                ? "select d.name, count(*) from position p join device d on d.id = p.device_id group by d.name"
                : "select d.name, count(*) from point p join device d on d.id = (p.key >> 43) group by d.name")
        var result: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            result[String(parts[0])] = Int(parts[1])
        }
        return result
    }

    @Test(arguments: StoreKind.allCases) func osmandAndOverlandPointsAreStoredOnce(_ kind: StoreKind) async throws {
        let (store, _) = try newStore(kind)
        #expect(
            try await run(
                ["user", "add", "ana", "--password-stdin", "--store", store],
                input: Data("correct horse battery staple".utf8)
            ).status == 0)
        func token(_ device: String) async throws -> String { try await deviceToken(device, user: "ana", store: store) }
        let phone = try await token("phone")
        let overlandToken = try await token("overland")
        let server = try ServeCommandTests.RunningServer(store: store)
        let now = Int(Date().timeIntervalSince1970)

        // Traccar Client / OsmAnd: a GET with the values in the query, seconds, knots.
        for i in 0..<5 {
            let url = URL(
                string:
                    "\(server.url!)/osmand?id=\(phone)&timestamp=\(now - 60 + i)&lat=47.3769&lon=\(8.5417 + Double(i) * 0.0001)"
                    + "&speed=10.5&bearing=90.0&altitude=410.0&accuracy=5.0&batt=81.0")!
            let (status, body) = try await request(url)
            #expect(status == 200 && body.isEmpty, "\(status) \(body)")
        }
        // The same point again (a resend): stored once.
        let again = URL(
            string: "\(server.url!)/osmand?id=\(phone)&timestamp=\(now - 60)&lat=47.3769&lon=8.5417&altitude=410")!
        #expect(try await request(again).0 == 200)
        // A form POST as OsmAnd's "online tracking" can send it.
        let form = Data("id=\(phone)&timestamp=\((now - 50) * 1000)&lat=47.377&lon=8.5425&altitude=411".utf8)
        #expect(
            try await request(
                URL(string: "\(server.url!)/osmand")!, method: "POST", body: form,
                headers: ["Content-Type": "application/x-www-form-urlencoded"]
            ).0 == 200)

        // Traccar Client 9: a JSON body with the token as device_id, speed in m/s, battery 0-1.
        let iso = ISO8601DateFormatter()
        let traccarToken = try await token("traccar")
        let traccar = Data(
            """
            {"location":{"timestamp":"\(iso.string(from: Date(timeIntervalSince1970: Double(now - 40))))",
            "coords":{"latitude":47.3781,"longitude":8.5402,"accuracy":6.5,"speed":5.5,"heading":181.2,"altitude":409.8},
            "is_moving":true,"odometer":1520.4,"event":"motionchange","battery":{"level":0.63,"is_charging":false},
            "activity":{"type":"on_bicycle"},"extras":{}},"device_id":"\(traccarToken)"}
            """.utf8)
        let traccarURL = URL(string: "\(server.url!)/osmand")!
        #expect(
            try await request(traccarURL, method: "POST", body: traccar, headers: ["Content-Type": "application/json"])
                .0 == 200)
        #expect(
            try await request(
                traccarURL, method: "POST", body: Data(#"{"location":{},"device_id":"\#(traccarToken)"}"#.utf8),
                headers: ["Content-Type": "application/json"]
            ).0 == 400, "a location without coords")
        #expect(
            try await request(
                traccarURL, method: "POST", body: Data(#"{"location":{},"device_id":"nope"}"#.utf8),
                headers: ["Content-Type": "application/json"]
            ).0 == 401)

        // Overland: a bearer token and a GeoJSON batch as the app sends it.
        let features = (0..<3).map { i in
            """
            {"type":"Feature","geometry":{"type":"Point","coordinates":[\(8.55 + Double(i) * 0.00005),47.38]},
            "properties":{"timestamp":"\(iso.string(from: Date(timeIntervalSince1970: Double(now - 30 + i))))",
            "altitude":420,"speed":4.2,"horizontal_accuracy":8,"vertical_accuracy":4,"motion":["cycling"],
            "battery_state":"unplugged","battery_level":0.8,"wifi":""}}
            """
        }
        let batch = Data("{\"locations\":[\(features.joined(separator: ","))],\"current\":null}".utf8)
        let overlandURL = URL(string: "\(server.url!)/overland")!
        let overland = try await request(
            overlandURL, method: "POST", body: batch,
            headers: ["Authorization": "Bearer \(overlandToken)", "Content-Type": "application/json"])
        #expect(overland.0 == 200 && overland.1 == "{\"result\":\"ok\"}", "\(overland)")

        // Refusals: an unknown token, a malformed value, a place not on Earth, a wrong body.
        let stranger = URL(string: "\(server.url!)/osmand?id=nope&lat=47&lon=8")!
        #expect(try await request(stranger).0 == 401)
        let noToken = try await request(overlandURL, method: "POST", body: batch)
        #expect(noToken.0 == 401)
        let malformed = URL(string: "\(server.url!)/osmand?id=\(phone)&lat=north&lon=8")!
        #expect(try await request(malformed).0 == 400)
        let offEarth = URL(string: "\(server.url!)/osmand?id=\(phone)&lat=95&lon=8&timestamp=\(now)")!
        #expect(try await request(offEarth).0 == 422)
        let yearOff = URL(string: "\(server.url!)/osmand?id=\(phone)&lat=47&lon=8&timestamp=\(now - 400 * 86400)")!
        #expect(try await request(yearOff).0 == 422)
        // Hours ahead of the clock: dropped (`ahead`), not refused, so the phone does not send it forever.
        let hoursAhead = URL(string: "\(server.url!)/osmand?id=\(phone)&lat=47&lon=8&timestamp=\(now + 7200)")!
        #expect(try await request(hoursAhead).0 == 200)
        let notJSON = try await request(
            overlandURL, method: "POST", body: Data("nope".utf8), headers: ["Authorization": "Bearer \(overlandToken)"])
        #expect(notJSON.0 == 400)
        // Numbers no measurement has (schemathesis found the first two stopping the server: a
        // time or a speed no integer holds trapped when converted).
        for (time, status) in [("-1e300", 400), ("nan", 400), ("1e14", 422)] {
            let url = URL(string: "\(server.url!)/osmand?id=\(phone)&lat=47&lon=8&timestamp=\(time)")!
            #expect(try await request(url).0 == status, "timestamp=\(time)")
        }
        for (key, value) in [
            ("speed", "1e300"), ("altitude", "-1e300"), ("course", "720"), ("horizontal_accuracy", "1e300"),
        ] {
            let wild = features[0].replacingOccurrences(of: "\"\(key)\":", with: "\"unused\":")
                .replacingOccurrences(of: "\"properties\":{", with: "\"properties\":{\"\(key)\":\(value),")
            // Overland resends a refused batch forever: the feature is kept as a message with the
            // reason, and the batch is answered ok.
            let answer = try await request(
                overlandURL, method: "POST", body: Data("{\"locations\":[\(wild)]}".utf8),
                headers: ["Authorization": "Bearer \(overlandToken)", "Content-Type": "application/json"])
            #expect(
                answer.0 == 200 && answer.1.hasPrefix("{\"reason\":")
                    && answer.1.contains("\"result\":\"ok\",\"unreadable\":1}"),
                "\(key) \(value): \(answer)")
        }
        let unreadable = try await openStore(store).read { try $0.deviceMessages(account: "ana") }.filter {
            $0.type == "overland.unreadable"
        }
        #expect(unreadable.count == 4, "\(unreadable)")
        #expect(unreadable.contains { $0.body.contains("speed") && $0.body.contains("is outside") }, "\(unreadable)")
        let huge = try await request(
            overlandURL, method: "POST", body: Data(count: 9 << 20),
            headers: ["Authorization": "Bearer \(overlandToken)"])
        #expect(huge.0 == 413, "a body over 8 MB is refused")
        // A revoked token is refused at once.
        #expect(try await run(["device", "revoke", "phone", "--user", "ana", "--store", store]).status == 0)
        #expect(try await request(again).0 == 401)

        let (exit, log) = server.stop()
        #expect(exit == 0, "\(log)")
        let counts = try pointsByDevice(store)
        #expect(counts["phone"] == 6, "5 GET points and the form POST, the resend once (not the one ahead): \(counts)")
        #expect(log.contains("phone sent 1 point timed more than 10 minutes ahead of this server's clock"), "\(log)")
        #expect(counts["overland"] == 3, "\(counts)")
        #expect(counts["traccar"] == 1, "\(counts)")
        // The battery each app sent with its newest point, in percent.
        let batteries = try storeRows(
            store,
            "select d.name, cast(s.battery as integer) from device_state s join device d on d.id = s.device_id order by 1"
        )
        #expect(batteries == "overland 80\nphone 81\ntraccar 63\n", "\(batteries)")
    }

    @Test(arguments: StoreKind.allCases) func owntracksAndGPSLoggerWithBasicAuth(_ kind: StoreKind) async throws {
        let (store, _) = try newStore(kind)
        for user in ["ana", "ben"] {
            #expect(
                try await run(
                    ["user", "add", user, "--password-stdin", "--store", store],
                    input: Data("correct horse battery staple".utf8)
                ).status == 0)
        }
        func token(_ device: String, _ user: String) async throws -> String {
            try await deviceToken(device, user: user, store: store)
        }
        let owntracks = try await token("iphone", "ana")
        let gpslogger = try await token("android", "ana")
        let bens = try await token("phone", "ben")
        func basic(_ user: String, _ secret: String) -> [String: String] {
            ["Authorization": "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString()]
        }
        let server = try ServeCommandTests.RunningServer(store: store)
        let now = Int(Date().timeIntervalSince1970)
        let pub = URL(string: "\(server.url!)/pub")!
        // OwnTracks: location messages (vel in km/h), and a transition that stores no point.
        for i in 0..<3 {
            let message = """
                {"_type":"location","tid":"an","lat":47.3769,"lon":\(8.5417 + Double(i) * 0.0001),"tst":\(now - 60 + i * 5),
                "acc":12,"alt":410,"vel":18,"cog":90,"batt":76,"conn":"m","t":"u","p":\(101.3 + Double(i) * 0.01)}
                """
            let r = try await request(pub, method: "POST", body: Data(message.utf8), headers: basic("ana", owntracks))
            #expect(r.0 == 200 && r.1 == "[]", "the friends' cards and locations: none yet: \(r)")
        }
        let transition = Data(#"{"_type":"transition","event":"enter","tst":\#(now),"lat":47,"lon":8,"acc":10}"#.utf8)
        #expect(try await request(pub, method: "POST", body: transition, headers: basic("ana", owntracks)).0 == 200)
        // Another account's name with ana's token, and ben's token as ana: refused alike.
        #expect(try await request(pub, method: "POST", body: transition, headers: basic("ben", owntracks)).0 == 401)
        #expect(try await request(pub, method: "POST", body: transition, headers: basic("ana", bens)).0 == 401)
        #expect(try await request(pub, method: "POST", body: transition).0 == 401)
        let waypoint = Data(#"{"_type":"waypoint","desc":"<Home>","lat":47.1,"lon":8.1,"rad":50,"tst":\#(now)}"#.utf8)
        #expect(try await request(pub, method: "POST", body: waypoint, headers: basic("ana", owntracks)).0 == 200)
        let kept = try await openStore(store).read { try $0.deviceMessages(account: "ana") }
        #expect(kept.map(\.type) == ["transition", "waypoint"], "transition and waypoint kept: \(kept)")
        #expect(kept.last?.body.contains("\"desc\":\"<Home>\"") == true && kept.allSatisfy { $0.device == "iphone" })
        let listed = try await run(["device", "messages", "--user", "ana", "--store", store, "--json"])
        #expect(
            listed.status == 0 && listed.stdout.contains("\"desc\" : \"<Home>\""), "\(listed.stdout) \(listed.stderr)")
        // GPSLogger: a GET with its placeholders filled in, ISO time, m/s.
        let iso = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(now - 20)))
        let logger = URL(
            string: "\(server.url!)/gpslogger?lat=47.38&lon=8.55&time=\(iso)&alt=420&acc=6&spd=4.5&dir=180&batt=55")!
        #expect(try await request(logger, headers: basic("ana", gpslogger)).0 == 200)
        #expect(try await request(logger, headers: basic("ana", "wrong")).0 == 401)
        let (exit, log) = server.stop()
        #expect(exit == 0, "\(log)")
        let counts = try pointsByDevice(store)
        #expect(counts["iphone"] == 3 && counts["android"] == 1 && counts["phone"] == nil, "\(counts)")
        // The phone's barometer (`p`, kPa) is kept as the device's own readings, in hPa, in its
        // account's diary (not the store's own user's).
        let readings = try await openStore(store).read {
            try $0.weatherReadings(
                fromMilliseconds: .min, toMilliseconds: .max, account: "ana")
        }
        let storesOwn = try await openStore(store).read {
            try $0.weatherReadings(fromMilliseconds: .min, toMilliseconds: .max, account: nil)
        }
        #expect(storesOwn.isEmpty)
        #expect(readings.map { $0.pressure.map { ($0 * 10).rounded() / 10 } } == [1013, 1013.1, 1013.2], "\(readings)")
        #expect(readings.allSatisfy { $0.device != nil && $0.temperature == nil })
    }

    @Test(arguments: StoreKind.allCases) func pairingByCodeShowsTheFriendUntilRevoked(_ kind: StoreKind) async throws {
        let (store, _) = try newStore(kind)
        let password = "correct horse battery staple"
        for user in ["ana", "ben", "cat"] {
            #expect(
                try await run(["user", "add", user, "--password-stdin", "--store", store], input: Data(password.utf8)).status
                    == 0)
        }
        func token(_ device: String, _ user: String) async throws -> String {
            try await deviceToken(device, user: user, store: store)
        }
        let anasPhone = try await token("phone", "ana")
        let bensPhone = try await token("iphone", "ben")
        func login(_ user: String, _ secret: String = "correct horse battery staple") -> [String: String] {
            [
                "Authorization": "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString(),
                "Content-Type": "application/json",
            ]
        }
        func object(_ text: String) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
        }
        let server = try ServeCommandTests.RunningServer(store: store)
        let base = server.url!
        let now = Int(Date().timeIntervalSince1970)
        // Ana rides: two points 5 s apart, 40 m apart (moving).
        for (i, lon) in [8.5417, 8.5422].enumerated() {
            let url = URL(
                string:
                    "\(base)/osmand?id=\(anasPhone)&timestamp=\(now - 10 + i * 5)&lat=47.3769&lon=\(lon)&altitude=410")!
            #expect(try await request(url).0 == 200)
        }
        let friends = URL(string: "\(base)/api/friends")!
        #expect(try await request(friends).0 == 401, "no credentials")
        #expect(try await request(friends, headers: login("ben", "wrong password here")).0 == 401)
        #expect(object(try await request(friends, headers: login("ben")).1)["friends"] as? [Any] != nil)
        #expect((object(try await request(friends, headers: login("ben")).1)["friends"] as? [Any])?.isEmpty == true)

        // Ana makes a code; Ben redeems it.
        let codes = URL(string: "\(base)/api/share-codes")!
        let made = try await request(
            codes, method: "POST", body: Data(#"{"scopes":["live","motion"],"history_hours":24}"#.utf8),
            headers: login("ana"))
        #expect(made.0 == 201, "\(made)")
        let code = try #require(object(made.1)["code"] as? String)
        #expect(code.range(of: #"^[0-9A-Z]{4}-[0-9A-Z]{4}$"#, options: .regularExpression) != nil, "\(code)")
        let redeem = URL(string: "\(base)/api/share-codes/redeem")!
        #expect(
            try await request(redeem, method: "POST", body: Data(#"{"code":"\#(code)"}"#.utf8), headers: login("ana")).0
                == 422, "one's own code")
        let redeemed = try await request(
            redeem, method: "POST", body: Data(#"{"code":"\#(code.lowercased())"}"#.utf8), headers: login("ben"))
        #expect(redeemed.0 == 200 && object(redeemed.1)["owner"] as? String == "ana", "\(redeemed)")
        #expect(
            try await request(redeem, method: "POST", body: Data(#"{"code":"\#(code)"}"#.utf8), headers: login("cat")).0
                == 422, "a code is used once")

        // Ben sees Ana, moving; Cat does not.
        let seen = (object(try await request(friends, headers: login("ben")).1)["friends"] as? [[String: Any]]) ?? []
        #expect(seen.count == 1 && seen.first?["user"] as? String == "ana" && seen.first?["moving"] as? Bool == true)
        #expect((seen.first?["lon"] as? Double).map { abs($0 - 8.5422) < 1e-6 } == true, "\(seen)")
        #expect((object(try await request(friends, headers: login("cat")).1)["friends"] as? [Any])?.isEmpty == true)
        // Ben's OwnTracks gets Ana's card and location in the reply.
        let pub = URL(string: "\(base)/pub")!
        let message = Data(#"{"_type":"location","lat":47.1,"lon":8.1,"tst":\#(now),"tid":"be"}"#.utf8)
        let reply = try await request(
            pub, method: "POST", body: message,
            headers: ["Authorization": "Basic " + Data("ben:\(bensPhone)".utf8).base64EncodedString()])
        #expect(
            reply.0 == 200 && reply.1.contains(#""_type":"card""#) && reply.1.contains(#""tid":"AN""#), "\(reply.1)")
        // Ana sees who sees her, and revokes: Ben sees nothing at once.
        let grants = try await request(URL(string: "\(base)/api/grants")!, headers: login("ana"))
        #expect(grants.1.contains(#""viewer":"ben""#), "\(grants.1)")
        let revoke = URL(string: "\(base)/api/grants/ben")!
        #expect(try await request(revoke, method: "DELETE", headers: login("ana")).0 == 204)
        #expect(try await request(revoke, method: "DELETE", headers: login("ana")).0 == 404)
        #expect((object(try await request(friends, headers: login("ben")).1)["friends"] as? [Any])?.isEmpty == true)

        // Guessing: Cat's used code was her first wrong one; four more make five, and then even
        // a right code is refused for a while.
        let fresh = try #require(
            object(
                try await request(codes, method: "POST", body: Data("{}".utf8), headers: login("ana")).1)["code"]
                as? String)
        for guess in ["AAAA-AAAA", "BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD"] {
            #expect(
                try await request(
                    redeem, method: "POST", body: Data(#"{"code":"\#(guess)"}"#.utf8), headers: login("cat")
                )
                .0 == 422)
        }
        #expect(
            try await request(redeem, method: "POST", body: Data(#"{"code":"\#(fresh)"}"#.utf8), headers: login("cat"))
                .0 == 429)
        let (exit, log) = server.stop()
        #expect(exit == 0, "\(log)")
    }
}
