import Foundation
import Testing
import TrailbookTestSupport

/// The day page's "Where you were": the visits and trips found, each put right through a form
/// (a trip's mode, a visit's place, a place's name), kept for every later look.
extension WebPageTests {
    /// A store with `users` whose first has the simulated fortnight (after `prepare` ran on the
    /// store), and a config in Zurich's zone without tiles.
    func fortnightStore(users: [String], prepare: (_ dir: String, _ store: String) async throws -> Void = { _, _ in }) async
        throws -> (dir: String, store: String, config: String)
    {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(users, store: store)
        try await prepare(dir, store)
        for part in try VisitsCommandTests().files() {
            #expect(try await run(["import", "--store", store, "--user", users[0], part]).status == 0)
        }
        let config = dir + "/config.toml"
        try "[time]\nzone = \"Europe/Zurich\"\n[maps]\ntiles = \"none\"\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        return (dir, store, config)
    }

    @Test func aTripsModeAndAPlacesNamePutRightInTheBrowser() async throws {
        let (dir, store, config) = try await fortnightStore(users: ["ana"])
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        let ana = try await signIn(base, as: "ana")
        let jar = ["Cookie": "trailbook_session=\(ana)"]
        let dayURL = URL(string: "\(base)/day/2026-06-03")!
        let page = try await HTTP.request(dayURL, headers: jar)
        #expect(page.0 == 200)
        #expect(
            page.1.contains(#"<ol class="story" id="movements" aria-label="Where you were">"#), "\(page.1.suffix(4000))"
        )
        // An entry per visit and trip; the ride to work's moment, and the work place's id, as the forms carry them.
        let table = try #require(page.1.components(separatedBy: #"<ol class="story" id="movements""#).last)
        let rows = table.components(separatedBy: "<li ")
        func value(_ name: String, inRowWith words: String) -> String? {
            rows.first { $0.contains(words) }?.components(separatedBy: "name=\"\(name)\" value=\"").dropFirst().first
                .map { String($0.prefix { $0 != "\"" }) }
        }
        let at = try #require(value("at", inRowWith: #"<span class="what">Cycling</span>"#), "\(table)")
        #expect(rows.contains { $0.contains("Cycling") && $0.contains("3.5 km") && $0.contains("#cycling") })
        let work = try #require(value("place_id", inRowWith: #"<span class="what">work (suggested)"#))
        #expect(rows.filter { $0.contains("<select name=\"mode\">") }.count == 5, "a mode form for each trip")
        let token = try #require(csrf(in: page.1))
        let headers = jar.merging(["Content-Type": "application/x-www-form-urlencoded"]) { a, _ in a }
        let post = URL(string: "\(base)/day/2026-06-03/corrections")!
        #expect(
            try await HTTP.request(
                post, method: "POST", body: form(["at": String(at), "mode": "running"]), headers: headers
            )
            .0 == 403, "no token, no change")
        let saved = try await HTTP.exchange(
            post, method: "POST", body: form(["csrf": token, "at": String(at), "mode": "running"]), headers: headers)
        #expect(
            saved.status == 303
                && saved.headers.contains { $0.lowercased() == "location: /day/2026-06-03?saved=corrected#movements" },
            "\(saved.headers)")
        // The work place gets a name.
        let named = try await HTTP.exchange(
            post, method: "POST", body: form(["csrf": token, "place_id": String(work), "name": "Lab"]),
            headers: headers)
        #expect(named.status == 303)
        let after = try await HTTP.request(URL(string: "\(dayURL)?saved=corrected")!, headers: jar)
        #expect(after.1.contains("Your correction is kept."))
        #expect(
            after.1.contains(#"<span class="what">Running <span class="muted">(as you said)</span>"#),
            "\(after.1.suffix(4000))")
        #expect(after.1.contains(#"<span class="what">Lab"#), "the name on the page")
        // The command line sees the same corrections: they are the account's.
        let listed = try await run(["visits", "--store", store, "--user", "ana", "--day", "2026-06-03", "--config", config])
        #expect(listed.stdout.contains("→ running 3.5 km") && listed.stdout.contains("⌂ Lab"), "\(listed.stdout)")
        // A mode that is none: the page says so, nothing changed.
        let bad = try await HTTP.request(
            post, method: "POST", body: form(["csrf": token, "at": String(at), "mode": "bus"]), headers: headers)
        #expect(bad.0 == 422 && bad.1.contains("is not a mode; give one of still, walking"), "\(bad.1.prefix(3000))")
        // The places the visits found, listed on /places and named there too.
        let placesURL = URL(string: "\(base)/places")!
        let places = try await HTTP.request(placesURL, headers: jar)
        #expect(places.1.contains(#"<h2 id="found">Places your visits found</h2>"#), "\(places.1.suffix(3000))")
        let found = try #require(places.1.components(separatedBy: #"<table id="foundplaces""#).last)
        #expect(
            found.contains(#"<tr data-id="\#(work)"><td><strong>Lab</strong> <span class="muted">(work, suggested)"#))
        #expect(found.contains("(home, suggested)"), "\(found.prefix(2000))")
        let home = try #require(
            found.components(separatedBy: "<tr data-id=\"").dropFirst().first { $0.contains("(home, suggested)") }
                .map { String($0.prefix { $0 != "\"" }) })
        let foundPost = URL(string: "\(base)/places/found")!
        let kept = try await HTTP.exchange(
            foundPost, method: "POST", body: form(["csrf": token, "id": home, "name": "Flat"]), headers: headers)
        #expect(
            kept.status == 303 && kept.headers.contains { $0.lowercased() == "location: /places?saved=named#found" },
            "\(kept.headers)")
        #expect(
            try await HTTP.request(
                foundPost, method: "POST", body: form(["id": home, "name": "Nope"]), headers: headers
            ).0 == 403, "no token, no change")
        let missing = try await HTTP.request(
            foundPost, method: "POST", body: form(["csrf": token, "id": "999", "name": "X"]), headers: headers)
        #expect(missing.0 == 404 && missing.1.contains("There is no place 999"), "\(missing.1.prefix(2000))")
        let listedPlaces = try await run(["visits", "--places", "--store", store, "--user", "ana", "--config", config])
        #expect(listedPlaces.stdout.contains("Flat: "), "\(listedPlaces.stdout)")
        let cleared = try await HTTP.exchange(
            foundPost, method: "POST", body: form(["csrf": token, "id": home, "name": " "]), headers: headers)
        #expect(cleared.headers.contains { $0.lowercased() == "location: /places?saved=unnamed#found" })
        #expect(
            !(try await run(["visits", "--places", "--store", store, "--user", "ana", "--config", config])).stdout
                .contains("Flat: "))
        // Each page at both widths: no sideways scroll, every row there, a screenshot to look at.
        let looks: [(page: String, name: String, steps: [String], rows: ClosedRange<Int>)] = [
            ("places#found", "found", ["eval:document.getElementById('found').scrollIntoView()"], 3...99),
            (
                "day/2026-06-03", "movements",
                [
                    "eval:document.querySelector('#movements details').open = true",
                    "eval:document.getElementById('movements').scrollIntoView()",
                ], 11...11
            ),
        ]
        for look in looks {
            let rows = look.name == "found" ? "#foundplaces tbody tr" : "#movements li"
            for width in [390, 1280] {
                let shot = "\(dir)/\(look.name)-\(width).png"
                let seen = try browse(
                    "\(base)/\(look.page)", session: ana, width: width,
                    look.steps + [
                        "eval:[document.documentElement.scrollWidth, document.querySelectorAll('\(rows)').length]",
                        "shot:\(shot)",
                    ])
                let values = try #require(seen.last as? [Int])
                #expect(values[0] <= width && look.rows.contains(values[1]), "at \(width) px: \(values), \(shot)")
            }
        }
    }

    /// The store as `sqlite3 STORE .dump` prints it (the `sqlite3` package).
    func dump(_ store: String) throws -> String {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"),
            "/usr/bin/sqlite3 is missing: install the Debian package sqlite3 (make test does).")
        let sqlite = Process()
        sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        sqlite.arguments = [store, ".dump"]
        let out = Pipe()
        sqlite.standardOutput = out
        try sqlite.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        sqlite.waitUntilExit()
        #expect(sqlite.terminationStatus == 0)
        return text
    }

    /// Reading the day, its visits and timeline, by command and page, writes nothing: the places
    /// a reading meets for the first time are shown under the numbers they will be kept by, and
    /// kept by the writes (an import, the server's round, a correction).
    @Test func readingTheDayWritesNothing() async throws {
        let (_, store, config) = try await fortnightStore(users: ["ana"])
        func sql(_ statement: String) throws -> String {
            let sqlite = Process()
            sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            sqlite.arguments = [store, statement]
            let out = Pipe()
            sqlite.standardOutput = out
            try sqlite.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            sqlite.waitUntilExit()
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        let kept = try dump(store).components(separatedBy: "INSERT INTO found_place").count - 1
        #expect(kept >= 3, "the imports kept the places they found")
        // The server's first round keeps the places of the account's newest two days: taken away,
        // the round after finds the same newest point and keeps nothing again.
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        _ = try sql("DELETE FROM found_place")
        var rounds = 0
        while try sql("SELECT count(*) FROM found_place") == "0", rounds < 600 {
            try await Task.sleep(for: .milliseconds(100))
            rounds += 1
        }
        #expect(try sql("SELECT count(*) FROM found_place") != "0", "the server's round kept the newest days' places")
        _ = try sql("DELETE FROM found_place")
        let before = try dump(store)
        let user = ["--store", store, "--user", "ana", "--config", config]
        let listed = try await run(["visits", "--day", "2026-06-03"] + user)
        #expect(listed.status == 0 && listed.stdout.contains("work (suggested)"), "\(listed.stdout)")
        for command in [
            ["day", "2026-06-03"], ["timeline", "2026-06-03"], ["visits", "--places"], ["year", "2026"],
        ] {
            let result = try await run(command + user)
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let ana = try await signIn(server.url!, as: "ana")
        let jar = ["Cookie": "trailbook_session=\(ana)"]
        for page in ["day/2026-06-03", "days", "places", "year"] {
            let (status, body) = try await HTTP.request(URL(string: "\(server.url!)/\(page)")!, headers: jar)
            #expect(status == 200, "\(page): \(body.prefix(500))")
        }
        // Signing in writes its session: the web_session rows aside, the store is as it was.
        func content(_ dump: String) -> [String] {
            dump.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("INSERT INTO web_session") }
        }
        let after = content(try dump(store))
        #expect(
            after == content(before),
            "a reading wrote to the store: \(Set(after).symmetricDifference(content(before)).sorted().prefix(20))")
        // A correction is a write: naming the place a reading showed keeps the places, under
        // the numbers readings showed.
        let first = try await run(["visits", "--places"] + user)
        #expect(first.stdout.contains("place 1"), "\(first.stdout)")
        let named = try await run(["visit", "name", "1", "Flat"] + user)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(try sql("SELECT count(*) FROM found_place") != "0", "the correction kept the places")
        let places = try await run(["visits", "--places"] + user)
        #expect(places.stdout.contains("Flat"), "\(places.stdout)")
    }
}

/// The day's shape put right on the page: a stay's hours, a split, one stay with the next, a move
/// that never happened, a missed stay added where the map was tapped; each kept as the account's
/// edit (the command line lists it), offered to undo, and undone.
extension WebPageTests {
    @Test func theDaysShapePutRightInTheBrowser() async throws {
        let (dir, store, config) = try await fortnightStore(users: ["ana"])
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        let ana = try await signIn(base, as: "ana")
        let jar = ["Cookie": "trailbook_session=\(ana)"]
        let headers = jar.merging(["Content-Type": "application/x-www-form-urlencoded"]) { a, _ in a }
        let dayURL = URL(string: "\(base)/day/2026-06-03")!
        let post = URL(string: "\(base)/day/2026-06-03/corrections")!
        /// The page's entries: each `<li>` of the story.
        func entries(_ page: String) throws -> [String] {
            let story = try #require(page.components(separatedBy: #"<ol class="story" id="movements""#).last)
            return Array(
                (story.components(separatedBy: "</ol>").first ?? "").components(separatedBy: "<li ").dropFirst())
        }
        func value(_ name: String, in entry: String) -> String? {
            entry.components(separatedBy: "name=\"\(name)\" value=\"").dropFirst().first.map {
                String($0.prefix { $0 != "\"" })
            }
        }
        func stays(_ page: String) throws -> [String] { try entries(page).filter { $0.hasPrefix(#"class="stay""#) } }
        let page = try await HTTP.request(dayURL, headers: jar).1
        let token = try #require(csrf(in: page))
        let before = try stays(page)
        #expect(before.count == 6, "\(before.count) stays")
        #expect(try entries(page).filter { $0.contains(#"value="remove""#) }.count == 11, "a removal for each entry")
        /// Posts an edit; returns the page it lands on and the edit's id to undo.
        func edit(_ fields: [String: String]) async throws -> (page: String, undo: String?) {
            let sent = try await HTTP.exchange(
                post, method: "POST", body: form(fields.merging(["csrf": token]) { a, _ in a }), headers: headers)
            #expect(sent.status == 303, "\(fields): \(sent.status) \(sent.body.prefix(2000))")
            let location = try #require(
                sent.headers.first { $0.lowercased().hasPrefix("location: ") }.map { String($0.dropFirst(10)) })
            let landed = try await HTTP.request(URL(string: "\(base)\(location)")!, headers: jar).1
            let undo = location.components(separatedBy: "undo=").dropFirst().first?.prefix { $0 != "#" }
            return (landed, undo.map(String.init))
        }

        // The second stay's hours: from a quarter past to a quarter to.
        let second = before[1]
        let (at, from, to) = try (
            #require(value("at", in: second)), #require(value("from", in: second)), #require(value("to", in: second))
        )
        let hours = try await edit(["edit": "times", "at": at, "from": from, "to": "23:45"])
        #expect(hours.page.contains("Your edit is kept."), "\(hours.page.prefix(3000))")
        let undoID = try #require(hours.undo)
        #expect(hours.page.contains(#"<input type="hidden" name="id" value="\#(undoID)">"#), "the undo form")
        let changed = try stays(hours.page)
        #expect(changed[1].contains("\(from)–23:45"), "\(changed[1].prefix(600))")
        // Undone: the hours as found again, and the page says so.
        let undone = try await edit(["edit": "undo", "id": undoID])
        #expect(undone.page.contains("The edit is undone.") && undone.undo == nil)
        #expect(try stays(undone.page)[1].contains("\(from)–\(to)"))

        // The night's stay began the day before: its form says so, and its own hours given back keep it as it was.
        let night = before[0]
        #expect(value("from_day", in: night) == "-1" && value("to_day", in: night) == "0", "\(night.prefix(1500))")
        let span = try #require(
            night.components(separatedBy: #"<span class="when">"#).dropFirst().first?.prefix { $0 != "<" })
        let same = try await edit([
            "edit": "times", "at": try #require(value("at", in: night)), "from": try #require(value("from", in: night)),
            "to": try #require(value("to", in: night)), "from_day": "-1", "to_day": "0",
        ])
        #expect(try stays(same.page)[0].contains(String(span)), "\(span)")
        _ = try await edit(["edit": "undo", "id": try #require(same.undo)])

        // The second stay split at its middle: one stay more.
        let minutes = { (t: String) in (Int(t.prefix(2)) ?? 0) * 60 + (Int(t.suffix(2)) ?? 0) }
        let middle = (minutes(from) + minutes(to)) / 2
        let split = try await edit([
            "edit": "split", "at": at, "split": String(format: "%02d:%02d", middle / 60, middle % 60),
        ])
        let afterSplit = try stays(split.page)
        #expect(afterSplit.count == 7, "\(afterSplit.count) stays after the split")
        // The first stay made one with the next: one fewer.
        let first = afterSplit[0]
        let merged = try await edit([
            "edit": "merge", "at": try #require(value("at", in: first)),
            "other": try #require(value("other", in: first)),
        ])
        let afterMerge = try stays(merged.page)
        #expect(afterMerge.count == 6, "\(afterMerge.count) stays after the merge")
        // A move that never happened: one entry fewer.
        let move = try #require(try entries(merged.page).first { $0.hasPrefix(#"class="move""#) })
        let removed = try await edit(["edit": "remove", "at": try #require(value("at", in: move))])
        #expect(try entries(removed.page).count < (try entries(merged.page)).count)
        // A stay the day missed, where the map was tapped: at 03:00-03:30 in the night.
        let added = try await edit(["edit": "add", "lat": "47.3900", "lon": "8.5100", "from": "03:00", "to": "03:30"])
        let afterAdd = try stays(added.page)
        #expect(afterAdd.contains { $0.contains("03:00–03:30") }, "\(afterAdd.map { $0.prefix(300) })")
        // Every edit is the account's: the command line lists them.
        let listed = try await run(["visit", "corrections", "--store", store, "--user", "ana", "--json"])
        for kind in ["split", "merge", "remove", "add"] { #expect(listed.stdout.contains("\"\(kind)\""), "\(kind)") }
        #expect(!listed.stdout.contains(#""times""#), "the undone one is gone: \(listed.stdout)")
        // What cannot be: one sentence, nothing kept.
        let bad = try await HTTP.request(
            post, method: "POST", body: form(["csrf": token, "edit": "split", "at": at, "split": "nine"]),
            headers: headers)
        #expect(bad.0 == 422, "\(bad.0)")
        #expect(bad.1.contains("That cannot be done: give the hours as hours and minutes"), "\(bad.1.prefix(2000))")
        #expect(
            try await HTTP.request(post, method: "POST", body: form(["edit": "remove", "at": at]), headers: headers).0
                == 403, "no token, no change")

        // The forms at both widths: no sideways scroll.
        for width in [390, 1280] {
            let shot = "\(dir)/edits-\(width).png"
            let seen = try browse(
                "\(base)/day/2026-06-03", session: ana, width: width,
                [
                    "eval:document.querySelectorAll('#movements .stay details')[1].open = true",
                    "eval:document.querySelectorAll('#movements .stay')[1].scrollIntoView()",
                    "eval:document.documentElement.scrollWidth", "shot:\(shot)",
                ])
            let scroll = try #require(seen.last as? Int)
            #expect(scroll <= width, "at \(width) px: \(scroll), \(shot)")
        }
    }
}

/// A place's history, by the command line and on its page: every visit of the whole timeline.
extension WebPageTests {
    @Test func aPlacesHistoryListsEveryVisit() async throws {
        let (dir, store, config) = try await fortnightStore(users: ["ana"])
        let common = ["--store", store, "--user", "ana", "--config", config]
        let listed = try await run(["visits", "--places", "--json"] + common)
        let places = try #require(
            (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])?["places"]
                as? [[String: Any]])
        let most = try #require(places.max { ($0["seconds"] as? Double ?? 0) < ($1["seconds"] as? Double ?? 0) })
        let (id, visits, seconds) = try (
            #require(most["id"] as? Int), #require(most["visits"] as? Int), #require(most["seconds"] as? Double)
        )
        let shown = try await run(["place", "show", String(id), "--json"] + common)
        #expect(shown.status == 0, "\(shown.stderr)")
        let history = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let stays = try #require(history["visits"] as? [[String: Any]])
        #expect(stays.count == visits, "\(stays.count) of \(visits)")
        #expect(abs(Double(history["total_s"] as? Int ?? 0) - seconds) <= Double(visits), "\(history["total_s"] ?? 0)")
        let days = Set(stays.compactMap { $0["day"] as? String })
        #expect(history["days"] as? Int == days.count && days.count > 1, "\(days)")
        #expect((history["first"] as? String ?? "") < (history["last"] as? String ?? ""))
        let text = try await run(["place", "show", String(id)] + common)
        #expect(text.stdout.contains("(place \(id), ") && text.stdout.contains("\(visits) visits on"), "\(text.stdout)")
        let none = try await run(["place", "show", "999"] + common)
        #expect(none.status == 66 && none.stderr.contains("There is no place 999"), "\(none.status) \(none.stderr)")

        // The same on the place's page, linked from the places page; newest visit first.
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        let ana = try await signIn(base, as: "ana")
        let jar = ["Cookie": "trailbook_session=\(ana)"]
        #expect(try await HTTP.request(URL(string: "\(base)/places")!, headers: jar).1.contains("/places/found/\(id)"))
        let page = try await HTTP.request(URL(string: "\(base)/places/found/\(id)")!, headers: jar)
        #expect(page.0 == 200)
        let rows = page.1.components(separatedBy: #"<tr><td><a href="/day/"#).count - 1
        #expect(rows == visits, "\(rows) rows")
        let newest = try #require(days.max())
        #expect(page.1.contains(#"<tr><td><a href="/day/\#(newest)">"#), "\(page.1.prefix(2000))")
        #expect(try await HTTP.request(URL(string: "\(base)/places/found/999")!, headers: jar).0 == 404)
        #expect(try await HTTP.request(URL(string: "\(base)/places/found/\(id)")!).0 != 200, "not signed in")
        for width in [390, 1280] {
            let shot = "\(dir)/place-\(width).png"
            let seen = try browse(
                "\(base)/places/found/\(id)", session: ana, width: width,
                ["eval:document.documentElement.scrollWidth", "shot:\(shot)"])
            let scroll = try #require(seen.last as? Int)
            #expect(scroll <= width, "at \(width) px: \(scroll), \(shot)")
        }
    }
}

/// The trips away of the simulated fortnight (a weekend away by car, a flight of two nights), then
/// with a night in Lisbon added: each found by `trips`, named by the places of its nights.
extension WebPageTests {
    @Test func nightsAwayAreTrips() async throws {
        let (_, store, config) = try await fortnightStore(users: ["ana"])
        let common = ["--store", store, "--user", "ana", "--config", config]
        func trips() async throws -> (report: [String: Any], trips: [[String: Any]]) {
            let found = try await run(["trips", "--json"] + common)
            #expect(found.status == 0, "\(found.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [String: Any])
            return (report, try #require(report["trips"] as? [[String: Any]]))
        }
        let before = try await trips()
        #expect((before.report["home"] as? String)?.hasPrefix("home") == true, "\(before.report)")
        #expect(before.trips.count == 2, "\(before.trips)")
        let weekend = before.trips.first { ($0["nights"] as? [String])?.count == 1 }
        let flight = before.trips.first { ($0["nights"] as? [String])?.count == 2 }
        #expect((weekend?["distance_m_by_mode"] as? [String: Int])?["car"] ?? 0 > 100_000, "\(before.trips)")
        #expect((flight?["distance_m_by_mode"] as? [String: Int])?["plane"] ?? 0 > 1_000_000, "\(before.trips)")

        let added = try await run(
            [
                "visit", "add", "--at", "38.7223,-9.1393", "--from", "2026-06-05T20:00:00+02:00", "--to",
                "2026-06-06T10:00:00+02:00",
            ] + common)
        #expect(added.status == 0, "\(added.stderr)")
        let after = try await trips()
        #expect(after.trips.count == 3, "\(after.trips)")
        let lisbon = try #require(after.trips.first)
        #expect(lisbon["nights"] as? [String] == ["2026-06-06"], "\(lisbon)")
        #expect((lisbon["farthest_km"] as? Double ?? 0) > 1_500, "\(lisbon)")
        #expect(lisbon["ongoing"] as? Bool == false, "\(lisbon)")
        let place = try #require((lisbon["places"] as? [String])?.first)
        #expect(place.hasPrefix("place ") && lisbon["name"] as? String == place, "\(lisbon)")
        // Named, the place names the trip.
        let named = try await run(["visit", "name", String(place.dropFirst(6)), "Lisbon"] + common)
        #expect(named.status == 0, "\(named.stderr)")
        let text = try await run(["trips"] + common)
        #expect(text.stdout.contains("1  2026-06-05  Lisbon  1 night"), "\(text.stdout)")
        #expect(text.stdout.hasPrefix("3  "), "newest first: \(text.stdout)")
    }
}
