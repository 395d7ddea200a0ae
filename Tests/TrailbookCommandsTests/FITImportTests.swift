import Foundation
import Testing
import TrailbookTestSupport

/// FIT files as bike computers write them, built here byte by byte from the published FIT
/// protocol (header, definition and data messages, compressed timestamps, developer fields,
/// CRC-16), and TCX; each from the same ride (Samples/ride.nmea as stored).
@Suite struct FITImportTests {
    typealias Point = GoogleImportTests.Point
    let google = GoogleImportTests()

    /// Writes FIT messages: definitions, data with a normal or a compressed-timestamp header;
    /// ``file()`` frames them with a 14-byte header and the CRC.
    struct FITBuilder {
        var data: [UInt8] = []
        var bigEndian: [UInt8: Bool] = [:]

        /// Field number, size in bytes, base type.
        typealias FieldDefinition = (number: UInt8, size: UInt8, type: UInt8)

        mutating func define(
            local: UInt8, global: UInt16, _ fields: [FieldDefinition], developer: [FieldDefinition] = [],
            bigEndian big: Bool = false
        ) {
            data.append(0x40 | (developer.isEmpty ? 0 : 0x20) | local)
            data += [0, big ? 1 : 0]
            data += big ? [UInt8(global >> 8), UInt8(global & 0xFF)] : [UInt8(global & 0xFF), UInt8(global >> 8)]
            data.append(UInt8(fields.count))
            for f in fields { data += [f.number, f.size, f.type] }
            if !developer.isEmpty {
                data.append(UInt8(developer.count))
                for f in developer { data += [f.number, f.size, f.type] }
            }
            bigEndian[local] = big
        }

        /// Integers of the given byte widths, in the local type's byte order.
        func encode(_ local: UInt8, _ values: [(Int64, Int)]) -> [UInt8] {
            var out: [UInt8] = []
            for (value, width) in values {
                var bytes = (0..<width).map { UInt8(truncatingIfNeeded: value >> (8 * Int64($0))) }
                if bigEndian[local] == true { bytes.reverse() }
                out += bytes
            }
            return out
        }

        mutating func message(local: UInt8, _ values: [(Int64, Int)], developer: [UInt8] = []) {
            data.append(local)
            data += encode(local, values) + developer
        }

        mutating func compressed(local: UInt8, seconds: Int64, _ values: [(Int64, Int)]) {
            data.append(0x80 | local << 5 | UInt8(seconds & 0x1F))
            data += encode(local, values)
        }

        static func crc(_ bytes: [UInt8]) -> UInt16 {
            var c: UInt16 = 0
            for b in bytes {
                c ^= UInt16(b)
                for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xA001 : c >> 1 }
            }
            return c
        }

        func file() -> [UInt8] {
            let size = UInt32(data.count)
            var header: [UInt8] = [14, 0x20, 0x52, 0x08]
            header += (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) }
            header += Array(".FIT".utf8)
            let headerCRC = Self.crc(header)
            header += [UInt8(headerCRC & 0xFF), UInt8(headerCRC >> 8)]
            let all = header + data
            let crc = Self.crc(all)
            return all + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        }
    }

    static let fitEpoch: Int64 = 631_065_600

    static func semicircles(_ degrees: Double) -> Int64 { Int64((degrees * 2_147_483_648 / 180).rounded()) }

    /// The ride as a FIT activity: a record per point with heart rate, cadence, power and
    /// temperature (and a developer field), the second half with compressed timestamps in a
    /// big-endian definition, an indoor record without a position, a lap and a session.
    static func activity(_ ride: [Point]) -> [UInt8] {
        var b = FITBuilder()
        let start = ride[0].milliseconds / 1000 - fitEpoch
        // file_id: type 4 (activity), manufacturer 255 (development), time_created.
        b.define(local: 0, global: 0, [(0, 1, 0x00), (1, 2, 0x84), (4, 4, 0x86)])
        b.message(local: 0, [(4, 1), (255, 2), (start, 4)])
        // Developer data: a field description would come first; the reader skips the bytes.
        b.define(
            local: 1, global: 20,
            [
                (253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (2, 2, 0x84), (6, 2, 0x84), (3, 1, 0x02), (4, 1, 0x02),
                (7, 2, 0x84), (13, 1, 0x01),
            ],
            developer: [(0, 2, 0)])
        b.define(
            local: 2, global: 20,
            [
                (0, 4, 0x85), (1, 4, 0x85), (2, 2, 0x84), (6, 2, 0x84), (3, 1, 0x02), (4, 1, 0x02), (7, 2, 0x84),
                (13, 1, 0x01),
            ],
            bigEndian: true)
        let half = ride.count / 2
        var previous: Int64 = 0
        for (i, p) in ride.enumerated() {
            let t = p.milliseconds / 1000 - fitEpoch
            defer { previous = t }
            let values: [(Int64, Int)] = [
                (semicircles(p.latitude), 4), (semicircles(p.longitude), 4),
                (Int64((((p.altitude ?? 0) + 500) * 5).rounded()), 2), (Int64(((p.speed ?? 0) * 1000).rounded()), 2),
                (Int64(100 + i % 60), 1), (Int64(70 + i % 30), 1), (Int64(150 + i % 120), 2), (-3, 1),
            ]
            // A compressed timestamp holds 31 s after the last time at most.
            if i < half || t - previous >= 32 {
                b.message(local: 1, [(t, 4)] + values, developer: [0x12, 0x34])
            } else {
                b.compressed(local: 2, seconds: t, values)
            }
            if i == 10 {
                // A record without a position (the GPS not yet locked): heart rate only.
                b.message(
                    local: 1,
                    [
                        (t, 4), (0x7FFF_FFFF, 4), (0x7FFF_FFFF, 4), (0xFFFF, 2), (0xFFFF, 2), (120, 1),
                        (0xFF, 1), (0xFFFF, 2), (0x7F, 1),
                    ], developer: [0, 0])
            }
        }
        let end = ride.last!.milliseconds / 1000 - fitEpoch
        // lap: timestamp, start_time.
        b.define(local: 3, global: 19, [(253, 4, 0x86), (2, 4, 0x86)])
        b.message(local: 3, [(end, 4), (start, 4)])
        // session: timestamp, start_time, start position, sport, timer time, distance, heart rate.
        b.define(
            local: 4, global: 18,
            [
                (253, 4, 0x86), (2, 4, 0x86), (3, 4, 0x85), (4, 4, 0x85), (5, 1, 0x00), (8, 4, 0x86), (9, 4, 0x86),
                (16, 1, 0x02), (17, 1, 0x02),
            ])
        b.message(
            local: 4,
            [
                (end, 4), (start, 4), (semicircles(ride[0].latitude), 4), (semicircles(ride[0].longitude), 4), (2, 1),
                ((end - start) * 1000, 4), (987_650, 4), (129, 1), (159, 1),
            ])
        return b.file()
    }

    @Test func fitActivityStoresEveryRecordWithItsPosition() async throws {
        let ride = GoogleImportTests.ride
        let file = try Samples.temporaryDirectory() + "/2026-06-14-06-30-00.fit"
        try Data(Self.activity(ride)).write(to: URL(fileURLWithPath: file))
        let (report, store) = try await google.importJSON(file)
        #expect(report["format"] as? String == "FIT")
        // The records and the session.
        #expect(report["elements"] as? Int == ride.count + 2)
        #expect(report["skipped"] as? [String: Int] == ["no position": 1])
        #expect(report["fixes_read"] as? Int == ride.count)
        #expect(report["stored"] as? Int == ride.count)
        // Altitude has FIT's resolution of 0.2 m, speed 1 mm/s.
        let written = ride.map {
            Point(
                milliseconds: $0.milliseconds, latitude: $0.latitude, longitude: $0.longitude,
                altitude: (($0.altitude ?? 0) * 5).rounded() / 5, speed: (($0.speed ?? 0) * 1000).rounded() / 1000)
        }
        try await google.expectStored(store, match: written, count: ride.count)
        let records = try await google.records(store)
        #expect(records.count == 1)
        let session = try #require(records.first)
        #expect(google.field(session, "sport") as? String == "cycling")
        #expect(google.field(session, "distance_m") as? Double == 9876.5)
        #expect(google.field(session, "max_heart_rate") as? Double == 159)

        // The same file again is already imported.
        #expect(try await run(["import", "--store", store, file]).stdout.contains("already imported"))

        // Each point keeps what the sensors measured; the summary has their ranges.
        let expected = ride.indices.map { [100 + $0 % 60, 70 + $0 % 30, 150 + $0 % 120, -3] }
        #expect(try await Self.sensors(store) == expected)
        let summary = try await run(["summary", "--store", store, "--day", "2026-06-14", "--time-zone", "UTC", "--json"])
        let ridesJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
        let total = try #require(
            ridesJSON["total"] as? [String: Any] ?? (ridesJSON["moves"] as? [[String: Any]])?.first)
        let heart = try #require(total["heart_rate_bpm"] as? [String: Any], "\(summary.stdout.prefix(800))")
        #expect(heart["max"] as? Int == 159 && heart["min"] as? Int == 100)
        #expect((total["power_w"] as? [String: Any])?["max"] as? Int == 269)
        #expect((total["temperature_c"] as? [String: Any])?["min"] as? Int == -3)

        // The day page draws the heart rate over the elevation profile.
        let page = try Samples.temporaryDirectory() + "/day.html"
        #expect(
            try await run(["report", "day", "2026-06-14", "--store", store, "--time-zone", "UTC", "-o", page]).status == 0)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("heart rate 100–159 bpm (dashed)") && html.contains("<path class=\"heart\""))
        #expect(html.contains(" · 100 bpm · 150 W"), "the hover tip of the first point")

        // Removed with their points: the same moments logged again carry no sensor values.
        let removedStore = try Samples.temporaryDirectory() + "/removed.sqlite"
        #expect(try await run(["import", "--store", removedStore, file]).status == 0)
        #expect(
            try await run(["rm", "--store", removedStore, "--day", "2026-06-14", "--time-zone", "UTC", "--yes"]).status == 0)
        #expect(try await run(["import", "--store", removedStore, "Samples/ride.nmea"]).status == 0)
        #expect(try await Self.sensors(removedStore).allSatisfy { $0 == [nil, nil, nil, nil] })
        #expect(try await Self.sensors(removedStore).count == ride.count)

        // Out and back in: CSV keeps all four, GPX's TrackPointExtension heart rate, cadence and
        // temperature (it has no power).
        for format in ["csv", "gpx"] {
            let dir = try Samples.temporaryDirectory()
            let out = dir + "/ride.\(format)"
            let export = try await run([
                "export", "--store", store, "--day", "2026-06-14", "--time-zone", "UTC", "--format", format, "-o", out,
            ])
            #expect(export.status == 0, "\(export.stderr)")
            let back = dir + "/back.sqlite"
            #expect(try await run(["import", "--store", back, out]).status == 0)
            #expect(try await Self.sensors(back) == expected.map { format == "gpx" ? [$0[0], $0[1], nil, $0[3]] : $0 })
        }
    }

    /// The heart rate, cadence, power and temperature of each stored point of 2026-06-14.
    static func sensors(_ store: String) async throws -> [[Int?]] {
        try await run(["points", "--store", store, "--day", "2026-06-14", "--time-zone", "UTC", "--format", "jsonl"]).stdout
            .split(separator: "\n").map { line in
                let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                return ["heart_rate", "cadence", "power", "temperature"].map { row[$0] as? Int }
            }
    }

    /// Broken FIT files: one sentence, exit 65, nothing stored.
    @Test(arguments: ["lying definition", "truncated", "damaged", "undefined type"])
    func brokenFITFilesExit65(_ kind: String) async throws {
        let ride = Array(GoogleImportTests.ride.prefix(100))
        var bytes = Self.activity(ride)
        let expected: String
        switch kind {
        case "lying definition":
            // The record definition says position_lat (sint32) is 3 bytes.
            var b = FITBuilder()
            b.define(local: 0, global: 20, [(253, 4, 0x86), (0, 3, 0x85), (1, 4, 0x85)])
            b.message(local: 0, [(1_000_000_000, 4), (1, 3), (1, 4)])
            bytes = b.file()
            expected = "the definition lies about sizes"
        case "truncated":
            bytes = Array(bytes.prefix(bytes.count / 2))
            expected = "(the file looks cut short)"
        case "damaged":
            // The session's maximum heart rate, a value byte near the end.
            bytes[bytes.count - 3] ^= 0x55
            expected = "(the file is damaged)"
        default:
            var b = FITBuilder()
            b.message(local: 5, [(1, 4)])
            bytes = b.file()
            expected = "uses local type 5, never defined"
        }
        let dir = try Samples.temporaryDirectory()
        let file = dir + "/broken.fit"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let store = dir + "/s.sqlite"
        let result = try await run(["import", "--store", store, file])
        #expect(result.status == 65, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try await GoogleImportTests.storedPoints(store, day: "2026-06-14").isEmpty)
    }

    /// TCX: an activity of two laps, heart rate, cadence, speed and power from the activity
    /// extension, a trackpoint without a position.
    @Test func tcxActivityStoresItsTrackpoints() async throws {
        let ride = GoogleImportTests.ride.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let half = ride.count / 2
        func trackpoint(_ p: Point, _ i: Int) -> String {
            """
            <Trackpoint><Time>\(GoogleImportTests.iso(p.milliseconds))</Time>
              <Position><LatitudeDegrees>\(p.latitude)</LatitudeDegrees><LongitudeDegrees>\(p.longitude)</LongitudeDegrees></Position>
              <AltitudeMeters>\(p.altitude ?? 0)</AltitudeMeters><HeartRateBpm><Value>\(100 + i % 60)</Value></HeartRateBpm>
              <Cadence>\(70 + i % 30)</Cadence>
              <Extensions><ns3:TPX><ns3:Speed>\(p.speed ?? 0)</ns3:Speed><ns3:Watts>\(150 + i % 100)</ns3:Watts></ns3:TPX></Extensions>
            </Trackpoint>
            """
        }
        let laps = [ride[..<half], ride[half...]].map { lap in
            """
            <Lap StartTime="\(GoogleImportTests.iso(lap.first!.milliseconds))"><TotalTimeSeconds>600</TotalTimeSeconds>
              <AverageHeartRateBpm><Value>130</Value></AverageHeartRateBpm>
              <Track>\(zip(lap.indices, lap).map { trackpoint($1, $0) }.joined(separator: "\n"))
              <Trackpoint><Time>\(GoogleImportTests.iso(lap.last!.milliseconds + 500))</Time><HeartRateBpm><Value>140</Value></HeartRateBpm></Trackpoint>
              </Track>
            </Lap>
            """
        }
        let tcx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"
              xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">
            <Activities><Activity Sport="Biking"><Id>\(GoogleImportTests.iso(ride[0].milliseconds))</Id>
            \(laps.joined(separator: "\n"))
            </Activity></Activities></TrainingCenterDatabase>
            """
        let file = try Samples.temporaryDirectory() + "/ride.tcx"
        try tcx.write(toFile: file, atomically: true, encoding: .utf8)
        let (report, store) = try await google.importJSON(file)
        #expect(report["format"] as? String == "TCX")
        #expect(report["elements"] as? Int == ride.count + 2)
        #expect(report["skipped"] as? [String: Int] == ["no position": 2])
        #expect(report["fixes_read"] as? Int == ride.count)
        try await google.expectStored(store, match: ride, count: ride.count)
        #expect(try await Self.sensors(store) == ride.indices.map { [100 + $0 % 60, 70 + $0 % 30, 150 + $0 % 100, nil] })
    }
}

extension FITImportTests {
    /// Ctrl-C during the import of a large FIT or CSV file: exit 130, one sentence, nothing of
    /// the file stored (the readers stop at the same checks as the NMEA reader).
    @Test(arguments: ["fit", "csv"])
    func ctrlCDuringALargeFileStoresNothing(_ format: String) async throws {
        let folder = try Samples.temporaryDirectory()
        let file = folder + "/big.\(format)"
        let count = 1_500_000
        let start: Int64 = 1_781_503_200  // 2026-06-15T06:00:00Z
        if format == "fit" {
            var b = FITBuilder()
            b.define(local: 0, global: 20, [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (3, 1, 0x02)])
            for i in 0..<Int64(count) {
                b.message(
                    local: 0,
                    [
                        (start + i - Self.fitEpoch, 4), (Self.semicircles(47.3 + Double(i % 1000) * 1e-5), 4),
                        (Self.semicircles(8.5), 4), (120, 1),
                    ])
            }
            try Data(b.file()).write(to: URL(fileURLWithPath: file))
        } else {
            var text = "timestamp,lat,lon,hr\n"
            text.reserveCapacity(count * 36)
            for i in 0..<Int64(count) { text += "\(start + i),47.3\(10000 + i % 1000),8.5,120\n" }
            try text.write(toFile: file, atomically: false, encoding: .utf8)
        }
        let store = folder + "/s.sqlite"
        let stopped = try runBinary(
            ["import", "--store", store, file],
            prefix: ["/usr/bin/timeout", "--foreground", "--preserve-status", "-s", "INT", "1.5"])
        #expect(stopped.status == 130, "\(stopped)")
        #expect(
            stopped.stderr == "trailbook: interrupted: file 1 of 1 (\(file)) not stored.\n", "\(stopped.stderr)")
        #expect(try await GoogleImportTests.storedPoints(store, day: "2026-06-15").isEmpty)
    }
}

extension FITImportTests {
    /// A session without a start position (a watch that wrote none) becomes a record where the
    /// first record was; one in a file without positions is counted as left out.
    @Test func aSessionWithoutItsStartPositionTakesTheFirstRecords() async throws {
        let ride = Array(GoogleImportTests.ride.prefix(60))
        var b = FITBuilder()
        let start = ride[0].milliseconds / 1000 - Self.fitEpoch
        b.define(local: 0, global: 20, [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85)])
        for p in ride {
            b.message(
                local: 0,
                [
                    (p.milliseconds / 1000 - Self.fitEpoch, 4), (Self.semicircles(p.latitude), 4),
                    (Self.semicircles(p.longitude), 4),
                ])
        }
        b.define(local: 1, global: 18, [(253, 4, 0x86), (2, 4, 0x86), (5, 1, 0x00), (9, 4, 0x86)])
        b.message(local: 1, [(start + 60, 4), (start, 4), (1, 1), (25_000, 4)])
        let file = try Samples.temporaryDirectory() + "/run.fit"
        try Data(b.file()).write(to: URL(fileURLWithPath: file))
        let (report, store) = try await google.importJSON(file)
        #expect(report["elements"] as? Int == ride.count + 1 && report["records"] as? Int == 1)
        let record = try #require(try await google.records(store).first)
        #expect(google.field(record, "sport") as? String == "running")
        #expect(abs((record["lat"] as? Double ?? 0) - ride[0].latitude) < 1e-6)

        var alone = FITBuilder()
        alone.define(local: 1, global: 18, [(253, 4, 0x86), (2, 4, 0x86), (5, 1, 0x00)])
        alone.message(local: 1, [(start + 60, 4), (start, 4), (1, 1)])
        let indoor = try Samples.temporaryDirectory() + "/treadmill.fit"
        try Data(alone.file()).write(to: URL(fileURLWithPath: indoor))
        let (left, _) = try await google.importJSON(indoor)
        #expect(left["elements"] as? Int == 1 && left["skipped"] as? [String: Int] == ["no position": 1], "\(left)")
    }
}
