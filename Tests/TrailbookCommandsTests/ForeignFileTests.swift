import Foundation
import Testing
import TrailbookTestSupport

/// Files written by other programs: byte-order marks and UTF-16, logs dated only by ZDA, logs
/// without dates, waypoints without times, decimal degrees where NMEA wants ddmm, and the
/// exports read back or by other readers.
@Suite struct ForeignFileTests {
    func store() throws -> String { try Samples.temporaryDirectory() + "/trailbook.sqlite" }

    /// `body` with its NMEA checksum: `$body*HH`.
    func sentence(_ body: String) -> String {
        let sum = body.utf8.reduce(UInt8(0), ^)
        return "$" + body + "*" + String(format: "%02X", sum)
    }

    let track = """
        <gpx version="1.1" creator="BaseCamp" xmlns="http://www.topografix.com/GPX/1/1">
          <trk><name>Zürich – Küsnacht</name><trkseg>
            <trkpt lat="47.3769" lon="8.5417"><ele>410</ele><time>2026-06-14T06:30:00Z</time></trkpt>
            <trkpt lat="47.3770" lon="8.5418"><ele>411</ele><time>2026-06-14T06:30:01Z</time></trkpt>
            <trkpt lat="47.3771" lon="8.5419"><ele>412</ele><time>2026-06-14T06:30:02Z</time></trkpt>
          </trkseg></trk>
        </gpx>

        """

    /// Stored points of 2026-06-14 as CSV rows without the header.
    func points(_ store: String) async throws -> [String] {
        try await run(["points", "--store", store, "--day", "2026-06-14", "--time-zone", "UTC"]).stdout
            .split(separator: "\n").dropFirst().map(String.init)
    }

    /// GPX with a UTF-8 byte-order mark (BaseCamp) and in UTF-16 either way round stores the same
    /// points as plain UTF-8.
    @Test(arguments: ["utf8-bom", "utf16le", "utf16be", "utf16le-no-bom"])
    func gpxInOtherEncodingsIsRead(encoding: String) async throws {
        let dir = try Samples.temporaryDirectory()
        let plain = dir + "/plain.gpx"
        try track.write(toFile: plain, atomically: true, encoding: .utf8)
        var data: Data
        switch encoding {
        case "utf8-bom": data = Data([0xEF, 0xBB, 0xBF]) + Data(track.utf8)
        case "utf16le": data = Data([0xFF, 0xFE]) + track.data(using: .utf16LittleEndian)!
        case "utf16be": data = Data([0xFE, 0xFF]) + track.data(using: .utf16BigEndian)!
        default: data = ("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n" + track).data(using: .utf16LittleEndian)!
        }
        let other = dir + "/other.gpx"
        try data.write(to: URL(fileURLWithPath: other))
        let a = try store()
        let b = try store()
        #expect(try await run(["import", "--store", a, plain]).status == 0)
        let result = try await run(["import", "--store", b, other])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("3 fixes read, 3 kept, 3 stored"), "\(result.stdout)")
        #expect(try await points(b) == points(a))
    }

    /// A log whose position epochs carry no date, dated by ZDA sentences at other times of day
    /// (half a second after an epoch): decode prints dated times, import stores every fix, and
    /// --date does not override the log's own date.
    @Test func zdaAtItsOwnTimeDatesTheEpochsAroundIt() async throws {
        let dir = try Samples.temporaryDirectory()
        var lines: [String] = []
        var epochs = 0
        for line in try String(contentsOfFile: "Samples/ride.nmea", encoding: .utf8).split(whereSeparator: \.isNewline)
        {
            // No RMC, and no ZDA at an epoch's own time: only the ZDAs added below give dates.
            if line.dropFirst(3).hasPrefix("RMC") || line.dropFirst(3).hasPrefix("ZDA") { continue }
            lines.append(String(line))
            if line.dropFirst(3).hasPrefix("GGA") {
                epochs += 1
                // A ZDA every 100 epochs, from the 50th: the first 49 epochs are back-filled.
                if epochs % 100 == 50 {
                    let time = line.split(separator: ",")[1].prefix(6)
                    lines.append(sentence("GPZDA,\(time).50,14,06,2026,00,00"))
                }
            }
        }
        let log = dir + "/zda.nmea"
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: log, atomically: true, encoding: .utf8)

        let decoded = try await run(["decode", log])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let rows = decoded.stdout.split(separator: "\n").dropFirst()
        #expect(rows.count == epochs)
        #expect(rows.allSatisfy { $0.hasPrefix("2026-06-14T") }, "\(rows.prefix(2))")
        let withDate = try await run(["decode", "--date", "2020-01-01", log]).stdout
        #expect(withDate == decoded.stdout)

        let s = try store()
        let result = try await run(["import", "--store", s, "--date", "2020-01-01", log])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("missing_time"), "\(result.stdout)")
        #expect(try await points(s).count > 1700)
    }

    /// A log that never gives a date is stored with import --date (and without it, says why
    /// nothing was kept).
    @Test func importDateDatesALogWithoutDates() async throws {
        let s = try store()
        let without = try await run(["import", "--store", s, "Samples/edge/no-date.nmea"])
        #expect(without.stdout.contains("missing_time"), "\(without.stdout)")
        let with = try await run(["import", "--store", s, "--date", "2026-06-14", "Samples/edge/no-date.nmea"])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(!with.stdout.contains("missing_time"), "\(with.stdout)")
        let stored = try await points(s)
        #expect(stored.first?.hasPrefix("2026-06-14T10:10:10.500Z") == true, "\(stored.prefix(1))")
        #expect(try await run(["import", "--store", s, "--date", "2026-02-30", "x"]).status == 64)
    }

    /// Decimal degrees in a latitude field (fewer than four digits before the point) are
    /// malformed, not 0.62°.
    @Test func decimalDegreesInALatitudeFieldAreMalformed() async throws {
        let dir = try Samples.temporaryDirectory()
        let log = dir + "/decimal.nmea"
        let lines = [
            sentence("GPGGA,161405.680,37.352387,N,121.953086,W,1,08,0.9,20.0,M,,,,"),
            sentence("GPGGA,161406.680,3721.1432,N,12157.1852,W,1,08,0.9,20.0,M,,,,"),
        ]
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: log, atomically: true, encoding: .utf8)
        let result = try await run(["decode", "--stats", "--date", "2026-06-14", log])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n").dropFirst()
        #expect(rows.count == 1, "\(result.stdout)")
        #expect(rows.first?.contains("37.352386667,-121.953086667") == true, "\(result.stdout)")
        #expect(result.stderr.contains("1 malformed"), "\(result.stderr)")
    }

    /// A file of sentences that all have bad checksums: --stats prints its line, and the
    /// message says what the cause is.
    @Test func badChecksumsOnlyAreNamedAsTheCause() async throws {
        let dir = try Samples.temporaryDirectory()
        let log = dir + "/bad.nmea"
        let lines = (0..<5).map { "$GPGGA,16140\($0).00,3721.1432,N,12157.1852,W,1,08,0.9,20.0,M,,,,*00" }
        try (lines.joined(separator: "\r\n") + "\r\n").write(toFile: log, atomically: true, encoding: .utf8)
        let result = try await run(["decode", "--stats", log])
        #expect(result.status == 65)
        #expect(result.stderr.contains("5 sentences read, 0 decoded, 5 bad checksum"), "\(result.stderr)")
        #expect(result.stderr.contains("5 sentences with bad checksums"), "\(result.stderr)")
        let imported = try await run(["import", "--store", try store(), log])
        #expect(imported.status == 65)
        #expect(imported.stderr.contains("5 sentences with bad checksums"), "\(imported.stderr)")
    }

    /// Waypoints without a time are counted and said to be left out, and --waypoint-time stores
    /// them; a waypoint's own <name> is its name, not a nested geocaching name.
    @Test func waypointsWithoutTimeAreExplainedAndCanBeStored() async throws {
        let dir = try Samples.temporaryDirectory()
        let gpx = dir + "/caches.gpx"
        try """
        <gpx version="1.0" creator="Groundspeak" xmlns="http://www.topografix.com/GPX/1/0"
             xmlns:groundspeak="http://www.groundspeak.com/cache/1/0/1">
          <wpt lat="47.37" lon="8.54"><name>GC12345</name><desc>A cache</desc>
            <groundspeak:cache><groundspeak:name>The Lake Cache</groundspeak:name></groundspeak:cache></wpt>
          <wpt lat="47.38" lon="8.55"><name>GC67890</name></wpt>
          <wpt lat="47.39" lon="8.56"><time>2026-06-14T09:00:00Z</time><name>Timed</name></wpt>
          <trk><trkseg>
            <trkpt lat="47.3769" lon="8.5417"><time>2026-06-14T06:30:00Z</time></trkpt>
            <trkpt lat="47.3770" lon="8.5418"><time>2026-06-14T06:30:01Z</time></trkpt>
          </trkseg></trk>
        </gpx>
        """.write(toFile: gpx, atomically: true, encoding: .utf8)
        let s = try store()
        let first = try await run(["import", "--store", s, gpx])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.contains(
                "3 waypoints: 1 stored as a record, 2 without a time, not stored (--waypoint-time stores them)"),
            "\(first.stdout)")
        let other = try store()
        let all = try await run(["import", "--store", other, "--waypoint-time", "first", gpx])
        #expect(all.stdout.contains("3 waypoints: 3 stored as records"), "\(all.stdout)")
        let records = try await run(["records", "--store", other, "--all", "--json"])
        #expect(records.stdout.contains("GC12345") && records.stdout.contains("GC67890"), "\(records.stdout)")
        #expect(!records.stdout.contains("The Lake Cache"))
        #expect(records.stdout.contains("2026-06-14T06:30:00"))
    }

    /// GPX export then import keeps speed and course (Garmin's TrackPointExtension v2) and the
    /// names of waypoints.
    @Test func gpxRoundTripKeepsSpeedCourseAndNames() async throws {
        let dir = try Samples.temporaryDirectory()
        let s = try store()
        #expect(try await run(["import", "--store", s, "Samples/ride.nmea"]).status == 0)
        let placed = dir + "/place.gpx"
        try """
        <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1">
          <wpt lat="47.3769" lon="8.5417"><time>2026-06-14T06:45:00Z</time><name>Bakery</name><desc>Croissants</desc></wpt>
        </gpx>
        """.write(toFile: placed, atomically: true, encoding: .utf8)
        #expect(try await run(["import", "--store", s, placed]).status == 0)
        let exported = dir + "/day.gpx"
        let export = try await run([
            "export", "--store", s, "--day", "2026-06-14", "--time-zone", "UTC", "--format", "gpx", "-o", exported,
        ])
        #expect(export.status == 0, "\(export.stderr)")
        let text = try String(contentsOfFile: exported, encoding: .utf8)
        #expect(text.contains("<gpxtpx:speed>") && text.contains("<gpxtpx:course>"))
        #expect(text.contains("<name>Bakery</name>"), "\(text.prefix(1200))")

        let back = try store()
        #expect(try await run(["import", "--store", back, exported]).status == 0)
        #expect(try await points(back) == points(s))
        let records = try await run(["records", "--store", back, "--all", "--json"]).stdout
        #expect(records.contains("Bakery"), "\(records)")
    }

    /// A ride segment of one point is a GeoJSON Point, never a one-position line; in KML it is a
    /// track of one timed position.
    @Test func onePointSegmentsAreWrittenAsPoints() async throws {
        let dir = try Samples.temporaryDirectory()
        let gpx = dir + "/lone.gpx"
        try """
        <gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk>
          <trkseg>
            <trkpt lat="47.3769" lon="8.5417"><time>2026-06-14T06:30:00Z</time></trkpt>
            <trkpt lat="47.3770" lon="8.5418"><time>2026-06-14T06:30:01Z</time></trkpt>
          </trkseg>
          <trkseg><trkpt lat="47.3771" lon="8.5419"><time>2026-06-14T06:30:05Z</time></trkpt></trkseg>
        </trk></gpx>
        """.write(toFile: gpx, atomically: true, encoding: .utf8)
        let s = try store()
        #expect(try await run(["import", "--store", s, gpx]).status == 0)
        let geojson = try await run([
            "export", "--store", s, "--day", "2026-06-14", "--time-zone", "UTC", "--format", "geojson",
        ])
        #expect(geojson.status == 0, "\(geojson.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as? [String: Any])
        let features = try #require(json["features"] as? [[String: Any]])
        var lines = 0
        var points = 0
        for f in features {
            let geometry = try #require(f["geometry"] as? [String: Any])
            switch geometry["type"] as? String {
            case "MultiLineString":
                for line in try #require(geometry["coordinates"] as? [[Any]]) {
                    #expect(line.count >= 2)
                    lines += 1
                }
            case "Point": points += 1
            default: Issue.record("unexpected geometry \(geometry)")
            }
        }
        #expect(lines == 1 && points == 1, "\(geojson.stdout)")
        let kml = try await run(["export", "--store", s, "--day", "2026-06-14", "--time-zone", "UTC", "--format", "kml"])
        #expect(kml.stdout.contains("<gx:coord>8.5419"), "\(kml.stdout)")
        // Each segment a track, each position with its time.
        let tracks = kml.stdout.split(separator: "<gx:Track>").dropFirst()
        #expect(tracks.count == 2)
        for track in tracks {
            #expect(track.components(separatedBy: "<when>").count == track.components(separatedBy: "<gx:coord>").count)
        }
    }
}
