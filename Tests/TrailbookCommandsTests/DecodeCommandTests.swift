import Foundation
import Testing

/// `trailbook decode` end to end: golden files, formats, exit codes and messages.
@Suite struct DecodeCommandTests {
    static let goldens = [
        ("ride.nmea", "ride.csv"), ("edge/garbage.nmea", "garbage.csv"), ("edge/midnight.nmea", "midnight.csv"),
        ("edge/rollover.nmea", "rollover.csv"), ("edge/hemispheres.nmea", "hemispheres.csv"),
        ("edge/empty-fields.nmea", "empty-fields.csv"), ("edge/no-date.nmea", "no-date.csv"),
        ("edge/no-checksum.nmea", "no-checksum.csv"),
    ]

    @Test(arguments: goldens)
    func matchesGoldenFile(sample: String, golden: String) async throws {
        let result = try await run(["decode", "Samples/\(sample)"])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try String(
            contentsOf: packageRoot.appendingPathComponent("Tests/TrailbookCommandsTests/Golden/\(golden)"),
            encoding: .utf8)
        #expect(result.stdout == expected)
    }

    @Test func csvHeaderFollowsTheContract() async throws {
        let header = try await run(["decode", "Samples/edge/midnight.nmea"]).stdout.split(separator: "\n").first ?? ""
        #expect(header.hasPrefix("time,mode,lat,lon,alt,speed,track"))
    }

    @Test func readsStandardInput() async throws {
        let data = try Data(contentsOf: packageRoot.appendingPathComponent("Samples/edge/midnight.nmea"))
        let piped = try await run(["decode", "-"], input: data)
        #expect(piped.status == 0)
        #expect(piped.stdout == (try await run(["decode", "Samples/edge/midnight.nmea"]).stdout))
    }

    @Test func jsonLinesCarryTheSameFields() async throws {
        let result = try await run(["decode", "--format", "jsonl", "Samples/edge/hemispheres.nmea"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(first["time"] as? String == "2026-06-14T01:02:03.000Z")
        #expect(first["lat"] as? Double == -33.86882)
        #expect(first["mode"] as? Int == 2)
        #expect(first["alt"] is NSNull)
        #expect(
            Set(first.keys).isSuperset(of: ["time", "mode", "lat", "lon", "alt", "speed", "track", "hdop", "sats_used"])
        )
    }

    @Test func dateOptionDatesAnUndatedLog() async throws {
        let result = try await run(["decode", "--date", "2026-06-14", "Samples/edge/no-date.nmea"])
        #expect(result.stdout.contains("2026-06-14T10:10:10.500Z,3,47.376900000,8.541700000"))
    }

    @Test func statsLineOnStandardError() async throws {
        let result = try await run(["decode", "--stats", "Samples/edge/garbage.nmea"])
        #expect(result.stderr.contains("12 sentences read, 8 decoded, 2 bad checksum, 1 missing checksum, 1 unknown"))
        #expect(result.stderr.contains("skipped bytes"))
    }

    @Test func missingFileExits66() async throws {
        let result = try await run(["decode", "Samples/does-not-exist.nmea"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("Cannot open Samples/does-not-exist.nmea"))
        #expect(result.stdout.isEmpty)
    }

    @Test func notNMEAExits65WithNothingOnStdout() async throws {
        let result = try await run(["decode", "-"], input: Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        #expect(result.status == 65)
        #expect(result.stderr.contains("No NMEA sentences found in standard input"))
        #expect(result.stdout.isEmpty)
    }

    @Test func badDateIsUsageError() async throws {
        let result = try await run(["decode", "--date", "14.06.2026", "Samples/edge/no-date.nmea"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--date '14.06.2026' is not a date; give YYYY-MM-DD"))
    }

    @Test func directoryExits66() async throws {
        let result = try await run(["decode", "Samples"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("is a directory"))
    }
}
