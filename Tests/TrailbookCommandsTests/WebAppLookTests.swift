import Foundation
import GPSCore
import Testing
import TrailbookTestSupport

/// Issue 62's "done when": the web app in headless Chromium at a phone's (390 × 844) and a
/// desktop's (1280 × 800) size, signed in, on a store with a Takeout's days and a phone's day:
/// the map first, the day as a panel of named stays and moves in time order that moves the map,
/// and every page in one visual system (no `nil` on it, nothing past the right edge, no browser
/// default link or button), with an icon, a manifest and a calendar that opens at the newest month.
extension WebPageTests {
    /// What the page shows that it should not: the words of a value left empty (`nil`, `null`,
    /// `undefined`, `NaN`), elements past the viewport's right edge (not inside something that
    /// scrolls or clips within it), and links or buttons as the browser draws them unstyled
    /// (Chromium's default link blue or underline, a button's square grey face).
    static let pageFaults = """
        eval:(()=>{const W=innerWidth,out={words:[],wide:[],plain:[]};\
        out.words=document.body.innerText.match(/\\b(nil|null|undefined|NaN)\\b/g)||[];\
        const clipped=e=>{for(let a=e.parentElement;a&&a!==document.body;a=a.parentElement){\
        if(getComputedStyle(a).overflowX!=='visible')return a.getBoundingClientRect().right<=W+1}return false};\
        for(const e of document.body.querySelectorAll('*')){if(e.closest('svg')&&e.tagName.toLowerCase()!=='svg')continue;\
        const r=e.getBoundingClientRect();if(r.width>0&&r.right>W+1&&!clipped(e))\
        out.wide.push(e.tagName+'#'+e.id+' '+Math.round(r.right))}\
        for(const b of document.querySelectorAll('button')){const s=getComputedStyle(b);if(b.offsetParent!==null&&\
        (s.borderRadius==='0px'||s.backgroundColor==='rgb(239, 239, 239)'))out.plain.push('button '+b.textContent.trim())}\
        for(const a of document.querySelectorAll('a[href]')){const s=getComputedStyle(a);if(a.offsetParent!==null&&\
        (s.color==='rgb(0, 0, 238)'||s.textDecorationLine.includes('underline')))out.plain.push('link '+a.textContent.trim())}\
        return out})()
        """

    /// The share of the viewport where the map shows: its box inside the window, less the
    /// panel's part over it.
    static let mapShare = """
        eval:(()=>{const W=innerWidth,H=innerHeight,clip=r=>({l:Math.max(0,r.left),t:Math.max(0,r.top),\
        r:Math.min(W,r.right),b:Math.min(H,r.bottom)}),area=r=>Math.max(0,r.r-r.l)*Math.max(0,r.b-r.t);\
        const a=clip(document.getElementById('map').getBoundingClientRect()),\
        b=clip(document.getElementById('panel').getBoundingClientRect());\
        const i={l:Math.max(a.l,b.l),t:Math.max(a.t,b.t),r:Math.min(a.r,b.r),b:Math.min(a.b,b.b)};\
        return (area(a)-area(i))/(W*H)})()
        """

    /// The panel's entries: kind, what, when.
    static let story = """
        eval:[...document.querySelectorAll('#movements li')].map(li=>[li.className.split(' ')[0],\
        li.querySelector('.what').firstChild.textContent.trim(),li.querySelector('.when').textContent.trim()])
        """

    /// Picks the stay named `name` (a click; `key`: Enter on it instead) and says where the map
    /// looks then: its view box before and after, the centre as latitude and longitude (the
    /// page's projection undone), whether the entry is marked and its shape on the map shown.
    static func pick(_ name: String, key: Bool) -> String {
        """
        eval:(()=>{const svg=document.getElementById('map'),before=svg.getAttribute('viewBox');\
        const li=[...document.querySelectorAll('#movements li.stay')].find(l=>l.querySelector('.what').textContent.trim()\
        .startsWith('\(name)'));if(!li)return null;\
        if(\(key)){li.focus();li.dispatchEvent(new KeyboardEvent('keydown',{key:'Enter',bubbles:true}))}else li.click();\
        const v=svg.getAttribute('viewBox').split(' ').map(Number),p=svg.getAttribute('data-projection').split(' ')\
        .map(Number),x=v[0]+v[2]/2,y=v[1]+v[3]/2;\
        return [before,svg.getAttribute('viewBox'),Math.atan(Math.sinh((p[2]-y)/p[1]))*180/Math.PI,(x-p[0])/p[1]*180/Math.PI,\
        li.classList.contains('on'),svg.querySelector('g.focus[data-for="'+li.id+'"]').getAttribute('visibility')]})()
        """
    }

    @Test func theWebAppIsMapFirstAndOneVisualSystem() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana"], store: store)
        // Three days of a Takeout (OneTimelineTests: Records.json and the semantic history).
        let imported = try await run(["import", "--store", store, "--user", "ana", try takeout(Self.lived())])
        #expect(imported.status == 0, "\(imported.stderr)")
        let config = dir + "/config.toml"
        try "[time]\nzone = \"Europe/Zurich\"\n[maps]\ntiles = \"none\"\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        // A phone's day, 2026-06-05, as OwnTracks posts it: 40 min at home (a fix every 2 min,
        // 20 m of jitter, `acc` 20), a 15-minute walk north, 40 min there, the walk back.
        let token = try await deviceToken("phone", user: "ana", store: store)
        let there = Geodesy.destination(from: Self.home, bearing: 0, distance: 1300)
        var seed: UInt64 = 62
        func jitter(_ c: Coordinate) -> Coordinate {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Geodesy.destination(from: c, bearing: Double(seed >> 11 % 360), distance: Double(seed >> 40 % 20))
        }
        var fixes: [(seconds: Int, at: Coordinate)] = []
        var clock = 1_780_639_200  // 2026-06-05 08:00 in Zurich
        for (from, to) in [(Self.home, there), (there, Self.home)] {
            for _ in 0..<20 {
                fixes.append((clock, jitter(from)))
                clock += 120
            }
            for s in stride(from: 0, through: 900, by: 10) {
                fixes.append(
                    (
                        clock + s,
                        Geodesy.destination(
                            from: from, bearing: from == Self.home ? 0 : 180, distance: Double(s) / 900 * 1300)
                    ))
            }
            clock += 960
        }
        for _ in 0..<20 {
            fixes.append((clock, jitter(Self.home)))
            clock += 120
        }
        try await StaysNotRidesTests.postOwnTracks(fixes, to: base, user: "ana", token: token)
        let session = try await signIn(base, as: "ana")
        let shots = dir + "/looks"
        try FileManager.default.createDirectory(atPath: shots, withIntermediateDirectories: true)

        for width in [390, 1280] {
            // The Takeout's second day: the map covers the window, the day is its named places and trips.
            let day = try browse(
                "\(base)/day/2026-06-02", session: session, width: width,
                [
                    "wait:document.readyState === 'complete'", Self.mapShare, Self.story,
                    Self.pick("Basel SBB", key: false), Self.pick("Café Henrici", key: true),
                    "shot:\(shots)/day-\(width).png",
                ])
            try #require(day.count == 4, "\(day)")
            let share = day[0] as? Double ?? 0
            #expect(share >= (width == 1280 ? 0.60 : 0.45), "the map's share of the window at \(width) px: \(share)")
            let story = (day[1] as? [[String]]) ?? []
            let stays = story.filter { $0[0] == "stay" }.map { $0[1] }
            let moves = story.filter { $0[0] == "move" }.map { $0[1] }
            #expect(
                ["Home", "Office", "Café Henrici", "Basel SBB"].allSatisfy { name in
                    stays.contains { $0.hasPrefix(name) }
                },
                "the stays by their names: \(stays)")
            #expect(Set(moves) == ["Cycling", "Walking", "Train"], "the moves by their modes: \(moves)")
            // The night's stay began the day before, and says so.
            #expect(story.first?[2].contains("the day before–07:29") == true, "\(story.first ?? [])")
            let starts = story.dropFirst().map { String($0[2].prefix(5)) }
            #expect(starts == starts.sorted() && starts.count >= 12, "in time order: \(starts)")
            // Picking Basel moves the map there (its station, 65 km from the office), and marks it.
            for (picked, place) in [(day[2], Self.basel), (day[3], Self.cafe)] {
                let seen = picked as? [Any] ?? []
                try #require(seen.count == 6, "\(picked)")
                let centre = Coordinate(latitude: seen[2] as? Double ?? 0, longitude: seen[3] as? Double ?? 0)
                #expect(seen[0] as? String != seen[1] as? String, "the view changed: \(seen)")
                #expect(Geodesy.haversineDistance(centre, place) < 400, "the map looks at \(centre), not at \(place)")
                #expect(seen[4] as? Bool == true && seen[5] as? String == "visible", "\(seen)")
            }
            // The phone's day: its stays (places found) and its walks.
            let phone = try browse(
                "\(base)/day/2026-06-05", session: session, width: width,
                ["wait:document.readyState === 'complete'", Self.story])
            let phoneStory = (phone.first as? [[String]]) ?? []
            #expect(phoneStory.map { $0[0] } == ["stay", "move", "stay", "move", "stay"], "\(phoneStory)")
            #expect(phoneStory.filter { $0[0] == "move" }.allSatisfy { $0[1] == "Walking" }, "\(phoneStory)")
            #expect(phoneStory.filter { $0[0] == "stay" }.allSatisfy { !$0[1].isEmpty }, "\(phoneStory)")

            // Every page: nothing left empty shows, nothing reaches past the right edge, no link or
            // button as the browser draws it unstyled.
            for page in [
                "/", "/day/2026-06-02", "/days?from=2026-06-01&to=2026-06-05", "/calendar?year=2026", "/year?year=2026",
                "/heatmap", "/places", "/friends", "/alerts", "/import", "/export", "/settings",
            ] {
                let name = page.dropFirst().prefix { $0.isLetter }
                let faults = try browse(
                    base.absoluteString + page, session: session, width: width,
                    [
                        "wait:document.readyState === 'complete'", Self.pageFaults,
                        "shot:\(shots)/\(name.isEmpty ? "home" : String(name))-\(width).png",
                    ])
                let found = faults.first as? [String: [String]] ?? [:]
                #expect(found["words"] == [], "\(page) at \(width) px shows \(found["words"] ?? [])")
                #expect(
                    found["wide"] == [], "\(page) at \(width) px reaches past the right edge: \(found["wide"] ?? [])")
                #expect(found["plain"] == [], "\(page) at \(width) px has unstyled \(found["plain"] ?? [])")
            }
            // The calendar opens at the month of the newest point, in view.
            let calendar = try browse(
                "\(base)/calendar", session: session, width: width,
                [
                    "wait:document.readyState === 'complete'",
                    "eval:[location.search + location.hash, document.getElementById('2026-06').getBoundingClientRect().top < innerHeight]",
                ])
            let opened = calendar.first as? [Any] ?? []
            #expect(
                opened.first as? String == "?year=2026#2026-06" && opened.last as? Bool == true, "\(calendar)")
        }
        // The sign-in page too, and a refused password keeps the user name.
        let login = try browse(
            base.absoluteString, session: nil, width: 390,
            [
                "wait:document.readyState === 'complete'", Self.pageFaults,
                "eval:(document.querySelector('input[name=user]').value='ana',document.querySelector('input[name=password]').value='not it',document.getElementById('login').submit(),1)",
                "wait:document.getElementById('message') !== null",
                "eval:[document.getElementById('message').textContent, document.querySelector('input[name=user]').value]",
            ])
        #expect((login.first as? [String: [String]])?.values.allSatisfy(\.isEmpty) == true, "\(login)")
        #expect(login.last as? [String] == ["Wrong user name or password.", "ana"], "\(login)")

        // The icon and the manifest, for anyone; unchanged, 304.
        let icon = dir + "/favicon.ico"
        #expect(try await HTTP.download(URL(string: "\(base)/favicon.ico")!, to: icon) == 200)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: icon)))
        #expect(Array(bytes.prefix(8)) == [0, 0, 1, 0, 1, 0, 32, 32], "a Windows icon of one 32 × 32 image")
        let manifest = try await HTTP.exchange(URL(string: "\(base)/manifest.webmanifest")!)
        #expect(manifest.status == 200)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(manifest.body.utf8)) as? [String: Any])
        #expect(fields["name"] as? String == "Trailbook" && fields["start_url"] as? String == "/")
        #expect((fields["icons"] as? [[String: Any]])?.contains { $0["src"] as? String == "/icon.svg" } == true)
        let style = try await HTTP.exchange(URL(string: "\(base)/app.css")!)
        let tag = try #require(
            style.headers.first { $0.lowercased().hasPrefix("etag:") }.map {
                String($0.dropFirst(5)).trimmingCharacters(in: .whitespaces)
            })
        #expect(style.status == 200 && style.body.contains("--m-cycling"))
        #expect(try await HTTP.request(URL(string: "\(base)/app.css")!, headers: ["If-None-Match": tag]).0 == 304)
        #expect(
            try await HTTP.exchange(
                URL(string: "\(base)/calendar")!, headers: ["Cookie": "trailbook_session=\(session)"]
            )
            .headers.contains { $0.lowercased() == "location: /calendar?year=2026#2026-06" })
    }
}
