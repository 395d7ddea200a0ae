import Foundation
import Testing
import TrailbookTestSupport

/// Seeing friends live against the running server: server-sent events follow the grants, the
/// track stays within the history a grant allows, and a stranger sees nothing anywhere.
@Suite struct LiveSharingTests {
    let password = "correct horse battery staple"

    func login(_ user: String) -> [String: String] {
        ["Authorization": "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()]
    }

    func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    @Test(arguments: StoreKind.allCases) func liveEventsFollowTheGrantAndStrangersSeeNothing(_ kind: StoreKind)
        async throws
    {
        let (store, _) = try newStore(kind)
        for user in ["ana", "ben", "cat"] {
            #expect(
                try await run(["user", "add", user, "--password-stdin", "--store", store], input: Data(password.utf8)).status
                    == 0)
        }
        let added = try await run(["device", "add", "phone", "--user", "ana", "--store", store, "--json"])
        let token = try #require(object(added.stdout)["token"] as? String)
        let server = try ServeCommandTests.RunningServer(store: store)
        let base = server.url!
        func api(_ path: String, _ method: String = "GET", _ body: String? = nil, as user: String) async throws -> (
            Int, String
        ) {
            try await HTTP.request(
                URL(string: "\(base)\(path)")!, method: method, body: body.map { Data($0.utf8) }, headers: login(user))
        }
        var now = Int(Date().timeIntervalSince1970)
        func post(lon: Double, battery: Int) async throws {
            // Now, and later than the one before: the motion is told from the last two minutes' fixes.
            now = max(now + 5, Int(Date().timeIntervalSince1970))
            let url = URL(
                string:
                    "\(base)/osmand?id=\(token)&timestamp=\(now)&lat=47.3769&lon=\(lon)&speed=9&accuracy=8&batt=\(battery)"
            )!
            #expect(try await HTTP.request(url).0 == 200)
        }
        try await post(lon: 8.5417, battery: 80)
        let code = try #require(
            object(
                try await api(
                    "/api/share-codes", "POST", #"{"scopes":["live","motion","history"],"history_hours":2}"#, as: "ana"
                ).1)[
                    "code"] as? String)
        #expect(try await api("/api/share-codes/redeem", "POST", #"{"code":"\#(code)"}"#, as: "ben").0 == 200)

        // Ben's stream starts with Ana where she is; Cat's has nobody in it.
        let live = URL(string: "\(base)/api/live")!
        let bens = try HTTP.EventStream(live, headers: login("ben"))
        let cats = try HTTP.EventStream(live, headers: login("cat"))
        defer {
            bens.stop()
            cats.stop()
        }
        #expect(bens.wait { $0.events("position").count == 1 }, "\(bens.text)")
        // A new point reaches Ben's stream, with battery, accuracy and motion.
        try await post(lon: 8.5422, battery: 79)
        #expect(bens.wait { $0.events("position").count == 2 }, "\(bens.text)")
        let newest = object(bens.events("position").last ?? "")
        #expect(newest["user"] as? String == "ana" && newest["battery"] as? Double == 79, "\(newest)")
        #expect(newest["accuracy"] as? Double == 8 && newest["moving"] as? Bool == true, "\(newest)")
        #expect((newest["lon"] as? Double).map { abs($0 - 8.5422) < 1e-6 } == true, "\(newest)")
        #expect(cats.events("position").isEmpty && !cats.ended, "\(cats.text)")

        // The track within the history the grant allows; nobody else's.
        let track = object(try await api("/api/friends/ana/track?hours=1", as: "ben").1)
        #expect((track["points"] as? [[String: Any]])?.count == 2, "\(track)")
        #expect(try await api("/api/friends/ana/track?hours=0", as: "ben").0 == 400)

        // Every endpoint, as a stranger: nothing of Ana's.
        #expect(try await api("/api/friends/ana/track", as: "cat").0 == 404)
        #expect(try await api("/api/friends/nobody/track", as: "cat").0 == 404)
        #expect((object(try await api("/api/friends", as: "cat").1)["friends"] as? [Any])?.isEmpty == true)
        #expect((object(try await api("/api/grants", as: "cat").1)["grants"] as? [Any])?.isEmpty == true)
        #expect(try await api("/api/grants/ben", "DELETE", as: "cat").0 == 404, "Cat cannot end Ana's grant")
        #expect(try await api("/api/grants/ben", "PATCH", #"{"paused":true}"#, as: "cat").0 == 404)
        #expect(try await api("/api/grants/ana", "PATCH", #"{"paused":true}"#, as: "ben").0 == 404, "a viewer's own")
        #expect(try await HTTP.request(URL(string: "\(base)/api/friends/ana/track")!).0 == 401)
        #expect(try await HTTP.request(live).0 == 401)

        // Ana pauses: Ben's stream ends at once and he sees nothing; she resumes: he does again.
        let paused = try await api("/api/grants/ben", "PATCH", #"{"paused":true}"#, as: "ana")
        #expect(paused.0 == 200 && object(paused.1)["paused"] as? Bool == true, "\(paused)")
        #expect(bens.wait { $0.ended }, "a pause ends the viewer's stream")
        #expect((object(try await api("/api/friends", as: "ben").1)["friends"] as? [Any])?.isEmpty == true)
        #expect(try await api("/api/friends/ana/track", as: "ben").0 == 404)
        #expect(try await api("/api/grants/ben", "PATCH", #"{"paused":"yes"}"#, as: "ana").0 == 400)
        #expect(try await api("/api/grants/ben", "PATCH", #"{"paused":false}"#, as: "ana").0 == 200)
        #expect((object(try await api("/api/friends", as: "ben").1)["friends"] as? [Any])?.count == 1)
        // An expiry in the past ends it; null clears it.
        #expect(
            try await api("/api/grants/ben", "PATCH", #"{"expires_at":"2020-01-01T00:00:00Z"}"#, as: "ana").0 == 200)
        #expect((object(try await api("/api/friends", as: "ben").1)["friends"] as? [Any])?.isEmpty == true)
        #expect(try await api("/api/grants/ben", "PATCH", #"{"expires_at":null}"#, as: "ana").0 == 200)

        // Revoking ends Ben's new stream; the next point does not reach him.
        let again = try HTTP.EventStream(live, headers: login("ben"))
        defer { again.stop() }
        #expect(again.wait { $0.events("position").count == 1 }, "\(again.text)")
        #expect(try await api("/api/grants/ben", "DELETE", as: "ana").0 == 204)
        #expect(again.wait { $0.ended }, "a revocation ends the viewer's stream")
        try await post(lon: 8.5427, battery: 78)
        #expect(again.events("position").count == 1 && cats.events("position").isEmpty)
        #expect(try await api("/api/friends/ana/track", as: "ben").0 == 404)

        // Stopping the server ends the streams still open, and it exits cleanly.
        let (exit, log) = server.stop()
        #expect(exit == 0, "\(log)")
        #expect(cats.wait { $0.ended })
    }

    @Test func loginsAreLimitedPerAddressAndTheProxyIsTrustedOnlyWhenToldTo() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        #expect(
            try await run(["user", "add", "ana", "--password-stdin", "--store", store], input: Data(password.utf8)).status
                == 0)
        func friends(_ base: URL, user: String, secret: String, from address: String) async throws -> Int {
            try await HTTP.request(
                URL(string: "\(base)/api/friends")!,
                headers: [
                    "Authorization": "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString(),
                    "X-Forwarded-For": address,
                ]
            ).0
        }
        // Behind a trusted proxy: 30 failures from one client address (names that do not exist,
        // as a guesser would try) shut that address out, not the others.
        let proxied = try ServeCommandTests.RunningServer(store: store, arguments: ["--trust-proxy"])
        for i in 0..<30 {
            #expect(try await friends(proxied.url, user: "guess\(i)", secret: "wrong", from: "203.0.113.7") == 401)
        }
        #expect(try await friends(proxied.url, user: "ana", secret: password, from: "203.0.113.7") == 429)
        #expect(try await friends(proxied.url, user: "ana", secret: password, from: "198.51.100.1") == 200)
        // Only the address the proxy added (the last) counts; what the client put before it does not.
        #expect(
            try await friends(proxied.url, user: "ana", secret: password, from: "198.51.100.1, 203.0.113.7") == 429)
        #expect(proxied.stop().0 == 0)

        // Without --trust-proxy the header is ignored: the failures count against the peer.
        let direct = try ServeCommandTests.RunningServer(store: store)
        for i in 0..<30 {
            #expect(try await friends(direct.url, user: "guess\(i)", secret: "wrong", from: "192.0.2.\(i)") == 401)
        }
        #expect(try await friends(direct.url, user: "ana", secret: password, from: "198.51.100.1") == 429)
        #expect(direct.stop().0 == 0)
    }
}
