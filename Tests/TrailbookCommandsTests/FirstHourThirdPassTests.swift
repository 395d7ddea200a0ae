import Foundation
import GPSCore
import Testing
import TrailbookTestSupport

/// What a new user tripped over on the third walk through the README (the first-hour issue,
/// third pass): each test failed before its change.
@Suite struct FirstHourThirdPassTests {
    /// `rides --day yesterday` names the day it looked at; a file imported twice says it was
    /// there already instead of "0 rides, 0 segments"; `year` counts in words ("1 day") and says
    /// when there is no place yet instead of an empty "Most time:".
    @Test func sentencesSayWhatTheyMean() async throws {
        let folder = try Samples.temporaryDirectory()
        let store = folder + "/s.sqlite"
        #expect(try await run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        let again = try await run(["import", "--store", store, "Samples/ride.nmea"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stdout.contains("0 rides"), "\(again.stdout)")
        #expect(again.stdout.contains("Nothing new: the file was imported before"), "\(again.stdout)")

        let yesterday = try await run(["rides", "--day", "yesterday", "--store", store, "--time-zone", "UTC"])
        let date = CivilDate(daysSinceEpoch: Int(UTCTimestamp.now() / 86_400_000) - 1).description
        #expect(yesterday.stdout.hasPrefix("No rides stored on \(date) "), "\(yesterday.stdout)")
        #expect(!yesterday.stdout.contains("on yesterday"))

        let year = try await run(["year", "2026", "--store", store, "--time-zone", "UTC"])
        #expect(year.status == 0, "\(year.stderr)")
        #expect(year.stdout.contains("1 day with data") && year.stdout.contains("1 trip"), "\(year.stdout)")
        #expect(!year.stdout.contains("1 days") && !year.stdout.contains("1 trips"))
        let most = try #require(year.stdout.split(separator: "\n").first { $0.hasPrefix("Most time:") })
        #expect(most != "Most time: ", "\(year.stdout)")
    }
}

extension FirstHourThirdPassTests {
    /// A word after a group of commands that is none of them is named, with the group's commands,
    /// rather than the first option after it; the docs name only commands that exist.
    @Test func anUnknownCommandIsNamed() async throws {
        let wrong = try await run(["report", "days", "--from", "2026-06-01"])
        #expect(wrong.status == 64)
        #expect(
            wrong.stderr.hasPrefix(
                "trailbook: 'days' is not a command of 'trailbook report'; its commands are day, overlay"),
            "\(wrong.stderr)")
        #expect(!wrong.stderr.contains("--from"))
        let option = try await run(["report", "day", "2026-06-14", "--frm", "x"])
        #expect(
            option.status == 64 && option.stderr.contains("'--frm'"), "a wrong option is still named: \(option.stderr)")
        let commands = try String(contentsOfFile: "docs/COMMANDS.md", encoding: .utf8)
        #expect(!commands.contains("trailbook report days"))
    }
}

extension FirstHourThirdPassTests {
    /// `place add NAME --here` with the name taken says so, also on a store with no point yet.
    @Test func aTakenPlaceNameIsSaidFirst() async throws {
        let store = try Samples.temporaryDirectory() + "/s.sqlite"
        #expect(try await run(["place", "add", "home", "--lat", "47.37", "--lon", "8.54", "--store", store]).status == 0)
        let taken = try await run(["place", "add", "home", "--here", "--store", store])
        #expect(taken.status != 0 && taken.stderr.contains("already a place named home"), "\(taken.stderr)")
        #expect(!taken.stderr.contains("no stored point"))
        let fresh = try await run(["place", "add", "work", "--here", "--store", store])
        #expect(fresh.stderr.contains("no stored point"), "an untaken name still needs a point: \(fresh.stderr)")
    }
}

extension FirstHourThirdPassTests {
    /// `conditions` for a place far west of the configured zone, at its local noon: the rise is
    /// before the set, both of that place's day.
    @Test func conditionsFarFromTheConfiguredZoneAreOfThePlacesDay() async throws {
        let folder = try Samples.temporaryDirectory()
        let config = folder + "/config.toml"
        try "[time]\nzone = \"Europe/Zurich\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        // Local noon at 150° W on 14 June: 22:00 UTC.
        let result = try await run([
            "conditions", "--lat", "21.3", "--lon", "-150", "--at", "2026-06-14T22:00:00Z", "--json", "--config",
            config,
            "--store", folder + "/none.sqlite",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let sun = try #require(json["sun"] as? [String: Any])
        let (rise, set) = (try #require(sun["rise"] as? String), try #require(sun["set"] as? String))
        let riseAt = try Date(rise, strategy: .iso8601)
        let setAt = try Date(set, strategy: .iso8601)
        let noon = try Date("2026-06-14T22:00:00Z", strategy: .iso8601)
        #expect(riseAt < noon && noon < setAt, "the day around its noon: rise \(rise), set \(set)")
    }
}

extension FirstHourThirdPassTests {
    /// `summary` and `export` of a day without rides say which days nearby have some, as
    /// `rides --day` does, and exit 66.
    @Test func aDayWithoutRidesNamesTheNearestDaysEverywhere() async throws {
        let folder = try Samples.temporaryDirectory()
        let store = folder + "/s.sqlite"
        #expect(try await run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        for command in [
            ["summary", "--day", "2026-06-20"],
            ["export", "--day", "2026-06-20", "--format", "gpx", "-o", folder + "/x.gpx"],
        ] {
            let result = try await run(command + ["--store", store, "--time-zone", "UTC"])
            #expect(result.status == 66, "\(command[0]): \(result.stderr)")
            #expect(
                result.stderr.contains("No rides stored on 2026-06-20 (UTC).")
                    && result.stderr.contains("The nearest days with rides: 2026-06-14 before"), "\(result.stderr)")
        }
    }
}
