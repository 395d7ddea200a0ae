import Foundation
import Testing
import TrailbookTestSupport

/// A photo put on a record from the day page: the browser sends the chosen JPEG, the record
/// shows it, the command line lists it; a file that is no JPEG is refused in one sentence that
/// names it as sent; another account's record cannot take one.
extension WebPageTests {
    @Test func aPhotoIsUploadedOntoARecordFromTheDayPage() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana", "ben"], store: store)
        #expect(try await run(["import", "--store", store, "--user", "ana", "Samples/ride.nmea"]).status == 0)
        let marked = try await run([
            "mark", "--user", "ana", "--store", store, "--at", "2026-06-14 08:40", "--note", "The lake",
            "--time-zone", "Europe/Zurich", "--json",
        ])
        let id = try #require(
            (try JSONSerialization.jsonObject(with: Data(marked.stdout.utf8)) as? [String: Any])?["id"] as? Int,
            "\(marked.stdout) \(marked.stderr)")
        let config = dir + "/config.toml"
        try "[time]\nzone = \"Europe/Zurich\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        let ana = try await signIn(base, as: "ana")
        let photo = Samples.directory.appendingPathComponent("photos/lake.jpg").path
        let seen = try browse(
            "\(base)/day/2026-06-14", session: ana, width: 390,
            [
                "wait:document.querySelector('#record-\(id) form.photo-form')",
                "file:#record-\(id) form.photo-form input=\(photo)",
                "eval:document.querySelector('#record-\(id) form.photo-form').requestSubmit()",
                "wait:document.querySelectorAll('#record-\(id) .photos img').length===1",
                "eval:[document.querySelector('#record-\(id) .photos img').getAttribute('src'), "
                    + "document.documentElement.scrollWidth]",
                "shot:\(dir)/photo.png",
            ])
        let shown = try #require(seen.last as? [Any], "\(seen)")
        #expect(shown[0] as? String == "/photos/\(id)/0" && (shown[1] as? Int ?? .max) <= 390, "\(shown)")
        let listed = try await run(["records", "--user", "ana", "--store", store, "--json"])
        #expect(listed.stdout.contains("lake.jpg"), "\(listed.stdout)")

        // Not a JPEG: one sentence that names the file as it was sent; nothing is added.
        let jar = ["Cookie": "trailbook_session=\(ana)"]
        let page = try await HTTP.request(URL(string: "\(base)/day/2026-06-14")!, headers: jar)
        let token = try #require(csrf(in: page.1))
        let upload = URL(string: "\(base)/records/\(id)/photos?name=notes.txt")!
        let refused = try await HTTP.request(
            upload, method: "POST", body: Data("not a photo".utf8), headers: jar.merging(["X-CSRF-Token": token]) { $1 }
        )
        #expect(refused.0 == 422 && refused.1.contains("notes.txt") && !refused.1.contains(dir), "\(refused)")
        #expect(try await HTTP.request(upload, method: "POST", body: Data("x".utf8), headers: jar).0 == 403)
        // Ben cannot put one on Ana's record.
        let ben = try await signIn(base, as: "ben")
        let bensPage = try await HTTP.request(
            URL(string: "\(base)/day/2026-06-14")!, headers: ["Cookie": "trailbook_session=\(ben)"])
        let bensToken = try #require(csrf(in: bensPage.1))
        let bens = try await HTTP.request(
            URL(string: "\(base)/records/\(id)/photos?name=lake.jpg")!, method: "POST",
            body: try Data(contentsOf: URL(fileURLWithPath: photo)),
            headers: ["Cookie": "trailbook_session=\(ben)", "X-CSRF-Token": bensToken])
        #expect(bens.0 == 404, "\(bens)")
        let after = try await run(["records", "--user", "ana", "--store", store, "--json"])
        #expect(
            after.stdout.components(separatedBy: "lake.jpg").count
                == listed.stdout.components(separatedBy: "lake.jpg").count)
    }
}
