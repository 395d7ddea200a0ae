import Foundation
import GPSCore
import RideSimulator
import Testing
import TrailbookTestSupport

/// What a new user tripped over on the first walk through the README (the first-hour issue,
/// second pass).
@Suite struct FirstHourTests {
    /// `$HOME` decides where the store and the config are, as for every Unix tool (not the home
    /// of the account in the password database); empty XDG variables count as unset.
    @Test func theStoreAndTheConfigFollowHOME() async throws {
        let home = try Samples.temporaryDirectory()
        let environment = [
            "HOME": home, "XDG_DATA_HOME": "", "XDG_CONFIG_HOME": "", "XDG_CACHE_HOME": "", "TRAILBOOK_STORE": "",
        ]
        try FileManager.default.createDirectory(
            atPath: home + "/.config/trailbook", withIntermediateDirectories: true)
        try "[time]\nzone = \"Asia/Tokyo\"\n".write(
            toFile: home + "/.config/trailbook/config.toml", atomically: true, encoding: .utf8)
        let shown = try await run(["config", "show"], environment: environment)
        #expect(shown.status == 0 && shown.stdout.contains("zone = \"Asia/Tokyo\""), "\(shown)")
        let missing = try await run(["rides"], environment: environment)
        #expect(missing.status == 66 && missing.stderr.contains(home + "/.local/share/trailbook/trailbook.sqlite"))
        let imported = try await run(["import", "Samples/ride.nmea"], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(FileManager.default.fileExists(atPath: home + "/.local/share/trailbook/trailbook.sqlite"))
        let rides = try await run(["rides", "--json"], environment: environment)
        #expect(rides.status == 0 && rides.stdout.contains("\"points\""), "\(rides)")
    }
}

extension FirstHourTests {
    /// A day with nothing stored: `report day` writes no empty page and exits 66; `rides --day`
    /// says which days nearby do have rides.
    @Test func anEmptyDayIsSaidSoWithTheDaysThatHaveRides() async throws {
        let folder = try Samples.temporaryDirectory()
        let store = folder + "/s.sqlite"
        #expect(try await run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        let page = folder + "/empty.html"
        let report = try await run(["report", "day", "2026-11-26", "-o", page, "--store", store, "--time-zone", "UTC"])
        #expect(report.status == 66, "\(report)")
        #expect(
            report.stderr.contains("Nothing is stored on 2026-11-26") && report.stderr.contains("2026-06-14 before"))
        #expect(!FileManager.default.fileExists(atPath: page))
        let rides = try await run(["rides", "--day", "2026-06-10", "--store", store, "--time-zone", "UTC"])
        #expect(rides.status == 0)
        #expect(
            rides.stdout.contains("No rides stored on 2026-06-10") && rides.stdout.contains("2026-06-14 after")
                && !rides.stdout.contains("import FILE"), "\(rides.stdout)")
        let full = try await run(["report", "day", "2026-06-14", "-o", page, "--store", store, "--time-zone", "UTC"])
        #expect(full.status == 0 && FileManager.default.fileExists(atPath: page), "\(full)")
    }
}

extension FirstHourTests {
    /// `config check` tries the tide station (every command would exit 78 on it); a station listed
    /// twice under one id is one station; a list whose nearest station is far says so.
    @Test func theTideStationIsCheckedAndFoundOnce() async throws {
        let folder = try Samples.temporaryDirectory()
        let atlantis = folder + "/atlantis.toml"
        try "[tide]\nstation = \"Atlantis\"\n".write(toFile: atlantis, atomically: true, encoding: .utf8)
        let refused = try await run(["config", "check", atlantis])
        #expect(refused.status == 78 && refused.stderr.contains("tide.station") && refused.stderr.contains("Atlantis"))
        let harbor = folder + "/harbor.toml"
        try "[tide]\nstation = \"Friday Harbor\"\n".write(toFile: harbor, atomically: true, encoding: .utf8)
        #expect(try await run(["config", "check", harbor]).status == 0)
        let conditions = try await run([
            "conditions", "--at", "2026-06-14 08:00", "--lat", "48.5", "--lon", "-123", "--config", harbor,
        ])
        #expect(conditions.status == 0 && conditions.stdout.contains("at Friday Harbor"), "\(conditions)")
        let listed = try await run(["tide", "stations", "--limit", "5000"])
        #expect(listed.stdout.components(separatedBy: "Friday Harbor, San Juan Island").count - 1 == 1)
        let far = try await run(["tide", "stations", "--near", "47.37,8.54", "--limit", "1"])
        #expect(far.status == 0 && far.stderr.contains("km away: tides are predicted only where"), "\(far.stderr)")
        let near = try await run(["tide", "stations", "--near", "48.55,-123.01", "--limit", "1"])
        #expect(near.status == 0 && near.stderr.isEmpty, "\(near.stderr)")
    }
}

extension FirstHourTests {
    /// The README's cue on leaving home fires for "switch on and ride off": a log that starts at
    /// home and leaves at once departs, by import.
    @Test func rideOffFromHomeDepartsAndFiresTheCue() async throws {
        let folder = try Samples.temporaryDirectory()
        let store = folder + "/s.sqlite"
        let log = folder + "/ride.nmea"
        let simulated = try await run([
            "simulate", "--duration", "300", "--seed", "3", "--lat", "47.37", "--lon", "8.54", "--start",
            "2026-06-14T07:00:00", "-o", log,
        ])
        #expect(simulated.status == 0, "\(simulated.stderr)")
        #expect(
            try await run(["place", "add", "home", "--lat", "47.37", "--lon", "8.54", "--radius", "120", "--store", store])
                .status == 0)
        #expect(try await run(["cue", "add", "check tyres", "--depart", "home", "--store", store]).status == 0)
        let imported = try await run(["import", "--dry-run", "--events", "--store", store, log])
        #expect(imported.status == 0, "\(imported.stderr)")
        let output = imported.stdout + imported.stderr
        #expect(output.contains("place.depart") && output.contains("home"), "\(output)")
        #expect(output.contains("check tyres"), "the cue follows the departure: \(output)")
    }
}

extension FirstHourTests {
    /// The same, live: a receiver on a pseudo-terminal switched on at home, ridden off after 20 s.
    @Test func rideOffFromHomeDepartsLive() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/live.sqlite"
        let home = Coordinate(latitude: 47.37, longitude: 8.54)
        #expect(try await run(["place", "add", "home", "--lat", "47.37", "--lon", "8.54", "--store", store]).status == 0)
        #expect(try await run(["cue", "add", "check tyres", "--depart", "home", "--store", store]).status == 0)
        let ride = DaySimulator.run(
            from: home, date: CivilDate(year: 2026, month: 6, day: 3)!, startTimeOfDay: 7 * 3_600_000,
            legs: [
                .stay(seconds: 20, noise: 3),
                .travel(to: Geodesy.destination(from: home, bearing: 90, distance: 3000), speed: 6),
            ], seed: 7)
        #expect(try recordLive(ride, store: store, dir: dir) == 0)
        let listed = try await run(["events", "--day", "2026-06-03", "--time-zone", "UTC", "--json", "--store", store])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("\"place.depart\"") && listed.stdout.contains("check tyres"), "\(listed.stdout)")
    }
}

extension FirstHourTests {
    /// Names and words: the imported device's name, one-digit hours, one error style, plain
    /// words for a file that is no store, no folder made for a mistyped --store, the times of
    /// `rides` as every command prints them, and a stay that ends at the last fix.
    @Test func namesAndWordsAreThoseOfTheRestOfTheTool() async throws {
        let folder = try Samples.temporaryDirectory()
        let store = folder + "/s.sqlite"
        let utc = ["--time-zone", "UTC"]
        // A file's device is "imported" ("imported lost its fix"), or the earlier "import" in a
        // store that has it, so that a re-import still merges.
        #expect(try await run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        let rides = try await run(["rides", "--json", "--store", store])
        #expect(rides.stdout.contains("\"device\" : \"imported\""), "\(rides.stdout)")
        let older = folder + "/older.sqlite"
        #expect(try await run(["import", "--store", older, "--device-name", "import", "Samples/ride.nmea"]).status == 0)
        let second = folder + "/second.nmea"
        #expect(try await run(["simulate", "--duration", "60", "--start", "2026-06-14T07:10:00", "-o", second]).status == 0)
        let merged = try await run(["import", "--store", older, second])
        #expect(merged.status == 0, "\(merged.stderr)")
        let devices = try await run(["rides", "--json", "--store", older]).stdout
        #expect(devices.contains("\"import\"") && !devices.contains("\"imported\""), "\(devices)")
        // `rides` prints times as every other command does.
        let listed = try await run(["rides", "--store", store] + utc)
        #expect(listed.stdout.contains("2026-06-14 06:30:00 UTC → 2026-06-14 06:59:59 UTC"), "\(listed.stdout)")
        // A place name that is taken says so (not that there is no point).
        #expect(try await run(["place", "add", "home", "--here", "--store", store]).status == 0)
        let taken = try await run(["place", "add", "home", "--here", "--store", store])
        #expect(taken.status != 0 && taken.stderr.contains("already a place named home"), "\(taken.stderr)")
        // One-digit hours.
        let marked = try await run(["mark", "--at", "2026-06-14 6:45", "--note", "a bench", "--store", store] + utc)
        #expect(marked.status == 0, "\(marked.stderr)")
        // One error style, ArgumentParser's refusals included.
        let unknown = try await run(["rides", "--nope"])
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr.hasPrefix("trailbook: Unknown option '--nope'") && !unknown.stderr.contains("Usage:")
                && unknown.stderr.contains("'trailbook rides --help' explains the command"), "\(unknown.stderr)")
        // A file that is no SQLite database, in words (no SQL).
        let photo = folder + "/photo.jpg"
        try TestPhotos.make(photo, taken: "2026:06:14 08:40:00", offset: "+02:00")
        let notStore = try await run(["rides", "--store", photo])
        #expect(notStore.status == 73, "\(notStore)")
        #expect(
            notStore.stderr.contains("is not a Trailbook store (it is not an SQLite database)")
                && !notStore.stderr.contains("SELECT"), "\(notStore.stderr)")
        // A mistyped --store folder is not made, unless asked for.
        let typo = folder + "/typo/deeper/x.sqlite"
        let refused = try await run(["import", "--store", typo, "Samples/ride.nmea"])
        #expect(refused.status == 73 && refused.stderr.contains("--mkdir"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/typo"))
        #expect(try await run(["import", "--store", typo, "--mkdir", "Samples/ride.nmea"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: typo))
        // Counted words: one setting, not "1 settings".
        let config = folder + "/one.toml"
        try "[time]\nzone = \"UTC\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let checked = try await run(["config", "check", config])
        #expect(checked.stdout.contains("1 setting)"), "\(checked.stdout)")
    }

    /// A log that ends at a place: the stay there ends at the last fix, not at midnight.
    @Test func aStayEndsAtTheLastFix() async throws {
        let folder = try Samples.temporaryDirectory()
        let store = folder + "/s.sqlite"
        let start = Coordinate(latitude: 47.37, longitude: 8.54)
        let bakery = Geodesy.destination(from: start, bearing: 90, distance: 1500)
        #expect(
            try await run([
                "place", "add", "bakery", "--lat", "\(bakery.latitude)", "--lon", "\(bakery.longitude)", "--store",
                store,
            ]).status == 0)
        let day = DaySimulator.run(
            from: start, date: CivilDate(year: 2026, month: 6, day: 3)!, startTimeOfDay: 8 * 3_600_000,
            legs: [.travel(to: bakery, speed: 5), .stay(seconds: 540, noise: 3)], seed: 5)
        let log = folder + "/bakery.nmea"
        try day.flatMap(\.sentences).joined().write(toFile: log, atomically: true, encoding: .utf8)
        #expect(try await run(["import", "--store", store, log]).status == 0)
        let timeline = try await run(["timeline", "2026-06-03", "--json", "--time-zone", "UTC", "--store", store])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(timeline.stdout.utf8)) as? [String: Any], "\(timeline)")
        let entries = try #require(document["entries"] as? [[String: Any]])
        let visit = try #require(entries.first { $0["kind"] as? String == "visit" }, "\(timeline.stdout)")
        let last = try #require(entries.first { $0["kind"] as? String == "ride" }?["end"] as? String)
        #expect(visit["end"] as? String == last, "the stay ends at the last fix \(last): \(visit)")
        #expect(document["time_zone"] as? String == "UTC")
    }
}

extension FirstHourTests {
    /// `config init` writes a starter config where commands look for one, with the system's zone,
    /// that passes `config check` and whose sample kind works; the README's photo and weather
    /// examples run on the samples as written.
    @Test func aStarterConfigAndTheSamplesMakeTheREADMEsExamplesRun() async throws {
        let home = try Samples.temporaryDirectory()
        let environment = [
            "HOME": home, "XDG_DATA_HOME": "", "XDG_CONFIG_HOME": "", "TRAILBOOK_STORE": "", "TZ": "Asia/Tokyo",
        ]
        let written = try await run(["config", "init"], environment: environment)
        let file = home + "/.config/trailbook/config.toml"
        #expect(written.status == 0 && written.stdout.contains("Wrote \(file) (time zone Asia/Tokyo)"), "\(written)")
        #expect(try await run(["config", "check", file]).status == 0)
        let shown = try await run(["config", "show"], environment: environment)
        #expect(shown.stdout.contains("zone = \"Asia/Tokyo\""), "\(shown.stdout)")
        let again = try await run(["config", "init"], environment: environment)
        #expect(again.status == 73 && again.stderr.contains("--force"), "\(again)")
        #expect(try await run(["config", "init", "--force"], environment: environment).status == 0)
        // Elsewhere with -o: the command says how to read it; a folder that is not there is made by nobody.
        let elsewhere = try await run(["config", "init", "-o", home + "/mine.toml"], environment: environment)
        #expect(
            elsewhere.status == 0 && elsewhere.stdout.contains("Commands read it with --config \(home)/mine.toml"),
            "\(elsewhere)")
        let typo = try await run(["config", "init", "-o", home + "/nowhere/mine.toml"], environment: environment)
        #expect(typo.status == 73 && typo.stderr.contains("there is no folder \(home)/nowhere"), "\(typo)")
        #expect(!FileManager.default.fileExists(atPath: home + "/nowhere"))
        // The sample kind of the starter file.
        #expect(try await run(["import", "Samples/ride.nmea"], environment: environment).status == 0)
        let caught = try await run(
            [
                "mark", "--at", "2026-06-14 15:40", "--kind", "catch", "--field", "species=pike", "--field",
                "weight=2.1 kg",
            ],
            environment: environment)
        #expect(caught.status == 0, "\(caught.stderr)")
        // The README's photo and weather examples, on the samples.
        let photos = try await run(["photo", "import", "Samples/photos"], environment: environment)
        #expect(photos.status == 0 && photos.stdout.contains("1 attached"), "\(photos)")
        let weather = try await run(["weather", "import", "Samples/station.csv", "--dry-run"], environment: environment)
        #expect(weather.status == 0 && weather.stdout.contains("would get weather"), "\(weather)")
    }
}

extension FirstHourTests {
    /// Ctrl-C during an import of two files: the file being read stores nothing, the one before
    /// it stays, the command says which and exits 130. The signal comes 1.5 s in (`timeout`):
    /// the second file (300,000 s at 1 Hz) takes about 4 s to read in a debug build (120,000 s
    /// once finished inside 1.5 s, and the signal came too late); which file it lands in depends on the machine's
    /// speed, and the sentence and the store must agree either way. `--foreground`, so that one
    /// Ctrl-C is sent: without it `timeout` signals the command and then its whole process group,
    /// and a second SIGINT that lands after the first was handled ends the import at once (as a
    /// second Ctrl-C should), with nothing said.
    @Test func ctrlCDuringAnImportKeepsTheFilesBeforeAndSaysSo() async throws {
        let folder = try Samples.temporaryDirectory()
        let store = folder + "/s.sqlite"
        let big = folder + "/big.nmea"
        let simulated = try await run([
            "simulate", "--duration", "300000", "--seed", "2", "--start", "2026-06-15T06:00:00", "-o", big,
        ])
        try #require(simulated.status == 0, "\(simulated.stderr)")
        let stopped = try runBinary(
            ["import", "--store", store, "Samples/ride.nmea", big],
            prefix: ["/usr/bin/timeout", "--foreground", "--preserve-status", "-s", "INT", "1.5"])
        #expect(stopped.status == 130, "\(stopped)")
        #expect(stopped.stderr.hasPrefix("trailbook: interrupted: file "), "\(stopped.stderr)")
        #expect(stopped.stderr.hasSuffix(".\n"), "one ended line: \(stopped.stderr)")
        let points =
            FileManager.default.fileExists(atPath: store)
            ? try storeRows(store, "SELECT count(*) FROM point").trimmingCharacters(in: .whitespacesAndNewlines) : "0"
        if stopped.stderr.contains("file 2 of 2") {
            #expect(stopped.stderr.contains("file 2 of 2 (\(big)) not stored; file 1 stored 1762 points."))
            #expect(points == "1762", "the first file stays, nothing of the second is stored")
        } else {
            #expect(
                stopped.stderr.contains("file 1 of 2 (Samples/ride.nmea) not stored; 1 file after it not read."),
                "\(stopped.stderr)")
            #expect(points == "0", "nothing of the first file is stored")
        }
    }
}

extension FirstHourTests {
    /// A catch log without recorded tracks: the records alone are set against the time each
    /// condition holds over the days they span, and 30 of 38 catches at dawn say dawn, with the
    /// words that this is the weaker comparison.
    @Test func suggestionsFromTheRecordsAlone() async throws {
        let folder = try Samples.temporaryDirectory()
        let store = folder + "/catches.sqlite"
        let config = folder + "/config.toml"
        try "[kinds.catch]\nspecies = { type = \"text\", required = true }\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        // At Zurich, 03:10 UTC is dawn (civil dawn to sunrise) from June to early July.
        let times =
            (1...30).map { String(format: "2026-06-%02dT03:10:00Z", $0) }
            + (1...8).map { String(format: "2026-07-%02dT12:00:00Z", $0) }
        for time in times {
            let marked = try await run(
                [
                    "mark", "--store", store, "--config", config, "--lat", "47.3769", "--lon", "8.5417", "--at", time,
                    "--kind", "catch", "--field", "species=pike",
                ])
            try #require(marked.status == 0, "\(marked.stderr)")
        }
        let arguments = ["suggest", "--kind", "catch", "--store", store, "--config", config, "--from", "2026-07-10"]
        let text = try await run(arguments)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("records alone, the weaker comparison"), "\(text.stdout)")
        #expect(
            text.stdout.contains("day_phase    dawn") && !text.stdout.contains("No condition passes"), "\(text.stdout)")
        let json = try JSONSerialization.jsonObject(with: Data(try await run(arguments + ["--json"]).stdout.utf8))
        let document = try #require(json as? [String: Any])
        #expect(document["basis"] as? String == "time_available")
        #expect(document["counted"] as? Int == 38)
        let suggestions = try #require(document["suggestions"] as? [[String: Any]])
        let dawn = try #require(suggestions.first { $0["bin"] as? String == "dawn" }, "\(suggestions)")
        #expect(dawn["count"] as? Int == 30)
        // Dawn holds well under an hour of each of the 38 days.
        #expect((dawn["hours"] as? Double ?? 99) < 38, "\(dawn)")
    }
}
