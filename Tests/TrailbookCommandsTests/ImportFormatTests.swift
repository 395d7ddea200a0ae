import Foundation
import Testing
import TrailbookTestSupport

/// `import` of gzip-compressed logs and GPX files, and of files that are neither.
@Suite struct ImportFormatTests {
    func store() throws -> String { try Samples.temporaryDirectory() + "/trailbook.sqlite" }

    /// Runs a helper program, failing with what to install when it is missing.
    func tool(_ path: String, _ arguments: [String], package: String) throws {
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw RunError("\(path) is missing; install it with: sudo apt-get install \(package) (make test does).")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(path) \(arguments)")
    }

    /// Stored points as CSV rows without the header.
    func points(_ store: String) async throws -> [String] {
        try await run(["points", "--store", store, "--day", "2026-06-14", "--time-zone", "UTC"]).stdout
            .split(separator: "\n").dropFirst().map(String.init)
    }

    @Test func gzipLogsImportLikeThePlainLog() async throws {
        let dir = try Samples.temporaryDirectory()
        try tool("/bin/sh", ["-c", "gzip -c Samples/ride.nmea > \(dir)/ride.nmea.gz"], package: "gzip")
        let plain = try store()
        let packed = try store()
        #expect(try await run(["import", "--store", plain, "Samples/ride.nmea"]).status == 0)
        let result = try await run(["import", "--store", packed, "\(dir)/ride.nmea.gz"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("1762 kept, 1762 stored"))
        #expect(try await points(packed) == points(plain))
        // `decode` reads it too.
        #expect(
            try await run(["decode", "\(dir)/ride.nmea.gz"]).stdout == run(["decode", "Samples/ride.nmea"]).stdout)
    }

    @Test func truncatedGzipExits65AndStoresNothing() async throws {
        let dir = try Samples.temporaryDirectory()
        try tool("/bin/sh", ["-c", "gzip -c Samples/ride.nmea | head -c 30000 > \(dir)/cut.nmea.gz"], package: "gzip")
        let s = try store()
        let result = try await run(["import", "--store", s, "\(dir)/cut.nmea.gz"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("it ends in the middle of its gzip data (the file is truncated)"))
        #expect(try await points(s).isEmpty)
    }

    /// A GPX file written by gpsbabel from a log stores the same points as the log. (gpsbabel
    /// pairs each GGA with the RMC after it, so the log given to both has GGA first in each epoch.)
    @Test func gpxFromGpsbabelStoresTheLogsPoints() async throws {
        let dir = try Samples.temporaryDirectory()
        var log = ""
        var rmc = ""
        for line in try String(contentsOfFile: "Samples/ride.nmea", encoding: .utf8).split(whereSeparator: \.isNewline)
        {
            if line.dropFirst(3).hasPrefix("RMC") { rmc = String(line) }
            if line.dropFirst(3).hasPrefix("GGA") { log += line + "\n" + rmc + "\n" }
        }
        try log.write(toFile: "\(dir)/ride.nmea", atomically: true, encoding: .utf8)
        try tool(
            "/usr/bin/gpsbabel", ["-i", "nmea", "-f", "\(dir)/ride.nmea", "-o", "gpx", "-F", "\(dir)/ride.gpx"],
            package: "gpsbabel")
        let fromLog = try store()
        let fromGPX = try store()
        #expect(try await run(["import", "--store", fromLog, "\(dir)/ride.nmea"]).status == 0)
        let result = try await run(["import", "--store", fromGPX, "--json", "\(dir)/ride.gpx"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["fixes_read"] as? Int == 1762)
        #expect(json["rides"] as? Int == 1 && json["segments"] as? Int == 2)
        // Time, mode, position, altitude, speed and HDOP agree; the GPX adds course 0 where RMC has none.
        func columns(_ rows: [String]) -> [String] {
            rows.map { row in
                let x = row.split(separator: ",", omittingEmptySubsequences: false)
                return [0, 1, 2, 3, 4, 5, 8].map { String(x[$0]) }.joined(separator: ",")
            }
        }
        let gpx = try await points(fromGPX)
        #expect(gpx.count == 1762)
        #expect(columns(gpx) == columns(try await points(fromLog)))
    }

    @Test func truncatedGPXNamesTheLineAndStoresNothing() async throws {
        let dir = try Samples.temporaryDirectory()
        var lines = (0..<40).map { i in
            "<trkpt lat=\"47.\(1000 + i)\" lon=\"8.5\"><ele>400</ele><time>2026-06-14T06:30:\(10 + i)Z</time></trkpt>"
        }
        lines.insert("<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"t\"><trk><trkseg>", at: 0)
        try lines.prefix(30).joined(separator: "\n").write(toFile: "\(dir)/cut.gpx", atomically: true, encoding: .utf8)
        let s = try store()
        let result = try await run(["import", "--store", s, "\(dir)/cut.gpx"])
        #expect(result.status == 65)
        #expect(
            result.stderr.contains(
                "Cannot import \(dir)/cut.gpx: line 31: the file ends inside <trkseg> opened on line 2 (it looks truncated); nothing of it was stored"
            ), "\(result.stderr)")
        #expect(try await points(s).isEmpty)
        // Whole, the same file imports.
        lines.append("</trkseg></trk></gpx>")
        try lines.joined(separator: "\n").write(toFile: "\(dir)/whole.gpx", atomically: true, encoding: .utf8)
        let whole = try await run(["import", "--store", s, "\(dir)/whole.gpx"])
        #expect(whole.stdout.contains("40 fixes read, 40 kept, 40 stored"), "\(whole.stdout)\(whole.stderr)")
    }

    @Test func gpxWithADTDIsRefused() async throws {
        let dir = try Samples.temporaryDirectory()
        try """
        <?xml version="1.0"?>
        <!DOCTYPE gpx [<!ENTITY x SYSTEM "file:///etc/passwd">]>
        <gpx><wpt lat="1" lon="2"><name>&x;</name></wpt></gpx>
        """.write(toFile: "\(dir)/xxe.gpx", atomically: true, encoding: .utf8)
        let result = try await run(["import", "--store", try store(), "\(dir)/xxe.gpx"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("line 2: it contains a document type declaration"))
    }

    /// KML that is no history, refused as Dawarich refuses it (Freika/dawarich
    /// app/services/kml/importer.rb @0664f935, its fixtures spec/fixtures/files/kml/empty_document.kml,
    /// points_without_timestamps.kml and polygons_only.kml @0664f935): a document of styles only,
    /// saved places without times, areas drawn as polygons. Each says which it is; nothing is stored.
    @Test(arguments: [
        (
            "<Document><name>Empty</name><description>Style-only KML.</description></Document>",
            "it is a KML document with no placemarks or tracks"
        ),
        (
            "<Document><Placemark><name>Saved place 1</name><Point><coordinates>-122.0841,37.4220,10</coordinates>"
                + "</Point></Placemark></Document>",
            "it is a KML of places or paths without times"
        ),
        (
            "<Document><Placemark><name>Lot 1</name><Polygon><outerBoundaryIs><LinearRing><coordinates>-75.5,45.0,0 "
                + "-75.6,45.0,0 -75.6,45.1,0 -75.5,45.0,0</coordinates></LinearRing></outerBoundaryIs></Polygon>"
                + "</Placemark></Document>",
            "it is a KML of areas (polygons) only"
        ),
    ])
    func kmlThatIsNoHistoryIsRefused(document: String, found: String) async throws {
        let file = try Samples.temporaryDirectory() + "/places.kml"
        let kml = #"<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2">"#
        try (kml + document + "</kml>").write(toFile: file, atomically: true, encoding: .utf8)
        let s = try store()
        let result = try await run(["import", "--store", s, file])
        #expect(result.status == 65, "\(result.stdout)")
        #expect(result.stderr.contains("Nothing to import from \(file): \(found)"), "\(result.stderr)")
        #expect(result.stderr.contains("<TimeStamp>") && result.stderr.split(separator: "\n").count == 1)
        #expect(try await run(["records", "--store", s]).stdout.contains("No records"))
    }

    @Test(arguments: [
        ([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46] as [UInt8], "it is a JPEG image"),
        (Array("<html><body>hello</body></html>".utf8), "it is XML but not GPX, KML or TCX"),
        (Array("just some notes\nnothing else\n".utf8), "no NMEA sentences in it"),
    ])
    func filesThatAreNeitherSayWhatTheyAre(bytes: [UInt8], found: String) async throws {
        let file = try Samples.temporaryDirectory() + "/input"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let s = try store()
        let result = try await run(["import", "--store", s, file])
        #expect(result.status == 65)
        #expect(result.stderr.contains("Nothing to import from \(file): \(found);"), "\(result.stderr)")
        #expect(try await run(["rides", "--store", s]).stdout.contains("No rides stored"))
    }
}
