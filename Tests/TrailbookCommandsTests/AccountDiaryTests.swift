import Foundation
import Testing
import TrailbookTestSupport

/// Every account of a store has its own diary (records, notes, photos, fields, day summaries,
/// places, cues, alerts), on both engines, and stores written by today's main upgrade into it.
@Suite struct AccountDiaryTests {
    /// The store URLs or files to run on: a SQLite file and a new PostgreSQL database.
    static func stores(_ folder: String) throws -> [String] {
        [folder + "/store.sqlite", try PostgresCluster.shared().newDatabase()]
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func twoAccountsEachKeepTheirOwnDiaryAndNeitherSeesTheOthers() async throws {
        let folder = try Samples.temporaryDirectory()
        let photo = folder + "/lake.jpg"
        try TestPhotos.make(photo, taken: "2026:06:14 09:00:00")
        for (n, store) in try Self.stores(folder).enumerated() {
            let environment = ["TRAILBOOK_MEDIA": folder + "/media-\(n)"]
            func trailbook(_ arguments: [String], input: Data? = nil) async throws -> RunResult {
                try await run(arguments + ["--store", store], input: input, environment: environment)
            }
            func ok(_ arguments: [String], input: Data? = nil) async throws -> String {
                let result = try await trailbook(arguments, input: input)
                #expect(result.status == 0, "\(arguments) on \(store): \(result.stderr)")
                return result.stdout
            }
            var records: [String: Int] = [:]
            for (user, lat) in [("ana", "47.37"), ("bo", "46.95")] {
                _ = try await ok(
                    ["user", "add", user, "--password-stdin"], input: Data("correct horse battery staple\n".utf8))
                let mark = try Self.object(
                    try await ok([
                        "mark", "--user", user, "--lat", lat, "--lon", "8.5", "--at", "2026-06-14 09:00", "--note",
                        "\(user)'s lake", "--field", "owner=\(user)", "--json", "--time-zone", "UTC",
                    ]))
                let id = try #require(mark["id"] as? Int)
                records[user] = id
                _ = try await ok(["photo", "add", "--user", user, String(id), photo])
                _ = try await ok(["place", "add", "--user", user, "home", "--lat", lat, "--lon", "8.5"])
                _ = try await ok(["cue", "add", "--user", user, "\(user)'s bread", "--arrive", "home"])
                _ = try await ok([
                    "alert", "add", "--user", user, "--on", "place.arrive", "--webhook", "http://127.0.0.1:9/\(user)",
                ])
                _ = try await ok(["day", "2026-06-14", "--user", user, "--summary", "\(user)'s day", "--time-zone", "UTC"])
            }
            for user in ["ana", "bo"] {
                let list = try #require(
                    try Self.object(try await ok(["records", "--user", user, "--json"]))["records"] as? [[String: Any]])
                #expect(list.map { $0["id"] as? Int } == [records[user]], "\(user)'s records only: \(list)")
                #expect((list.first?["fields"] as? [String: Any])?["owner"] as? String == user)
                #expect((list.first?["notes"] as? [[String: Any]])?.map { $0["text"] as? String } == ["\(user)'s lake"])
                #expect((list.first?["photos"] as? [Any])?.count == 1, "the photo is on \(user)'s record")
                let day = try Self.object(
                    try await ok(["day", "2026-06-14", "--user", user, "--json", "--time-zone", "UTC"]))
                #expect(day["summary"] as? String == "\(user)'s day")
                #expect((day["records"] as? [Any])?.count == 1)
                #expect(try await ok(["cue", "list", "--user", user]).contains("\(user)'s bread"))
                #expect(try await ok(["alert", "list", "--user", user]).contains("127.0.0.1:9/\(user)"))
            }
            // The store's own user has none of it; another account's record is not there for you.
            let own = try Self.object(try await ok(["day", "2026-06-14", "--json", "--time-zone", "UTC"]))
            #expect(own["summary"] == nil && (own["records"] as? [Any])?.isEmpty == true, "\(own)")
            #expect(try await ok(["cue", "list"]).contains("No cues yet"))
            let foreign = try await trailbook(["note", "add", "--user", "bo", String(records["ana"]!), "--text", "mine?"])
            #expect(foreign.status == 66 && foreign.stderr.contains("There is no record \(records["ana"]!)"))
            let removal = try await trailbook(["rm", "--user", "bo", String(records["ana"]!), "--yes"])
            #expect(removal.status == 66, "\(removal.stderr)")
            #expect(try Self.object(try await ok(["records", "--user", "ana", "--json"]))["records"] as? [Any] != nil)
            let ghost = try await trailbook(["records", "--user", "nobody"])
            #expect(ghost.status == 66 && ghost.stderr.contains("There is no account nobody"), "\(ghost.stderr)")
            // Removing ana's day leaves bo's day whole.
            _ = try await ok(["rm", "--user", "ana", "--day", "2026-06-14", "--yes", "--time-zone", "UTC"])
            #expect(
                try Self.object(try await ok(["day", "2026-06-14", "--user", "ana", "--json", "--time-zone", "UTC"]))[
                    "summary"] == nil)
            #expect(
                try Self.object(try await ok(["day", "2026-06-14", "--user", "bo", "--json", "--time-zone", "UTC"]))[
                    "summary"] as? String
                    == "bo's day")
        }
    }

    /// A store written by f1bda2e (../shared/fixtures/v15-store): its records, notes, photo,
    /// fields and day summary become the local account's, the phone's points stay ana's.
    /// `import --user`: the file goes to that account's device and counts as imported for that
    /// account only; its reimport leaves the other account's points alone.
    @Test func eachAccountImportsTheSameFileForItself() async throws {
        let folder = try Samples.temporaryDirectory()
        let store = folder + "/store.sqlite"
        let log = Samples.path("ride.nmea")
        func trailbook(_ arguments: [String], input: Data? = nil) async throws -> RunResult {
            try await run(arguments + ["--store", store], input: input)
        }
        func stored(_ arguments: [String]) async throws -> Int? {
            let result = try await trailbook(["import", log, "--json"] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try Self.object(result.stdout)["stored"] as? Int
        }
        let none = try await trailbook(["import", log, "--user", "ana"])
        #expect(none.status == 66 && none.stderr.contains("There is no account ana in \(store)"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: store), "no store made for a refused import")
        #expect(try await stored([]) == 1762)
        #expect(
            try await trailbook(
                ["user", "add", "ana", "--password-stdin"], input: Data("correct horse battery staple\n".utf8)
            )
            .status == 0)
        #expect(try await stored(["--user", "ana"]) == 1762, "the same file again, for ana")
        #expect(try await stored(["--user", "ana"]) == 0, "ana has it now")
        #expect(try await stored(["--user", "ana", "--reimport"]) == 1762, "ana's reimport")
        let days = ["--from", "2026-06-14", "--to", "2026-06-14"]
        for user in [[], ["--user", "ana"]] {
            let points = try await trailbook(["points"] + days + user)
            #expect(points.stdout.split(separator: "\n").count == 1 + 1762, "\(user): \(points.stderr)")
        }
        // A dry run for ana names her alerts, not the store's own user's.
        #expect(
            try await trailbook(["alert", "add", "--on", "fix.lost", "--webhook", "http://127.0.0.1:9/x", "--user", "ana"])
                .status == 0)
        for (user, says) in [(["--user", "ana"], true), ([], false)] {
            let dry = try await trailbook(["import", log, "--dry-run", "--events"] + user)
            #expect(dry.stdout.contains("→ alert 1 (webhook) would send it live") == says, "\(user): \(dry.stdout)")
        }
        let other = try await trailbook(["import", log, "--user", "bo"])
        #expect(other.status == 66 && other.stderr.contains("it has ana, me"), "\(other.stderr)")
    }

    @Test func todaysStoresUpgradeInPlaceOnBothEngines() async throws {
        let fixture = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/v15-store").path
        guard FileManager.default.fileExists(atPath: fixture + "/v15.sqlite") else {
            throw RunError("\(fixture) is missing: clone the shared folder beside the repository (CI has it).")
        }
        let folder = try Samples.temporaryDirectory()
        try FileManager.default.copyItem(atPath: fixture, toPath: folder + "/v15")
        let cluster = try PostgresCluster.shared()
        let database = try cluster.newDatabase()
        try cluster.restore(fixture + "/p7.sql", into: database)
        let engines = [
            (folder + "/v15/v15.sqlite", [String: String]()), (database, ["TRAILBOOK_MEDIA": folder + "/v15/p7-media"]),
        ]
        func canonical(_ data: Data) throws -> String {
            let text = String(decoding: data, as: UTF8.self).replacingOccurrences(
                of: "\"path\" *: *\"[^\"]*/(v15|p7)-media/", with: "\"path\" : \"media/", options: .regularExpression)
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
            return String(
                decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
        }
        func expected(_ name: String) throws -> String {
            try canonical(Data(contentsOf: URL(fileURLWithPath: fixture + "/" + name)))
        }
        for (store, environment) in engines {
            func ok(_ arguments: [String]) async throws -> String {
                let result = try await run(arguments + ["--store", store], environment: environment)
                #expect(result.status == 0, "\(arguments) on \(store): \(result.stderr)")
                return result.stdout
            }
            #expect(try await canonical(Data(ok(["rides", "--json"]).utf8)) == expected("rides.json"), "\(store)")
            #expect(try await canonical(Data(ok(["records", "--json"]).utf8)) == expected("records.json"), "\(store)")
            #expect(try await canonical(Data(ok(["place", "list", "--json"]).utf8)) == expected("places.json"), "\(store)")
            #expect(try await Self.object(ok(["day", "2026-06-14", "--json"]))["summary"] as? String == "Morning loop")
            // ana's account: her phone's five points, a diary of her own that starts empty.
            let points = try await ok(["points", "--user", "ana", "--from", "2000-01-01", "--to", "2100-01-01"])
            #expect(points.split(separator: "\n").count == 1 + 5, "\(points)")
            #expect(
                (try await Self.object(ok(["records", "--user", "ana", "--json"]))["records"] as? [Any])?.isEmpty == true)
            #expect(try await Self.object(ok(["day", "2026-06-14", "--user", "ana", "--json"]))["summary"] == nil)
            // The file imported then is the local user's import now: importing it again stores nothing.
            let again = try await Self.object(ok(["import", Samples.path("ride.nmea"), "--json"]))
            let files = again["files"] as? [[String: Any]]
            #expect(
                (files?.first?["already_imported"] as? [String: Any])?["points"] as? Int == 1762,
                "\(store): \(again)")
        }
    }
}
