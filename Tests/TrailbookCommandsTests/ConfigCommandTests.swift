import Foundation
import Testing
import TrailbookTestSupport

/// `trailbook config` and `trailbook import --dry-run` end to end.
@Suite struct ConfigCommandTests {
    func write(_ text: String) throws -> String {
        let path = try Samples.temporaryDirectory() + "/config.toml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func checkAcceptsAGoodFile() async throws {
        let path = try write(
            """
            preset = "diary"

            [collection]
            interval = 30

            [active_hours]
            windows = ["07:00-12:00", "22:00-06:00"]
            weekdays = ["mon", "fri"]

            [time]
            zone = "Europe/Zurich"
            """)
        let result = try await run(["config", "check", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ok (preset diary, 4 settings)"))
    }

    @Test(arguments: [
        ("[collection]\ninterval = -5\n", "line 2, key collection.interval", "at least 0"),
        (
            "[collection]\nintervall = 5\n", "line 2, key collection.intervall",
            "unknown key; [collection] takes interval, min_distance"
        ),
        (
            "[active_hours]\nwindows = [\"25:00-06:00\"]\n", "line 2, key active_hours.windows",
            "\"25:00-06:00\" is not a window"
        ),
        ("[time]\nzone = \"Mars/Olympus\"\n", "line 2, key time.zone", "not a known time zone"),
        ("[accuracy]\nmax_hdop = \"five\"\n", "line 2, key accuracy.max_hdop", "must be a number above 0, or false"),
        ("\n\n[jumps]\nmax_speed = 0\n", "line 4, key jumps.max_speed", "must be a number above 0"),
        ("[segment]\ngap = 5\n", "line 1, key segment", "unknown setting; the sections are"),
        ("preset = \"commute\"\n", "line 1, key preset", "unknown preset \"commute\""),
        ("[collection\ninterval = 5\n", "line 1", "not valid TOML"),
        // Found by make fuzz: toml++ asserted (the process aborted) on a key starting with "=".
        ("preset = \"ride\"\n[= [\"07:00-12:00\"]\n", "line 2", "in a [table] header, a key cannot start with"),
        ("[collection]\ninterval. = 5\n", "line 2", "a key cannot start with \"=\""),
        ("[time]\nzone = { = 1 }\n", "line 2", "a key cannot start with \"=\""),
        ("[active_hours]\nwindows = [}}\"6:0:\"]\n", "line 2", "a value is missing before \"}\""),
        ("[collection]\ninterval =\n", "line 2", "a value is missing after \"=\""),
    ])
    func badSettingsExit78NamingFileLineAndKey(text: String, place: String, problem: String) async throws {
        let path = try write(text)
        let result = try await run(["config", "check", path])
        #expect(result.status == 78)
        #expect(result.stderr.contains("Bad configuration in \(path), \(place)"), "\(result.stderr)")
        #expect(result.stderr.contains(problem), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "one sentence")
    }

    @Test func showPrintsEveryKeyWithItsOrigin() async throws {
        let path = try write("[accuracy]\nmax_hdop = 3\n")
        let result = try await run(["config", "show", "--config", path, "--interval", "5", "--time-zone", "Asia/Tokyo"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("max_hdop = 3  # HDOP above 0, or false to turn off; from file"))
        #expect(result.stdout.contains("interval = 5  # seconds, 0 or more (0 keeps every fix); from command line"))
        #expect(result.stdout.contains("zone = \"Asia/Tokyo\""))
        #expect(
            result.stdout.contains("min_satellites = 4  # satellites, 0 or more (0 turns it off); from preset ride"))
        for section in ["[collection]", "[accuracy]", "[jumps]", "[segments]", "[active_hours]", "[time]"] {
            #expect(result.stdout.contains(section))
        }
    }

    @Test func badOverrideExits78() async throws {
        let result = try await run(["config", "show", "--active-hours", "7-12"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("the command line, key active_hours.windows: \"7-12\" is not a window"))
    }

    @Test func missingConfigFileExits66() async throws {
        let result = try await run(["config", "show", "--config", "/nonexistent/trailbook.toml"])
        #expect(result.status == 66)
    }

    @Test func dryRunImportCountsAndCSV() async throws {
        let json = try await run(["import", "--dry-run", "--json", "--max-hdop", "1.0", "Samples/ride.nmea"])
        #expect(json.status == 0, "\(json.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(report["fixes_read"] as? Int == 1800)
        let dropped = try #require(report["dropped"] as? [String: Int])
        #expect(dropped["no_fix"] == 38)
        #expect((dropped["hdop"] ?? 0) > 0)
        #expect(report["kept"] as? Int == 1800 - dropped.values.reduce(0, +))
        #expect((report["rides"] as? Int ?? 0) >= 1 && (report["segments"] as? Int ?? 0) >= 1)

        let csv = try await run(["import", "--dry-run", "--format", "csv", "--preset", "diary", "Samples/ride.nmea"])
        let rows = csv.stdout.split(separator: "\n")
        #expect(
            rows.first?.hasSuffix(",err_alt,ride,segment,heart_rate,cadence,power,temperature,accuracy,activity")
                == true)
        #expect(rows.count == 31, "one fix a minute over 30 minutes")
        #expect(rows[1].hasPrefix("2026-06-14T06:30:00.000Z,3,47.376900000,8.541700000"))
    }

    @Test func csvWithoutDryRunIsAUsageError() async throws {
        let result = try await run(
            ["import", "--format", "csv", "Samples/ride.nmea"], environment: ["TRAILBOOK_STORE": "/nonexistent/never"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("use it with --dry-run"))
    }
}
