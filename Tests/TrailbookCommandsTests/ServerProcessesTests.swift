import Foundation
import Testing
import TrailbookTestSupport

/// Two `serve` processes on one PostgreSQL database, as a larger deployment behind a load
/// balancer runs them: a position posted to one reaches the live streams of viewers connected
/// to the other, a pause made on one ends streams on the other, a session made on one is known
/// to the other, and failed logins count across both.
@Suite struct ServerProcessesTests {
    let password = "correct horse battery staple"
    let pages = WebPageTests()

    func basic(_ user: String, _ secret: String? = nil) -> [String: String] {
        ["Authorization": "Basic " + Data("\(user):\(secret ?? password)".utf8).base64EncodedString()]
    }

    func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    @Test func twoServersOnOneDatabaseShareLivePositionsSessionsAndLoginLimits() async throws {
        let (store, _) = try newStore(.postgresql)
        for user in ["ana", "ben"] {
            let added = try await run(
                ["user", "add", user, "--password-stdin", "--store", store], input: Data(password.utf8))
            try #require(added.status == 0, "\(added.stderr)")
        }
        let token = try await deviceToken("phone", user: "ana", store: store)
        let a = try ServeCommandTests.RunningServer(store: store)
        let b = try ServeCommandTests.RunningServer(store: store)
        defer {
            _ = a.stop()
            _ = b.stop()
        }
        // Ana makes a code on A, Ben redeems it on B.
        let made = try await HTTP.request(
            a.url.appendingPathComponent("api/share-codes"), method: "POST", body: Data(#"{"scopes":["live"]}"#.utf8),
            headers: basic("ana"))
        let code = try #require(object(made.1)["code"] as? String, "\(made)")
        let redeemed = try await HTTP.request(
            b.url.appendingPathComponent("api/share-codes/redeem"), method: "POST",
            body: Data(#"{"code":"\#(code)"}"#.utf8), headers: basic("ben"))
        #expect(redeemed.0 == 200, "\(redeemed)")

        // Ben watches on B; Ana's phone posts to A.
        let stream = try HTTP.EventStream(b.url.appendingPathComponent("api/live"), headers: basic("ben"))
        defer { stream.stop() }
        #expect(stream.wait { $0.text.contains("retry:") }, "B subscribed Ben: \(stream.text)")
        var now = Int(Date().timeIntervalSince1970)
        for (i, lon) in [8.5417, 8.5420, 8.5423].enumerated() {
            now += 5
            let posted = Date()
            let point = URL(string: "\(a.url!)/osmand?id=\(token)&timestamp=\(now)&lat=47.3769&lon=\(lon)&speed=4")!
            #expect(try await HTTP.request(point).0 == 200)
            #expect(stream.wait { $0.events("position").count == i + 1 }, "B's viewer got A's point: \(stream.text)")
            let delay = Date().timeIntervalSince(posted)
            print("position \(i + 1) posted to A reached B's viewer after \(Int(delay * 1000)) ms")
            let event = object(stream.events("position").last ?? "")
            #expect((event["lon"] as? Double).map { abs($0 - lon) < 1e-6 } == true, "\(event)")
        }

        // A pause made on A ends Ben's stream on B.
        let paused = try await HTTP.request(
            a.url.appendingPathComponent("api/grants/ben"), method: "PATCH", body: Data(#"{"paused":true}"#.utf8),
            headers: basic("ana"))
        #expect(paused.0 == 200, "\(paused)")
        #expect(stream.wait { $0.ended }, "the pause on A ended the stream on B")

        // A session made on A is known on B.
        let loginPage = try await HTTP.exchange(a.url)
        let loginToken = try #require(pages.cookie("trailbook_login", in: loginPage.headers)?.value)
        let signedIn = try await HTTP.exchange(
            a.url.appendingPathComponent("login"), method: "POST",
            body: pages.form(["csrf": loginToken, "user": "ben", "password": password]),
            headers: ["Cookie": "trailbook_login=\(loginToken)", "Content-Type": "application/x-www-form-urlencoded"])
        let session = try #require(pages.cookie("trailbook_session", in: signedIn.headers)?.value, "\(signedIn)")
        let home = try await HTTP.request(b.url, headers: ["Cookie": "trailbook_session=\(session)"])
        #expect(home.1.contains(#"<strong id="me">ben</strong>"#), "B knows A's session: \(home.1.prefix(300))")

        // Ten wrong passwords for Ana on A shut her out on B too, the right password included.
        for _ in 0..<10 {
            let wrong = try await HTTP.request(a.url.appendingPathComponent("api/friends"), headers: basic("ana", "no"))
            #expect(wrong.0 == 401)
        }
        let shut = try await HTTP.request(b.url.appendingPathComponent("api/friends"), headers: basic("ana"))
        #expect(shut.0 == 429, "the failures on A count on B: \(shut)")
    }
}
