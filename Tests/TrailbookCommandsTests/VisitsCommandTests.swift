import Foundation
import GPSCore
import RideSimulator
import Testing
import TrailbookTestSupport

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

    func visits(_ store: String, _ extra: [String] = []) throws -> [String: Any] {
        let result = try run(["visits", "--store", store, "--time-zone", "Europe/Zurich", "--json"] + extra)
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    @Test func aFortnightsVisitsWhateverTheOrderOfImport() throws {
        let parts = try files()
        let dir = try Samples.temporaryDirectory()
        var found: [[String: Any]] = []
        for (name, order) in [("in-order", [0, 1, 2]), ("backwards", [2, 0, 1])] {
            let store = "\(dir)/\(name).sqlite"
            for i in order {
                let result = try run(["import", "--store", store, parts[i]])
                #expect(result.status == 0, "\(result.stderr)")
            }
            found.append(try visits(store))
        }
        let stays = Fortnight.simulator().truth.filter { $0.mode == nil }
        let first = try #require(found[0]["visits"] as? [[String: Any]])
        #expect(first.count == stays.count, "\(first.count) visits for \(stays.count) stays")
        for (v, stay) in zip(first, stays) {
            let start = try #require(GoogleImportTests.milliseconds(v["start"] as? String ?? ""))
            let end = try #require(GoogleImportTests.milliseconds(v["end"] as? String ?? ""))
            #expect(abs(start - stay.start) <= 120_000 && abs(end - stay.end) <= 120_000, "\(v) for \(stay)")
        }
        #expect(
            NSDictionary(dictionary: found[0]) == NSDictionary(dictionary: found[1]),
            "the same visits, trips and places whatever order the files came in")
        let trips = try #require(found[0]["trips"] as? [[String: Any]])
        #expect(trips.filter { $0["mode"] as? String == "plane" }.count == 2, "both flights kept and found")
        let names = Set(first.compactMap { $0["name"] as? String })
        #expect(names.isSuperset(of: ["home (suggested)", "work (suggested)"]), "\(names)")

        // The user's own place names what lies in it; a day in text, local times.
        let store = "\(dir)/in-order.sqlite"
        let add = try run([
            "place", "add", "Office", "--store", store, "--lat", "\(Fortnight.work.latitude)", "--lon",
            "\(Fortnight.work.longitude)", "--radius", "80",
        ])
        #expect(add.status == 0, "\(add.stderr)")
        let day = try run(["visits", "--store", store, "--time-zone", "Europe/Zurich", "--day", "2026-06-03"])
        #expect(day.status == 0, "\(day.stderr)")
        #expect(day.stdout.hasPrefix("2026-06-0"), "\(day.stdout)")
        #expect(day.stdout.contains("⌂ Office"), "\(day.stdout)")
        #expect(day.stdout.contains("→ cycling 3.") && day.stdout.contains("→ car "), "\(day.stdout)")
        #expect(day.stdout.contains("07:30–"), "local times: \(day.stdout)")
        let places = try run(["visits", "--store", store, "--time-zone", "Europe/Zurich", "--places"])
        #expect(places.status == 0, "\(places.stderr)")
        #expect(
            places.stdout.split(separator: "\n").first?.hasPrefix("home (suggested): ") == true,
            "the most time at home: \(places.stdout)")
    }
}
