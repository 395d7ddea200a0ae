import Foundation
import Testing
import TrailbookTestSupport

/// `trailbook store copy`: a store moved from SQLite into PostgreSQL and back answers the same,
/// ids and all; an interrupted copy continues; a destination in use is refused.
@Suite struct StoreCopyTests {
    let password = "correct horse battery staple"

    @Test func sqliteToPostgreSQLAndBackAnswersTheSame() async throws {
        let folder = try Samples.temporaryDirectory()
        let sqlite = folder + "/first.sqlite"
        let second = folder + "/second.nmea"
        #expect(
            try await run(["simulate", "--duration", "600", "--seed", "3", "--start", "2026-06-14T10:00:00", "-o", second])
                .status == 0)
        func ok(_ arguments: [String], input: Data? = nil, media: String? = nil) async throws -> String {
            let result = try await run(arguments, input: input, environment: media.map { ["TRAILBOOK_MEDIA": $0] } ?? [:])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        let zone = ["--time-zone", "Europe/Zurich"]
        _ = try await ok(["import", "--store", sqlite, "Samples/ride.nmea", second])
        let photo = folder + "/lake.jpg"
        try TestPhotos.make(photo, taken: "2026:06:14 08:40:00", offset: "+02:00")
        _ = try await ok(
            [
                "mark", "--store", sqlite, "--at", "2026-06-14 08:40", "--note", "The lake", "--field", "mood=calm",
                "--photo", photo,
            ] + zone)
        _ = try await ok(["day", "2026-06-14", "--store", sqlite, "--summary", "A good day."])
        for user in ["ana", "ben"] {
            _ = try await ok(["user", "add", user, "--password-stdin", "--store", sqlite], input: Data(password.utf8))
        }
        _ = try await deviceToken("phone", user: "ana", store: sqlite)
        let local = try openStore(sqlite)
        let added = try await local.write {
            try $0.addShareCode(
                owner: "ana", codeHash: "h", scopes: ["live"], historyHours: 0, expiresMilliseconds: .max)
        }
        #expect(added)
        let redeemed = try await local.write {
            try $0.redeemShareCode(codeHash: "h", viewer: "ben", now: 0, maxFailures: 5, window: 1)
        }
        #expect(redeemed != .unknown)

        let database = try PostgresCluster.shared().newDatabase()
        let back = folder + "/back.sqlite"
        // A media folder whose parents do not exist yet either (a new user's data folder).
        let pgMedia = folder + "/data/trailbook/pg-media"
        let there = try await ok(["store", "copy", sqlite, database, "--json"], media: pgMedia)
        let copied = try #require(try JSONSerialization.jsonObject(with: Data(there.utf8)) as? [String: Any])
        let tables = try #require(copied["tables"] as? [String: Int])
        #expect(tables["position"] == 1762 + 600 && tables["share_grant"] == 1 && tables["photo"] == 1, "\(tables)")
        #expect(copied["photo_files"] as? Int == 1, "the photo file went into the database's media folder")
        #expect(copied["photo_folder"] as? String == pgMedia, "and says where: \(there)")
        _ = try await ok(["store", "copy", database, back], media: pgMedia)

        // One account alone (the store's own user, `me`), from either store: its points, rides, record
        // and photo, not the other accounts nor the grant between them.
        var mine: [String] = []
        for (i, source) in [sqlite, database].enumerated() {
            let only = folder + "/only-me-\(i).sqlite"
            let report = try await ok(["store", "copy", "--user", "me", source, only, "--json"], media: pgMedia)
            let counts = try #require(
                (try JSONSerialization.jsonObject(with: Data(report.utf8)) as? [String: Any])?["tables"]
                    as? [String: Int])
            #expect(
                counts["account"] == 1 && counts["position"] == 1762 + 600 && counts["photo"] == 1
                    && counts["share_grant"] == nil && counts["device"] == 1, "from \(source): \(counts)")
            mine.append(only)
        }
        let nobody = try await run(["store", "copy", "--user", "nobody", sqlite, folder + "/nobody.sqlite"])
        #expect(nobody.status == 66 && nobody.stderr.contains("has no account nobody"), "\(nobody.stderr)")

        let stores = [sqlite, database, back] + mine
        // The same answers, but for where each store keeps its photo files.
        func answers(_ arguments: [String]) async throws -> [String] {
            // The copies of one account know no other.
            let asked = arguments.contains("--user") || arguments.first == "user" ? Array(stores.prefix(3)) : stores
            var answers: [String] = []
            for store in asked {
                answers.append(
                    try await ok(arguments + ["--store", store], media: pgMedia).replacingOccurrences(
                        of: #""path" : "[^"]*/([0-9a-f]{2}/[0-9a-f]{64}\.jpg)""#, with: "\"path\" : \"MEDIA/$1\"",
                        options: .regularExpression))
            }
            return answers
        }
        for question in [
            ["rides", "--json"], ["points", "--day", "2026-06-14"] + zone,
            ["records", "--json", "--day", "2026-06-14"] + zone,
            ["day", "2026-06-14", "--json"] + zone, ["user", "list", "--json"],
            ["device", "list", "--user", "ana", "--json"],
        ] {
            let all = try await answers(question)
            #expect(all[0] == all[1] && all[1] == all[2], "\(question) answered otherwise after the copies")
            if all.count == 5 {
                #expect(all[3] == all[0] && all[4] == all[0], "\(question) answered otherwise in the copies of me")
            }
        }
        for store in [sqlite, database, back] {
            let viewers = try await openStore(store).read { try $0.grants(owner: "ana") }.map(\.viewer)
            #expect(viewers == ["ben"], "the grant in \(store)")
        }
        #expect(
            FileManager.default.fileExists(atPath: folder + "/back-media"), "the photo file came back beside the file")
        // New rows after a copy get new ids (the sequences went past the copied ones).
        for store in [database, back] {
            let marked = try await ok(
                ["mark", "--store", store, "--lat", "47", "--lon", "8", "--at", "2026-06-15 09:00", "--json"] + zone,
                media: pgMedia)
            let record = try JSONSerialization.jsonObject(with: Data(marked.utf8)) as? [String: Any]
            #expect(record?["id"] as? Int == 2, "the record after the copied one: \(marked)")
        }
    }

    @Test func anInterruptedCopyContinuesWhereItStopped() async throws {
        let folder = try Samples.temporaryDirectory()
        let log = folder + "/day.nmea"
        let source = folder + "/day.sqlite"
        #expect(
            try await run(["simulate", "--duration", "43200", "--seed", "8", "--start", "2026-06-20T06:00:00", "-o", log])
                .status == 0)
        #expect(try await run(["import", "--store", source, log]).status == 0)
        let database = try PostgresCluster.shared().newDatabase()
        // Killed while the points are going over.
        let copy = Process()
        copy.executableURL = try trailbookBinary()
        copy.arguments = ["store", "copy", source, database]
        copy.standardOutput = FileHandle.nullDevice
        copy.standardError = FileHandle.nullDevice
        try copy.run()
        var partial = 0
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && copy.isRunning {
            partial =
                Int(
                    try storeRows(database, "SELECT count(*) FROM position").trimmingCharacters(
                        in: .whitespacesAndNewlines)) ?? 0
            if partial > 0 { break }
            try await Task.sleep(for: .seconds(0.02))
        }
        kill(copy.processIdentifier, SIGKILL)
        copy.waitUntilExit()
        let total = Int(
            try storeRows(source, "SELECT count(*) FROM point").trimmingCharacters(in: .whitespacesAndNewlines))!
        #expect(partial > 0 && partial < total, "killed part of the way: \(partial) of \(total)")
        // Run again: it continues, and the stores answer alike.
        let again = try await run(["store", "copy", source, database])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("Continued the copy"), "\(again.stdout)")
        #expect(
            try await run(["rides", "--json", "--store", source]).stdout
                == run(["rides", "--json", "--store", database]).stdout)
        // Into a store that holds something else: refused, and nothing written.
        let other = folder + "/other.sqlite"
        #expect(try await run(["import", "--store", other, "Samples/ride.nmea"]).status == 0)
        let refused = try await run(["store", "copy", database, other])
        #expect(refused.status == 73 && refused.stderr.contains("already holds"), "\(refused.stderr)")
        let same = try await run(["store", "copy", source, source])
        #expect(same.status == 64 && same.stderr.contains("the same store"), "\(same.stderr)")
        let missing = try await run(["store", "copy", folder + "/none.sqlite", folder + "/new.sqlite"])
        #expect(missing.status == 66, "\(missing.stderr)")
    }
}
