import Foundation
import Testing
import TrailbookTestSupport

/// The server's web page: signing in with a cookie and CSRF tokens, the friends list and map as
/// headless Chromium shows them, updated live, and what a user typed shown as text.
@Suite struct WebPageTests {
    let password = "correct horse battery staple"

    /// Adds the accounts to `store`, each with ``password``.
    func addUsers(_ names: [String], store: String) async throws {
        for name in names {
            let added = try await run(
                ["user", "add", name, "--password-stdin", "--store", store], input: Data(password.utf8))
            guard added.status == 0 else { throw SupportError("user add \(name): \(added.stderr)") }
        }
    }

    /// `name=value` of a `Set-Cookie` header line for `name`, and the whole line.
    func cookie(_ name: String, in headers: [String]) -> (value: String, line: String)? {
        guard let line = headers.first(where: { $0.lowercased().hasPrefix("set-cookie: \(name)=") }) else { return nil }
        let value = line.dropFirst("set-cookie: \(name)=".count).prefix { $0 != ";" }
        return (String(value), line)
    }

    func csrf(in html: String) -> String? {
        guard let r = html.range(of: #"name="csrf" value="[^"]+""#, options: .regularExpression) else { return nil }
        return String(html[r].dropFirst(#"name="csrf" value=""#.count).dropLast())
    }

    func form(_ fields: [String: String]) -> Data {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return Data(
            fields.sorted { $0.key < $1.key }.map {
                "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed)!)"
            }.joined(separator: "&").utf8)
    }

    /// python3 with `arguments`: exit status, standard output, standard error.
    func python(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = arguments
        let out = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("py-\(UUID().uuidString)").path
        FileManager.default.createFile(atPath: errors, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: errors) }
        p.standardOutput = out
        p.standardError = FileHandle(forWritingAtPath: errors)
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationStatus, text, (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
    }

    /// The pixels of the screenshot `png` within `distance` (the sum of the channels' differences)
    /// of the colour `rgb` (0xRRGGBB), counted by Pillow.
    func pixels(near rgb: Int, within distance: Int, in png: String) throws -> Int {
        let (r, g, b) = (rgb >> 16 & 0xff, rgb >> 8 & 0xff, rgb & 0xff)
        let counted = try python(
            [
                "-c",
                "import sys;from PIL import Image;im=Image.open(sys.argv[1]).convert('RGB');"
                    + "print(sum(1 for p in im.getdata() if abs(p[0]-\(r))+abs(p[1]-\(g))+abs(p[2]-\(b))<\(distance)))",
                png,
            ])
        guard counted.status == 0, let n = Int(counted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SupportError("Counting the pixels of \(png) failed: \(counted.stderr)")
        }
        return n
    }

    /// scripts/browse.py on `url`, signed in with `session` (nil: not signed in), at `width`: the value of each `eval:`
    /// step, parsed from JSON (NSNull where it is not); a step that fails throws with what it said.
    func browse(_ url: String, session: String?, width: Int, dark: Bool = false, _ steps: [String]) throws -> [Any] {
        let script = Samples.directory.deletingLastPathComponent().appendingPathComponent("scripts/browse.py").path
        let result = try python(
            [script, url, "--width", "\(width)"] + (session.map { ["--cookie", "trailbook_session=\($0)"] } ?? [])
                + (dark ? ["--dark"] : []) + steps)
        guard result.status == 0 else { throw SupportError("browse.py on \(url) at \(width) px: \(result.stderr)") }
        return result.stdout.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed)) ?? NSNull()
        }
    }

    /// `seconds` since 1970 as HH:MM in UTC (headless Chromium's zone here).
    static func clock(_ seconds: Int) -> String {
        String(format: "%02d:%02d", seconds % 86_400 / 3600, seconds % 3600 / 60)
    }

    /// Ana lets Ben see her live with her motion (a code she makes, he redeems), and Ben signs in
    /// to the page; returns his session cookie's value.
    func shareLiveAndSignIn(_ base: URL) async throws -> String {
        func basic(_ user: String) -> [String: String] {
            ["Authorization": "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()]
        }
        let made = try await HTTP.request(
            URL(string: "\(base)/api/share-codes")!, method: "POST", body: Data(#"{"scopes":["live","motion"]}"#.utf8),
            headers: basic("ana"))
        let code = try #require(
            (try JSONSerialization.jsonObject(with: Data(made.1.utf8)) as? [String: Any])?["code"] as? String)
        let redeemed = try await HTTP.request(
            URL(string: "\(base)/api/share-codes/redeem")!, method: "POST", body: Data(#"{"code":"\#(code)"}"#.utf8),
            headers: basic("ben"))
        #expect(redeemed.0 == 200)
        let loginPage = try await HTTP.exchange(base)
        let loginToken = try #require(cookie("trailbook_login", in: loginPage.headers)?.value)
        let signedIn = try await HTTP.exchange(
            URL(string: "\(base)/login")!, method: "POST",
            body: form(["csrf": loginToken, "user": "ben", "password": password]),
            headers: ["Cookie": "trailbook_login=\(loginToken)", "Content-Type": "application/x-www-form-urlencoded"])
        return try #require(cookie("trailbook_session", in: signedIn.headers)?.value)
    }

    @Test func signInSeeTheFriendLiveAndSignOut() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana", "ben"], store: store)
        let added = try await run(["device", "add", "phone", "--user", "ana", "--store", store, "--json"])
        let token = try #require(
            (try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: String])?["token"])
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--trust-proxy"])
        let base = server.url!
        let now = Int(Date().timeIntervalSince1970)
        let point = "\(base)/osmand?id=\(token)&lat=47.3769&speed=5&timestamp="
        #expect(try await HTTP.request(URL(string: point + "\(now - 5)&lon=8.5417")!).0 == 200)
        let basic = ["Authorization": "Basic " + Data("ana:\(password)".utf8).base64EncodedString()]
        let made = try await HTTP.request(
            URL(string: "\(base)/api/share-codes")!, method: "POST", body: Data(#"{"scopes":["live","motion"]}"#.utf8),
            headers: basic)
        let code = try #require(
            (try JSONSerialization.jsonObject(with: Data(made.1.utf8)) as? [String: Any])?["code"] as? String)

        // The login page sets a login token cookie and puts the same token in the form.
        let loginPage = try await HTTP.exchange(base)
        #expect(loginPage.status == 200 && loginPage.body.contains(#"action="/login""#))
        let loginToken = try #require(cookie("trailbook_login", in: loginPage.headers)?.value)
        #expect(csrf(in: loginPage.body) == loginToken)
        let loginURL = URL(string: "\(base)/login")!
        func signIn(_ fields: [String: String], cookie: String, headers: [String: String] = [:]) async throws -> (
            status: Int, headers: [String], body: String
        ) {
            try await HTTP.exchange(
                loginURL, method: "POST", body: form(fields),
                headers: headers.merging(
                    ["Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"],
                    uniquingKeysWith: { a, _ in a }))
        }
        let forged = try await signIn(
            ["csrf": "forged", "user": "ben", "password": password], cookie: "trailbook_login=\(loginToken)")
        #expect(forged.status == 403, "a login form without the cookie's token")
        let wrong = try await signIn(
            ["csrf": loginToken, "user": "ben", "password": "not the password at all"],
            cookie: "trailbook_login=\(loginToken)")
        #expect(wrong.status == 401 && wrong.body.contains("Wrong user name or password."))
        let signedIn = try await signIn(
            ["csrf": loginToken, "user": "ben", "password": password], cookie: "trailbook_login=\(loginToken)",
            headers: ["X-Forwarded-Proto": "https"])
        #expect(signedIn.status == 303)
        let session = try #require(cookie("trailbook_session", in: signedIn.headers))
        #expect(
            session.line.contains("HttpOnly") && session.line.contains("SameSite=Strict")
                && session.line.contains("Secure"), "behind a trusted TLS proxy: \(session.line)")
        let plain = try await signIn(
            ["csrf": loginToken, "user": "ben", "password": password], cookie: "trailbook_login=\(loginToken)")
        #expect(cookie("trailbook_session", in: plain.headers)?.line.contains("Secure") == false, "plain HTTP")
        let jar = ["Cookie": "trailbook_session=\(session.value)"]

        // Signed in: the home page, with the session's CSRF token in its forms.
        let home = try await HTTP.request(base, headers: jar)
        #expect(home.1.contains(#"<strong id="me">ben</strong>"#), "\(home.1.prefix(400))")
        let token2 = try #require(csrf(in: home.1))
        // Redeeming Ana's code through the page's form.
        let formHeaders = jar.merging(["Content-Type": "application/x-www-form-urlencoded"]) { a, _ in a }
        #expect(
            try await HTTP.request(
                URL(string: "\(base)/redeem")!, method: "POST", body: form(["code": code]), headers: formHeaders
            ).0 == 403, "a form without the CSRF token")
        let redeemed = try await HTTP.request(
            URL(string: "\(base)/redeem")!, method: "POST", body: form(["csrf": token2, "code": code]),
            headers: formHeaders)
        #expect(redeemed.0 == 200 && redeemed.1.contains("You now see ana."), "\(redeemed.1.prefix(300))")
        // A code made on the page says until when in local time, as every time for people.
        let own = try await HTTP.request(
            URL(string: "\(base)/codes")!, method: "POST", body: form(["csrf": token2, "motion": "on"]),
            headers: formHeaders)
        #expect(
            own.0 == 200
                && own.1.range(
                    of: #"it works once, until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d (UTC|[+-]\d\d:\d\d)"#,
                    options: .regularExpression)
                    != nil,
            "\(own.1.prefix(2000))")
        // What a user typed comes back as text.
        let typed = try await HTTP.request(
            URL(string: "\(base)/revoke")!, method: "POST",
            body: form(["csrf": token2, "viewer": "<script>alert(1)</script>"]), headers: formHeaders)
        #expect(typed.1.contains("&lt;script&gt;alert(1)&lt;/script&gt;") && !typed.1.contains("<script>alert"))
        // The JSON API takes the cookie; a change through it needs the CSRF token in a header.
        #expect(try await HTTP.request(URL(string: "\(base)/api/friends")!, headers: jar).1.contains(#""user":"ana""#))
        let codes = URL(string: "\(base)/api/share-codes")!
        #expect(try await HTTP.request(codes, method: "POST", body: Data("{}".utf8), headers: jar).0 == 403)
        #expect(
            try await HTTP.request(
                codes, method: "POST", body: Data("{}".utf8),
                headers: jar.merging(["X-CSRF-Token": token2]) { a, _ in a }
            ).0 == 201)

        // Chromium shows Ana in the list and on the map, then follows her next point live.
        let script = Samples.directory.deletingLastPathComponent().appendingPathComponent("scripts/browse.py").path
        let png = dir + "/home.png"
        let browse = try python(
            [
                script, base.absoluteString + "/", "--cookie", "trailbook_session=\(session.value)", "--width", "390",
                ##"wait:document.querySelectorAll("#map circle").length == 1"##,
                ##"eval:document.querySelector("#friends tbody tr").dataset.lon"##,
                "run:curl -s -o /dev/null '\(point)\(now)&lon=8.5431'",
                ##"wait:document.querySelector("#friends tbody tr").dataset.lon == "8.5431""##,
                ##"eval:document.querySelector("#friends tbody").innerText"##,
                "eval:document.documentElement.scrollWidth - document.documentElement.clientWidth", "shot:\(png)",
            ])
        #expect(browse.status == 0, "\(browse.stderr)")
        let lines = browse.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3 && lines[0] == #""8.5417""#, "\(lines)")
        #expect(
            lines.count == 3 && lines[1].contains(#"ana\tphone\t"#) && lines[1].contains(#" ago\tmoving"#), "\(lines)"
        )
        #expect(lines.count == 3 && lines[2] == "0", "the page fits a phone's width (no sideways scroll): \(lines)")
        let blue = try pixels(near: 0x1f6feb, within: 40, in: png)
        #expect(blue > 50, "the dot: \(blue) pixels")

        // Removing the account ends its sessions too (another process: the store says so).
        let other = try await signIn(
            ["csrf": loginToken, "user": "ana", "password": password], cookie: "trailbook_login=\(loginToken)")
        let anas = [
            "Cookie": "trailbook_session=\(try #require(cookie("trailbook_session", in: other.headers)?.value))"
        ]
        #expect(try await HTTP.request(URL(string: "\(base)/api/grants")!, headers: anas).0 == 200)
        #expect(try await run(["user", "rm", "ana", "--yes", "--store", store]).status == 0)
        #expect(try await HTTP.request(URL(string: "\(base)/api/grants")!, headers: anas).0 == 401)

        // Signing out ends the session: the cookie no longer signs in.
        let out = try await HTTP.exchange(
            URL(string: "\(base)/logout")!, method: "POST", body: form(["csrf": token2]), headers: formHeaders)
        #expect(out.status == 303 && cookie("trailbook_session", in: out.headers)?.value == "")
        #expect(try await HTTP.request(base, headers: jar).1.contains(#"action="/login""#))
        #expect(try await HTTP.request(URL(string: "\(base)/api/friends")!, headers: jar).0 == 401)
        #expect(server.stop().0 == 0)
    }

    @Test func theLiveMapGetsItsTilesFromTheServerOnly() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana"], store: store)
        let mbtiles = dir + "/town.mbtiles"
        try TileServer.makeMBTiles(mbtiles, tiles: ["15/17158/11473", "15/17159/11473"])
        let config = dir + "/config.toml"
        try "[maps]\ntiles = \"mbtiles:\(mbtiles)\"\nattribution = \"© Test <Tiles>\"\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        let tile = URL(string: "\(base)/tiles/15/17158/11473")!
        #expect(try await HTTP.request(tile).0 == 401, "tiles are for signed-in pages")
        let loginPage = try await HTTP.exchange(base)
        let loginToken = try #require(cookie("trailbook_login", in: loginPage.headers)?.value)
        let signedIn = try await HTTP.exchange(
            URL(string: "\(base)/login")!, method: "POST",
            body: form(["csrf": loginToken, "user": "ana", "password": password]),
            headers: ["Cookie": "trailbook_login=\(loginToken)", "Content-Type": "application/x-www-form-urlencoded"])
        let session = try #require(cookie("trailbook_session", in: signedIn.headers)?.value)
        let jar = ["Cookie": "trailbook_session=\(session)"]
        let home = try await HTTP.request(base, headers: jar)
        #expect(home.1.contains(#"data-tiles="/tiles/""#) && home.1.contains("© Test &lt;Tiles&gt;"), "\(home.1)")
        let got = try await HTTP.exchange(tile, headers: jar)
        #expect(got.status == 200 && got.headers.contains { $0.lowercased().hasPrefix("content-type: image/png") })
        // A tile the file lacks at its zoom and the six above is a square that says so (not cached).
        let lacking = try await HTTP.exchange(URL(string: "\(base)/tiles/15/1/1")!, headers: jar)
        #expect(
            lacking.status == 200 && lacking.body.contains("no map here")
                && lacking.headers.contains { $0.lowercased() == "x-trailbook-tile: missing" }
                && lacking.headers.contains { $0.lowercased() == "content-type: image/svg+xml" }, "\(lacking.headers)")
        #expect(try await HTTP.request(URL(string: "\(base)/tiles/3/8/0")!, headers: jar).0 == 404, "not a tile")
        // A zoom the file lacks is the nearest lower one enlarged: the part of the tile above that
        // covers this one, never a hole (16/34316/22946 is the top-left quarter of 15/17158/11473;
        // 17/68633/45893 the second sixteenth along and down).
        for (path, box, levels) in [
            ("16/34316/22946", #"viewBox="0.0 0.0 128.0 128.0""#, "1 zoom level"),
            ("17/68633/45893", #"viewBox="64.0 64.0 64.0 64.0""#, "2 zoom levels"),
        ] {
            let scaled = try await HTTP.exchange(URL(string: "\(base)/tiles/\(path)")!, headers: jar)
            #expect(
                scaled.status == 200 && scaled.body.contains(box)
                    && scaled.body.contains("data:image/png;base64,")
                    && scaled.headers.contains { $0.lowercased() == "x-trailbook-tile: scaled from \(levels) up" },
                "\(path): \(scaled.headers) \(scaled.body.prefix(300))")
        }
    }

    /// A tile server that stops at zoom 15: a deeper tile is asked of it once, then drawn from the
    /// tile above it that the server's cache holds (never from the server again, zoom by zoom).
    @Test func aTileServersMissingZoomIsDrawnFromItsCache() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana"], store: store)
        let tiles = try TileServer(directory: dir)
        tiles.deepest = 15
        try tiles.start()
        defer { tiles.stop() }
        let config = dir + "/config.toml"
        try "[maps]\ntiles = \"\(tiles.template)\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let jar = ["Cookie": "trailbook_session=\(try await signIn(server.url!, as: "ana"))"]
        let top = try await HTTP.exchange(URL(string: "\(server.url!)/tiles/15/17158/11473")!, headers: jar)
        #expect(top.status == 200 && top.headers.contains { $0.lowercased().hasPrefix("content-type: image/png") })
        let deeper = try await HTTP.exchange(URL(string: "\(server.url!)/tiles/17/68633/45893")!, headers: jar)
        #expect(
            deeper.status == 200 && deeper.body.contains(#"viewBox="64.0 64.0 64.0 64.0""#)
                && deeper.headers.contains { $0.lowercased() == "x-trailbook-tile: scaled from 2 zoom levels up" },
            "\(deeper.headers)")
        let asked = tiles.requests().map(\.path)
        #expect(asked == ["/15/17158/11473.png", "/17/68633/45893.png"], "\(asked)")
    }

    /// Without a base map in the config the pages have OpenStreetMap's, through this server and
    /// credited; `maps.tiles = "none"` leaves the plain map. (No tile is asked for: OpenStreetMap
    /// is on the network.)
    @Test func theBaseMapIsOpenStreetMapUnlessTheConfigSaysNone() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana"], store: store)
        let none = dir + "/none.toml"
        try "[maps]\ntiles = \"none\"\n".write(toFile: none, atomically: true, encoding: .utf8)
        for (arguments, credited) in [([String](), true), (["--config", none], false)] {
            let server = try ServeCommandTests.RunningServer(store: store, arguments: arguments, offline: false)
            defer { _ = server.stop() }
            let session = try await signIn(server.url!, as: "ana")
            let home = try await HTTP.request(server.url!, headers: ["Cookie": "trailbook_session=\(session)"])
            #expect(home.0 == 200)
            #expect(home.1.contains(#"data-tiles="/tiles/""#) == credited, "\(arguments): \(home.1)")
            #expect(home.1.contains("© OpenStreetMap contributors") == credited, "\(arguments)")
        }
    }

    /// The live map pans and zooms: it fits (and follows) the friends until the reader zooms; a
    /// new position then moves the dot, not the view; the tiles of the new zoom come from the
    /// server; pointing at a dot says who and when; ⤢ fits and follows again.
    @Test func theLiveMapZoomsStopsFollowingAndTellsWhoIsThere() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana", "ben"], store: store)
        let added = try await run(["device", "add", "phone", "--user", "ana", "--store", store, "--json"])
        let token = try #require(
            (try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: String])?["token"])
        // Tiles of zoom 15 to 17 around the friend, in an MBTiles file the server answers from.
        func tile(_ z: Int, _ lat: Double, _ lon: Double) -> (x: Int, y: Int) {
            let n = Double(1 << z)
            let r = lat * .pi / 180
            return (Int((lon + 180) / 360 * n), Int((1 - log(tan(r) + 1 / cos(r)) / .pi) / 2 * n))
        }
        var keys: [String] = []
        for z in 15...17 {
            let t = tile(z, 47.3769, 8.5417)
            for dx in -3...3 { for dy in -2...2 { keys.append("\(z)/\(t.x + dx)/\(t.y + dy)") } }
        }
        let mbtiles = dir + "/town.mbtiles"
        try TileServer.makeMBTiles(mbtiles, tiles: keys)
        let config = dir + "/config.toml"
        try "[maps]\ntiles = \"mbtiles:\(mbtiles)\"\n[events]\nmoving_within = 86400\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        let now = Int(Date().timeIntervalSince1970)
        let point = "\(base)/osmand?id=\(token)&lat=47.3769&speed=5&timestamp="
        #expect(try await HTTP.request(URL(string: point + "\(now - 5)&lon=8.5417")!).0 == 200)
        let session = try await shareLiveAndSignIn(base)

        let script = Samples.directory.deletingLastPathComponent().appendingPathComponent("scripts/browse.py").path
        let state =
            ##"eval:(()=>{const m=document.getElementById('map');return [m.dataset.zoom,m.dataset.follow,m.querySelector('image.tile').getAttribute('href').split('/')[2]]})()"##
        let png = dir + "/zoomed.png"
        let browse = try python(
            [
                script, base.absoluteString + "/", "--cookie", "trailbook_session=\(session)", "--width", "390",
                ##"wait:document.querySelectorAll("#map circle").length == 1"##,
                state,
                // Four − keys: a quarter of the scale each, so one zoom level out; the reader has the map now.
                ##"eval:(()=>{const m=document.getElementById('map');for(let i=0;i<4;i++)m.dispatchEvent(new KeyboardEvent('keydown',{key:'-',bubbles:true}));return m.dataset.zoom})()"##,
                ##"wait:performance.getEntriesByType('resource').some(e=>e.name.includes('/tiles/16/'))"##,
                "run:curl -s -o /dev/null '\(point)\(now)&lon=8.5431'",
                ##"wait:document.querySelector("#friends tbody tr").dataset.lon == "8.5431""##,
                state,
                // Pointing at the dot shows who is there.
                ##"eval:(()=>{const m=document.getElementById('map'),d=m.querySelector('circle').getBoundingClientRect();m.dispatchEvent(new PointerEvent('pointermove',{clientX:d.left+d.width/2,clientY:d.top+d.height/2,bubbles:true,pointerType:'mouse'}));const t=document.getElementById('maptip');return [t.textContent,getComputedStyle(t).display]})()"##,
                "shot:\(png)",
                ##"eval:(()=>{document.querySelector('[data-map=fit]').click();const m=document.getElementById('map');return [m.dataset.zoom,m.dataset.follow]})()"##,
                "eval:document.documentElement.scrollWidth - document.documentElement.clientWidth",
            ])
        #expect(browse.status == 0, "\(browse.stderr)")
        let lines = browse.stdout.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed)) as Any
        }
        #expect(lines.count == 6, "\(browse.stdout)")
        guard lines.count == 6 else { return }
        // Following one friend: zoom 17's tiles; four steps out: 16, not following.
        #expect(lines[0] as? [String] == ["17", "true", "17"], "\(lines[0])")
        #expect(lines[1] as? String == "16", "\(lines[1])")
        // Ana moved: the dot moved, the view stayed where the reader put it.
        #expect(lines[2] as? [String] == ["16", "false", "16"], "\(lines[2])")
        // OsmAnd's speed is in knots: 5 kn is 9 km/h.
        let tip = (lines[3] as? [String]) ?? []
        #expect(
            tip.first?.hasPrefix("ana · phone · ") == true && tip.first?.hasSuffix(" · moving · 9 km/h") == true,
            "\(tip)")
        #expect(tip.last == "block", "\(tip)")
        #expect(lines[4] as? [String] == ["17", "true"], "fit follows again: \(lines[4])")
        #expect(lines[5] as? Int == 0, "the page fits a phone's width (no sideways scroll): \(lines[5])")
        // The server's tiles are drawn (the test tiles' colour fills the zoomed map).
        let green = try pixels(near: 0x2e8b57, within: 30, in: png)
        #expect(green > 20000, "tiles: \(green) pixels")
    }

    /// The live page tells the truth: the real age of each friend's newest fix, refreshed without
    /// a reload; "silent since" instead of "moving" once it is older than events.moving_within;
    /// grey once silent past events.offline_after; each of a person's devices named (issue 37).
    @Test func theLivePageTellsTheRealAgeAndWhichDevice() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana", "ben"], store: store)
        var tokens: [String: String] = [:]
        for device in ["phone", "bike"] {
            let added = try await run(["device", "add", device, "--user", "ana", "--store", store, "--json"])
            tokens[device] = try #require(
                (try JSONSerialization.jsonObject(with: Data(added.stdout.utf8)) as? [String: String])?["token"])
        }
        let config = dir + "/config.toml"
        // Ten minutes for motion, fifteen to go grey: the phone (half an hour silent) is past both, the
        // bike (posting now) within both however slow the machine is today.
        try "[events]\nmoving_within = 600\noffline_after = 900\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        let now = Int(Date().timeIntervalSince1970)
        // The phone's last point is half an hour old (it was moving then); the bike's is new.
        for (device, age, lon) in [("phone", 1800, 8.5417), ("bike", 0, 8.5450)] {
            let url = "\(base)/osmand?id=\(tokens[device]!)&lat=47.3769&lon=\(lon)&speed=5&timestamp=\(now - age)"
            #expect(try await HTTP.request(URL(string: url)!).0 == 200)
        }
        let session = try await shareLiveAndSignIn(base)

        let script = Samples.directory.deletingLastPathComponent().appendingPathComponent("scripts/browse.py").path
        let table =
            ##"eval:Array.from(document.querySelectorAll('#friends tbody tr')).map(r=>{const c=r.querySelectorAll('td');return [c[1].textContent,c[2].textContent,c[3].textContent,r.className]}).sort()"##
        let browse = try python(
            [
                script, base.absoluteString + "/", "--cookie", "trailbook_session=\(session)", "--width", "390",
                ##"wait:document.querySelectorAll("#map circle").length == 2"##,
                table,
                ##"eval:Array.from(document.querySelectorAll('#map text')).map(t=>t.textContent).sort()"##,
                ##"eval:Array.from(document.querySelectorAll('#map circle')).map(c=>c.getAttribute('fill')).sort()"##,
                // The bike posts now; then, with no reload, its age moves on by itself.
                "run:curl -s -o /dev/null \"\(base)/osmand?id=\(tokens["bike"]!)&lat=47.3769&lon=8.546&speed=5&timestamp=$(date +%s)\"",
                ##"wait:document.querySelector('#friends tr[data-device=bike]').dataset.lon == '8.546'"##,
                ##"eval:(window.first = document.querySelector('#friends tr[data-device=bike] td:nth-child(3)').textContent)"##,
                ##"wait:document.querySelector('#friends tr[data-device=bike] td:nth-child(3)').textContent != window.first"##,
                table, "shot:\(dir)/live.png",
            ])
        #expect(browse.status == 0, "\(browse.stderr)")
        let lines: [Any] = browse.stdout.split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed)) ?? NSNull()
        }
        #expect(lines.count == 5, "\(browse.stdout)")
        guard lines.count == 5 else { return }
        let before = lines[0] as? [[String]] ?? []
        #expect(before.count == 2, "\(before)")
        guard before.count == 2 else { return }
        // bike: seconds (a slow machine: minutes) old, moving; phone: half an hour, silent since its time, greyed.
        #expect(before[0][0] == "bike" && before[0][2] == "moving" && before[0][3] == "", "\(before)")
        #expect(
            before[0][1].range(of: #"^\d+ s ago$|^\d min ago$"#, options: .regularExpression) != nil,
            "the bike's real age: \(before)")
        let phoneMinutes = Int(before[1][1].split(separator: " ").first ?? "") ?? 0
        #expect(
            before[1][0] == "phone" && before[1][1].hasSuffix(" min ago") && (30...40).contains(phoneMinutes),
            "\(before)")
        // Its time of day, with its day when that was not today (a run just after midnight, UTC).
        var phoneClock = Self.clock(now - 1800)
        if (now - 1800) / 86_400 != Int(Date().timeIntervalSince1970) / 86_400 {
            let day = DateFormatter()
            (day.locale, day.timeZone, day.dateFormat) = (Locale(identifier: "en_US_POSIX"), .gmt, "EEE d MMM")
            phoneClock = day.string(from: Date(timeIntervalSince1970: Double(now - 1800))) + " " + phoneClock
        }
        #expect(
            before[1][2] == "silent since \(phoneClock)", "silent since its last fix (\(phoneClock) UTC): \(before)")
        #expect(before[1][3] == "offline", "\(before)")
        #expect(lines[1] as? [String] == ["ana · bike", "ana · phone"], "\(lines[1])")
        #expect(lines[2] as? [String] == ["#1f6feb", "#9a9a9a"], "the silent phone's dot is grey: \(lines[2])")
        let first = lines[3] as? String ?? ""
        #expect(first.range(of: #"^\d+ s ago$"#, options: .regularExpression) != nil, "just posted: \(first)")
        let after = lines[4] as? [[String]] ?? []
        #expect(
            after.first?[1] != first
                && after.first?[1].range(of: #"^([1-9]|[1-5]\d) s ago$"#, options: .regularExpression) != nil
                && after.first?[2] == "moving", "the age moved on by itself: \(first), then \(after)")
    }
}
