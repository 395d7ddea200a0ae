import Foundation
import GPSCore
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import TrackModel
import TrailbookKit
import TrailbookTestSupport

@testable import TrackStore
@testable import TrailbookServer

/// What a browser uploads (a track file on the import page, a photo on the day page), sent in
/// this process as the pages' scripts send it: the body with its length, the name in `?name=`,
/// the session's token in `X-CSRF-Token`.
@Suite struct WebUploadsTests {
    typealias API = SharingAPITests

    /// Sends `body` to `uri` as the pages' scripts do (nil `csrf`: no token; nil `length`: none).
    static func upload(
        _ browser: Browser, _ uri: String, _ body: [UInt8], type: String, csrf: String?, length: Bool = true
    ) async throws -> (status: HTTPResponse.Status, json: [String: Any]?, text: String) {
        var headers = browser.session
        headers[.contentType] = type
        if let csrf { headers[HTTPField.Name("X-CSRF-Token")!] = csrf }
        if length { headers[.contentLength] = String(body.count) }
        return try await browser.client.execute(
            uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: body)
        ) { response in
            let text = String(buffer: response.body)
            return (response.status, try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], text)
        }
    }

    @Test func aLogUploadedOnTheImportPageIsStoredOnceAsTheAccountsAndSaysItsDays() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client, zone: "UTC")
            let log = try Samples.bytes("ride.nmea")
            let first = try await Self.upload(
                ana, "/import?name=..%2Fride.nmea", log, type: "application/octet-stream", csrf: ana.csrf)
            #expect(first.status == .ok, "\(first.text.prefix(300))")
            let stored = try #require(first.json?["stored"] as? Int)
            #expect(stored > 100 && first.json?["rides"] as? Int == 1, "\(first.text.prefix(400))")
            #expect(first.json?["days"] as? [String] == ["2026-06-14"], "\(first.text.prefix(400))")
            #expect(first.json?["file"] as? String == "ride.nmea", "the browser's name, its last part")
            let points = try store.readNow {
                try $0.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .account("ana", device: nil))
            }
            #expect(points.count == stored)
            #expect(try store.readNow { try $0.devices(of: "ana") }?.map(\.name).sorted() == ["imported", "overland"])
            #expect(try store.readNow { try $0.devices(of: "bob") }?.isEmpty == true)
            // The same file again is known: nothing more stored.
            let again = try await Self.upload(
                ana, "/import?name=ride.nmea", log, type: "application/octet-stream", csrf: ana.csrf)
            #expect(again.status == .ok && again.json?["already_imported"] != nil, "\(again.text.prefix(400))")
            #expect(
                try store.readNow {
                    try $0.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .account("ana", device: nil))
                }.count == stored)
        }
    }

    @Test func anUploadThatCannotBeReadIsRefusedInOneSentenceWithTheBrowsersName() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client)
            let text = Array("this is a shopping list, not a track\n".utf8)
            let unknown = try await Self.upload(
                ana, "/import?name=list.txt", text, type: "text/plain", csrf: ana.csrf)
            #expect(unknown.status == .unprocessableContent, "\(unknown.status) \(unknown.text.prefix(300))")
            let sentence = API.message(unknown.json) ?? unknown.text
            #expect(sentence.contains("list.txt") && !sentence.contains("trailbook-upload-"), "\(sentence)")
            // No token: refused before anything is read.
            let forged = try await Self.upload(ana, "/import?name=a.nmea", text, type: "text/plain", csrf: nil)
            #expect(forged.status == .forbidden, "\(forged.status)")
            #expect(
                try store.readNow {
                    try $0.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .account("ana", device: nil))
                }.isEmpty)
        }
    }

    @Test func aPhotoUploadedToARecordIsServedToItsAccountOnly() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client)
            _ = try await ana.post("/day/2026-06-14/records", ["lat": "47.37", "lon": "8.54", "time": "10:00"])
            let id = try #require(try store.readNow { try $0.records(account: "ana") }.first?.id)
            let jpeg = try Samples.bytes("photos/lake.jpg")
            let sent = try await Self.upload(
                ana, "/records/\(id)/photos?name=lake.jpg", jpeg, type: "image/jpeg", csrf: ana.csrf)
            #expect(sent.status == .ok, "\(sent.text.prefix(300))")
            #expect(sent.json?["photos"] as? Int == 1 && sent.json?["record"] as? Int == Int(id), "\(sent.text)")
            #expect(try store.readNow { try $0.record(id, account: "ana") }?.photos.count == 1)
            let served = try await ana.client.execute(uri: "/photos/\(id)/0", method: .get, headers: ana.session) {
                ($0.status, $0.headers[.contentType] ?? "", Array(buffer: $0.body))
            }
            #expect(served.0 == .ok && served.1 == "image/jpeg" && served.2 == jpeg, "\(served.0) \(served.1)")
            #expect(try await ana.get("/photos/\(id)/1").status == .notFound)
            let bob = try await Browser.signIn(client, "bob")
            #expect(try await bob.get("/photos/\(id)/0").status == .notFound)
            let theirs = try await Self.upload(
                bob, "/records/\(id)/photos?name=lake.jpg", jpeg, type: "image/jpeg", csrf: bob.csrf)
            #expect(theirs.status == .notFound, "bob's upload to ana's record: \(theirs.status)")
            // Not a JPEG: the sentence names the browser's file; the record keeps its one photo.
            let text = try await Self.upload(
                ana, "/records/\(id)/photos?name=notes.jpg", Array("hello".utf8), type: "image/jpeg", csrf: ana.csrf)
            #expect(text.status == .unprocessableContent, "\(text.status)")
            #expect((API.message(text.json) ?? text.text).contains("notes.jpg"), "\(text.text)")
            #expect(try store.readNow { try $0.record(id, account: "ana") }?.photos.count == 1)
        }
    }

    @Test func theOverviewPagesShowTheAccountsOwnDays() async throws {
        try await API.withServer { client, token, _ in
            try await WebFormsTests.postThreePoints(client, token: token)
            let ana = try await Browser.signIn(client, zone: "UTC")
            let year = try await ana.get("/calendar?year=2026")
            #expect(year.status == .ok && year.text.contains("1 ride") && year.text.contains("3 points"), "ana's day")
            let days = try await ana.get("/days?from=2026-06-10&to=2026-06-16")
            #expect(days.status == .ok && days.text.contains("2026-06-14"))
            let day = try await ana.get("/day/2026-06-14")
            #expect(day.status == .ok && day.text.contains("12:30"), "the day's ride, from 12:30 UTC")
            let heat = try await ana.get("/heatmap?year=2026")
            #expect(heat.status == .ok && heat.text.contains("<html"))
            // bob's calendar has no day of ana's.
            let bob = try await Browser.signIn(client, "bob")
            let his = try await bob.get("/calendar?year=2026")
            #expect(his.status == .ok && !his.text.contains("3 points") && !his.text.contains("1 ride"))
        }
    }

    @Test func theYearHeatmapAndOverlayCountTheAccountsOwnAndRefuseYearsOutOfRange() async throws {
        try await API.withServer { client, token, _ in
            _ = try await WebFormsTests.postTwoStaysAndATrip(client, token: token)
            let ana = try await Browser.signIn(client, zone: "UTC")
            let heat = try await ana.get("/heatmap?year=2026")
            #expect(heat.status == .ok && heat.text.contains("Your 70 points of 2026"), "\(heat.text.count)")
            let empty = try await ana.get("/heatmap?year=2025")
            #expect(empty.status == .ok && empty.text.contains("Nothing recorded in 2025."))
            let bob = try await Browser.signIn(client, "bob")
            #expect(try await bob.get("/heatmap").text.contains("Nothing recorded yet"))
            for page in ["/heatmap?year=1969", "/year?year=10000", "/calendar?year=12"] {
                let answer = try await ana.get(page)
                #expect(answer.status == .notFound && answer.text.contains("between 1970 and 9999"), "\(page)")
            }
            let year = try await ana.get("/year?year=2026")
            #expect(year.status == .ok && year.text.contains("2026"))
            // The overlay: at most its days on one map, the last of a longer range; backwards is forwards.
            let long = try await ana.get("/days?from=2024-01-01&to=2026-06-14")
            #expect(
                long.status == .ok
                    && long.text.contains(
                        "At most 366 days go on one map: these are the last of the range, from 2025-06-14.")
            )
            let backwards = try await ana.get("/days?from=2026-06-14&to=2026-06-10")
            #expect(backwards.status == .ok && backwards.text.contains("2026-06-10 to 2026-06-14: 1 day"))
            let none = try await bob.get("/days?from=2026-06-10&to=2026-06-14")
            #expect(none.text.contains("Nothing recorded from 2026-06-10 to 2026-06-14"))
        }
    }

    @Test func aRecordsPhotoIsOnItsDayAndItsFileGoesWithTheRecord() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Browser.signIn(client, zone: "UTC")
            _ = try await ana.post("/day/2026-06-14/records", ["lat": "47.37", "lon": "8.54", "time": "10:00"])
            let id = try #require(try store.readNow { try $0.records(account: "ana") }.first?.id)
            let sent = try await Self.upload(
                ana, "/records/\(id)/photos?name=lake.jpg", try Samples.bytes("photos/lake.jpg"), type: "image/jpeg",
                csrf: ana.csrf)
            #expect(sent.status == .ok)
            let photo = try #require(try store.readNow { try $0.record(id, account: "ana") }?.photos.first)
            let file = store.mediaDirectory + "/" + photo.file
            #expect(FileManager.default.fileExists(atPath: file))
            let day = try await ana.get("/day/2026-06-14")
            #expect(day.text.contains("/photos/\(id)/0"), "the day shows the photo")
            let removed = try await ana.post("/records/\(id)/delete")
            #expect(removed.status == .seeOther)
            #expect(!FileManager.default.fileExists(atPath: file), "the file went with its record")
            #expect(try await ana.get("/photos/\(id)/0").status == .notFound)
        }
    }

    @Test func theAccountsArchiveIsAStoreOfItsOwnWithNothingOfAnotherAccount() async throws {
        try await API.withServer(archives: true) { client, token, _ in
            try await WebFormsTests.postThreePoints(client, token: token)
            let bob = try await Browser.signIn(client, "bob")
            _ = try await bob.post("/day/2026-06-14/records", ["lat": "46.9", "lon": "7.4", "time": "09:00"])
            let ana = try await Browser.signIn(client)
            _ = try await ana.post("/day/2026-06-14/summary", ["summary": "Three points"])
            let (status, disposition, tar) = try await client.execute(
                uri: "/export/archive", method: .get, headers: ana.session
            ) { ($0.status, $0.headers[.contentDisposition] ?? "", Array(buffer: $0.body)) }
            #expect(status == .ok && disposition.contains("trailbook-ana-") && disposition.contains(".tar"))
            let folder = try Samples.temporaryDirectory()
            try Data(tar).write(to: URL(fileURLWithPath: folder + "/a.tar"))
            let untar = Process()
            untar.executableURL = URL(fileURLWithPath: "/bin/tar")
            untar.arguments = ["-C", folder, "-xf", folder + "/a.tar"]
            try untar.run()
            untar.waitUntilExit()
            #expect(untar.terminationStatus == 0)
            let name = try #require(
                try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix("trailbook-ana-") })
            let copy = try TrackStore(existingAt: folder + "/" + name + "/trailbook.sqlite")
            let (points, summary, accounts, records) = try copy.readNow { tx in
                (
                    try tx.points(account: "ana", fromMilliseconds: .min, toMilliseconds: .max).count,
                    try tx.daySummary(CivilDate(iso: "2026-06-14")!, account: "ana"),
                    try tx.accounts().map(\.name), try tx.records(account: "bob").count
                )
            }
            #expect(points == 3 && summary == "Three points", "\(points) \(summary as Any)")
            #expect(accounts == ["ana"] && records == 0, "nothing of bob's: \(accounts)")
            // Without a session: sent to sign in.
            #expect(try await client.execute(uri: "/export/archive", method: .get) { $0.status } == .seeOther)
        }
    }

    @Test func theMapsTilesComeFromTheMBTilesFileAndAMissingOneIsDrawnFromItsParent() async throws {
        let folder = try Samples.temporaryDirectory()
        try TileServer.makeMBTiles(folder + "/map.mbtiles", tiles: ["3/4/2"])
        let tiles = try TileFetcher(
            source: .mbtiles(folder + "/map.mbtiles"), attribution: "test", cache: folder + "/cache")
        try await API.withServer(tiles: tiles) { client, _, _ in
            #expect(try await client.execute(uri: "/tiles/3/4/2", method: .get) { $0.status } != .ok, "signed in only")
            let ana = try await Browser.signIn(client)
            let tile = try await ana.get("/tiles/3/4/2")
            #expect(tile.status == .ok && tile.headers[.contentType] == "image/png", "\(tile.status)")
            // A tile the file lacks below one it has: drawn from it, scaled, and said so.
            let child = try await ana.get("/tiles/4/8/4")
            #expect(child.status == .ok && child.headers[.contentType] == "image/svg+xml", "\(child.status)")
            #expect(child.headers[HTTPField.Name("X-Trailbook-Tile")!] == "scaled from 1 zoom level up")
            #expect(child.text.contains("data:image/png;base64,"), "the parent's image inside")
            // Nowhere near: the hatched square that says so, not cached.
            let none = try await ana.get("/tiles/3/0/0")
            #expect(none.status == .ok && none.headers[.contentType] == "image/svg+xml")
            #expect(none.headers[HTTPField.Name("X-Trailbook-Tile")!] == "missing" && none.text.contains("no map here"))
            #expect(try await ana.get("/tiles/25/0/0").status == .notFound, "no such zoom")
        }
    }
}
