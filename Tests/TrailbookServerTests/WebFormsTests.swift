import Foundation
import GPSCore
import Hummingbird
import HummingbirdTesting
import Testing
import TrackModel
import TrailbookTestSupport

@testable import TrackStore
@testable import TrailbookServer

/// A browser signed in to the web app run in this process: its session cookie, and the CSRF
/// token its pages' forms carry.
struct Browser {
    let client: any TestClientProtocol
    let session: HTTPFields
    let csrf: String

    struct Answer {
        var status: HTTPResponse.Status
        var text: String
        var location: String
        var headers: HTTPFields
    }

    /// Signs `user` in (``SharingAPITests/passwords``) and reads the home page's form token; with
    /// `zone`, sets the account's time zone (the pages' days and times are then that zone's).
    static func signIn(_ client: any TestClientProtocol, _ user: String = "ana", zone: String? = nil) async throws
        -> Browser
    {
        let session = try await WebRoutesTests.signIn(client, user, password: SharingAPITests.passwords[user]!)
        let home = try await client.execute(uri: "/", method: .get, headers: session) { String(buffer: $0.body) }
        let browser = Browser(
            client: client, session: session,
            csrf: try #require(WebRoutesTests.formToken(home), "the home page's forms carry the session's token"))
        if let zone {
            let saved = try await browser.post("/preferences", ["zone": zone, "units": ""])
            #expect(saved.status == .ok && saved.text.contains("Your time zone and units are saved."))
        }
        return browser
    }

    func get(_ uri: String) async throws -> Answer {
        try await client.execute(uri: uri, method: .get, headers: session) {
            Answer(
                status: $0.status, text: String(buffer: $0.body), location: $0.headers[.location] ?? "",
                headers: $0.headers)
        }
    }

    /// Posts a form with the session's token (or `csrf`), its fields form-encoded in order.
    func post(_ uri: String, _ fields: KeyValuePairs<String, String> = [:], csrf: String? = nil) async throws
        -> Answer
    {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text }
        let body = ([("csrf", csrf ?? self.csrf)] + fields.map { ($0.key, $0.value) })
            .map { "\(encode($0.0))=\(encode($0.1))" }.joined(separator: "&")
        var headers = session
        headers[.contentType] = "application/x-www-form-urlencoded"
        return try await client.execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body)) {
            Answer(
                status: $0.status, text: String(buffer: $0.body), location: $0.headers[.location] ?? "",
                headers: $0.headers)
        }
    }
}

/// The web app's forms, each posted in this process (Hummingbird's router test) on a temporary
/// store as a browser posts it: what it changes is in the store afterwards, the page it sends on
/// to says so, and a wrong one gets its sentence and status with nothing changed.
@Suite struct WebFormsTests {
    typealias API = SharingAPITests

    /// Three points of ana's phone on 2026-06-14 from 12:30 UTC, 5 s apart, as OsmAnd sends them.
    static func postThreePoints(_ client: any TestClientProtocol, token: String) async throws {
        let t = 1_781_440_200
        for k in 0..<3 {
            let posted = try await API.send(
                client, .get, "/osmand?id=\(token)&timestamp=\(t + k * 5)&lat=\(47.37 + Double(k) * 0.001)&lon=8.54")
            #expect(posted.status == .ok)
        }
    }

    @Test func aPlaceIsAddedRenamedAndRemovedThroughItsForms() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client)
            let added = try await ana.post("/places", ["name": "Home", "lat": "47.37", "lon": "8.54", "radius": "150"])
            #expect(added.status == .seeOther && added.location == "/places?saved=added", "\(added.status)")
            var places = try store.readNow { try $0.places(account: "ana") }
            #expect(places.map(\.name) == ["Home"] && places.first?.radius == 150, "\(places)")
            let page = try await ana.get(added.location)
            #expect(page.status == .ok && page.text.contains("Home"))
            // The same name again, a radius too large, no coordinate: refused with the sentence, nothing added.
            let twice = try await ana.post("/places", ["name": "Home", "lat": "47", "lon": "8"])
            #expect(twice.status == .unprocessableContent && twice.text.contains("There is already a place named Home"))
            let wide = try await ana.post("/places", ["name": "Far", "lat": "47", "lon": "8", "radius": "200000"])
            #expect(wide.status == .unprocessableContent && wide.text.contains("A radius of 200000.0 m will not do"))
            let nowhere = try await ana.post("/places", ["name": "Far", "lat": "", "lon": "8"])
            #expect(nowhere.status == .unprocessableContent && nowhere.text.contains("The latitude must be from -90"))
            #expect(try store.readNow { try $0.places(account: "ana") }.count == 1)
            let renamed = try await ana.post("/places/rename", ["name": "Home", "new": "Flat"])
            #expect(renamed.status == .seeOther && renamed.location == "/places?saved=renamed")
            places = try store.readNow { try $0.places(account: "ana") }
            #expect(places.map(\.name) == ["Flat"] && places.first?.radius == 150)
            // Removing: a page that says what goes, then the form.
            let confirm = try await ana.get("/places/delete?name=Flat")
            #expect(confirm.status == .ok && confirm.text.contains("the place Flat"), "\(confirm.text.prefix(300))")
            let missing = try await ana.get("/places/delete?name=Nowhere")
            #expect(missing.status == .notFound && missing.text.contains("There is no place named Nowhere"))
            let removed = try await ana.post("/places/delete?name=Flat")
            #expect(removed.status == .seeOther && removed.location == "/places?saved=deleted")
            #expect(try store.readNow { try $0.places(account: "ana") }.isEmpty)
            // bob never saw ana's places.
            #expect(try store.readNow { try $0.places(account: "bob") }.isEmpty)
        }
    }

    @Test func aFormWithoutTheSessionsTokenChangesNothing() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client)
            let forged = try await ana.post("/places", ["name": "Home", "lat": "47", "lon": "8"], csrf: "forged")
            #expect(forged.status != .seeOther && forged.status != .ok, "\(forged.status)")
            #expect(forged.text.contains("out of date") || forged.text.contains("form"), "\(forged.text.prefix(300))")
            let summary = try await ana.post("/day/2026-06-14/summary", ["summary": "x"], csrf: "")
            #expect(summary.status != .seeOther)
            #expect(try store.readNow { try $0.places(account: "ana") }.isEmpty)
            #expect(try store.readNow { try $0.daySummary(CivilDate(iso: "2026-06-14")!, account: "ana") } == nil)
            // No session at all: sent to sign in, or refused; nothing stored.
            let stranger = try await client.execute(
                uri: "/places", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "csrf=\(ana.csrf)&name=Home&lat=47&lon=8")
            ) { $0.status }
            #expect(stranger != .seeOther && stranger != .ok, "\(stranger)")
            #expect(try store.readNow { try $0.places(account: "ana") }.isEmpty)
        }
    }

    @Test func theDaysSummaryIsSavedShownAndTakenAway() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client)
            let day = CivilDate(iso: "2026-06-14")!
            let saved = try await ana.post("/day/2026-06-14/summary", ["summary": "Loop over the Albis & back"])
            #expect(saved.status == .seeOther && saved.location == "/day/2026-06-14?saved=summary")
            #expect(try store.readNow { try $0.daySummary(day, account: "ana") } == "Loop over the Albis & back")
            #expect(try store.readNow { try $0.daySummary(day, account: "bob") } == nil, "ana's day, not bob's")
            let page = try await ana.get(saved.location)
            #expect(page.status == .ok && page.text.contains("Loop over the Albis &amp; back"))
            let cleared = try await ana.post("/day/2026-06-14/summary", ["summary": ""])
            #expect(cleared.status == .seeOther)
            #expect(try store.readNow { try $0.daySummary(day, account: "ana") } == nil)
            let bad = try await ana.post("/day/2026-13-40/summary", ["summary": "x"])
            #expect(bad.status != .seeOther && bad.status != .ok, "not a day: \(bad.status)")
        }
    }

    @Test func aRecordIsMarkedOnTheMapNotedAndRemoved() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client)
            // The account's time zone decides what 14:30 is.
            let zone = try await ana.post("/preferences", ["zone": "Europe/Zurich", "units": "metric"])
            #expect(zone.status == .ok && zone.text.contains("Your time zone and units are saved."))
            let marked = try await ana.post(
                "/day/2026-06-14/records", ["lat": "47.3769", "lon": "8.5417", "time": "14:30", "note": "Café stop"])
            #expect(marked.status == .seeOther && marked.location.hasPrefix("/day/2026-06-14?saved=record#record-"))
            var records = try store.readNow { try $0.records(account: "ana") }
            try #require(records.count == 1)
            let id = try #require(records[0].id)
            // 14:30 in Zurich in summer is 12:30 UTC.
            #expect(records[0].milliseconds == 1_781_440_200_000, "\(records[0].milliseconds)")
            #expect(records[0].notes.map(\.text) == ["Café stop"])
            #expect(abs(records[0].coordinate.latitude - 47.3769) < 1e-6)
            // A record needs a place and a time.
            let noPlace = try await ana.post("/day/2026-06-14/records", ["time": "10:00"])
            #expect(
                noPlace.status == .unprocessableContent && noPlace.text.contains("Tap the map where the record goes"))
            let noTime = try await ana.post("/day/2026-06-14/records", ["lat": "47", "lon": "8", "time": "noon"])
            #expect(noTime.status == .unprocessableContent && noTime.text.contains("e.g. 14:30"))
            let noted = try await ana.post("/records/\(id)/notes", ["note": "Rain after"])
            #expect(noted.status == .seeOther && noted.location == "/day/2026-06-14?saved=note#record-\(id)")
            records = try store.readNow { try $0.records(account: "ana") }
            #expect(records.first?.notes.map(\.text) == ["Café stop", "Rain after"])
            // bob cannot note or remove ana's record: for him it is not there.
            let bob = try await Browser.signIn(client, "bob")
            #expect(try await bob.post("/records/\(id)/notes", ["note": "mine"]).status == .notFound)
            #expect(try await bob.get("/records/\(id)/delete").status == .notFound)
            #expect(try await bob.post("/records/\(id)/delete").status == .notFound)
            let confirm = try await ana.get("/records/\(id)/delete")
            #expect(confirm.status == .ok && confirm.text.contains("record \(id)"))
            let removed = try await ana.post("/records/\(id)/delete")
            #expect(removed.status == .seeOther && removed.location == "/day/2026-06-14?saved=deleted")
            #expect(try store.readNow { try $0.records(account: "ana") }.isEmpty)
        }
    }

    @Test func aPhoneIsPairedFromTheSettingsAndItsTokenRevoked() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client)
            let settings = try await ana.get("/settings")
            #expect(settings.status == .ok && settings.text.contains("overland"), "ana's phone is listed")
            let paired = try await ana.post("/devices", ["name": "pixel"])
            #expect(paired.status == .ok, "\(paired.text.prefix(300))")
            // The page shows the token once, with the address each app posts to.
            let devices = try #require(try store.readNow { try $0.devices(of: "ana") })
            #expect(devices.map(\.name).sorted() == ["overland", "pixel"])
            #expect(paired.text.contains("/osmand?id="), "\(paired.text.prefix(600))")
            let twice = try await ana.post("/devices", ["name": "pixel"])
            #expect(twice.status == .unprocessableContent, "\(twice.status)")
            let revoked = try await ana.post("/devices/revoke", ["name": "pixel"])
            #expect(revoked.status == .ok && revoked.text.contains("pixel’s token is revoked"))
            let none = try await ana.post("/devices/revoke", ["name": "nokia"])
            #expect(none.status == .unprocessableContent)
            #expect(try store.readNow { try $0.devices(of: "bob") }?.isEmpty == true, "bob has no device")
        }
    }

    @Test func thePasswordChangesOnlyWithTheCurrentOneAndTwiceTheSameNewOne() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client)
            let before = try store.readNow { try $0.passwordHash(of: "ana") }
            let wrong = try await ana.post(
                "/password", ["current": "not it", "new": "a much longer pass 12", "again": "a much longer pass 12"])
            #expect(wrong.status != .ok || !wrong.text.contains("The password is changed"), "\(wrong.status)")
            let differ = try await ana.post(
                "/password",
                ["current": API.passwords["ana"]!, "new": "a much longer pass 12", "again": "a much longer pass 13"])
            #expect(!differ.text.contains("The password is changed"))
            #expect(try store.readNow { try $0.passwordHash(of: "ana") } == before, "nothing changed")
            let changed = try await ana.post(
                "/password",
                ["current": API.passwords["ana"]!, "new": "a much longer pass 12", "again": "a much longer pass 12"])
            #expect(
                changed.status == .ok && changed.text.contains("The password is changed"), "\(changed.text.prefix(300))"
            )
            #expect(try store.readNow { try $0.passwordHash(of: "ana") } != before)
            // The new one signs in.
            _ = try await WebRoutesTests.signIn(client, "ana", password: "a much longer pass 12")
        }
    }

    @Test func preferencesRefuseAZoneThatIsNoneAndUnitsThatAreNeither() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client)
            let zone = try await ana.post("/preferences", ["zone": "Mars/Olympus", "units": ""])
            #expect(zone.status == .unprocessableContent && zone.text.contains("is no time zone"))
            let units = try await ana.post("/preferences", ["zone": "", "units": "furlongs"])
            #expect(units.status == .unprocessableContent && units.text.contains("Units are metric or imperial."))
            #expect(try store.readNow { try $0.preferences(account: "ana") } == AccountPreferences())
            let saved = try await ana.post("/preferences", ["zone": "Asia/Tokyo", "units": "imperial"])
            #expect(saved.status == .ok)
            #expect(
                try store.readNow { try $0.preferences(account: "ana") }
                    == AccountPreferences(timeZone: "Asia/Tokyo", units: "imperial"))
        }
    }

    @Test func signingOutEverywhereEndsEverySessionOfTheAccount() async throws {
        try await API.withServer { client, _, _ in
            let laptop = try await Browser.signIn(client)
            let phone = try await Browser.signIn(client)
            let bob = try await Browser.signIn(client, "bob")
            #expect(try await phone.get("/places").status == .ok)
            let out = try await laptop.post("/sessions/end")
            #expect(out.status == .seeOther && out.location == "/")
            for browser in [laptop, phone] {
                let page = try await browser.get("/places")
                #expect(page.status == .seeOther && page.location == "/", "ana's sessions are over")
            }
            #expect(try await bob.get("/places").status == .ok, "bob's session is his")
        }
    }

    @Test func anAlertIsAddedWithItsEventsAndRemoved() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client)
            let none = try await ana.post("/alerts", ["channel": "webhook", "address": "http://127.0.0.1:9/hook"])
            #expect(none.status == .unprocessableContent && none.text.contains("Tick the events the alert sends"))
            let badHook = try await ana.post(
                "/alerts", ["on-place.arrive": "on", "channel": "webhook", "address": "not a url"])
            #expect(badHook.status == .unprocessableContent, "\(badHook.status)")
            #expect(try store.readNow { try $0.alerts(account: "ana") }.isEmpty)
            let added = try await ana.post(
                "/alerts",
                [
                    "on-place.arrive": "on", "on-place.depart": "on", "channel": "ntfy",
                    "address": "http://127.0.0.1:9/trailbook", "cooldown": "60",
                ])
            #expect(added.status == .seeOther && added.location == "/alerts?saved=added", "\(added.text.prefix(300))")
            let alerts = try store.readNow { try $0.alerts(account: "ana") }
            try #require(alerts.count == 1)
            #expect(Set(alerts[0].types) == [.placeArrive, .placeDepart] && alerts[0].cooldown == 60, "\(alerts)")
            let id = alerts[0].id
            let page = try await ana.get("/alerts")
            #expect(page.status == .ok && page.text.contains("127.0.0.1:9/trailbook"))
            #expect(try await Browser.signIn(client, "bob").post("/alerts/\(id)/delete").status == .notFound)
            let removed = try await ana.post("/alerts/\(id)/delete")
            #expect(removed.status == .seeOther && removed.location == "/alerts?saved=deleted")
            #expect(try store.readNow { try $0.alerts(account: "ana") }.isEmpty)
        }
    }

    @Test func aShareCodeMadeOnTheHomePageLetsAFriendSeeUntilRevoked() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client)
            let made = try await ana.post("/codes", ["motion": "on"])
            #expect(made.status == .ok)
            let code = try #require(
                made.text.range(of: #"(?<=id="code">)[A-Z0-9]{4}-[A-Z0-9]{4}(-[A-Z0-9]{4})*"#, options: .regularExpression).map {
                    String(made.text[$0])
                }, "the page shows the code: \(made.text.prefix(800))")
            let bob = try await Browser.signIn(client, "bob")
            let wrong = try await bob.post("/redeem", ["code": "NOPE-NOPE"])
            #expect(!wrong.text.contains("You now see ana."))
            let redeemed = try await bob.post("/redeem", ["code": code])
            #expect(redeemed.text.contains("You now see ana."), "\(redeemed.text.prefix(400))")
            let grants = try store.readNow { try $0.grants(owner: "ana") }
            #expect(grants.map(\.viewer) == ["bob"] && Set(grants[0].scopes) == ["live", "motion"], "\(grants)")
            // Used once: bob's second try finds nothing.
            #expect(!(try await bob.post("/redeem", ["code": code]).text.contains("You now see ana.")))
            let revoked = try await ana.post("/revoke", ["viewer": "bob"])
            #expect(revoked.text.contains("bob no longer sees you."))
            #expect(try store.readNow { try $0.grants(owner: "ana") }.isEmpty)
        }
    }

    @Test func anExportGivesTheRangeInTheFormatAskedAndRefusesOthers() async throws {
        try await API.withServer { client, token, _ in
            try await Self.postThreePoints(client, token: token)
            let ana = try await Browser.signIn(client, zone: "UTC")
            let form = try await ana.get("/export")
            #expect(form.status == .ok && form.text.contains("<form"))
            let gpx = try await ana.get("/export?from=2026-06-14&to=2026-06-14&format=gpx")
            #expect(gpx.status == .ok, "\(gpx.text.prefix(300))")
            #expect(gpx.text.hasPrefix("<?xml") && gpx.text.components(separatedBy: "<trkpt").count - 1 == 3)
            #expect(gpx.headers[.contentDisposition]?.contains("trailbook-2026-06-14.gpx") == true)
            let json = try await ana.get("/export?from=2026-06-14&to=2026-06-14&format=geojson")
            #expect(json.status == .ok && json.text.contains("\"FeatureCollection\""))
            let kml = try await ana.get("/export?from=2026-06-14&to=2026-06-14&format=kml")
            #expect(kml.status == .ok && kml.text.contains("<kml"))
            let other = try await ana.get("/export?from=2026-06-14&to=2026-06-14&format=shp")
            #expect(other.status == .badRequest && other.text.contains("Export as gpx, geojson or kml."))
            let backwards = try await ana.get("/export?from=2026-06-15&to=2026-06-14&format=gpx")
            #expect(backwards.status == .unprocessableContent && backwards.text.contains("ends before it begins"))
            // bob has no ride those days.
            let bob = try await Browser.signIn(client, "bob")
            let empty = try await bob.get("/export?from=2026-06-14&to=2026-06-14&format=gpx")
            #expect(empty.status != .ok || !empty.text.contains("<trkpt"), "none of ana's points for bob")
        }
    }

    @Test func theServersOwnDocumentsAndScriptsAnswerWithoutASession() async throws {
        try await API.withServer { client, _, _ in
            let health = try await API.send(client, .get, "/api/health")
            #expect(health.status == .ok && health.json?["status"] as? String == "ok")
            let openAPI = try await API.send(client, .get, "/api/openapi.json")
            #expect(openAPI.status == .ok && openAPI.json?["openapi"] is String)
            let paths = openAPI.json?["paths"] as? [String: Any] ?? [:]
            #expect(["/api/share-codes", "/api/grants", "/api/live"].allSatisfy { paths[$0] != nil }, "\(paths.keys)")
            for script in ["/map.js", "/live.js", "/day.js", "/days.js", "/places.js", "/heatmap.js", "/import.js"] {
                let (status, type, size) = try await client.execute(uri: script, method: .get) {
                    ($0.status, $0.headers[.contentType] ?? "", $0.body.readableBytes)
                }
                #expect(status == .ok && type.contains("javascript") && size > 100, "\(script): \(status) \(type)")
            }
            // No tile source: the map's tiles are not there.
            let ana = try await Browser.signIn(client)
            #expect(try await ana.get("/tiles/3/4/2").status == .notFound)
        }
    }

    @Test func theFriendsPageListsWhoSharesWithTheAccountAndTheirPhones() async throws {
        try await API.withServer { client, token, _ in
            try await Self.postThreePoints(client, token: token)
            let bob = try await Browser.signIn(client, "bob")
            let alone = try await bob.get("/friends")
            #expect(alone.status == .ok && alone.text.contains("When a friend gives you a code, they appear here."))
            let ana = try await Browser.signIn(client)
            let made = try await ana.post("/codes", ["motion": "on"])
            let code = try #require(
                made.text.range(of: #"(?<=id="code">)[A-Z0-9]{4}-[A-Z0-9]{4}"#, options: .regularExpression).map {
                    String(made.text[$0])
                })
            #expect(try await bob.post("/redeem", ["code": code]).text.contains("You now see ana."))
            let page = try await bob.get("/friends")
            #expect(page.status == .ok && page.text.contains("1 friend shares with you."), "\(page.text.prefix(600))")
            #expect(page.text.contains("ana") && page.text.contains("overland ("), "ana's phone with its age")
            // ana's own friends page: nobody shares with her.
            #expect(try await ana.get("/friends").text.contains("When a friend gives you a code, they appear here."))
        }
    }

    /// ana's phone on 2026-06-14 (UTC): half an hour at A from 08:00, ten minutes riding 2.7 km
    /// to B, half an hour at B, a point a minute. Returns the trip's middle, ms.
    static func postTwoStaysAndATrip(_ client: any TestClientProtocol, token: String) async throws -> Int64 {
        let t0 = 1_781_424_000
        var points: [(Int, Double, Double)] = []
        for k in 0..<30 { points.append((t0 + k * 60, 47.3700, 8.5400)) }
        for k in 1...10 {
            let step = 0.002 * Double(k)
            points.append((t0 + 1800 + k * 60, 47.3700 + step, 8.5400 + step))
        }
        for k in 1...30 { points.append((t0 + 2400 + k * 60, 47.3900, 8.5600)) }
        for (t, lat, lon) in points {
            let posted = try await API.send(
                client, .get, "/osmand?id=\(token)&timestamp=\(t)&lat=\(lat)&lon=\(lon)&accuracy=8")
            #expect(posted.status == .ok)
        }
        return Int64(t0 + 2100) * 1000
    }

    @Test func aTripsModeIsCorrectedFromTheDayPageAndAFoundPlaceNamedFromThePlacesPage() async throws {
        try await API.withServer { client, token, store in
            let middle = try await Self.postTwoStaysAndATrip(client, token: token)
            let ana = try await Browser.signIn(client, zone: "UTC")
            let day = try await ana.get("/day/2026-06-14")
            #expect(day.status == .ok)
            let corrected = try await ana.post("/day/2026-06-14/corrections", ["at": String(middle), "mode": "car"])
            #expect(corrected.status == .seeOther && corrected.location == "/day/2026-06-14?saved=corrected#movements")
            let corrections = try store.readNow { try $0.corrections(account: "ana") }
            #expect(corrections.map(\.value) == ["car"] && corrections.first?.kind == .mode, "\(corrections)")
            #expect(corrections.first?.milliseconds == middle)
            let after = try await ana.get("/day/2026-06-14")
            #expect(after.text.contains("car 2."), "the trip is said to be by car now: \(after.text.count)")
            // A mode that is none, a time with no trip: refused in a sentence, nothing stored.
            let hovercraft = try await ana.post(
                "/day/2026-06-14/corrections", ["at": String(middle), "mode": "hovercraft"])
            #expect(hovercraft.status == .unprocessableContent && hovercraft.text.contains("hovercraft"))
            let night = try await ana.post(
                "/day/2026-06-14/corrections", ["at": String(middle - 6 * 3_600_000), "mode": "walking"])
            #expect(night.status == .unprocessableContent, "\(night.status)")
            #expect(try store.readNow { try $0.corrections(account: "ana") }.count == 1)
            // The two stays' places, found: the first is named on the places page.
            let found = try store.readNow { try $0.foundPlaces(account: "ana") }
            try #require(found.count == 2, "\(found)")
            let named = try await ana.post("/places/found", ["id": String(found[0].id), "name": "Home"])
            #expect(named.status == .seeOther && named.location == "/places?saved=named#found")
            #expect(try store.readNow { try $0.foundPlaces(account: "ana") }.map(\.name) == ["Home", nil])
            #expect(try await ana.get("/places").text.contains("Home"))
            let unknown = try await ana.post("/places/found", ["id": "99", "name": "Work"])
            #expect(unknown.status == .notFound, "\(unknown.status)")
            // bob cannot name ana's place.
            let bob = try await Browser.signIn(client, "bob")
            #expect(
                try await bob.post("/places/found", ["id": String(found[1].id), "name": "Mine"]).status == .notFound)
            #expect(try store.readNow { try $0.foundPlaces(account: "ana") }.map(\.name) == ["Home", nil])
        }
    }

    @Test func anAlertsTestReachesItsWebhookSignedAndOneNobodyAnswersSaysSo() async throws {
        let hook = try HookReceiver(secret: "s3cret", directory: try Samples.temporaryDirectory())
        try hook.start()
        defer { hook.stop() }
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client)
            let address = "http://127.0.0.1:\(hook.port)/trailbook"
            let added = try await ana.post(
                "/alerts",
                ["on-device.alarm": "on", "channel": "webhook", "address": address, "secret": "s3cret"])
            #expect(added.status == .seeOther, "\(added.text.prefix(300))")
            let id = try #require(try store.readNow { try $0.alerts(account: "ana") }.first?.id)
            let tested = try await ana.post("/alerts/\(id)/test")
            #expect(tested.status == .ok && tested.text.contains("The test of alert \(id) reached"), "\(tested.status)")
            let requests = hook.requests()
            #expect(requests.count == 1 && requests.first?["path"] as? String == "/trailbook", "\(requests)")
            #expect(requests.first?["verified"] as? Bool == true, "signed with the alert's secret")
            // Nobody listening: 502 with the sentence, and bob cannot test ana's alert.
            let closed = try await ana.post(
                "/alerts", ["on-device.alarm": "on", "channel": "webhook", "address": "http://127.0.0.1:9/x"])
            #expect(closed.status == .seeOther)
            let other = try #require(try store.readNow { try $0.alerts(account: "ana") }.map(\.id).max())
            let failed = try await ana.post("/alerts/\(other)/test")
            #expect(failed.status == .badGateway, "\(failed.status) \(failed.text.prefix(300))")
            #expect(try await Browser.signIn(client, "bob").post("/alerts/\(id)/test").status == .notFound)
            #expect(hook.requests().count == 1)
        }
    }

    @Test func aNewPasswordSignsOutTheAccountsOtherSessionsButThisOne() async throws {
        try await API.withServer { client, _, _ in
            let laptop = try await Browser.signIn(client)
            let phone = try await Browser.signIn(client)
            let bob = try await Browser.signIn(client, "bob")
            let changed = try await laptop.post(
                "/password",
                ["current": API.passwords["ana"]!, "new": "another long one 99", "again": "another long one 99"])
            #expect(
                changed.text.contains("The password is changed; 1 other session is signed out."), "\(changed.status)")
            #expect(try await laptop.get("/places").status == .ok, "this session goes on")
            #expect(try await phone.get("/places").location == "/", "the other is over")
            #expect(try await bob.get("/places").status == .ok)
        }
    }

    @Test func theHomePageListsWhoSeesTheAccountWithTheFormThatEndsIt() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client)
            let made = try await ana.post("/codes", [:])
            let code = try #require(
                made.text.range(of: #"(?<=id="code">)[A-Z0-9]{4}-[A-Z0-9]{4}"#, options: .regularExpression).map {
                    String(made.text[$0])
                })
            let bob = try await Browser.signIn(client, "bob")
            _ = try await bob.post("/redeem", ["code": code])
            let home = try await ana.get("/")
            #expect(home.status == .ok && home.text.contains("bob"), "ana's home lists bob as a viewer")
            #expect(home.text.contains("name=\"viewer\" value=\"bob\""), "with the form that ends his grant")
            let his = try await bob.get("/")
            #expect(
                his.status == .ok && !his.text.contains("name=\"viewer\" value=\"ana\""), "bob ends no grant of ana's")
            #expect(try store.readNow { try $0.grants(viewer: "bob") }.map(\.owner) == ["ana"])
        }
    }
}
