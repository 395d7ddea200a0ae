import Foundation
import Testing
import TrailbookTestSupport

/// `import` of Dawarich's whole-account export, its zip as Dawarich writes it, in both layouts:
///
/// - `data.json`: one object, `counts` first, then the sections in the order
///   Freika/dawarich app/services/users/export_data.rb (at 8ad0b20d3d29e1c9e0475e71c08e0104ee8b399a)
///   writes them; a point as `build_point_hash` in app/services/users/export_data/points.rb (at
///   0a42eb1b4bb669c24a5107217ac0b4c794bb3233) makes it (`timestamp` in Unix seconds, `latitude` and
///   `longitude`, or only `lonlat` when the columns are empty, `velocity` a string of m/s per
///   app/services/own_tracks/params.rb at 057e00ab3e5da72c71485aa18cdbdd7a9b1fd9fa), a visit as
///   app/services/users/export_data/visits.rb (at 3e475d8f84ba6145910bf368810b0c479b657e04) does
///   (`place_reference` with the place's `latitude` and `longitude` as strings);
/// - the JSON Lines layout read by app/services/users/import_data/v2_handler.rb (at
///   3c8ea2d35b0771f3bd47e4d06f36478899558205): `manifest.json`, `points/YYYY/YYYY-MM.jsonl`,
///   `visits/YYYY/YYYY-MM.jsonl` and files of other kinds (`places.jsonl`, `areas.jsonl`,
///   `trips.jsonl`), each row as `as_json(except: %w[user_id id])` writes it (export_data/areas.rb,
///   places.rb at dd246797bca83002379ae311ec94543d259ed2bf, trips.rb at
///   36e426433e6772e891c7957a9849cd57f3a1a8d9; their columns as db/schema.rb at
///   0038f72155732e7fd1157ef45966825dd098e64b has them, and a trip's `path` as WKT).
@Suite struct DawarichImportTests {
    typealias Point = GoogleImportTests.Point
    let google = GoogleImportTests()

    /// Every tenth point of the sample ride, then twelve minutes where it ended (a point every two).
    var ride: [Point] {
        let ride = GoogleImportTests.ride.enumerated().filter { $0.offset % 10 == 0 }.map(\.element)
        guard let last = ride.last else { return ride }
        return ride
            + (1...6).map {
                Point(
                    milliseconds: last.milliseconds + Int64($0) * 120_000, latitude: last.latitude,
                    longitude: last.longitude, altitude: last.altitude, speed: 0)
            }
    }

    func iso(_ ms: Int64) -> String { GoogleImportTests.iso(ms) }

    /// Point `i` of the ride as Dawarich exports it; odd ones written before the latitude and
    /// longitude columns existed (only `lonlat`).
    func point(_ p: Point, _ i: Int) -> [String: Any] {
        let lonlat = String(format: "POINT(%.6f %.6f)", p.longitude, p.latitude)
        return [
            "battery_status": "unplugged", "battery": 81 - i / 10, "timestamp": Int(p.milliseconds / 1000),
            "altitude": (p.altitude ?? 0).rounded(), "velocity": String(format: "%.1f", p.speed ?? 0), "accuracy": 5,
            "ping": NSNull(), "tracker_id": "an", "topic": "owntracks/ana/phone", "trigger": "background_event",
            "bssid": NSNull(), "ssid": NSNull(), "connection": "mobile", "vertical_accuracy": 3, "mode": NSNull(),
            "inrids": [String](), "in_regions": [String](), "raw_data": ["_type": "location", "tid": "an"],
            "city": NSNull(), "country": NSNull(), "geodata": [String: Any](), "reverse_geocoded_at": NSNull(),
            "course": NSNull(), "course_accuracy": NSNull(), "external_track_id": NSNull(),
            "created_at": iso(p.milliseconds), "updated_at": iso(p.milliseconds), "lonlat": lonlat,
            "longitude": i % 2 == 0 ? p.longitude : NSNull(), "latitude": i % 2 == 0 ? p.latitude : NSNull(),
            "import_reference": NSNull(), "country_info": NSNull(), "visit_reference": NSNull(),
        ]
    }

    /// The hour at home before the ride (confirmed), one the person declined, one without a place.
    func visits(_ first: Point) -> [[String: Any]] {
        let start = first.milliseconds - 3_600_000
        func visit(_ name: String, _ from: Int64, _ to: Int64, _ status: String, place: [String: Any]?) -> [String: Any]
        {
            [
                "started_at": iso(from), "ended_at": iso(to), "duration": Int((to - from) / 1000), "name": name,
                "status": status, "created_at": iso(to), "updated_at": iso(to),
                "place_reference": place ?? NSNull(),
            ]
        }
        let home: [String: Any] = [
            "name": "Home", "latitude": String(format: "%.6f", first.latitude),
            "longitude": String(format: "%.6f", first.longitude), "source": "manual", "visit_radius": 50,
        ]
        return [
            visit("Home", start, first.milliseconds - 1000, "confirmed", place: home),
            visit("Bakery", start - 7_200_000, start - 3_600_000, "declined", place: home),
            visit("Unknown Location", start - 10_800_000, start - 9_000_000, "suggested", place: nil),
        ]
    }

    func json(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Writes the archive's files into a folder and zips them with their names from its root, as
    /// Dawarich's `create_zip_archive` does.
    func archive(_ layout: String) async throws -> String {
        let dir = try Samples.temporaryDirectory()
        let folder = dir + "/export"
        let ride = ride
        let points = ride.enumerated().map { point($1, $0) }
        let visits = try visits(#require(ride.first))
        func put(_ name: String, _ text: String) throws {
            let path = folder + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        let last = try #require(ride.last)
        let stamp = iso(ride[0].milliseconds)
        // A place its visits were at (where the ride ends), an area drawn at home, a trip.
        let place: [String: Any] = [
            "name": "Office", "latitude": String(format: "%.6f", last.latitude),
            "longitude": String(format: "%.6f", last.longitude), "city": "Zürich", "country": "Switzerland",
            "source": "photon", "geodata": [String: Any](), "reverse_geocoded_at": stamp, "created_at": stamp,
            "updated_at": stamp, "lonlat": String(format: "POINT(%.6f %.6f)", last.longitude, last.latitude),
        ]
        let area: [String: Any] = [
            "name": "Home", "latitude": String(format: "%.6f", ride[0].latitude),
            "longitude": String(format: "%.6f", ride[0].longitude), "radius": 50, "created_at": stamp,
            "updated_at": stamp,
        ]
        let trip: [String: Any] = [
            "name": "Morning ride", "started_at": iso(ride[0].milliseconds), "ended_at": iso(last.milliseconds),
            "notes": NSNull(), "distance": 12, "visited_countries": ["Switzerland"], "created_at": stamp,
            "updated_at": stamp,
            "path": String(
                format: "LINESTRING (%.6f %.6f, %.6f %.6f)", ride[0].longitude, ride[0].latitude, last.longitude,
                last.latitude),
        ]
        switch layout {
        case "data.json":
            // Written as the export writes it: section after section, `counts` first.
            var text = #"{"counts":"#
            text += try json(["areas": 1, "points": points.count, "visits": visits.count, "places": 1, "trips": 1])
            text += #","settings":{"distance_unit":"km","timezone":"UTC"}"#
            text += #","areas":"# + (try json([area]))
            for section in ["imports", "exports"] { text += ",\"\(section)\":[]" }
            text += #","trips":"# + (try json([trip]))
            for section in ["stats", "notifications"] { text += ",\"\(section)\":[]" }
            text += #","points":"# + (try json(points))
            text += #","visits":"# + (try json(visits))
            text += #","places":"# + (try json([place])) + "}"
            try put("data.json", text)
        default:
            try put(
                "manifest.json",
                try json([
                    "format_version": 2, "dawarich_version": "0.37.0", "exported_at": iso(ride[0].milliseconds),
                    "counts": ["points": points.count, "visits": visits.count],
                    "files": ["points": ["points/2026/2026-06.jsonl"], "visits": ["visits/2026/2026-06.jsonl"]],
                ]))
            try put("settings.jsonl", #"{"distance_unit":"km"}"# + "\n")
            try put("places.jsonl", try json(place) + "\n")
            try put("areas.jsonl", try json(area) + "\n")
            try put("trips.jsonl", try json(trip) + "\n")
            try put("points/2026/2026-06.jsonl", try points.map(json).joined(separator: "\n") + "\n")
            try put("visits/2026/2026-06.jsonl", try visits.map(json).joined(separator: "\n") + "\n")
        }
        let zip = dir + "/user_data_export_20260615_101500.zip"
        try google.python(
            """
            import os, sys, zipfile
            folder, out = sys.argv[1], sys.argv[2]
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
                for root, _, names in sorted(os.walk(folder)):
                    for n in sorted(names):
                        z.write(os.path.join(root, n), os.path.relpath(os.path.join(root, n), folder))
            """, [folder, zip])
        return zip
    }

    /// Both layouts bring every point (to the second, 1e-6°, with altitude, speed and accuracy)
    /// and the visit at home, named as Dawarich named it, into the day; a declined visit and one
    /// without a place are counted and left out; the area drawn becomes a place of the account,
    /// the place visited a found place with its name, the trip a record; the other files are
    /// passed over.
    @Test(arguments: ["data.json", "jsonl"])
    func anAccountExportArrivesWithItsPointsAndVisits(_ layout: String) async throws {
        let ride = ride
        let zip = try await archive(layout)
        let store = try Samples.temporaryDirectory() + "/s.sqlite"
        let result = try await run(["import", "--store", store, "--json", zip])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let files = try #require(report["files"] as? [[String: Any]])
        #expect(files.allSatisfy { $0["format"] as? String == "Dawarich export" }, "\(files)")
        #expect(files.compactMap { $0["fixes_read"] as? Int }.reduce(0, +) == ride.count, "\(files)")
        #expect(files.compactMap { $0["visits"] as? Int }.reduce(0, +) == 1, "\(files)")
        let skipped = files.compactMap { $0["skipped"] as? [String: Int] }.reduce(into: [String: Int]()) {
            $0.merge($1, uniquingKeysWith: +)
        }
        #expect(skipped == ["visit declined": 1, "visit without a place": 1], "\(files)")
        #expect(files.count == (layout == "data.json" ? 1 : 5), "\(files)")
        #expect(files.compactMap { $0["places"] as? Int }.reduce(0, +) == 1, "\(files)")
        #expect(files.compactMap { $0["places_named"] as? Int }.reduce(0, +) == 1, "\(files)")
        if layout == "jsonl" {
            // The manifest and the settings hold no place.
            let dry = try await run(["import", "--store", store, "--dry-run", zip])
            #expect(dry.stderr.contains("2 other files passed over"), "\(dry.stderr)")
        }

        let written = ride.map {
            Point(
                milliseconds: $0.milliseconds / 1000 * 1000, latitude: $0.latitude, longitude: $0.longitude,
                altitude: ($0.altitude ?? 0).rounded(), speed: Double(String(format: "%.1f", $0.speed ?? 0)))
        }
        try await google.expectStored(store, match: written, count: ride.count)
        // The accuracy as the phone said it: 5 m.
        let rows = try await run(["points", "--store", store, "--day", "2026-06-14", "--format", "jsonl"]).stdout
            .split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        #expect(rows.count == ride.count)
        #expect(rows.allSatisfy { $0["accuracy"] as? Int == 5 }, "\(rows.first ?? [:])")

        // The visit is a record of what Dawarich said, and the day's stay at home is named so.
        let records = try await google.records(store)
        #expect(records.count == 2, "\(records)")
        let home = try #require(records.first { google.field($0, "dawarich") as? String == "visit" })
        #expect(google.field(home, "status") as? String == "confirmed")
        let trip = try #require(records.first { google.field($0, "dawarich") as? String == "trip" })
        #expect(google.field(trip, "name") as? String == "Morning ride")
        #expect(google.field(trip, "until") as? String == iso(try #require(ride.last).milliseconds))

        // The area is a place of the account, as Dawarich drew it.
        let places = try await run(["place", "list", "--store", store, "--json"])
        #expect(places.stdout.contains(#""Home""#) && places.stdout.contains("dawarich"), "\(places.stdout)")
        // The place visited is remembered with its name; imported again, nothing is added twice.
        let again = try await run(["import", "--store", store, "--json", "--reimport", zip])
        #expect(again.status == 0, "\(again.stderr)")
        let againFiles = try #require(
            (try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])?["files"]
                as? [[String: Any]])
        let placesAgain = againFiles.compactMap { $0["places"] as? Int }
        let namedAgain = againFiles.compactMap { $0["places_named"] as? Int }
        #expect(!placesAgain.isEmpty && (placesAgain + namedAgain).allSatisfy { $0 == 0 }, "\(againFiles)")
        let listed = try await run(["visits", "--store", store, "--day", "2026-06-14", "--time-zone", "UTC", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let stays = try #require(json["visits"] as? [[String: Any]])
        let first = try #require(ride.first)
        let stay = try #require(stays.first { $0["name"] as? String == "Home" }, "\(stays)")
        #expect(stay["start"] as? String == iso(first.milliseconds - 3_600_000), "\(stay)")
        // The stay where the ride ended is at the place Dawarich named.
        let office = try #require(stays.last, "\(stays)")
        #expect(office["name"] as? String == "Office", "\(stays)")
    }

    /// The second layout's manifest alone says what it is and what to give.
    @Test func theManifestAloneSaysWhatItIs() async throws {
        let dir = try Samples.temporaryDirectory()
        let manifest = dir + "/manifest.json"
        try #"{"format_version":2,"dawarich_version":"0.37.0","counts":{"points":3},"files":{"points":[]}}"#.write(
            toFile: manifest, atomically: true, encoding: .utf8)
        let result = try await run(["import", "--store", dir + "/s.sqlite", manifest])
        #expect(result.status == 65, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("manifest of a Dawarich archive"), "\(result.stderr)")
        #expect(result.stderr.contains("the archive's zip"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
    }
}
