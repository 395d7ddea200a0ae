import Foundation
import GPSCore
import RideSimulator
import Testing
import TrailbookTestSupport
import Visits

@testable import TrackStore
@testable import TrailbookKit

/// `trailbook visits` over a simulated fortnight imported as GPX: the visits of the truth, the
/// same whatever order the files come in, named by the user's places and the suggestions.
@Suite struct VisitsCommandTests {
    /// The fortnight as three GPX files: days 1-5, 6-10, 11-14.
    func files() throws -> [String] {
        let dir = try Samples.temporaryDirectory()
        let fixes = Array(Fortnight.simulator())
        let cuts = [5, 10].map { Fortnight.start + Int64($0) * 86_400_000 }
        var parts: [[Fix]] = [[], [], []]
        for f in fixes {
            let ms = f.unixMilliseconds!
            parts[ms < cuts[0] ? 0 : ms < cuts[1] ? 1 : 2].append(f)
        }
        return try parts.enumerated().map { i, part in
            var gpx = """
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="VisitsCommandTests" xmlns="http://www.topografix.com/GPX/1/1">
                <trk><trkseg>

                """
            for f in part {
                let c = f.coordinate!
                gpx += String(format: "<trkpt lat=\"%.7f\" lon=\"%.7f\">", c.latitude, c.longitude)
                gpx +=
                    "<time>\(GoogleImportTests.iso(f.unixMilliseconds!))</time><sat>9</sat><hdop>1.1</hdop></trkpt>\n"
            }
            gpx += "</trkseg></trk></gpx>\n"
            let path = dir + "/part\(i + 1).gpx"
            try gpx.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
    }

    /// `visits --json` with its places numbered in the order the visits first go to them, and
    /// without the kept rows' ids (their numbering follows the order of the writes).
    static func renumbered(_ found: [String: Any]) -> [String: Any] {
        var out = found
        var numbers: [Int: Int] = [:]
        out["trips"] = (found["trips"] as? [[String: Any]])?.map { $0.filter { $0.key != "id" } }
        let visits = (found["visits"] as? [[String: Any]] ?? []).map { v -> [String: Any] in
            var v = v.filter { $0.key != "id" }
            if let old = v["place"] as? Int {
                let new = numbers[old] ?? numbers.count + 1
                numbers[old] = new
                v["place"] = new
                if v["name"] as? String == "place \(old)" { v["name"] = "place \(new)" }
            }
            return v
        }
        out["visits"] = visits
        out["places"] = (found["places"] as? [[String: Any]] ?? []).map { p -> [String: Any] in
            var p = p
            if let old = p["id"] as? Int { p["id"] = numbers[old] ?? -old }
            for key in ["lat", "lon"] { p[key] = ((p[key] as? Double ?? 0) * 1000).rounded() / 1000 }
            return p
        }.sorted { ($0["id"] as? Int ?? 0) < ($1["id"] as? Int ?? 0) }
        return out
    }

    func visits(_ store: String, _ extra: [String] = []) async throws -> [String: Any] {
        let result = try await run(["visits", "--store", store, "--time-zone", "Europe/Zurich", "--json"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func aFortnightsVisitsWhateverTheOrderOfImport() async throws {
        let parts = try files()
        let dir = try Samples.temporaryDirectory()
        var found: [[String: Any]] = []
        for (name, order) in [("in-order", [0, 1, 2]), ("backwards", [2, 0, 1])] {
            let store = "\(dir)/\(name).sqlite"
            for i in order {
                let result = try await run(["import", "--store", store, parts[i]])
                #expect(result.status == 0, "\(result.stderr)")
            }
            found.append(try await visits(store))
        }
        let stays = Fortnight.simulator().truth.filter { $0.mode == nil }
        let first = try #require(found[0]["visits"] as? [[String: Any]])
        #expect(first.count == stays.count, "\(first.count) visits for \(stays.count) stays")
        for (v, stay) in zip(first, stays) {
            let start = try #require(GoogleImportTests.milliseconds(v["start"] as? String ?? ""))
            let end = try #require(GoogleImportTests.milliseconds(v["end"] as? String ?? ""))
            #expect(abs(start - stay.start) <= 120_000 && abs(end - stay.end) <= 120_000, "\(v) for \(stay)")
        }
        // Places are numbered in the order the imports kept them, each at the centre of its first
        // import's visits: the same places by another number, a few metres apart.
        #expect(
            NSDictionary(dictionary: Self.renumbered(found[0])) == NSDictionary(dictionary: Self.renumbered(found[1])),
            "the same visits, trips and places whatever order the files came in")
        let trips = try #require(found[0]["trips"] as? [[String: Any]])
        #expect(trips.filter { $0["mode"] as? String == "plane" }.count == 2, "both flights kept and found")
        let names = Set(first.compactMap { $0["name"] as? String })
        #expect(names.isSuperset(of: ["home (suggested)", "work (suggested)"]), "\(names)")

        // The user's own place names what lies in it; a day in text, local times.
        let store = "\(dir)/in-order.sqlite"
        let add = try await run([
            "place", "add", "Office", "--store", store, "--lat", "\(Fortnight.work.latitude)", "--lon",
            "\(Fortnight.work.longitude)", "--radius", "80",
        ])
        #expect(add.status == 0, "\(add.stderr)")
        let day = try await run(["visits", "--store", store, "--time-zone", "Europe/Zurich", "--day", "2026-06-03"])
        #expect(day.status == 0, "\(day.stderr)")
        #expect(day.stdout.hasPrefix("2026-06-0"), "\(day.stdout)")
        #expect(day.stdout.contains("⌂ Office"), "\(day.stdout)")
        #expect(day.stdout.contains("→ cycling 3.") && day.stdout.contains("→ car "), "\(day.stdout)")
        #expect(day.stdout.contains("07:41–12:00  ⌂ Office"), "local times (05:41 UTC): \(day.stdout)")
        // `trailbook day` shows the same, and --json carries them.
        let diary = try await run(["day", "2026-06-03", "--store", store, "--time-zone", "Europe/Zurich"])
        #expect(diary.status == 0 && diary.stdout.contains("07:41–12:00  ⌂ Office"), "\(diary.stdout)")
        let diaryJSON = try await run(["day", "2026-06-03", "--store", store, "--time-zone", "Europe/Zurich", "--json"])
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(diaryJSON.stdout.utf8)) as? [String: Any])
        #expect((document["visits"] as? [[String: Any]])?.count == 6, "\(document["visits"] ?? "none")")
        #expect((document["trips"] as? [[String: Any]])?.first?["mode"] as? String == "cycling")
        let places = try await run(["visits", "--store", store, "--time-zone", "Europe/Zurich", "--places"])
        #expect(places.status == 0, "\(places.stderr)")
        #expect(
            places.stdout.split(separator: "\n").first?.hasPrefix("home (suggested): ") == true,
            "the most time at home: \(places.stdout)")
    }

    /// A gazetteer in GeoNames' format, made here: the geoname table's 19 columns.
    static func gazetteer(_ dir: String) throws -> (table: String, admin1: String) {
        func row(
            _ id: Int, _ name: String, _ lat: Double, _ lon: Double, _ cls: String, _ country: String,
            _ admin1: String, _ population: Int, _ zone: String
        ) -> String {
            [
                "\(id)", name, name, "", "\(lat)", "\(lon)", cls, cls == "P" ? "PPL" : "LK", country, "", admin1, "",
                "",
                "", "\(population)", "", "400", zone, "2025-01-01",
            ].joined(separator: "\t")
        }
        let rows = [
            row(2_657_896, "Zürich", 47.36667, 8.55, "P", "CH", "25", 341_730, "Europe/Zurich"),
            row(7_287_650, "Wiedikon", 47.3640, 8.5230, "P", "CH", "25", 20_000, "Europe/Zurich"),
            row(2_661_374, "Kloten", 47.45152, 8.58491, "P", "CH", "25", 19_000, "Europe/Zurich"),
            row(2_885_679, "Konstanz", 47.66033, 9.17582, "P", "DE", "01", 83_000, "Europe/Berlin"),
            row(2_643_743, "London", 51.50853, -0.12574, "P", "GB", "ENG", 8_961_989, "Europe/London"),
            row(2_646_517, "Hounslow", 51.46839, -0.36092, "P", "GB", "ENG", 103_337, "Europe/London"),
            row(2_659_667, "Lake Zurich", 47.25, 8.70, "H", "CH", "25", 0, "Europe/Zurich"),
        ]
        let table = dir + "/cities500.txt"
        try (rows.joined(separator: "\n") + "\n").write(toFile: table, atomically: true, encoding: .utf8)
        let admin1 = dir + "/admin1CodesASCII.txt"
        try "CH.25\tZurich\tZurich\t2657895\nDE.01\tBaden-Wuerttemberg\tBaden-Wuerttemberg\t2953481\n"
            .write(toFile: admin1, atomically: true, encoding: .utf8)
        return (table, admin1)
    }

    @Test func theGazetteerNamesEachVisitWithItsNearestPlace() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/named.sqlite"
        let (table, admin1) = try Self.gazetteer(dir)
        #expect(try await run(["place", "add", "x", "--lat", "1", "--lon", "1", "--store", store]).status == 0)
        let empty = try await run(["geocoder", "near", "--lat", "47.37", "--lon", "8.54", "--store", store])
        #expect(empty.status == 66 && empty.stderr.contains("geocoder import"), "\(empty.stderr)")
        let load = try await run(["geocoder", "import", table, "--admin1", admin1, "--store", store, "--json"])
        #expect(load.status == 0, "\(load.stderr)")
        let loaded = try #require(try JSONSerialization.jsonObject(with: Data(load.stdout.utf8)) as? [String: Any])
        #expect(loaded["rows"] as? Int == 7 && loaded["stored"] as? Int == 6 && loaded["passed_over"] as? Int == 1)
        let near = try await run(["geocoder", "near", "--lat", "47.3769", "--lon", "8.5417", "--store", store, "--json"])
        let place = try #require(try JSONSerialization.jsonObject(with: Data(near.stdout.utf8)) as? [String: Any])
        #expect(place["name"] as? String == "Zürich" && place["admin1"] as? String == "Zurich")
        #expect(place["country_name"] as? String == "Switzerland" && place["time_zone"] as? String == "Europe/Zurich")
        let far = try await run(["geocoder", "near", "--lat", "0", "--lon", "-140", "--store", store])
        #expect(far.status == 1 && far.stderr.contains("within 50 km"), "\(far.stderr)")

        // A broken file changes nothing: exit 65 naming the line.
        let broken = dir + "/broken.txt"
        try "2657896\tZürich\t47.3\t8.5\n".write(toFile: broken, atomically: true, encoding: .utf8)
        let bad = try await run(["geocoder", "import", broken, "--store", store])
        #expect(bad.status == 65 && bad.stderr.contains("Line 1 of \(broken)"), "\(bad.stderr)")
        #expect(
            try await run(["geocoder", "near", "--lat", "47.3769", "--lon", "8.5417", "--store", store]).stdout.hasPrefix(
                "Zürich, Zurich"))
        // The zip as GeoNames publishes it (cities500.zip holding cities500.txt) is read in place.
        let folder = dir + "/cities500"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: table, toPath: folder + "/cities500.txt")
        try GoogleImportTests().zip(folder, into: dir + "/cities500.zip")
        let zipped = try await run(["geocoder", "import", dir + "/cities500.zip", "--store", store])
        #expect(zipped.status == 0 && zipped.stdout.contains("Stored 6 populated places"), "\(zipped.stderr)")

        // The last four days of the fortnight (Zurich, the flight, London): each visit named.
        let parts = try files()
        #expect(try await run(["import", "--store", store, parts[2]]).status == 0)
        let found = try await visits(store)
        let named = try #require(found["visits"] as? [[String: Any]])
        let localities = named.map { (($0["locality"] as? [String: Any])?["name"] as? String) ?? "none" }
        // Home and work are nearer Wiedikon than Zürich's centre; the airports are Kloten's and Hounslow's.
        #expect(Set(localities) == ["Wiedikon", "Kloten", "Hounslow", "London"], "\(localities)")
        let london = try #require(named.first { ($0["locality"] as? [String: Any])?["name"] as? String == "London" })
        #expect((london["locality"] as? [String: Any])?["time_zone"] as? String == "Europe/London")
        let text = try await run(["visits", "--store", store, "--time-zone", "Europe/Zurich", "--day", "2026-06-13"])
        #expect(text.stdout.contains("· London, GB"), "\(text.stdout)")
        #expect(text.stdout.contains("2026-06-13 (Europe/London)\n"), "the day headed where it was: \(text.stdout)")
        // Local time wherever you were: London's +01:00 beside Zurich's listing, in text and JSON.
        #expect(text.stdout.contains("09:42+01:00–13:00+01:00  ⌂"), "the museum, 10:42-14:00 in Zurich: \(text.stdout)")
        #expect((london["local_start"] as? String)?.hasSuffix("+01:00") == true, "\(london)")
        // The day's timeline too: the museum in London's time; the rides at home have no offset.
        let timeline = try await run(["timeline", "2026-06-13", "--store", store, "--time-zone", "Europe/Zurich"])
        #expect(timeline.stdout.contains("09:42+01:00–13:00+01:00  ⌂ visit"), "\(timeline.stdout)")
        let entries = try #require(
            (try JSONSerialization.jsonObject(
                with: Data(
                    try await run(["timeline", "2026-06-13", "--store", store, "--time-zone", "Europe/Zurich", "--json"])
                        .stdout.utf8)) as? [String: Any])?["entries"] as? [[String: Any]])
        #expect(Set(entries.compactMap { $0["time_zone"] as? String }) == ["Europe/London"], "\(entries)")
        // A day in London is London's day: cut at London's midnights (01:00 in Zurich), its times
        // still written in the zone asked for, with London's offset.
        let timelineDoc = try #require(
            try JSONSerialization.jsonObject(
                with: Data(
                    try await run(["timeline", "2026-06-13", "--store", store, "--time-zone", "Europe/Zurich", "--json"])
                        .stdout.utf8)) as? [String: Any])
        #expect(
            timelineDoc["day_zone"] as? String == "Europe/London"
                && timelineDoc["time_zone"] as? String == "Europe/Zurich")
        let day = try await run(["day", "2026-06-13", "--store", store, "--time-zone", "Europe/Zurich"])
        #expect(
            day.stdout.hasPrefix("2026-06-13 (the day in Europe/London, where you were; times in Europe/Zurich)"),
            "\(day.stdout)")
        let home = try await run(["day", "2026-06-11", "--store", store, "--time-zone", "Europe/Zurich", "--json"])
        #expect(
            !home.stdout.contains("day_zone") && home.stdout.contains(#""time_zone" : "Europe/Zurich""#),
            "a day at home: \(home.stdout.prefix(200))")
        // And the day report's timeline, as lanes (in the tips) and as a list.
        for view in ["timeline", "list"] {
            let page = dir + "/\(view).html"
            let report = try await run([
                "report", "day", "2026-06-13", "-o", page, "--view", view, "--store", store, "--time-zone",
                "Europe/Zurich",
            ])
            #expect(report.status == 0, "\(report.stderr)")
            let html = try String(contentsOfFile: page, encoding: .utf8)
            #expect(html.contains("09:42+01:00–13:00+01:00"), "\(view): \(html.suffix(3000))")
        }
    }

    /// The fortnight in review: modes, the nights away, countries by the days stayed there (the
    /// flights over France count for nothing), the longest trip.
    @Test func theFortnightInReview() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/review.sqlite"
        let (table, admin1) = try Self.gazetteer(dir)
        #expect(try await run(["geocoder", "import", table, "--admin1", admin1, "--store", store]).status == 0)
        for part in try files() { #expect(try await run(["import", "--store", store, part]).status == 0) }
        let result = try await run(["year", "2026", "--store", store, "--time-zone", "Europe/Zurich", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let review = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(review["days"] as? Int == 14 && review["from"] as? String == "2026-01-01")
        let modes = try #require(review["by_mode"] as? [[String: Any]])
        let plane = try #require(modes.first { $0["mode"] as? String == "plane" })
        #expect(plane["trips"] as? Int == 2)
        #expect((plane["distance_m"] as? Double).map { abs($0 - 1_576_000) < 20_000 } == true, "\(plane)")
        #expect(Set(modes.compactMap { $0["mode"] as? String }) == ["plane", "car", "cycling", "walking", "running"])
        let countries = try #require(review["countries"] as? [[String: Any]])
        let days = Dictionary(uniqueKeysWithValues: countries.map { ($0["code"] as! String, $0["days"] as! Int) })
        // Switzerland every day but the Saturday in London; London Friday to Sunday; Konstanz Saturday and Sunday.
        #expect(days == ["CH": 13, "GB": 3, "DE": 2], "\(countries)")
        #expect(countries.first?["name"] as? String == "Switzerland")
        #expect(review["nights_away_from_home"] as? Int == 3 && review["days_away_from_home"] as? Int == 1)
        let home = try #require(review["home"] as? [String: Any])
        #expect(home["name"] as? String == "home (suggested)" && home["locality"] as? String == "Wiedikon, CH")
        let longest = try #require(review["longest_trip"] as? [String: Any])
        #expect(longest["mode"] as? String == "plane" && longest["from"] as? String == "Kloten, CH", "\(longest)")
        let text = try await run([
            "year", "--from", "2026-06-01", "--to", "2026-06-14", "--store", store, "--time-zone", "Europe/Zurich",
        ])
        #expect(text.status == 0 && text.stdout.contains("Countries: Switzerland 13 days"), "\(text.stdout)")
        let empty = try await run(["year", "2025", "--store", store])
        #expect(empty.status == 0 && empty.stdout.contains("0 days with data"), "\(empty.stdout)")
    }

    /// A place keeps its number when more points come (re-analysis); the user's name, mode and
    /// place corrections survive it, and undo takes one back.
    @Test func placesKeepTheirNumbersAndCorrectionsSurviveMorePoints() async throws {
        let parts = try files()
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/kept.sqlite"
        let zone = ["--store", store, "--time-zone", "Europe/Zurich"]
        #expect(try await run(["import", "--store", store, parts[1]]).status == 0)
        func places() async throws -> [Int: [String: Any]] {
            let listed = try #require(try await visits(store)["places"] as? [[String: Any]])
            return Dictionary(uniqueKeysWithValues: listed.map { ($0["id"] as! Int, $0) })
        }
        func near(_ c: Coordinate, _ all: [Int: [String: Any]]) -> Int? {
            all.first { _, p in
                Geodesy.haversineDistance(
                    Coordinate(latitude: p["lat"] as! Double, longitude: p["lon"] as! Double), c) < 50
            }?.key
        }
        let before = try await places()
        let canteen = try #require(near(Fortnight.canteen, before))
        let work = try #require(near(Fortnight.work, before))
        // The rest of the fortnight arrives: the days before first, so the order of first visit changes.
        for i in [0, 2] { #expect(try await run(["import", "--store", store, parts[i]]).status == 0) }
        let after = try await places()
        #expect(near(Fortnight.canteen, after) == canteen && near(Fortnight.work, after) == work, "\(after.keys)")
        #expect(after.count > before.count, "the weekend away adds places")
        #expect(
            Set(after.keys).subtracting(before.keys).allSatisfy { $0 > before.keys.max()! },
            "new places are numbered after the ones remembered")

        // Corrections: a name, the mode of the first ride to work, the place of a lunch.
        #expect(try await run(["visit", "name", String(canteen), "Canteen"] + zone).status == 0)
        let day = try #require(try await visits(store, ["--day", "2026-06-03"])["trips"] as? [[String: Any]])
        let ride = try #require(day.first)
        #expect(ride["mode"] as? String == "cycling")
        let rideStart = try #require(GoogleImportTests.milliseconds(ride["start"] as! String))
        let mode = try await run(["visit", "mode", GoogleImportTests.iso(rideStart + 120_000), "running", "--json"] + zone)
        #expect(mode.status == 0, "\(mode.stderr)")
        #expect(mode.stdout.contains("\"mode\" : \"running\""), "\(mode.stdout)")
        let lunch = try await run(["visit", "place", "2026-06-03 12:20", "place \(work)"] + zone)
        #expect(
            lunch.status == 0 && lunch.stdout.contains(": at place \(work) (correction "),
            "\(lunch.stdout)\(lunch.stderr)")
        // More points again (the same files: nothing new is stored, everything is looked at again).
        for part in parts { #expect(try await run(["import", "--store", store, part]).status == 0) }
        let found = try await visits(store, ["--day", "2026-06-03"])
        let trips = try #require(found["trips"] as? [[String: Any]])
        #expect(trips.first?["mode"] as? String == "running" && trips.first?["corrected"] as? Bool == true)
        let stays = try #require(found["visits"] as? [[String: Any]])
        #expect(stays.filter { $0["corrected"] as? Bool == true }.map { $0["place"] as? Int } == [work], "\(stays)")
        #expect(try await places()[canteen]?["name"] as? String == "Canteen")
        let text = try await run(["visits", "--day", "2026-06-05"] + zone)
        #expect(text.stdout.contains("⌂ Canteen"), "the name in every listing: \(text.stdout)")
        // Undo the mode; the list shows what is left.
        let list = try await run(["visit", "corrections", "--json"] + zone)
        let corrections = try #require(
            (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["corrections"]
                as? [[String: Any]])
        #expect(corrections.map { $0["kind"] as? String } == ["mode", "place"], "\(corrections)")
        let id = try #require(corrections.first?["id"] as? Int)
        #expect(try await run(["visit", "undo", String(id)] + zone).status == 0)
        let undone = try #require(try await visits(store, ["--day", "2026-06-03"])["trips"] as? [[String: Any]])
        #expect(undone.first?["mode"] as? String == "cycling" && undone.first?["corrected"] as? Bool == false)
        // What cannot be done says so.
        let bad = try await run(["visit", "mode", "2026-06-03 12:20", "bus"] + zone)
        #expect(bad.status == 64 && bad.stderr.contains("'bus' is not a mode"), "\(bad.stderr)")
        let noTrip = try await run(["visit", "mode", "2026-06-03 10:00", "car"] + zone)
        #expect(
            noTrip.status == 66 && noTrip.stderr.contains("No trip was found at 2026-06-03T10:00"), "\(noTrip.stderr)")
        let noPlace = try await run(["visit", "place", "2026-06-03 10:00", "Moon"] + zone)
        #expect(noPlace.status == 66 && noPlace.stderr.contains("There is no place Moon"), "\(noPlace.stderr)")
        #expect(try await run(["visit", "undo", String(id)] + zone).status == 66, "taken back once only")
    }

    /// Google's activity segment over a trip gives its mode where the speeds said another: the
    /// morning ride of 3 June (cycling by its speeds), said to be a bus ride by Google.
    @Test func googlesActivityGivesATripItsMode() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/google.sqlite"
        for part in try files() { #expect(try await run(["import", "--store", store, part]).status == 0) }
        let before = try #require(try await visits(store, ["--day", "2026-06-03"])["trips"] as? [[String: Any]])
        let ride = try #require(before.first)
        #expect(ride["mode"] as? String == "cycling" && ride["mode_from"] as? String == "speeds")
        let start = try #require(GoogleImportTests.milliseconds(ride["start"] as! String))
        let end = try #require(GoogleImportTests.milliseconds(ride["end"] as! String))
        let (from, to) = (try #require(ride["from"] as? [Double]), try #require(ride["to"] as? [Double]))
        let segment: [String: Any] = [
            "activitySegment": [
                "duration": [
                    "startTimestamp": GoogleImportTests.iso(start - 60_000),
                    "endTimestamp": GoogleImportTests.iso(end + 60_000),
                ],
                "startLocation": [
                    "latitudeE7": GoogleImportTests.e7(from[0]), "longitudeE7": GoogleImportTests.e7(from[1]),
                ],
                "endLocation": ["latitudeE7": GoogleImportTests.e7(to[0]), "longitudeE7": GoogleImportTests.e7(to[1])],
                "activityType": "IN_BUS", "distance": 3500,
            ]
        ]
        let file = dir + "/2026_JUNE.json"
        try JSONSerialization.data(withJSONObject: ["timelineObjects": [segment]]).write(to: URL(fileURLWithPath: file))
        let imported = try await run(["import", "--store", store, file])
        #expect(imported.status == 0 && imported.stdout.contains("1 activity"), "\(imported.stdout)\(imported.stderr)")
        let after = try #require(try await visits(store, ["--day", "2026-06-03"])["trips"] as? [[String: Any]])
        #expect(after.first?["mode"] as? String == "car" && after.first?["mode_from"] as? String == "phone", "\(after)")
        #expect(after.dropFirst().allSatisfy { $0["mode_from"] as? String == "speeds" }, "only the ride it covers")
        let text = try await run(["visits", "--store", store, "--time-zone", "Europe/Zurich", "--day", "2026-06-03"])
        #expect(text.stdout.contains("→ car 3.5 km") && text.stdout.contains("(as the phone said)"), "\(text.stdout)")
    }

    /// Street addresses from the user's own geocoder: asked once per place (Nominatim's and
    /// Photon's answers), kept with the place, a server down said once and asked again later.
    @Test func streetNamesComeFromTheUsersOwnGeocoderOncePerPlace() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/streets.sqlite"
        let day = try files()[0]
        #expect(try await run(["import", "--store", store, day]).status == 0)
        let geocoder = try GeocoderServer(
            directory: dir,
            places: [
                .init(
                    latitude: Fortnight.canteen.latitude, longitude: Fortnight.canteen.longitude, name: "Mensa Nord",
                    street: "Hardstrasse", number: "201"),
                .init(
                    latitude: Fortnight.work.latitude, longitude: Fortnight.work.longitude, name: "",
                    street: "Pfingstweidstrasse",
                    number: "96"),
            ])
        func config(_ kind: String) throws -> String {
            let path = dir + "/\(kind).toml"
            try "[time]\nzone = \"Europe/Zurich\"\n[visits]\nstreet_names = \"\(geocoder.setting(kind))\"\n".write(
                toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        // Down: the listing goes on, one sentence says why, nothing is kept.
        let down = try await run(["visits", "--store", store, "--config", try config("nominatim"), "--day", "2026-06-03"])
        #expect(down.status == 0 && down.stdout.contains("⌂ work (suggested)"), "\(down.stdout)")
        #expect(
            down.stderr.contains("does not answer") && down.stderr.split(separator: "\n").count == 1, "\(down.stderr)")
        try geocoder.start()
        defer { geocoder.stop() }
        let listed = try await run(["visits", "--store", store, "--config", try config("nominatim"), "--day", "2026-06-03"])
        #expect(listed.status == 0 && listed.stderr.isEmpty, "\(listed.stderr)")
        #expect(
            listed.stdout.contains("⌂ place 3  · 41 min · Mensa Nord, Hardstrasse 201")
                || listed.stdout.contains("Mensa Nord, Hardstrasse 201"), "\(listed.stdout)")
        #expect(
            listed.stdout.contains("⌂ work (suggested)  · 4 h") && listed.stdout.contains("· Pfingstweidstrasse 96"),
            "\(listed.stdout)")
        let asked = geocoder.requests()
        #expect(asked.allSatisfy { $0.path == "/nominatim/reverse" && $0.query.hasPrefix("format=jsonv2&lat=") })
        #expect(asked.allSatisfy { $0.agent.hasPrefix("Trailbook") })
        // Asked once per place: listing again, or the whole fortnight's first days, asks only for new places.
        let again = try await run([
            "visits", "--store", store, "--config", try config("photon"), "--day", "2026-06-03", "--json",
        ])
        #expect(geocoder.requests().count == asked.count, "nothing asked twice")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        let addressed = (document["places"] as? [[String: Any]] ?? []).compactMap { $0["address"] as? String }
        #expect(Set(addressed) == ["Mensa Nord, Hardstrasse 201", "Pfingstweidstrasse 96"], "\(addressed)")
        let all = try await run(["visits", "--store", store, "--config", try config("photon"), "--places"])
        #expect(all.status == 0)
        let photon = geocoder.requests().dropFirst(asked.count)
        #expect(!photon.isEmpty && photon.allSatisfy { $0.path == "/photon/reverse" }, "the other places, by Photon")
        #expect(geocoder.requests().count == Set(geocoder.requests().map(\.query)).count, "each place once")
    }

    /// A ride in Tokyo listed from Zurich: its times are Tokyo's, written +09:00, once the
    /// gazetteer knows where it was; without one, the listing's zone.
    @Test func aRideAbroadIsListedInItsOwnTime() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/tokyo.sqlite"
        // 20 minutes east along the Imperial Palace at 5 m/s, from 2026-06-14T01:00:00Z (10:00 in
        // Tokyo), and the next morning's from 2026-06-14T21:00:00Z (06:00 in Tokyo on the 15th, 23:00
        // in Zurich on the 14th).
        for (name, start) in [("tokyo", Int64(1_781_398_800_000)), ("morning", 1_781_470_800_000)] {
            var gpx =
                #"<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
            for s in stride(from: 0, through: 1200, by: 5) {
                let lon = 139.7500 + Double(s) * 5 / 90_400
                gpx += String(format: #"<trkpt lat="35.6850" lon="%.6f">"#, lon)
                gpx += "<time>\(GoogleImportTests.iso(start + Int64(s) * 1000))</time></trkpt>"
            }
            gpx += "</trkseg></trk></gpx>\n"
            try gpx.write(toFile: dir + "/\(name).gpx", atomically: true, encoding: .utf8)
            #expect(try await run(["import", "--store", store, dir + "/\(name).gpx"]).status == 0)
        }
        let zurich = ["--store", store, "--time-zone", "Europe/Zurich"]
        let before = try await run(["rides"] + zurich)
        #expect(
            before.stdout.contains("2026-06-14 03:00:00 +02:00"), "no gazetteer: the listing's zone: \(before.stdout)")
        let fifteenth = try await run(["rides", "--day", "2026-06-15"] + zurich)
        #expect(fifteenth.stdout.hasPrefix("No rides stored on 2026-06-15 (Europe/Zurich)"), "\(fifteenth.stdout)")
        let row = [
            "1850147", "Tokyo", "Tokyo", "", "35.6895", "139.69171", "P", "PPLC", "JP", "", "40", "", "", "",
            "8336599", "", "44", "Asia/Tokyo", "2025-01-01",
        ].joined(separator: "\t")
        try (row + "\n").write(toFile: dir + "/cities.txt", atomically: true, encoding: .utf8)
        #expect(try await run(["geocoder", "import", dir + "/cities.txt", "--store", store]).status == 0)
        let after = try await run(["rides"] + zurich)
        #expect(after.stdout.contains("2026-06-14 10:00:00 +09:00 → 2026-06-14 10:20:00 +09:00"), "\(after.stdout)")
        let json = try await run(["rides", "--json"] + zurich)
        #expect(json.stdout.contains(#""time_zone" : "Asia/Tokyo""#), "\(json.stdout)")
        #expect(json.stdout.contains(#""start" : "2026-06-14T03:00:00+02:00""#), "start stays in the listing's zone")
        // A day in Tokyo is Tokyo's day: the morning ride is on the 15th, as `day` shows it, for
        // `rides --day`, `points --day`, `records` and the calendar alike.
        let morning = try await run(["rides", "--day", "2026-06-15"] + zurich)
        #expect(
            morning.stdout.split(separator: "\n") == [
                "ride 2  2026-06-15 06:00:00 +09:00 → 2026-06-15 06:20:00 +09:00  0h20m  241 points, 1 segment, 0 dropped"
            ], "\(morning.stdout)")
        let fourteenth = try await run(["rides", "--day", "2026-06-14", "--json"] + zurich)
        #expect(fourteenth.stdout.contains(#""id" : 1,"#) && !fourteenth.stdout.contains(#""id" : 2,"#))
        let points = try await run(["points", "--day", "2026-06-15"] + zurich).stdout.split(separator: "\n")
        #expect(points.count == 242 && points[1].hasPrefix("2026-06-14T21:00:00.000Z"), "\(points.prefix(2))")
        let day = try await run(["day", "2026-06-15"] + zurich)
        #expect(day.stdout.hasPrefix("2026-06-15 (the day in Asia/Tokyo, where you were"), "\(day.stdout)")
        let calendar = try await DiaryCalendar.load(
            2026, store: try TrackStore(path: store), zone: TimeZone(identifier: "Europe/Zurich")!, devices: .all)
        #expect(
            calendar.days.mapValues(\.rides) == [
                CivilDate(unchecked: 2026, 6, 14): 1, CivilDate(unchecked: 2026, 6, 15): 1,
            ])
    }

    /// Once home and work are remembered, a day is read with half a day on either side (a day
    /// when a stay runs past that): every day of the fortnight gives the visits, trips and names
    /// the whole fortnight gives for it.
    @Test func aDayAloneGivesWhatTheWholeFortnightGivesForIt() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/days.sqlite"
        for part in try files() { #expect(try await run(["import", "--store", store, part]).status == 0) }
        let whole = try await visits(store)
        let allVisits = try #require(whole["visits"] as? [[String: Any]])
        let allTrips = try #require(whole["trips"] as? [[String: Any]])
        #expect(allVisits.contains { $0["name"] as? String == "home (suggested)" }, "home suggested and remembered")
        func local(_ text: Any?) -> Int64 { GoogleImportTests.milliseconds(text as? String ?? "") ?? 0 }
        for d in 1...14 {
            let day = String(format: "2026-06-%02d", d)
            // Zurich's midnight in June: 22:00 UTC the day before.
            let from = try #require(GoogleImportTests.milliseconds(day + "T00:00:00.000Z")) - 7_200_000
            let to = from + 86_400_000
            let alone = try await visits(store, ["--day", day])
            func key(_ list: [[String: Any]]) -> [String] {
                list.filter { local($0["end"]) >= from && local($0["start"]) < to }.map {
                    "\($0["start"] ?? "")|\($0["end"] ?? "")|\($0["name"] ?? $0["mode"] ?? "")"
                }
            }
            #expect(key(alone["visits"] as? [[String: Any]] ?? []) == key(allVisits), "\(day): visits")
            #expect(key(alone["trips"] as? [[String: Any]] ?? []) == key(allTrips), "\(day): trips")
        }
    }

    /// A long range looked at again (the server's year in review) goes on from where the
    /// detector stood at the newest ride's start: the same findings as a whole reading, after
    /// new points, and after an older ride is removed (then read whole again).
    @Test func aSecondLookAtALongRangeReadsOnlyWhatCameSince() async throws {
        let dir = try Samples.temporaryDirectory()
        let path = dir + "/memo.sqlite"
        let parts = try files()
        for part in parts.prefix(2) { #expect(try await run(["import", "--store", path, part]).status == 0) }
        let store = try TrackStore(path: path)
        let zone = TimeZone(identifier: "Europe/Zurich")!
        let (from, to) = (Fortnight.start - 86_400_000, Fortnight.start + 20 * 86_400_000)
        // Rules other than those the kept timeline was made with: the days are worked out on
        // each look, which is what the memo is for (docs/TIMELINE.md).
        var rules = VisitRules()
        rules.minDuration = 299
        func look(_ memo: DetectionMemo?) async throws -> [String] {
            let f = try await VisitService.find(
                store: store, fromMilliseconds: from, toMilliseconds: to, devices: .all, rules: rules,
                zone: zone, memo: memo)
            return f.visits.map { "visit \($0.start) \($0.end) \($0.place ?? -1)" }
                + f.trips.map { "trip \($0.start) \($0.end) \($0.mode.rawValue)" } + ["points \(f.points)"]
        }
        _ = try await look(nil)  // home and work remembered: the range read from now on
        let memo = DetectionMemo()
        let first = try await look(memo)
        let whole = try await look(nil)
        #expect(first.count > 10 && first == whole && memo.resumed == 0)
        let again = try await look(memo)
        #expect(again == first && memo.resumed == 1)
        // Read beforehand (the server's background round): the first look goes on from there.
        let primed = DetectionMemo()
        try await VisitService.prime(
            store: store, fromMilliseconds: from, toMilliseconds: to, devices: .all, rules: rules, memo: primed)
        let afterPriming = try await look(primed)
        #expect(primed.resumed == 1 && afterPriming == first)
        // The last five days come: the detector goes on from where it stood.
        #expect(try await run(["import", "--store", path, parts[2]]).status == 0)
        let more = try await look(memo)
        let moreWhole = try await look(nil)
        #expect(memo.resumed == 2 && more == moreWhole && more.count > first.count)
        // An older ride removed: read whole again, and right.
        let oldest = try #require(try store.readNow { try $0.rides() }.first)
        #expect(try store.writeNow { try $0.remove(ride: oldest.id, account: nil) } != nil)
        let fewer = try await look(memo)
        let fewerWhole = try await look(nil)
        #expect(memo.resumed == 2 && fewer == fewerWhole && fewer != more)
    }

    /// A flight from Zurich to Tokyo as a GPX file in `dir` (`flight.gpx`).
    static func flightGPX(in dir: String) throws -> String {
        let zurichAirport = Coordinate(latitude: 47.4581, longitude: 8.5555)
        let narita = Coordinate(latitude: 35.7720, longitude: 140.3929)
        let hotel = Coordinate(latitude: 35.6850, longitude: 139.7500)
        // From 2026-06-10T06:00:00Z (08:00 in Zurich): 2 h at the airport, 10 h 40 min in the air,
        // landing 18:41Z (03:41 on the 11th in Tokyo), an hour there, an hour's drive, the hotel.
        var history = HistorySimulator(
            start: zurichAirport, startMilliseconds: 1_781_071_200_000,
            steps: [
                .stay(seconds: 2 * 3600), .move(to: narita, speed: 250, mode: "plane", darkShare: 0.6),
                .stay(seconds: 3600), .move(to: hotel, speed: 15, mode: "car"), .stay(seconds: 20 * 3600),
            ])
        history.seed = 3
        var gpx = """
            <?xml version="1.0"?><gpx version="1.1" creator="VisitsCommandTests" \
            xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>

            """
        for f in Array(history) {
            let c = f.coordinate!
            gpx += String(format: "<trkpt lat=\"%.7f\" lon=\"%.7f\">", c.latitude, c.longitude)
            gpx += "<time>\(GoogleImportTests.iso(f.unixMilliseconds!))</time></trkpt>\n"
        }
        try (gpx + "</trkseg></trk></gpx>\n").write(toFile: dir + "/flight.gpx", atomically: true, encoding: .utf8)
        return dir + "/flight.gpx"
    }

    /// GeoNames rows (cities500.txt's columns) for Tokyo and Zurich, as a file in `dir`.
    static func tokyoAndZurich(in dir: String) throws -> String {
        let rows = [
            [
                "1850147", "Tokyo", "Tokyo", "", "35.6895", "139.69171", "P", "PPLC", "JP", "", "40", "", "", "",
                "8336599", "", "44", "Asia/Tokyo", "2025-01-01",
            ],
            [
                "2657896", "Zurich", "Zurich", "", "47.36667", "8.55", "P", "PPLA", "CH", "", "ZH", "", "", "",
                "341730", "", "410", "Europe/Zurich", "2025-01-01",
            ],
        ]
        try (rows.map { $0.joined(separator: "\t") }.joined(separator: "\n") + "\n").write(
            toFile: dir + "/cities.txt", atomically: true, encoding: .utf8)
        return dir + "/cities.txt"
    }

    /// A flight east from Zurich lands in Tokyo after midnight there: the day it left ends where
    /// the next begins (Tokyo's midnight), so the arrival at the airport and the hotel are the
    /// 11th's alone, in every listing; the flight, over both days' edge, is on both, cut there.
    /// A store with the flight imported and the gazetteer of both cities (with it the 11th begins
    /// in Tokyo, 2026-06-10T15:00Z: the flight is over that day's edge).
    static func flightStore() async throws -> String {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/flight.sqlite"
        #expect(try await run(["import", "--store", store, try flightGPX(in: dir)]).status == 0)
        #expect(try await run(["geocoder", "import", try tokyoAndZurich(in: dir), "--store", store]).status == 0)
        return store
    }

    /// `trailbook ARGS --json` on `store` in Zurich's time, its answer parsed.
    static func zurichJSON(_ arguments: [String], _ store: String) async throws -> [String: Any] {
        let result = try await run(arguments + ["--store", store, "--time-zone", "Europe/Zurich", "--json"])
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func aFlightEastLeavesItsArrivalToTheDayItLands() async throws {
        let store = try await Self.flightStore()
        func json(_ arguments: [String]) async throws -> [String: Any] { try await Self.zurichJSON(arguments, store) }
        // The 11th begins in Tokyo: 2026-06-10T15:00:00Z.
        let edge = try #require(GoogleImportTests.milliseconds("2026-06-10T15:00:00.000Z"))
        for (day, visits) in [("2026-06-10", 1), ("2026-06-11", 2)] {
            let found = try #require(try await json(["visits", "--day", day])["visits"] as? [[String: Any]])
            let starts = found.compactMap { GoogleImportTests.milliseconds($0["start"] as? String ?? "") }
            #expect(starts.count == visits, "\(day): \(found)")
            #expect(
                starts.allSatisfy { day == "2026-06-10" ? $0 < edge : $0 >= edge }, "\(day): \(found)")
            let trips = try #require(try await json(["visits", "--day", day])["trips"] as? [[String: Any]])
            #expect(trips.contains { $0["mode"] as? String == "plane" }, "the flight on both days: \(trips)")
            let entries = try #require(try await json(["timeline", day])["entries"] as? [[String: Any]])
            #expect(entries.filter { $0["kind"] as? String == "visit" }.count == visits, "\(day): \(entries)")
        }
    }
}
