import Foundation
import Testing
import TrailbookTestSupport

/// `summary` and `export`, and exports imported back.
@Suite struct ExportCommandTests {
    /// A store with the sample ride and a record carrying hostile text, and its folder.
    func store() async throws -> (store: String, dir: String) {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/trailbook.sqlite"
        #expect(try await run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        let mark = try await run(
            [
                "mark", "--store", store, "--at", "2026-06-14T06:45:00Z", "--note",
                "<script>alert('x')</script> & \"quotes\"",
                "--field", "weather=sunny",
            ])
        #expect(mark.status == 0, "\(mark.stderr)")
        return (store, dir)
    }

    /// `points` rows (time, lat, lon, alt) of a store.
    func rows(_ store: String) async throws -> [String] {
        try await run(["points", "--store", store, "--day", "2026-06-14", "--time-zone", "UTC"]).stdout.split(separator: "\n")
            .dropFirst().map {
                $0.split(separator: ",", omittingEmptySubsequences: false)[0...4].joined(separator: ",")
            }
    }

    @Test func gpxIsValidGPX11AndImportsBackToTheSamePointsAndRecords() async throws {
        let (store, dir) = try await store()
        let gpx = dir + "/day.gpx"
        let export = try await run(["export", "--store", store, "--day", "2026-06-14", "--format", "gpx", "-o", gpx])
        #expect(export.status == 0, "\(export.stderr)")
        let schema = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/schemas/gpx-1.1.xsd").path
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/xmllint") else {
            throw RunError("xmllint is missing: sudo apt-get install libxml2-utils (make test does this).")
        }
        guard FileManager.default.fileExists(atPath: schema) else {
            throw RunError("\(schema) is missing: the GPX schema comes with ../shared beside the repository.")
        }
        let lint = Process()
        lint.executableURL = URL(fileURLWithPath: "/usr/bin/xmllint")
        lint.arguments = ["--noout", "--schema", schema, gpx]
        try lint.run()
        lint.waitUntilExit()
        #expect(lint.terminationStatus == 0, "xmllint --schema gpx-1.1.xsd")
        let text = try String(contentsOfFile: gpx, encoding: .utf8)
        #expect(text.contains("&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; &quot;quotes&quot;"))
        #expect(text.components(separatedBy: "<trkseg>").count - 1 == 2)

        let back = dir + "/back.sqlite"
        let imported = try await run(["import", "--store", back, gpx, "--json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(try await rows(back) == rows(store))
        let records = try #require(
            (try await JSONSerialization.jsonObject(with: Data(run(["records", "--store", back, "--json"]).stdout.utf8))
                as? [String: Any])?["records"] as? [[String: Any]]
        ).filter { ($0["fields"] as? [String: Any])?["trailbook"] == nil }
        #expect(records.count == 1, "the diary's one record, beside the day's move")
        let note = (records.first?["notes"] as? [[String: Any]])?.first?["text"] as? String
        #expect(note == "<script>alert('x')</script> & \"quotes\"")
        // The waypoint is named by its note's first line, and its fields come back as fields
        // (GPX extensions), not as text and not as a "name" field.
        #expect(
            text.contains("<name>&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; &quot;quotes&quot;</name>"))
        #expect(text.contains("<trailbook:field key=\"weather\">sunny</trailbook:field>"))
        #expect(!text.contains("<name>record "))
        let fields = records.first?["fields"] as? [String: Any]
        #expect(fields?.count == 1 && fields?["weather"] as? String == "sunny", "\(fields ?? [:])")
    }

    @Test func jsonTrackImportsBackToTheSamePoints() async throws {
        let (store, dir) = try await store()
        let json = dir + "/ride.json"
        #expect(try await run(["export", "--store", store, "--ride", "1", "--format", "json", "-o", json]).status == 0)
        let doc = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        #expect((doc["segments"] as? [Any])?.count == 2)
        #expect((doc["distance"] as? Double).map { $0 > 9000 } == true && doc["feetClimbed"] is Double)
        let back = dir + "/back.sqlite"
        #expect(try await run(["import", "--store", back, json]).status == 0)
        // The format has no fix mode: compare time, position and altitude.
        func withoutMode(_ rows: [String]) -> [String] {
            rows.map {
                $0.split(separator: ",", omittingEmptySubsequences: false).enumerated().filter { $0.offset != 1 }
                    .map(\.element).joined(separator: ",")
            }
        }
        #expect(try await withoutMode(rows(back)) == withoutMode(rows(store)))
        // A broken document: the reason, nothing stored.
        try "{\"segments\": [{\"coords\": [{\"latitude\": 95, \"longitude\": 1}]}]}".write(
            toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        let bad = try await run(["import", "--store", dir + "/bad2.sqlite", dir + "/bad.json"])
        #expect(bad.status == 65)
        #expect(bad.stderr.contains("segments[0].coords[0] has a position out of range"))
    }

    @Test func geojsonAndKMLHaveTheirStructure() async throws {
        let (store, _) = try await store()
        let geo = try await run(["export", "--store", store, "--day", "2026-06-14", "--format", "geojson"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(geo.stdout.utf8)) as? [String: Any])
        #expect(doc["type"] as? String == "FeatureCollection")
        let features = try #require(doc["features"] as? [[String: Any]])
        let line = try #require(
            features.first { ($0["geometry"] as? [String: Any])?["type"] as? String == "MultiLineString" })
        let coords = try #require((line["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])
        #expect(coords.count == 2 && coords.map(\.count).reduce(0, +) == 1762)
        // RFC 7946: longitude first.
        #expect(abs(coords[0][0][0] - 8.5417) < 1e-6 && abs(coords[0][0][1] - 47.3769) < 1e-6)
        #expect(features.contains { ($0["geometry"] as? [String: Any])?["type"] as? String == "Point" })

        let kml = try await run(["export", "--store", store, "--day", "2026-06-14", "--format", "kml"])
        #expect(kml.stdout.contains("<kml xmlns=\"http://www.opengis.net/kml/2.2\""))
        #expect(kml.stdout.components(separatedBy: "<gx:Track>").count - 1 == 2)
        #expect(kml.stdout.components(separatedBy: "<gx:coord>").count - 1 == 1762)
        #expect(!kml.stdout.contains("<script>"))
        // The CSV: the columns of `points`, then a record's kind, note and fields (empty for a point).
        let csv = try await run(["export", "--store", store, "--ride", "1", "--format", "csv"]).stdout.split(separator: "\n")
        let points = try await run(["points", "--store", store, "--ride", "1"]).stdout.split(separator: "\n")
        #expect(csv.count == points.count && csv.first == points.first.map { $0 + ",kind,note,fields" })
        #expect(Array(csv.dropFirst()) == points.dropFirst().map { $0 + ",,," })
    }

    @Test func summaryReportsTheRide() async throws {
        let (store, _) = try await store()
        let result = try await run(["summary", "--store", store, "1", "--json"])
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let ride = try #require((doc["rides"] as? [[String: Any]])?.first)
        #expect((ride["distance_m"] as? Double).map { $0 > 9000 && $0 < 11000 } == true)
        #expect(ride["elapsed_s"] as? Double == 1799)
        #expect((ride["moving_s"] as? Double).map { $0 > 1200 && $0 < 1799 } == true)
        #expect((ride["splits"] as? [Any])?.count == 11)
        #expect(((ride["quality"] as? [String: Any])?["dropped"] as? [String: Int]) == ["no_fix": 38])
        let imperial = try await run(["summary", "--store", store, "--day", "2026-06-14", "--units", "imperial"])
        #expect(imperial.stdout.contains(" mi,") && imperial.stdout.contains("mph") && imperial.stdout.contains(" ft"))
        let none = try await run(["summary", "--store", store, "--day", "2020-01-01"])
        #expect(none.status == 66)
        #expect(none.stderr.contains("No rides stored on 2020-01-01"))
    }
}
