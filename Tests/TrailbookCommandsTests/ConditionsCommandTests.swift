import Foundation
import Testing
import TrailbookTestSupport

@Suite struct ConditionsCommandTests {
    func json(_ arguments: [String]) async throws -> [String: Any] {
        let r = try await run(arguments)
        #expect(r.status == 0, "\(r.stderr)")
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
    }

    @Test func conditionsPrintsTheSunMoonAndSolunarPeriodsOfTheLocalDay() async throws {
        let doc = try await json([
            "conditions", "--at", "2026-06-14T08:31:05+02:00", "--lat", "47.3769", "--lon", "8.5417", "--time-zone",
            "Europe/Zurich", "--json",
        ])
        #expect(doc["at"] as? String == "2026-06-14T06:31:05Z" && doc["day"] as? String == "2026-06-14")
        let sun = try #require(doc["sun"] as? [String: Any])
        let moon = try #require(doc["moon"] as? [String: Any])
        let solunar = try #require(doc["solunar"] as? [String: Any])
        // Zurich, 14 June: sunrise 05:28 and sunset 21:23 local (published almanacs: 05:29, 21:24).
        #expect(sun["rise"] as? String == "2026-06-14T03:28:36Z")
        #expect((sun["set"] as? String)?.hasPrefix("2026-06-14T19:23") == true)
        #expect(
            sun["phase"] as? String == "day" && (sun["elevation_deg"] as? Double).map { $0 > 27 && $0 < 28.5 } == true)
        #expect(sun.keys.contains("up_all_day") && sun["up_all_day"] is NSNull)
        // New moon on 15 June 2026 at 02:54 UTC.
        #expect(moon["phase_name"] as? String == "new moon")
        #expect((moon["illumination"] as? Double).map { $0 < 0.03 } == true)
        #expect((moon["age_days"] as? Double).map { $0 > 28 && $0 < 29.5 } == true)
        for key in ["rise", "set", "upper_transit", "lower_transit", "azimuth_deg", "elevation_deg"] {
            #expect(moon[key] != nil, "moon.\(key)")
        }
        let major = try #require(solunar["major"] as? [[String: String]])
        let minor = try #require(solunar["minor"] as? [[String: String]])
        #expect(major.count == 2 && minor.count == 2)
        #expect((solunar["rule"] as? String)?.contains("traditional") == true)
        // A major period is the two hours around the moon overhead.
        let overhead = try #require(major.first { $0["cause"] == "moon overhead" })
        let start = try Date(overhead["start"]!, strategy: .iso8601)
        let end = try Date(overhead["end"]!, strategy: .iso8601)
        #expect(end.timeIntervalSince(start) == 7200)
        #expect(overhead["start"] == "2026-06-14T09:41:29Z" || overhead["start"] == "2026-06-14T09:41:28Z")
    }

    /// At 150° W with the home zone in Europe, the local day is Tahiti's when the gazetteer knows
    /// the place: noon there is 22:00 UTC, and the day's sunrise comes before its sunset.
    @Test func farFromHomeTheDayIsThePlacesOwn() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/gazetteer.sqlite"
        let table = dir + "/cities500.txt"
        let row = [
            "4033936", "Papeete", "Papeete", "", "-17.53733", "-149.5665", "P", "PPLC", "PF", "", "00", "", "", "",
            "26017", "", "7", "Pacific/Tahiti", "2024-01-01",
        ]
        try (row.joined(separator: "\t") + "\n").write(toFile: table, atomically: true, encoding: .utf8)
        #expect(try await run(["geocoder", "import", table, "--store", store]).status == 0)
        let config = dir + "/config.toml"
        try "[time]\nzone = \"Europe/Zurich\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        let home = ["--config", config]
        let at = ["conditions", "--at", "2026-06-14T22:00:00Z", "--lat", "-17.55", "--lon", "-149.6", "--json"]
        let there = try await json(at + home + ["--store", store])
        #expect(there["zone"] as? String == "Pacific/Tahiti" && there["day"] as? String == "2026-06-14")
        let sun = try #require(there["sun"] as? [String: Any])
        let rise = try Date(try #require(sun["rise"] as? String), strategy: .iso8601)
        let set = try Date(try #require(sun["set"] as? String), strategy: .iso8601)
        // Both within 14 June at Papeete (-10:00: from 10:00 UTC that day to 10:00 UTC the next).
        let midnight = 1_781_431_200.0
        #expect(rise < set && rise.timeIntervalSince1970 > midnight && set.timeIntervalSince1970 < midnight + 86_400)
        #expect(set.timeIntervalSince(rise) > 10 * 3600 && set.timeIntervalSince(rise) < 12 * 3600)
        // Without the gazetteer, the configured zone is 12 hours from the place's solar time: the
        // place's own solar day applies (14 June at -10:00), not Zurich's 15 June.
        let home2 = try await json(at + home + ["--store", dir + "/none.sqlite"])
        #expect(home2["zone"] as? String == "GMT-1000" && home2["day"] as? String == "2026-06-14", "\(home2)")
        // --time-zone wins over the gazetteer.
        let asked = try await json(at + ["--store", store, "--time-zone", "UTC"])
        #expect(asked["zone"] as? String == "UTC")
    }

    @Test func aPolarNightHasNoSunriseAndSaysSo() async throws {
        let doc = try await json([
            "conditions", "--at", "2026-01-10T12:00:00Z", "--lat", "78.22", "--lon", "15.65", "--time-zone", "UTC",
            "--json",
        ])
        let sun = try #require(doc["sun"] as? [String: Any])
        #expect(sun["rise"] is NSNull && sun["set"] is NSNull && sun["up_all_day"] as? Bool == false)
        let text = try await run([
            "conditions", "--at", "2026-01-10T12:00:00Z", "--lat", "78.22", "--lon", "15.65", "--time-zone", "UTC",
        ])
        #expect(text.status == 0 && text.stdout.contains("below the horizon all day (polar night)"), "\(text.stdout)")
        #expect(text.stdout.contains("rise —"))
    }

    @Test func aPlaceOffTheEarthIsAUsageError() async throws {
        let r = try await run(["conditions", "--lat", "91", "--lon", "8"])
        #expect(r.status == 64 && r.stderr.contains("latitude 91.0 is outside -90 to 90 degrees"), "\(r.stderr)")
        let t = try await run(["conditions", "--at", "yesterday noonish", "--lat", "47", "--lon", "8"])
        #expect(t.status == 64 && t.stderr.contains("--at"), "\(t.stderr)")
    }

    @Test func aRecordKeepsTheConditionsOfItsMoment() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/conditions.sqlite"
        // Civil twilight in Zurich on 14 June: 04:48 to 05:28 local.
        let mark = try await run([
            "mark", "--store", store, "--lat", "47.3769", "--lon", "8.5417", "--at", "2026-06-14T05:10:00+02:00",
            "--note", "heron", "--time-zone", "Europe/Zurich",
        ])
        #expect(mark.status == 0, "\(mark.stderr)")
        let doc = try await json(["records", "--store", store, "--json"])
        let record = try #require((doc["records"] as? [[String: Any]])?.first)
        let conditions = try #require(record["conditions"] as? [String: [String: Any]])
        #expect(conditions["sun.phase"]?["value"] as? String == "dawn")
        #expect(conditions["sun.phase"]?["source"] as? String == "computed")
        #expect(conditions["moon.phase_name"]?["value"] as? String == "new moon")
        #expect(conditions["solunar.period"] != nil && conditions["moon.illumination"] != nil)
        let text = try await run(["records", "--store", store, "--time-zone", "Europe/Zurich"])
        #expect(text.stdout.contains("dawn (sun "), "\(text.stdout)")
        #expect(text.stdout.contains("new moon 2 % lit") || text.stdout.contains("new moon 1 % lit"), "\(text.stdout)")
    }

    @Test func weatherImportInterpolatesToRecordsAndRefusesABadLineWhole() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/weather.sqlite"
        for time in ["06:00", "07:30", "11:00"] {
            let r = try await run([
                "mark", "--store", store, "--lat", "47.37", "--lon", "8.54", "--at", "2026-06-14T\(time):00Z", "--note",
                time,
            ])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let csv = dir + "/station.csv"
        try """
        time,temperature_c,pressure_hpa,wind_speed_ms,wind_dir_deg,cloud_pct
        2026-06-14T03:00:00Z,11.0,1015.0,2.0,350,20
        2026-06-14T06:00:00Z,13.0,1013.0,3.0,10,40
        2026-06-14T09:00:00Z,17.0,1013.5,5.0,200,80
        2026-06-14T15:00:00Z,19.0,1016.0,4.0,225,10

        """.write(toFile: csv, atomically: true, encoding: .utf8)
        // A bad number: exit 65 naming file, line and column, and nothing written.
        let bad = dir + "/bad.csv"
        try "time,pressure_hpa\n2026-06-14T03:00:00Z,1015\n2026-06-14T06:00:00Z,10l3\n".write(
            toFile: bad, atomically: true, encoding: .utf8)
        let refused = try await run(["weather", "import", bad, "--store", store])
        #expect(
            refused.status == 65 && refused.stderr.contains("bad.csv:3: pressure_hpa '10l3' is not a number"),
            "\(refused.stderr)")
        let doc = try await json(["weather", "import", csv, "--store", store, "--json"])
        #expect(doc["readings"] as? Int == 4)
        let records = try #require(doc["records"] as? [[String: Any]])
        // 11:00 lies between readings 6 h apart: no interpolation across that gap.
        #expect(records.compactMap { $0["id"] as? Int } == [1, 2])
        let stored = try await json(["records", "--store", store, "--json"])
        let list = try #require(stored["records"] as? [[String: Any]])
        func condition(_ index: Int, _ key: String) -> Any? {
            ((list[index]["conditions"] as? [String: [String: Any]])?[key])?["value"]
        }
        #expect(condition(0, "weather.pressure_hpa") as? Double == 1013)
        #expect(condition(0, "weather.pressure_trend") as? String == "falling")  // 1015 → 1013 in 3 h
        #expect(condition(1, "weather.temperature_c") as? Double == 15)  // halfway 13 → 17
        #expect(condition(1, "weather.pressure_trend") as? String == "steady")  // 1014 → 1013.25
        #expect(condition(0, "weather.wind_octant") as? String == "N")
        #expect(
            ((list[0]["conditions"] as? [String: [String: Any]])?["weather.pressure_hpa"])?["source"] as? String
                == "imported")
        #expect(condition(2, "weather.pressure_hpa") == nil)
        // Still computed values beside them.
        #expect(condition(0, "sun.phase") as? String == "day")
        // The readings are kept: a record marked later within them gets them, and a second import
        // of the same file adds none.
        #expect(doc["new_readings"] as? Int == 4)
        #expect(try await json(["weather", "import", csv, "--store", store, "--json"])["new_readings"] as? Int == 0)
        let later = try await run([
            "mark", "--store", store, "--lat", "47.37", "--lon", "8.54", "--at", "2026-06-14T07:30:00Z", "--note", "x",
        ])
        #expect(later.status == 0, "\(later.stderr)")
        let again = try #require(try await json(["records", "--store", store, "--json"])["records"] as? [[String: Any]])
        let added = try #require(again.first { ($0["notes"] as? [[String: Any]])?.first?["text"] as? String == "x" })
        let pressure = (added["conditions"] as? [String: [String: Any]])?["weather.pressure_hpa"]
        #expect(pressure?["value"] as? Double == 1013.3 && pressure?["source"] as? String == "imported", "\(added)")
    }

    @Test func suggestAnswersWithItsTableAndNeverFromAFewRecords() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/suggest.sqlite"
        let config = dir + "/config.toml"
        try """
        [time]
        zone = "Europe/Zurich"
        [kinds.catch]
        species = { type = "choice", values = ["pike", "perch"], required = true }
        weight = { type = "mass" }

        """.write(toFile: config, atomically: true, encoding: .utf8)
        let base = ["--store", store, "--config", config]
        #expect(try await run(["import", "Samples/ride.nmea"] + base).status == 0)
        let none = try await run(["suggest", "--kind", "catch"] + base)
        #expect(none.status == 66 && none.stderr.contains("no records of the kind catch"), "\(none.stderr)")
        // Six catches in the half hour of the sample ride (06:30 to 07:00 UTC).
        for (i, minute) in [32, 36, 41, 45, 50, 55].enumerated() {
            let r = try await run(
                [
                    "mark", "--at", "2026-06-14T06:\(minute):00Z", "--kind", "catch", "--field",
                    "species=\(i % 2 == 0 ? "pike" : "perch")", "--field", "weight=\(i + 1)kg",
                ] + base)
            #expect(r.status == 0, "\(r.stderr)")
        }
        let doc = try await json(["suggest", "--kind", "catch", "--json", "--from", "2026-06-15T00:00:00Z"] + base)
        #expect(doc["counted"] as? Int == 6 && doc["records"] as? Int == 6)
        #expect((doc["hours"] as? Double).map { $0 > 0.45 && $0 <= 0.5 } == true, "\(doc["hours"] as Any)")
        // One half hour in the same bins: everything has lift 1, nothing is suggested, no windows.
        #expect((doc["suggestions"] as? [Any])?.isEmpty == true && (doc["windows"] as? [Any])?.isEmpty == true)
        let notes = try #require(doc["notes"] as? [String])
        #expect(notes.contains { $0.hasPrefix("no bin has at least 5 records") }, "\(notes)")
        let bins = try #require(doc["bins"] as? [[String: Any]])
        let day = try #require(bins.first { $0["condition"] as? String == "day_phase" })
        #expect(day["bin"] as? String == "day" && day["count"] as? Int == 6 && day["lift"] as? Double == 1)
        #expect(doc["rule"] as? String != nil && doc.keys.contains("best") && doc["best"] is NSNull)
        let text = try await run(["suggest", "--kind", "catch"] + base)
        #expect(text.status == 0 && text.stdout.contains("No condition passes the sample rule."), "\(text.stdout)")
        let unknown = try await run(["suggest", "--kind", "catch", "--best", "size"] + base)
        #expect(unknown.status == 64 && unknown.stderr.contains("has no field size"), "\(unknown.stderr)")
        #expect(try await run(["suggest", "--kind", "bird"] + base).status == 64)
        // The day report shows the (empty) table for the kind of the day's records.
        let page = dir + "/day.html"
        let report = try await run(["report", "day", "2026-06-14", "-o", page] + base)
        #expect(report.status == 0, "\(report.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("<h3>catch <span class=\"muted\">· 6 records over 0.5 h out there</span></h3>"))
        #expect(html.contains("No condition passes the sample rule"))
    }

    @Test func aConditionTypedWithMarkIsTheUsers() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/user.sqlite"
        let r = try await run([
            "mark", "--store", store, "--lat", "47.37", "--lon", "8.54", "--at", "2026-06-14T06:00:00Z", "--condition",
            "weather.pressure_hpa=1009.5",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try await json(["records", "--store", store, "--json"])
        let conditions = (doc["records"] as? [[String: Any]])?.first?["conditions"] as? [String: [String: Any]]
        #expect(conditions?["weather.pressure_hpa"]?["value"] as? Double == 1009.5)
        #expect(conditions?["weather.pressure_hpa"]?["source"] as? String == "user")
    }
}

@Suite struct TideCommandTests {
    func config(_ station: String) throws -> (dir: String, path: String) {
        let dir = try Samples.temporaryDirectory()
        let path = dir + "/config.toml"
        try """
        [time]
        zone = "America/Los_Angeles"
        [tide]
        station = "\(station)"

        """.write(toFile: path, atomically: true, encoding: .utf8)
        return (dir, path)
    }

    @Test func aConfiguredStationGivesConditionsAndRecordsTheTide() async throws {
        let (dir, path) = try config("9449880")
        // NOAA's table: high water 8.89 ft (2.71 m) at 07:47 PST on 1 January 2025 at Friday Harbor.
        let r = try await run([
            "conditions", "--at", "2025-01-01 07:47", "--lat", "48.55", "--lon", "-123.01", "--config", path, "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let doc = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        let tide = try #require(doc?["tide"] as? [String: Any])
        #expect(tide["state"] as? String == "high" && (tide["station"] as? String)?.hasPrefix("Friday Harbor") == true)
        #expect((tide["height_m"] as? Double).map { abs($0 - 2.71) < 0.02 } == true, "\(tide)")
        #expect((tide["note"] as? String)?.contains("not for navigation") == true)
        let turns = try #require(tide["turns"] as? [[String: Any]])
        #expect(turns.map { $0["type"] as? String } == ["high", "low", "high", "low"], "\(turns)")
        let text = try await run([
            "conditions", "--at", "2025-01-01 09:47", "--lat", "48.55", "--lon", "-123.01", "--config", path,
        ])
        #expect(text.stdout.contains("Tide  falling") && text.stdout.contains("not for navigation"), "\(text.stdout)")
        // Without a station, tide is null.
        let none = try await run(["conditions", "--at", "2025-01-01 07:47", "--lat", "48.55", "--lon", "-123.01", "--json"])
        #expect(none.stdout.contains("\"tide\" : null"))
        // A record marked there gets the tide of its moment, computed.
        let store = dir + "/tide.sqlite"
        let mark = try await run([
            "mark", "--store", store, "--config", path, "--lat", "48.55", "--lon", "-123.01", "--at",
            "2025-01-01 12:33",
            "--note", "slack",
        ])
        #expect(mark.status == 0, "\(mark.stderr)")
        let records = try await run(["records", "--store", store, "--json"])
        let record =
            ((try JSONSerialization.jsonObject(with: Data(records.stdout.utf8)) as? [String: Any])?["records"]
            as? [[String: Any]])?.first
        let conditions = record?["conditions"] as? [String: [String: Any]]
        #expect(conditions?["tide.state"]?["value"] as? String == "low", "\(conditions as Any)")
        #expect(conditions?["tide.state"]?["source"] as? String == "computed")
        #expect((conditions?["tide.height_m"]?["value"] as? Double).map { abs($0 - 2.27) < 0.03 } == true)
    }

    @Test func aBadStationIsAConfigErrorAndStationsAreListed() async throws {
        let (_, path) = try config("Atlantis Harbor")
        let r = try await run(["conditions", "--lat", "48.55", "--lon", "-123.01", "--config", path])
        #expect(r.status == 78 && r.stderr.contains("tide.station in the config: no tide station \"Atlantis Harbor\""))
        let list = try await run(["tide", "stations", "--near", "48.55,-123.01", "--limit", "3", "--json"])
        let stations =
            (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["stations"]
            as? [[String: Any]]
        #expect(stations?.count == 3 && stations?.first?["id"] as? String == "9449880", "\(list.stdout)")
        #expect(try await run(["tide", "stations", "--near", "north"]).status == 64)
    }
}
