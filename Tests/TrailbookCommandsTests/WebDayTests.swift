import Foundation
import Testing
import TrailbookTestSupport

/// The day diary in the browser (issue 39, first step): `/day/YYYY-MM-DD` shows the signed-in
/// account's day as `report day` does, with the base map's tiles from the server, and takes the
/// day's summary, a note and a record marked on the map; another account sees none of it.
extension WebPageTests {
    /// Signs `user` in through the login form; the session cookie's value.
    func signIn(_ base: URL, as user: String) async throws -> String {
        let loginPage = try await HTTP.exchange(base)
        let loginToken = try #require(cookie("trailbook_login", in: loginPage.headers)?.value)
        let signedIn = try await HTTP.exchange(
            URL(string: "\(base)/login")!, method: "POST",
            body: form(["csrf": loginToken, "user": user, "password": password]),
            headers: ["Cookie": "trailbook_login=\(loginToken)", "Content-Type": "application/x-www-form-urlencoded"])
        return try #require(cookie("trailbook_session", in: signedIn.headers)?.value)
    }

    /// The tiles of zooms 12 to 17 over the sample ride (Zurich, 14 June 2026) and a tile around it.
    static func rideTiles() -> [String] {
        func tile(_ z: Int, _ lat: Double, _ lon: Double) -> (x: Int, y: Int) {
            let n = Double(1 << z)
            let r = lat * .pi / 180
            return (Int((lon + 180) / 360 * n), Int((1 - log(tan(r) + 1 / cos(r)) / .pi) / 2 * n))
        }
        var keys: [String] = []
        for z in 12...17 {
            let (west, north) = tile(z, 47.3815, 8.5161)
            let (east, south) = tile(z, 47.3677, 8.5687)
            for x in (west - 1)...(east + 1) { for y in (north - 1)...(south + 1) { keys.append("\(z)/\(x)/\(y)") } }
        }
        return keys
    }

    @Test func theDayPageShowsTheAccountsDayAndTakesItsChanges() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana", "ben"], store: store)
        let imported = try await run(["import", "--store", store, "--user", "ana", "Samples/ride.nmea"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let mbtiles = dir + "/town.mbtiles"
        try TileServer.makeMBTiles(mbtiles, tiles: Self.rideTiles())
        let config = dir + "/config.toml"
        try "[time]\nzone = \"Europe/Zurich\"\n[maps]\ntiles = \"mbtiles:\(mbtiles)\"\nattribution = \"© Test Tiles\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        let dayURL = URL(string: "\(base)/day/2026-06-14")!

        // Not signed in: the day is not shown, the sign-in page is.
        let anonymous = try await HTTP.exchange(dayURL)
        #expect(anonymous.status == 303 && anonymous.headers.contains { $0.lowercased() == "location: /" })
        let ana = try await signIn(base, as: "ana")
        let jar = ["Cookie": "trailbook_session=\(ana)"]
        let home = try await HTTP.request(base, headers: jar)
        #expect(home.1.contains(#"<a href="/day/"#) && home.1.contains(#"action="/day""#), "the home page links days")

        // Ana's day: her ride with its statistics, a map whose tiles come from this server, the
        // day's neighbours, the map script from this server (the policy runs no inline script).
        let page = try await HTTP.request(dayURL, headers: jar)
        #expect(page.0 == 200)
        let html = page.1
        #expect(html.contains("<h1>Sunday 14 June 2026</h1>") && html.contains("1 ride"), "\(html.prefix(3000))")
        #expect(html.contains(#"<span class="swatch""#) && html.contains("Europe/Zurich"))
        let tiles = html.components(separatedBy: #"href="/tiles/"#).dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(tiles.count >= 4, "linked tiles: \(tiles.count)")
        #expect(!html.contains("data:image/png;base64"), "tiles are linked, not embedded")
        #expect(html.contains("© Test Tiles"))
        #expect(html.contains(#"href="/day/2026-06-13""#) && html.contains(#"href="/day/2026-06-15""#))
        #expect(html.contains(#"<script src="/day.js"></script>"#) && !html.contains("<script>"))
        let csrfToken = try #require(csrf(in: html))

        // Ben's same day is empty: Ana's ride is hers.
        let ben = try await signIn(base, as: "ben")
        let bens = try await HTTP.request(dayURL, headers: ["Cookie": "trailbook_session=\(ben)"])
        #expect(bens.0 == 200 && bens.1.contains("0 rides") && !bens.1.contains(#"class="route""#))

        // The calendar: her half-hour ride shades 14 June (under an hour), links the day, and
        // totals the year; Ben's 14 June is blank.
        let calendarURL = URL(string: "\(base)/calendar?year=2026")!
        let calendar = try await HTTP.request(calendarURL, headers: jar)
        #expect(calendar.0 == 200 && calendar.1.contains(#"<a href="/day/2026-06-14" class="l2""#), "\(calendar.1)")
        #expect(calendar.1.contains(#"title="Sunday 14 June 2026: 1 ride, 27 min moving, 1762 points""#))
        #expect(calendar.1.contains("1 day with rides, 27 min moving, 1762 points, 0 records"))
        #expect(calendar.1.components(separatedBy: #"" class="l"#).count - 1 == 365, "a cell for each day of 2026")
        let bensCalendar = try await HTTP.request(calendarURL, headers: ["Cookie": "trailbook_session=\(ben)"])
        #expect(bensCalendar.1.contains(#"<a href="/day/2026-06-14" class="l0""#))
        #expect(try await HTTP.exchange(calendarURL).status == 303, "not signed in: the sign-in page")
        #expect(try await HTTP.request(URL(string: "\(base)/calendar?year=99999")!, headers: jar).0 == 404)

        // The day's summary, through the form (without the token: refused).
        let formHeaders = jar.merging(["Content-Type": "application/x-www-form-urlencoded"]) { a, _ in a }
        let summaryURL = URL(string: "\(base)/day/2026-06-14/summary")!
        #expect(
            try await HTTP.request(summaryURL, method: "POST", body: form(["summary": "x"]), headers: formHeaders).0
                == 403)
        let saved = try await HTTP.exchange(
            summaryURL, method: "POST", body: form(["csrf": csrfToken, "summary": "  Lake loop <fast>  "]),
            headers: formHeaders)
        #expect(
            saved.status == 303
                && saved.headers.contains { $0.lowercased() == "location: /day/2026-06-14?saved=summary" })
        let after = try await HTTP.request(URL(string: "\(dayURL)?saved=summary")!, headers: jar)
        #expect(
            after.1.contains("The day’s summary is saved.") && after.1.contains(">Lake loop &lt;fast&gt;</textarea>"))
        let day = try await run(["day", "2026-06-14", "--user", "ana", "--store", store, "--json", "--config", config])
        let dayDocument = try JSONSerialization.jsonObject(with: Data(day.stdout.utf8)) as? [String: Any]
        #expect(dayDocument?["summary"] as? String == "Lake loop <fast>", "\(day.stdout)")

        // A record marked on the map (the form the map's tap fills), then a note on it.
        let marked = try await HTTP.exchange(
            URL(string: "\(base)/day/2026-06-14/records")!, method: "POST",
            body: form(["csrf": csrfToken, "lat": "47.3700", "lon": "8.5400", "time": "08:45", "note": "Swans"]),
            headers: formHeaders)
        #expect(marked.status == 303, "\(marked.body)")
        let location = marked.headers.first { $0.lowercased().hasPrefix("location: ") } ?? ""
        let id = try #require(Int(location.components(separatedBy: "#record-").last ?? ""), "\(location)")
        let noted = try await HTTP.exchange(
            URL(string: "\(base)/records/\(id)/notes")!, method: "POST",
            body: form(["csrf": csrfToken, "note": "and a heron"]), headers: formHeaders)
        #expect(
            noted.status == 303
                && noted.headers.contains { $0.lowercased() == "location: /day/2026-06-14?saved=note#record-\(id)" })
        let withRecord = try await HTTP.request(dayURL, headers: jar)
        #expect(withRecord.1.contains(#"id="record-\#(id)""#) && withRecord.1.contains("and a heron"))
        // A bad time is one sentence on the page; Ben cannot add a note to Ana's record.
        let badTime = try await HTTP.exchange(
            URL(string: "\(base)/day/2026-06-14/records")!, method: "POST",
            body: form(["csrf": csrfToken, "lat": "47.37", "lon": "8.54", "time": "25:00"]), headers: formHeaders)
        #expect(badTime.status == 422 && badTime.body.contains("Give the record’s time as hours and minutes"))
        let bensHome = try await HTTP.request(base, headers: ["Cookie": "trailbook_session=\(ben)"])
        let bensToken = try #require(csrf(in: bensHome.1))
        let foreign = try await HTTP.exchange(
            URL(string: "\(base)/records/\(id)/notes")!, method: "POST",
            body: form(["csrf": bensToken, "note": "mine"]),
            headers: ["Cookie": "trailbook_session=\(ben)", "Content-Type": "application/x-www-form-urlencoded"])
        #expect(foreign.status == 404)

        // The record is Ana's, at 08:45 Zurich time (06:45 UTC), with both notes.
        let records = try await run(["records", "--user", "ana", "--store", store, "--json"])
        let list = try #require(
            (try JSONSerialization.jsonObject(with: Data(records.stdout.utf8)) as? [String: Any])?["records"]
                as? [[String: Any]])
        let record = try #require(list.first { ($0["id"] as? Int) == id }, "\(records.stdout)")
        #expect((record["time"] as? String)?.hasPrefix("2026-06-14T06:45:00") == true, "\(record)")
        #expect("\(record["notes"] ?? "")".contains("Swans") && "\(record["notes"] ?? "")".contains("and a heron"))
        let bensRecords = try await run(["records", "--user", "ben", "--store", store, "--json"])
        #expect(!bensRecords.stdout.contains("Swans"), "\(bensRecords.stdout)")

        // A photo on the record: served to Ana from her record, to nobody else.
        #expect(
            try await run(["photo", "add", "\(id)", "Samples/photos/lake.jpg", "--user", "ana", "--store", store]).status == 0
        )
        let photo = URL(string: "\(base)/photos/\(id)/0")!
        let got = try await HTTP.exchange(photo, headers: jar)
        #expect(got.status == 200 && got.headers.contains { $0.lowercased() == "content-type: image/jpeg" })
        #expect(try await HTTP.request(photo, headers: ["Cookie": "trailbook_session=\(ben)"]).0 == 404)
        #expect(try await HTTP.request(URL(string: "\(base)/photos/\(id)/1")!, headers: jar).0 == 404)
        #expect(try await HTTP.request(dayURL, headers: jar).1.contains(#"<img src="/photos/\#(id)/0""#))

        // Export: the day as GPX, a download that another store imports whole; Ben has nothing there.
        #expect(try await HTTP.request(URL(string: "\(base)/export")!, headers: jar).1.contains(#"id="export""#))
        let gpx = try await HTTP.exchange(
            URL(string: "\(base)/export?from=2026-06-14&to=2026-06-14&format=gpx")!, headers: jar)
        #expect(gpx.status == 200, "\(gpx.body.prefix(500))")
        #expect(
            gpx.headers.contains {
                $0.lowercased() == #"content-disposition: attachment; filename="trailbook-2026-06-14.gpx""#
            }, "\(gpx.headers)")
        #expect(gpx.body.components(separatedBy: "<trkpt ").count - 1 == 1762 && gpx.body.contains("Swans"))
        #expect(!gpx.body.contains(dir), "no path on the server in the file")
        let file = dir + "/day.gpx"
        try gpx.body.write(toFile: file, atomically: true, encoding: .utf8)
        let again = dir + "/again.sqlite"
        #expect(try await run(["import", "--store", again, file]).status == 0)
        let rides = try await run(["rides", "--store", again, "--json"])
        #expect(rides.stdout.contains(#""points" : 1762"#), "\(rides.stdout)")
        // Everything of the account as one tar file: unpacked, store copy brings it back whole, the photo too.
        let tar = dir + "/archive.tar"
        #expect(try await HTTP.download(URL(string: "\(base)/export/archive")!, to: tar, headers: jar) == 200)
        let unpacked = dir + "/unpacked"
        let untar = try python([
            "-c", "import sys,tarfile;tarfile.open(sys.argv[1]).extractall(sys.argv[2])", tar, unpacked,
        ])
        #expect(untar.status == 0, "\(untar.stderr)")
        let folders = try FileManager.default.contentsOfDirectory(atPath: unpacked)
        #expect(folders.count == 1 && folders[0].hasPrefix("trailbook-ana-"), "\(folders)")
        let restored = dir + "/restored.sqlite"
        let copied = try await run(["store", "copy", "\(unpacked)/\(folders.first ?? "")/trailbook.sqlite", restored])
        #expect(copied.status == 0, "\(copied.stderr)")
        func exported(_ store: String) async throws -> String {
            let out = try await run([
                "export", "--user", "ana", "--store", store, "--from", "2026-06-14", "--to", "2026-06-14", "--format",
                "gpx", "--time-zone", "Europe/Zurich",
            ])
            // The photos' links name each store's own photo folder.
            return out.stdout.replacingOccurrences(
                of: #"href="[^"]*-media/"#, with: #"href="MEDIA/"#, options: .regularExpression)
        }
        let original = try await exported(store)
        #expect(original.contains("<trkpt ") && original.contains("MEDIA/"), "\(original.prefix(800))")
        #expect(try await exported(restored) == original, "the restored account exports as the original does")
        // The tar as downloaded: store copy unpacks it itself (photos too); import reads its rides
        // and records into another store's account, as written; the unpacked folder goes again.
        let direct = dir + "/direct.sqlite"
        let copiedTar = try await run(["store", "copy", tar, direct])
        #expect(copiedTar.status == 0, "\(copiedTar.stderr)")
        #expect(try await exported(direct) == original, "the archive as downloaded copies back whole")
        let into = dir + "/into.sqlite"
        let read = try await run(["import", "--store", into, "--time-zone", "Europe/Zurich", tar])
        #expect(read.status == 0 && read.stdout.hasPrefix("\(tar): 1762 fixes read"), "\(read.stdout)")
        #expect(try await run(["rides", "--store", into, "--json"]).stdout.contains(#""points" : 1762"#))
        #expect(try await run(["records", "--store", into, "--json"]).stdout.contains("Swans"))
        // Its photo and the day's summary come too, into the account's diary.
        #expect(
            read.stdout.contains("The archive's diary: 1 photo attached, 1 day summary written"), "\(read.stdout)")
        let intoDay = try await run(["day", "2026-06-14", "--store", into, "--json", "--time-zone", "Europe/Zurich"])
        let intoDocument = try JSONSerialization.jsonObject(with: Data(intoDay.stdout.utf8)) as? [String: Any]
        #expect(intoDocument?["summary"] as? String == "Lake loop <fast>", "\(intoDay.stdout.prefix(300))")
        let intoExport = try await run([
            "export", "--store", into, "--from", "2026-06-14", "--to", "2026-06-14", "--format", "gpx", "--time-zone",
            "Europe/Zurich",
        ]).stdout
        #expect(intoExport.contains("-media/") && intoExport.contains(".jpg"), "\(intoExport.prefix(1500))")
        // Imported again, nothing is attached or written twice.
        let twice = try await run(["import", "--store", into, "--json", "--reimport", tar])
        #expect(
            twice.stdout.contains(#""photos" : 0"#) && twice.stdout.contains(#""day_summaries" : 0"#), "\(twice.stdout)")
        let leftBehind = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
        #expect(!leftBehind.contains { $0.hasPrefix("trailbook-") && $0.count == "trailbook-".count + 36 })
        let bensArchive = dir + "/bens.tar"
        #expect(
            try await HTTP.download(
                URL(string: "\(base)/export/archive")!, to: bensArchive, headers: ["Cookie": "trailbook_session=\(ben)"]
            )
                == 200)
        let names = try python(
            ["-c", "import sys,tarfile;print(*tarfile.open(sys.argv[1]).getnames())", bensArchive]
        ).stdout
        #expect(names.contains("trailbook-ben-") && !names.contains(".jpg"), "Ben's archive has none of Ana's photos")

        let bensExport = try await HTTP.exchange(
            URL(string: "\(base)/export?from=2026-06-14&to=2026-06-14&format=gpx")!,
            headers: ["Cookie": "trailbook_session=\(ben)"])
        #expect(bensExport.status == 404 && bensExport.body.contains("No rides stored on"), "\(bensExport.body)")
        let badFormat = try await HTTP.exchange(
            URL(string: "\(base)/export?from=2026-06-14&to=2026-06-14&format=shp")!, headers: jar)
        #expect(badFormat.status == 400 && badFormat.body.contains("Export as gpx, geojson or kml."))

        // Deleting the record: a page says what goes; the form removes it; Ben cannot even ask.
        let deleteURL = URL(string: "\(base)/records/\(id)/delete")!
        let question = try await HTTP.request(deleteURL, headers: jar)
        #expect(question.1.contains("record \(id), marked at") && question.1.contains("with 2 notes, 1 photo"))
        #expect(try await HTTP.request(deleteURL, headers: ["Cookie": "trailbook_session=\(ben)"]).0 == 404)
        #expect(try await HTTP.request(deleteURL, method: "POST", body: form([:]), headers: formHeaders).0 == 403)
        let deleted = try await HTTP.exchange(
            deleteURL, method: "POST", body: form(["csrf": csrfToken]), headers: formHeaders)
        #expect(deleted.headers.contains { $0.lowercased() == "location: /day/2026-06-14?saved=deleted" })
        let left = try await run(["records", "--user", "ana", "--store", store, "--json"])
        #expect(!left.stdout.contains("Swans"), "\(left.stdout)")
    }

    /// The day page in Chromium at a phone's and a desktop's width: it fits, its tiles load from
    /// the server, and tapping the map fills the form that adds a record there.
    @Test func theDayPageFitsDrawsTilesAndMarksWhereTapped() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana"], store: store)
        #expect(try await run(["import", "--store", store, "--user", "ana", "Samples/ride.nmea"]).status == 0)
        let mbtiles = dir + "/town.mbtiles"
        try TileServer.makeMBTiles(mbtiles, tiles: Self.rideTiles())
        let config = dir + "/config.toml"
        try "[time]\nzone = \"Europe/Zurich\"\n[maps]\ntiles = \"mbtiles:\(mbtiles)\"\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        let session = try await signIn(base, as: "ana")
        for width in [390, 1280] {
            let png = dir + "/day-\(width).png"
            let lines = try browse(
                "\(base)/day/2026-06-14", session: session, width: width,
                [
                    "wait:document.readyState === 'complete'",
                    ##"wait:performance.getEntriesByType('resource').filter(e=>e.name.includes('/tiles/')).length >= 4"##,
                    ##"wait:Array.from(document.querySelectorAll('#map g.tiles[data-level="0"] image')).length >= 4"##,
                    "eval:document.documentElement.scrollWidth - document.documentElement.clientWidth",
                    // A tap in the middle of the map: the form shows, with the place and a time.
                    ##"eval:(()=>{const m=document.getElementById('map'),b=m.getBoundingClientRect(),x=b.left+b.width/2,y=b.top+b.height/2;m.dispatchEvent(new PointerEvent('pointerdown',{clientX:x,clientY:y,pointerId:1,bubbles:true}));m.dispatchEvent(new PointerEvent('pointerup',{clientX:x,clientY:y,pointerId:1,bubbles:true}));const f=document.getElementById('mark');return [f.hidden,+f.elements.lat.value,+f.elements.lon.value,f.elements.time.value]})()"##,
                    "shot:\(png)",
                    ##"eval:(()=>{const f=document.getElementById('mark');f.elements.note.value='tapped';f.submit();return 1})()"##,
                    ##"wait:location.search === '?saved=record' && document.getElementById('message') !== null"##,
                    ##"eval:document.getElementById('message').textContent"##,
                ])
            #expect(lines.count == 4, "\(lines)")
            guard lines.count == 4 else { continue }
            #expect(lines[0] as? Int == 0, "the page fits \(width) px (no sideways scroll): \(lines[0])")
            let form = lines[1] as? [Any] ?? []
            #expect(form.count == 4 && form[0] as? Bool == false, "\(form)")
            // The middle of the map is inside the ride's box (the map fits the ride).
            let (lat, lon) = (
                form.count == 4 ? form[1] as? Double ?? 0 : 0, form.count == 4 ? form[2] as? Double ?? 0 : 0
            )
            #expect((47.36...47.39).contains(lat) && (8.51...8.57).contains(lon), "\(form)")
            #expect(lines[3] as? String == "The record is added.", "\(lines[3])")
            // The test tiles' colour shows under the ride.
            let green = try pixels(near: 0x2e8b57, within: 30, in: png)
            #expect(green > 20000, "tiles at \(width) px: \(green) pixels")
        }
        let records = try await run(["records", "--user", "ana", "--store", store, "--json"])
        #expect(records.stdout.components(separatedBy: "tapped").count - 1 == 2, "\(records.stdout)")

        // A reader who prefers dark gets the dark pages: the day's and the server's own.
        let background = "eval:[document.body.className, getComputedStyle(document.body).backgroundColor]"
        let dayDark = try browse(
            "\(base)/day/2026-06-14", session: session, width: 390, dark: true,
            ["wait:document.readyState === 'complete'", background, "shot:\(dir)/day-dark.png"])
        let dayLook = dayDark.first as? [String] ?? []
        #expect(
            dayLook.count == 2 && dayLook[0].split(separator: " ").contains("dark") && dayLook[1] == "rgb(21, 24, 28)",
            "\(dayDark)")
        let calendarDark = try browse(
            "\(base)/calendar?year=2026", session: session, width: 390, dark: true,
            ["wait:document.readyState === 'complete'", background])
        #expect(calendarDark.first as? [String] == ["", "rgb(21, 24, 28)"], "\(calendarDark)")
    }
}

extension WebPageTests {
    /// `/days`: the account's routes of a range on one map, each day linked to its page, in
    /// Chromium with its script from the server; a range longer than the limit is cut, and says so.
    @Test func theOverlayShowsTheRangeOfTheAccountsDays() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana"], store: store)
        let second = dir + "/monday.nmea"
        let simulated = try await run([
            "simulate", "--start", "2026-06-15T07:00:00", "--lat", "47.37", "--lon", "8.53", "--duration", "900",
            "--output", second,
        ])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        // Monday's first half now, the whole of it later (its ride then grows).
        let sentences = try String(contentsOfFile: second, encoding: .utf8).split(whereSeparator: \.isNewline)
        let epochs = sentences.indices.filter { sentences[$0].hasPrefix("$GPRMC") }
        let half = try #require(epochs.count > 450 ? epochs[450] : nil, "\(epochs.count) of \(sentences.count)")
        try (sentences[..<half].joined(separator: "\r\n") + "\r\n").write(
            toFile: dir + "/monday-half.nmea", atomically: true, encoding: .utf8)
        for file in ["Samples/ride.nmea", dir + "/monday-half.nmea"] {
            #expect(try await run(["import", "--store", store, "--user", "ana", file]).status == 0)
        }
        let server = try ServeCommandTests.RunningServer(store: store)
        defer { _ = server.stop() }
        let base = server.url!
        let session = try await signIn(base, as: "ana")
        let jar = ["Cookie": "trailbook_session=\(session)"]
        let page = try await HTTP.request(URL(string: "\(base)/days?from=2026-06-13&to=2026-06-16")!, headers: jar)
        #expect(page.0 == 200)
        #expect(page.1.contains("2026-06-13 to 2026-06-16: 2 days"), "\(page.1.prefix(2000))")
        #expect(page.1.contains(#"<a href="/day/2026-06-14">"#) && page.1.contains(#"<a href="/day/2026-06-15">"#))
        // Days written as the day pages write them.
        #expect(page.1.contains("Sun 14 Jun 2026") && page.1.contains("Mon 15 Jun 2026"))
        #expect(page.1.contains(#"<script src="/days.js"></script>"#) && !page.1.contains("<script>"))
        let long = try await HTTP.request(URL(string: "\(base)/days?from=2025-01-01&to=2026-06-16")!, headers: jar)
        #expect(long.1.contains("At most 366 days go on one map"), "\(long.1.prefix(1500))")
        // Each ride is worked out once and kept; a ride that grows is worked out again.
        func monday(_ html: String) -> String? {
            html.components(separatedBy: #"data-day="2026-06-15""#).dropFirst().first?
                .components(separatedBy: #"<td class="nowrap">"#).dropFirst().first?.components(separatedBy: "<").first
        }
        let before = try #require(monday(page.1), "\(page.1.suffix(2000))")
        #expect(try await run(["import", "--store", store, "--user", "ana", second]).status == 0)
        let rides = try await run(["rides", "--store", store, "--user", "ana", "--day", "2026-06-15"]).stdout
        #expect(rides.hasPrefix("ride 2 ") && rides.contains("900 points"), "one ride, grown: \(rides)")
        let grown = try await HTTP.request(URL(string: "\(base)/days?from=2026-06-13&to=2026-06-16")!, headers: jar)
        let after = try #require(monday(grown.1))
        #expect(after != before, "Monday's distance \(before) grew with the ride: \(after)")
        let empty = try await HTTP.request(URL(string: "\(base)/days?from=2020-01-01&to=2020-01-07")!, headers: jar)
        #expect(empty.0 == 200 && empty.1.contains("Nothing recorded from 2020-01-01 to 2020-01-07"))

        // In Chromium: both routes drawn; picking the second day's row highlights it.
        let lines = try browse(
            "\(base)/days?from=2026-06-13&to=2026-06-16", session: session, width: 390,
            [
                "wait:document.readyState === 'complete'",
                "eval:document.querySelectorAll('#map g.day').length",
                ##"eval:(()=>{document.querySelector('tr.pick[data-day="2026-06-15"] td').click();return 1})()"##,
                "wait:document.getElementById('day-2026-06-15').classList.contains('on')",
                ##"eval:[location.hash,document.getElementById('day-2026-06-14').classList.contains('on'),document.getElementById('map').classList.contains('dim')]"##,
                "eval:document.documentElement.scrollWidth - document.documentElement.clientWidth",
                "shot:\(dir)/days.png",
            ])
        #expect(lines.count == 4, "\(lines)")
        guard lines.count == 4 else { return }
        #expect(lines[0] as? Int == 2)
        let picked = lines[2] as? [Any] ?? []
        #expect(
            picked.count == 3 && picked[0] as? String == "#2026-06-15" && picked[1] as? Bool == false
                && picked[2] as? Bool == true, "the picked day alone is highlighted: \(picked)")
        #expect(lines[3] as? Int == 0, "no sideways scroll at 390 px")
    }
}

extension WebPageTests {
    /// The home page is the account's own map first: today's track (simplified) and where each of
    /// its devices is, with the real age, then the friends; links to the day, the days and the
    /// calendar.
    @Test func theHomePageDrawsTodaysTrackAndTheAccountsDevices() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana"], store: store)
        let added = try await run(["device", "add", "phone", "--user", "ana", "--store", store, "--json"])
        let token = try #require(
            (try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: String])?["token"])
        // The server's zone is one where it is about noon now, so the last minute is all today.
        let now = Int(Date().timeIntervalSince1970)
        let offset = 12 - now % 86_400 / 3600
        let zone = offset == 0 ? "UTC" : offset > 0 ? "Etc/GMT-\(offset)" : "Etc/GMT+\(-offset)"
        let config = dir + "/config.toml"
        try "[time]\nzone = \"\(zone)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        // A walk along a straight street (so most of its points simplify away), then a turn:
        // 40 points over the last 40 minutes, one a minute as a phone app posts them (each its
        // own segment for the collection rules: the line is drawn all the same).
        for i in 0..<40 {
            let (lat, lon) =
                i < 30 ? (47.3700, 8.5400 + Double(i) * 0.0002) : (47.3700 + Double(i - 29) * 0.0002, 8.5458)
            let url = "\(base)/osmand?id=\(token)&lat=\(lat)&lon=\(lon)&speed=1&timestamp=\(now - 2400 + i * 60)"
            #expect(try await HTTP.request(URL(string: url)!).0 == 200)
        }
        let session = try await signIn(base, as: "ana")
        let home = try await HTTP.request(base, headers: ["Cookie": "trailbook_session=\(session)"])
        #expect(home.1.contains("Your track today: 40 points"), "\(home.1.prefix(3000))")
        #expect(home.1.contains(#"href="/days""#) && home.1.contains(#"href="/calendar""#))
        let lines = try browse(
            base.absoluteString + "/", session: session, width: 390,
            [
                "wait:document.querySelectorAll('#map path.track').length == 1",
                "eval:document.querySelector('#map path.track').getAttribute('d').split('L').length",
                "eval:document.querySelector('#friends tbody tr.self').innerText",
                "eval:Array.from(document.querySelectorAll('#map text')).map(t=>t.textContent)",
                "eval:document.documentElement.scrollWidth - document.documentElement.clientWidth",
                "eval:document.querySelector('.scroll').scrollWidth - document.querySelector('.scroll').clientWidth",
                "shot:\(dir)/home.png",
            ])
        #expect(lines.count == 5, "\(lines)")
        guard lines.count == 5 else { return }
        #expect(lines[4] as? Int == 0, "the table does not scroll sideways at 390 px either")
        // The straight street is its two ends: a handful of the 40 points reach the browser.
        let drawn = lines[0] as? Int ?? 0
        #expect((3...8).contains(drawn), "points drawn: \(drawn)")
        let row = lines[1] as? String ?? ""
        #expect(
            row.hasPrefix("you\tphone\t") && row.range(of: #"\t\d+ (s|min) ago"#, options: .regularExpression) != nil,
            "the real age (seconds, or minutes on a slow machine): \(row)")
        #expect(lines[2] as? [String] == ["you · phone"], "\(lines[2])")
        #expect(lines[3] as? Int == 0, "no sideways scroll at 390 px")
    }
}

extension WebPageTests {
    /// `/import` in Chromium: the sample ride chosen in the page goes up with its progress, the
    /// page shows what the import did, and the ride is on the account's day; the same file again
    /// is skipped; too large a file is refused before it is read; a file that is no track says why.
    @Test func anUploadThroughTheImportPageLandsOnTheDay() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana", "ben"], store: store)
        let server = try ServeCommandTests.RunningServer(store: store)
        defer { _ = server.stop() }
        let base = server.url!
        let session = try await signIn(base, as: "ana")
        let ride = Samples.directory.appendingPathComponent("ride.nmea").path
        let summary = "Array.from(document.querySelectorAll('#summary tr')).map(r=>r.innerText)"
        let lines = try browse(
            "\(base)/import", session: session, width: 390,
            [
                "wait:document.readyState === 'complete'", "file:#file=\(ride)",
                "eval:document.getElementById('send').click() || 1",
                "wait:!document.getElementById('summary').hidden", "eval:" + summary,
                "eval:document.getElementById('status').textContent", "shot:\(dir)/import.png",
                "eval:Array.from(document.querySelectorAll('#days a')).map(a=>a.getAttribute('href'))",
                "eval:document.querySelector('main, body').innerText.includes('FIT and TCX')",
                // The same file again: skipped, and said so.
                "eval:document.getElementById('send').click() || 1",
                "wait:document.getElementById('status').textContent.includes('imported before')",
                "eval:document.getElementById('status').textContent",
                "eval:document.documentElement.scrollWidth - document.documentElement.clientWidth",
            ])
        #expect(lines.count == 8, "\(lines)")
        guard lines.count == 8 else { return }
        // The days it filled are linked; the page names the formats it takes.
        let links = lines[3] as? [String] ?? []
        #expect(links == ["/day/2026-06-14"], "\(lines[3])")
        #expect(lines[4] as? Bool == true)
        let rows = lines[1] as? [String] ?? []
        #expect(
            rows.contains("Fixes read\t1800") && rows.contains("Kept\t1762") && rows.contains("Stored\t1762")
                && rows.contains("Dropped: no fix\t38") && rows.contains("Rides\t1"), "\(rows)")
        #expect(lines[2] as? String == "ride.nmea is imported.")
        #expect(lines[6] as? String == "ride.nmea was imported before (1762 points); nothing changed.", "\(lines[6])")
        #expect(lines[7] as? Int == 0)
        // On Ana's day, not Ben's; her home page lists the import's device as imported, not live.
        let jar = ["Cookie": "trailbook_session=\(session)"]
        let homePage = try await HTTP.request(base, headers: jar).1
        #expect(homePage.contains("imported <span class=\"muted\">(imported, not live)</span>"), "\(homePage)")
        #expect(try await HTTP.request(URL(string: "\(base)/day/2026-06-14")!, headers: jar).1.contains("1 ride"))
        let bens = try await run(["rides", "--user", "ben", "--store", store, "--json"])
        #expect(!bens.stdout.contains("1762"), "\(bens.stdout)")

        // Refusals: too large before a byte is read; no CSRF token; a JPEG is no track.
        let home = try await HTTP.request(base, headers: jar)
        let token = try #require(csrf(in: home.1))
        let headers = jar.merging(["X-CSRF-Token": token]) { a, _ in a }
        let tooLarge = try await HTTP.exchange(
            URL(string: "\(base)/import?name=huge.nmea")!, method: "POST", body: Data("x".utf8),
            headers: headers.merging(["Content-Length": "\(300 << 20)"]) { a, _ in a })
        #expect(
            tooLarge.status == 413 && tooLarge.body.contains("at most 256 MiB"), "\(tooLarge.status) \(tooLarge.body)")
        let noToken = try await HTTP.request(
            URL(string: "\(base)/import?name=a.nmea")!, method: "POST", body: Data("$GPRMC".utf8), headers: jar)
        #expect(noToken.0 == 403)
        let photo = try Data(contentsOf: Samples.directory.appendingPathComponent("photos/lake.jpg"))
        let notATrack = try await HTTP.exchange(
            URL(string: "\(base)/import?name=../../lake.jpg")!, method: "POST", body: photo, headers: headers)
        #expect(
            notATrack.status == 422 && notATrack.body.contains("lake.jpg")
                && !notATrack.body.contains("trailbook-upload"),
            "\(notATrack.body)")

        // A Takeout zip: each history file in it imported, the rest passed over.
        let takeout = dir + "/Takeout"
        let points = GoogleImportTests.ride.map { p in
            [
                "latitudeE7": GoogleImportTests.e7(p.latitude), "longitudeE7": GoogleImportTests.e7(p.longitude),
                "timestamp": GoogleImportTests.iso(p.milliseconds + 86_400_000),
            ] as [String: Any]
        }
        for (folder, part) in [("a", points.prefix(900)), ("b", points.dropFirst(900))] {
            try FileManager.default.createDirectory(atPath: takeout + "/" + folder, withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: ["locations": Array(part)]).write(
                to: URL(fileURLWithPath: takeout + "/\(folder)/Records.json"))
        }
        try "<html></html>".write(toFile: takeout + "/archive_browser.html", atomically: true, encoding: .utf8)
        let zip = dir + "/takeout.zip"
        try GoogleImportTests().zip(takeout, into: zip)
        let uploaded = try await HTTP.exchange(
            URL(string: "\(base)/import?name=takeout-2026.zip")!, method: "POST",
            body: try Data(contentsOf: URL(fileURLWithPath: zip)), headers: headers)
        #expect(uploaded.status == 200, "\(uploaded.body)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(uploaded.body.utf8)) as? [String: Any])
        let files = try #require(answer["files"] as? [[String: Any]], "\(uploaded.body)")
        #expect(
            files.map { $0["file"] as? String } == [
                "takeout-2026.zip/Takeout/a/Records.json", "takeout-2026.zip/Takeout/b/Records.json",
            ])
        #expect(answer["stored"] as? Int == 1762 && answer["passed_over"] as? Int == 1, "\(uploaded.body)")
        #expect(answer["days"] as? [String] == ["2026-06-15"], "\(uploaded.body)")
        #expect(!uploaded.body.contains("trailbook-upload"))
    }
}

extension WebPageTests {
    /// A friend who shares their history ("my track of the last N hours") has it drawn on the
    /// viewer's map; one who shares only where they are has no line.
    @Test func aFriendsSharedHistoryIsDrawnOnTheMap() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana", "ben", "cleo"], store: store)
        var tokens: [String: String] = [:]
        for owner in ["ana", "cleo"] {
            let added = try await run(["device", "add", "phone", "--user", owner, "--store", store, "--json"])
            tokens[owner] = try #require(
                (try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: String])?["token"])
        }
        let server = try ServeCommandTests.RunningServer(store: store)
        defer { _ = server.stop() }
        let base = server.url!
        let now = Int(Date().timeIntervalSince1970)
        for (owner, lat) in [("ana", 47.37), ("cleo", 47.38)] {
            for i in 0..<20 {
                let url =
                    "\(base)/osmand?id=\(tokens[owner]!)&lat=\(lat + Double(i % 5) * 0.0004)&lon=\(8.54 + Double(i) * 0.0003)"
                    + "&timestamp=\(now - 600 + i * 20)"
                #expect(try await HTTP.request(URL(string: url)!).0 == 200)
            }
        }
        // Ana shares her last 2 hours with Ben; Cleo only where she is.
        for (owner, scopes) in [
            ("ana", #"{"scopes":["live","history"],"history_hours":2}"#), ("cleo", #"{"scopes":["live"]}"#),
        ] {
            let basic = ["Authorization": "Basic " + Data("\(owner):\(password)".utf8).base64EncodedString()]
            let made = try await HTTP.request(
                URL(string: "\(base)/api/share-codes")!, method: "POST", body: Data(scopes.utf8), headers: basic)
            let code = try #require(
                (try JSONSerialization.jsonObject(with: Data(made.1.utf8)) as? [String: Any])?["code"] as? String,
                "\(made.1)")
            let bens = ["Authorization": "Basic " + Data("ben:\(password)".utf8).base64EncodedString()]
            let redeemed = try await HTTP.request(
                URL(string: "\(base)/api/share-codes/redeem")!, method: "POST",
                body: Data(#"{"code":"\#(code)"}"#.utf8),
                headers: bens)
            #expect(redeemed.0 == 200)
        }
        let session = try await signIn(base, as: "ben")
        let lines = try browse(
            base.absoluteString + "/", session: session, width: 1280,
            [
                "wait:document.querySelectorAll('#map circle').length == 2",
                "eval:Array.from(document.querySelectorAll('#map path.shared')).map(p=>p.dataset.user)",
                "eval:document.querySelectorAll('#map path.track').length", "shot:\(dir)/shared.png",
            ])
        #expect(lines.count == 2, "\(lines)")
        guard lines.count == 2 else { return }
        #expect(lines[0] as? [String] == ["ana"], "only Ana shares her history: \(lines[0])")
        #expect(lines[1] as? Int == 0, "Ben recorded nothing today")

        // The friends page: what each shares, their devices named on the map, Ana's track; no sideways scroll.
        let page = try await HTTP.request(
            URL(string: "\(base)/friends")!, headers: ["Cookie": "trailbook_session=\(session)"])
        #expect(page.0 == 200 && page.1.contains("2 friends share with you."), "\(page.1)")
        #expect(
            page.1.contains(
                #"<tr data-user="ana"><td><strong>ana</strong></td><td>where they are, their track of the last 2 h</td>"#
            ))
        #expect(page.1.contains(#"<tr data-user="cleo"><td><strong>cleo</strong></td><td>where they are</td>"#))
        for width in [390, 1280] {
            let seen = try browse(
                base.absoluteString + "/friends", session: session, width: width,
                [
                    "wait:document.querySelectorAll('#map circle').length == 2",
                    "eval:[document.documentElement.scrollWidth, "
                        + "Array.from(document.querySelectorAll('#map path.shared')).map(p=>p.dataset.user).join(), "
                        + "Array.from(document.querySelectorAll('#map text')).map(t=>t.textContent).sort().join()]",
                    "shot:\(dir)/friends-\(width).png",
                ])
            let values = try #require(seen.first as? [Any])
            #expect((values[0] as? Int ?? .max) <= width, "at \(width) px: \(values)")
            #expect(values[1] as? String == "ana" && values[2] as? String == "ana · phone,cleo · phone", "\(values)")
        }
    }
}

extension WebPageTests {
    /// `/settings`: a device added in the browser comes with its token once and a QR code per app;
    /// the OwnTracks configuration link it encodes pairs the app (its settings post a point); a
    /// revoked device is refused; the password changes only with the current one.
    @Test func settingsPairAPhoneRevokeItAndChangeThePassword() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana"], store: store)
        let server = try ServeCommandTests.RunningServer(store: store)
        defer { _ = server.stop() }
        let base = server.url!
        let session = try await signIn(base, as: "ana")
        // Ana is signed in on another computer too.
        let elsewhere = try await signIn(base, as: "ana")
        let jar = ["Cookie": "trailbook_session=\(session)"]
        let formHeaders = jar.merging(["Content-Type": "application/x-www-form-urlencoded"]) { a, _ in a }
        let settings = try await HTTP.request(URL(string: "\(base)/settings")!, headers: jar)
        #expect(settings.0 == 200 && settings.1.contains(#"id="add-device""#))
        let token = try #require(csrf(in: settings.1))

        let paired = try await HTTP.request(
            URL(string: "\(base)/devices")!, method: "POST", body: form(["csrf": token, "name": "phone"]),
            headers: formHeaders)
        #expect(paired.0 == 200, "\(paired.1.prefix(500))")
        let page = paired.1
        let deviceToken = try #require(
            page.range(of: #"id="token">[a-z0-9]{52}<"#, options: .regularExpression).map {
                String(page[$0].dropFirst(#"id="token">"#.count).dropLast())
            }, "\(page.prefix(1500))")
        // Four QR codes, each a square of 21 + 4k modules and a quiet zone of 4.
        let sizes = page.components(separatedBy: #"class="qr" role="img""#).dropFirst().count
        #expect(sizes == 4)
        for box in page.components(separatedBy: #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 "#).dropFirst() {
            let side = Int(box.prefix { $0.isNumber }) ?? 0
            #expect(side - 8 >= 21 && (side - 8 - 21) % 4 == 0, "a QR code's side: \(side)")
        }
        // The OwnTracks link holds the configuration OwnTracks takes: HTTP mode to /pub, Basic ana:TOKEN.
        let link = try #require(
            page.range(of: #"owntracks:///config\?inline=[A-Za-z0-9+/=]+"#, options: .regularExpression).map {
                String(page[$0])
            })
        let inline = try #require(Data(base64Encoded: String(link.dropFirst("owntracks:///config?inline=".count))))
        let config = try #require(try JSONSerialization.jsonObject(with: inline) as? [String: Any])
        #expect(config["_type"] as? String == "configuration" && config["mode"] as? Int == 3)
        #expect(config["url"] as? String == "\(base)/pub" && config["username"] as? String == "ana")
        #expect(config["password"] as? String == deviceToken && config["deviceId"] as? String == "phone")
        // The code on the page, as a camera sees it (Chromium's screenshot, read by zbarimg), is that link.
        let saved = dir + "/paired.html"
        // Saved as it came, with the server as its base (for the stylesheet).
        try page.replacingOccurrences(of: "<head>", with: "<head><base href=\"\(base)/\">").write(
            toFile: saved, atomically: true, encoding: .utf8)
        let shot = dir + "/paired.png"
        _ = try browse("file://" + saved, session: nil, width: 1280, ["shot:\(shot)"])
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg") else {
            throw SupportError("zbarimg is missing: sudo apt-get install zbar-tools (make test does this).")
        }
        let scanned = Process()
        scanned.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        scanned.arguments = ["-q", "--raw", shot]
        let out = Pipe()
        scanned.standardOutput = out
        scanned.standardError = FileHandle.nullDevice
        try scanned.run()
        let codes = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        scanned.waitUntilExit()
        #expect(codes.split(separator: "\n").contains { $0 == link }, "what zbarimg read: \(codes)")
        // What OwnTracks then sends is taken.
        let basic = ["Authorization": "Basic " + Data("ana:\(deviceToken)".utf8).base64EncodedString()]
        let now = Int(Date().timeIntervalSince1970)
        let location = #"{"_type":"location","lat":47.37,"lon":8.54,"tst":\#(now),"acc":5}"#
        #expect(
            try await HTTP.request(
                URL(string: "\(base)/pub")!, method: "POST", body: Data(location.utf8),
                headers: basic.merging(["Content-Type": "application/json"]) { a, _ in a }
            ).0 == 200)

        // Revoked: the list says so and the token is refused.
        let revoked = try await HTTP.request(
            URL(string: "\(base)/devices/revoke")!, method: "POST", body: form(["csrf": token, "name": "phone"]),
            headers: formHeaders)
        #expect(revoked.1.contains("phone’s token is revoked"), "\(revoked.1.prefix(800))")
        #expect(
            try await HTTP.request(
                URL(string: "\(base)/pub")!, method: "POST", body: Data(location.utf8),
                headers: basic.merging(["Content-Type": "application/json"]) { a, _ in a }
            ).0 == 401)

        // The password: not without the current one, not with a repetition that differs, then changed.
        let newPassword = "another long enough passphrase"
        func change(_ current: String, _ again: String) async throws -> (Int, String) {
            try await HTTP.request(
                URL(string: "\(base)/password")!, method: "POST",
                body: form(["csrf": token, "current": current, "new": newPassword, "again": again]),
                headers: formHeaders)
        }
        let wrong = try await change("not it at all, not it", newPassword)
        #expect(wrong.0 == 401 && wrong.1.contains("The current password is wrong."))
        let differs = try await change(password, newPassword + "!")
        #expect(differs.0 == 422 && differs.1.contains("differ"))
        func settingsPage(_ session: String) async throws -> Int {
            try await HTTP.exchange(
                URL(string: "\(base)/settings")!, headers: ["Cookie": "trailbook_session=\(session)"]
            ).status
        }
        #expect(try await settingsPage(elsewhere) == 200)
        let changed = try await change(password, newPassword)
        #expect(changed.0 == 200 && changed.1.contains("The password is changed; 1 other session is signed out."))
        #expect(try await settingsPage(elsewhere) == 303, "the other computer is signed out")
        #expect(try await settingsPage(session) == 200, "this browser stays signed in")
        let check = try await run(["user", "list", "--store", store, "--json"])
        #expect(check.status == 0)
        let apiWithNew = try await HTTP.request(
            URL(string: "\(base)/api/friends")!,
            headers: ["Authorization": "Basic " + Data("ana:\(newPassword)".utf8).base64EncodedString()])
        #expect(apiWithNew.0 == 200, "the new password signs in")

        // Signing out of every session: this one too, its cookie cleared.
        let ended = try await HTTP.exchange(
            URL(string: "\(base)/sessions/end")!, method: "POST", body: form(["csrf": token]), headers: formHeaders)
        #expect(
            ended.status == 303
                && ended.headers.contains { $0.lowercased().hasPrefix("set-cookie: trailbook_session=;") })
        #expect(try await settingsPage(session) == 303, "signed out")
    }
}

extension WebPageTests {
    /// An account's own time zone and units (on `/settings`) write its day page, its overlay and
    /// its calendar; a name that is no time zone is refused, and nothing changes.
    @Test func anAccountsTimeZoneAndUnitsAreItsOwn() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana", "ben"], store: store)
        for user in ["ana", "ben"] {
            #expect(try await run(["import", "--store", store, "--user", user, "Samples/ride.nmea"]).status == 0)
        }
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--time-zone", "UTC"])
        defer { _ = server.stop() }
        let base = server.url!
        let session = try await signIn(base, as: "ana")
        let jar = ["Cookie": "trailbook_session=\(session)"]
        let formHeaders = jar.merging(["Content-Type": "application/x-www-form-urlencoded"]) { a, _ in a }
        // The server's zone: the ride of 06:30 UTC is on the 14th at 06:30, in kilometres.
        let before = try await HTTP.request(URL(string: "\(base)/day/2026-06-14")!, headers: jar)
        #expect(before.1.contains("06:30–06:59") && before.1.contains(" km<"), "\(before.1.prefix(3000))")
        let settings = try await HTTP.request(URL(string: "\(base)/settings")!, headers: jar)
        let token = try #require(csrf(in: settings.1))
        #expect(
            settings.1.contains(#"<option value="Asia/Tokyo">"#)
                && settings.1.contains("the time zone is the server’s ("))

        let refused = try await HTTP.request(
            URL(string: "\(base)/preferences")!, method: "POST",
            body: form(["csrf": token, "zone": "Mars/Olympus", "units": "imperial"]), headers: formHeaders)
        #expect(refused.0 == 422 && refused.1.contains("“Mars/Olympus” is no time zone"), "\(refused.1.prefix(500))")
        let saved = try await HTTP.request(
            URL(string: "\(base)/preferences")!, method: "POST",
            body: form(["csrf": token, "zone": "Asia/Tokyo", "units": "imperial"]), headers: formHeaders)
        #expect(saved.0 == 200 && saved.1.contains("Your time zone and units are saved."))
        #expect(saved.1.contains(#"name="zone" value="Asia/Tokyo""#) && saved.1.contains(#"value="imperial" selected"#))

        // Tokyo is UTC+9: the same ride at 15:30 the same day, in miles and feet.
        let after = try await HTTP.request(URL(string: "\(base)/day/2026-06-14")!, headers: jar)
        #expect(after.1.contains("15:30–15:59") && after.1.contains(" mi<"), "\(after.1.prefix(3000))")
        let overlay = try await HTTP.request(
            URL(string: "\(base)/days?from=2026-06-14&to=2026-06-14")!, headers: jar)
        #expect(overlay.1.contains(" mi<"), "\(overlay.1.prefix(2000))")
        // Ben's pages stay in the server's zone.
        let bens = try await signIn(base, as: "ben")
        let benDay = try await HTTP.request(
            URL(string: "\(base)/day/2026-06-14")!, headers: ["Cookie": "trailbook_session=\(bens)"])
        #expect(benDay.1.contains("06:30–06:59") && benDay.1.contains(" km<"))
    }
}
