import Foundation
import Testing
import TrailbookTestSupport

/// `/alerts` in the browser: an alert added with the form (refused ones said by it), a test sent
/// to its webhook from the page (and said when it does not get through), deleted after a page that
/// says what goes; another account sees none of it.
extension WebPageTests {
    @Test func alertsAreAddedTestedAndDeleted() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana", "ben"], store: store)
        let hook = try HookReceiver(secret: "a secret", directory: dir)
        try hook.start()
        defer { hook.stop() }
        let server = try ServeCommandTests.RunningServer(store: store)
        defer { _ = server.stop() }
        let base = server.url!
        let ana = try await signIn(base, as: "ana")
        let jar = ["Cookie": "trailbook_session=\(ana)"]
        let empty = try await HTTP.request(URL(string: "\(base)/alerts")!, headers: jar)
        #expect(empty.0 == 200 && empty.1.contains(#"id="noalerts""#))
        #expect(empty.1.contains(#"name="on-place.arrive" checked"#), "arrivals are ticked at first")
        let token = try #require(csrf(in: empty.1))
        let post = jar.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 }
        func add(_ fields: [String: String]) async throws -> (status: Int, headers: [String], body: String) {
            try await HTTP.exchange(
                URL(string: "\(base)/alerts")!, method: "POST", body: form(fields.merging(["csrf": token]) { $1 }),
                headers: post)
        }
        let url = "http://127.0.0.1:\(hook.port)/ana"

        // Refused, each in one sentence by the form, which keeps what was typed.
        let noTypes = try await add(["channel": "webhook", "address": url])
        #expect(noTypes.status == 422 && noTypes.body.contains("Tick the events the alert sends"), "\(noTypes.body)")
        let badURL = try await add(["on-device.alarm": "on", "channel": "webhook", "address": "ftp://x/y"])
        #expect(badURL.status == 422 && badURL.body.contains(#"id="alertmessage""#))
        #expect(
            badURL.body.contains("is not an http:// or https:// URL") && badURL.body.contains(#"value="ftp://x/y""#))
        #expect(badURL.body.contains(#"name="on-device.alarm" checked"#), "the ticks are kept")
        let badQuiet = try await add(["on-device.alarm": "on", "address": url, "quiet": "late"])
        #expect(badQuiet.status == 422 && badQuiet.body.contains("is not a quiet period"))

        // Added: the command line sees it.
        let added = try await add([
            "on-device.alarm": "on", "on-battery.low": "on", "channel": "webhook", "address": url,
            "secret": "a secret", "quiet": "23:00-06:00",
        ])
        #expect(added.status == 303, "\(added.body)")
        let listed = try await run(["alert", "list", "--user", "ana", "--store", store])
        #expect(listed.stdout.contains("battery.low") && listed.stdout.contains(url), "\(listed.stdout)")
        let page = try await HTTP.request(URL(string: "\(base)/alerts")!, headers: jar)
        #expect(page.1.contains(#"<tr data-id="1">"#) && page.1.contains("quiet 23:00-06:00, signed"), "\(page.1)")

        // "Send a test": one signed message marked as a test reaches the webhook.
        let tested = try await HTTP.exchange(
            URL(string: "\(base)/alerts/1/test")!, method: "POST", body: form(["csrf": token]), headers: post)
        #expect(tested.status == 200 && tested.body.contains("The test of alert 1 reached webhook \(url)"))
        let got = hook.requests()
        #expect(got.count == 1 && got.first?["verified"] as? Bool == true, "\(got)")
        #expect((got.first?["body"] as? String)?.contains(#""test":true"#) == true, "\(got)")
        // The receiver down: the page says the test did not get through.
        hook.stop()
        let failed = try await HTTP.exchange(
            URL(string: "\(base)/alerts/1/test")!, method: "POST", body: form(["csrf": token]), headers: post)
        #expect(failed.status == 502 && failed.body.contains("did not reach webhook"), "\(failed.body)")

        // At both widths nothing scrolls sideways; the test button is a button of the row.
        for width in [390, 1280] {
            let seen = try browse(
                "\(base)/alerts", session: ana, width: width,
                [
                    "eval:[document.documentElement.scrollWidth, document.querySelectorAll('#alerts form.test button').length]",
                    "shot:\(dir)/alerts-\(width).png",
                ])
            let values = try #require(seen.first as? [Int])
            #expect(values[0] <= width && values[1] == 1, "at \(width) px: \(values)")
        }

        // Deleted after a page that says what goes; Ben never saw it.
        let confirm = try await HTTP.request(URL(string: "\(base)/alerts/1/delete")!, headers: jar)
        #expect(confirm.0 == 200 && confirm.1.contains("alert 1: battery.low, device.alarm to webhook"), "\(confirm.1)")
        let ben = try await signIn(base, as: "ben")
        let his = try await HTTP.request(
            URL(string: "\(base)/alerts")!, headers: ["Cookie": "trailbook_session=\(ben)"])
        #expect(his.1.contains(#"id="noalerts""#))
        let bensDelete = try await HTTP.request(
            URL(string: "\(base)/alerts/1/delete")!, headers: ["Cookie": "trailbook_session=\(ben)"])
        #expect(bensDelete.0 == 404, "not Ben's alert")
        let deleted = try await HTTP.exchange(
            URL(string: "\(base)/alerts/1/delete")!, method: "POST", body: form(["csrf": token]), headers: post)
        #expect(deleted.status == 303)
        #expect(try await run(["alert", "list", "--user", "ana", "--store", store]).stdout.contains(url) == false)
    }
}
