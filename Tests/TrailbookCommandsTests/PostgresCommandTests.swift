import Foundation
import Testing
import TrailbookTestSupport

/// Every command on a `postgresql://` store: the same inputs into a SQLite file and into a
/// database of the test cluster give the same answers; a server away, a refused login and a
/// URL that cannot be used end with their sentence and exit code.
@Suite struct PostgresCommandTests {
    @Test func everyCommandAnswersTheSameOnPostgreSQLAsOnSQLite() async throws {
        let cluster = try PostgresCluster.shared()
        let folder = try Samples.temporaryDirectory()
        let second = folder + "/second.nmea"
        let simulated = try await run([
            "simulate", "--duration", "900", "--seed", "4", "--start", "2026-06-14T09:00:00", "-o", second,
        ])
        try #require(simulated.status == 0, "\(simulated.stderr)")
        // The ride a day later from a bike computer: heart rate, cadence, power and temperature.
        let fit = folder + "/next-day.fit"
        let nextDay = GoogleImportTests.ride.map {
            GoogleImportTests.Point(
                milliseconds: $0.milliseconds + 86_400_000, latitude: $0.latitude, longitude: $0.longitude,
                altitude: $0.altitude, speed: $0.speed)
        }
        try Data(FITImportTests.activity(nextDay)).write(to: URL(fileURLWithPath: fit))
        let stores = [folder + "/store.sqlite", try cluster.newDatabase()]
        let zone = ["--time-zone", "Europe/Zurich"]
        var answers: [[String]] = []
        for store in stores {
            let environment = ["TRAILBOOK_MEDIA": folder + "/media-\(answers.count)"]
            func trailbook(_ arguments: [String]) async throws -> String {
                let result = try await run(arguments + ["--store", store], environment: environment)
                #expect(result.status == 0, "\(arguments) on \(store): \(result.stderr)")
                return Self.comparable(result.stdout, store: store)
            }
            _ = try await trailbook(["import", "Samples/ride.nmea", second, fit])
            _ = try await trailbook(["note", "add", "--at", "2026-06-14 08:45", "--text", "Coffee by the lake."] + zone)
            _ = try await trailbook(
                ["mark", "--lat", "47.3", "--lon", "8.5", "--at", "2026-06-14 12:00", "--note", "Lunch"] + zone)
            _ = try await trailbook(["day", "2026-06-14", "--summary", "Two rides."])
            answers.append([
                try await trailbook(["rides", "--json"] + zone),
                try await trailbook(["points", "--day", "2026-06-14"] + zone),
                try await trailbook(["records", "--json", "--day", "2026-06-14"] + zone),
                try await trailbook(["day", "2026-06-14", "--json"] + zone),
                try await trailbook(["summary", "--day", "2026-06-14"] + zone),
                try await trailbook(["export", "--day", "2026-06-14", "--format", "gpx"] + zone),
                try await trailbook(["points", "--day", "2026-06-15", "--format", "jsonl"] + zone),
                try await trailbook(["summary", "--day", "2026-06-15", "--json"] + zone),
            ])
            let page = folder + "/day-\(answers.count).html"
            _ = try await trailbook(["report", "day", "2026-06-14", "-o", page] + zone)
            answers[answers.count - 1].append(
                Self.comparable(try String(contentsOfFile: page, encoding: .utf8), store: store))
        }
        #expect(answers[0][1].split(separator: "\n").count == 1762 + 901, "every point, with the header")
        #expect(answers[1][6].contains(#""heart_rate":100,"cadence":70,"power":150,"temperature":-3"#))
        #expect(answers[1][7].contains("\"heart_rate_bpm\""), "\(answers[1][7].prefix(600))")
        for (sqlite, postgres) in zip(answers[0], answers[1]) {
            #expect(sqlite == postgres, "the PostgreSQL store answered otherwise: \(postgres.prefix(300))")
        }
        // Removal works there too, and leaves the stores alike.
        for store in stores {
            let removed = try await run(["rm", "--ride", "1", "--yes", "--store", store])
            #expect(removed.status == 0, "\(removed.stderr)")
        }
        var left: [String] = []
        for store in stores { left.append(try await run(["rides", "--json", "--store", store]).stdout) }
        #expect(left[0] == left[1])
    }

    /// Visits, remembered places and corrections on PostgreSQL: the same as on SQLite.
    @Test func visitsAndTheirCorrectionsAnswerTheSameOnPostgreSQL() async throws {
        let cluster = try PostgresCluster.shared()
        let folder = try Samples.temporaryDirectory()
        let part = try VisitsCommandTests().files()[0]
        let stores = [folder + "/visits.sqlite", try cluster.newDatabase()]
        let zone = ["--time-zone", "Europe/Zurich"]
        var answers: [[String]] = []
        for store in stores {
            func trailbook(_ arguments: [String]) async throws -> String {
                let result = try await run(arguments + ["--store", store])
                #expect(result.status == 0, "\(arguments) on \(store): \(result.stderr)")
                return Self.comparable(result.stdout, store: store)
            }
            _ = try await trailbook(["import", part])
            let first = try await trailbook(["visits", "--json", "--places"] + zone)
            _ = try await trailbook(["visit", "mode", "2026-06-03 07:35", "running"] + zone)
            _ = try await trailbook(["visit", "place", "2026-06-03 12:20", "place 2"] + zone)
            _ = try await trailbook(["visit", "name", "3", "Canteen"] + zone)
            // The edits of the timeline's shape too.
            _ = try await trailbook(["visit", "split", "2026-06-03 10:00", "--at", "2026-06-03 11:00"] + zone)
            _ = try await trailbook(["visit", "rm", "2026-06-03 17:35"] + zone)
            answers.append([
                first, try await trailbook(["visits", "--day", "2026-06-03"] + zone),
                try await trailbook(["visits", "--json"] + zone), try await trailbook(["visit", "corrections", "--json"] + zone),
                try await trailbook(["year", "2026", "--json"] + zone),
                // Rides joined while the file is read (SQLite) or at its end (PostgreSQL): alike.
                try await trailbook(["rides", "--json"] + zone),
            ])
        }
        let rides = try #require(
            try JSONSerialization.jsonObject(with: Data(answers[0][5].utf8)) as? [String: [[String: Any]]])["rides"]
        #expect((rides?.count ?? 0) > 10, "rides of five days: \(rides?.count ?? 0)")
        #expect(rides?.contains { !(($0["dropped"] as? [String: Int]) ?? [:]).isEmpty } == true, "some with drops")
        #expect(answers[0][1].contains("→ running") && answers[0][1].contains("(as you said)"), "\(answers[0][1])")
        for (sqlite, postgres) in zip(answers[0], answers[1]) {
            #expect(sqlite == postgres, "the PostgreSQL store answered otherwise: \(postgres.prefix(600))")
        }
    }

    /// `text` without what differs by nature: the store's name, and when a note or a correction
    /// was written.
    static func comparable(_ text: String, store: String) -> String {
        text.replacingOccurrences(of: store, with: "STORE").replacingOccurrences(
            of: #""(created|updated|made)" : "[^"]*""#, with: "\"$1\" : \"TIME\"", options: .regularExpression)
    }

    @Test func aServerAwayARefusedLoginAndABadURLSaySoWithTheirExitCodes() async throws {
        let cluster = try PostgresCluster.shared()
        let away = try await run(["rides", "--store", "postgresql://trailbook@127.0.0.1:1/trailbook"])
        #expect(away.status == 69)
        #expect(away.stderr.contains("does not answer") && away.stderr.contains("127.0.0.1:1"), "\(away.stderr)")
        let stranger = try await run(["rides", "--store", "postgresql://nobody-here@127.0.0.1:\(cluster.port)/postgres"])
        #expect(stranger.status == 77)
        #expect(stranger.stderr.contains("refused the login"), "\(stranger.stderr)")
        let noDatabase = try await run(["rides", "--store", cluster.url(database: "no_such_database")])
        #expect(noDatabase.status == 69)
        #expect(noDatabase.stderr.contains("does not exist"), "\(noDatabase.stderr)")
        let bad = try await run(["rides", "--store", "postgresql://127.0.0.1:\(cluster.port)"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("names no database"), "\(bad.stderr)")
        // A read on an empty database makes nothing: exit 66, and the database stays empty.
        let empty = try cluster.newDatabase()
        let read = try await run(["rides", "--store", empty])
        #expect(read.status == 66)
        #expect(read.stderr.contains("There is no Trailbook store"), "\(read.stderr)")
        let name = String(empty.split(separator: "/").last!)
        #expect(try cluster.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", database: name) == "0\n")
        // A store from a newer Trailbook is refused, as with SQLite.
        let newer = try cluster.newDatabase()
        #expect(try await run(["import", "Samples/ride.nmea", "--store", newer]).status == 0)
        _ = try cluster.psql(
            "INSERT INTO trailbook_migration VALUES ('p99-future', 0)",
            database: String(newer.split(separator: "/").last!))
        let refusedNewer = try await run(["rides", "--store", newer])
        #expect(refusedNewer.status == 1, "\(refusedNewer.stderr)")
        #expect(
            refusedNewer.stderr.contains("written by a newer Trailbook (schema p99-future)"), "\(refusedNewer.stderr)")
        // Another application's database is not taken over.
        _ = try cluster.psql("CREATE TABLE orders (id int)", database: name)
        let foreign = try await run(["import", "Samples/ride.nmea", "--store", empty])
        #expect(foreign.status == 73)
        #expect(foreign.stderr.contains("is not a Trailbook store (it has tables orders)"), "\(foreign.stderr)")
    }
}
