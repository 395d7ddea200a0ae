import Foundation
import Testing
import TrailbookTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `import` into the store, `rides`, `points`, end to end.
@Suite struct StoreCommandTests {
    func store() throws -> String { try Samples.temporaryDirectory() + "/trailbook.sqlite" }

    @Test func importStoresOnceAndRidesAndPointsShowIt() async throws {
        let s = try store()
        let first = try await run(["import", "--store", s, "Samples/ride.nmea"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("1762 kept, 1762 stored"))
        // The same file again is recognised by its SHA-256 and skipped.
        let again = try await run(["import", "--store", s, "Samples/ride.nmea"])
        #expect(again.status == 0)
        #expect(again.stdout.contains("Samples/ride.nmea: already imported, skipped"))
        // A different file holding the same fixes stores none of them twice.
        let longer = try Samples.temporaryDirectory() + "/longer.nmea"
        try (String(contentsOfFile: "Samples/ride.nmea", encoding: .utf8) + "\n").write(
            toFile: longer, atomically: true, encoding: .utf8)
        #expect(try await run(["import", "--store", s, longer]).stdout.contains("0 stored (1762 already in the store)"))

        let rides = try await run(["rides", "--store", s, "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(rides.stdout.utf8)) as? [String: Any])
        let list = try #require(json["rides"] as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list[0]["points"] as? Int == 1762 && list[0]["segments"] as? Int == 2)
        #expect((list[0]["dropped"] as? [String: Int])?["no_fix"] == 38)

        // The stored points are the kept fixes, at storage precision (1e-7 degrees, centimetres).
        let stored = try await run(["points", "--store", s, "--ride", "1"]).stdout.split(separator: "\n")
        let kept = try await run(["import", "--dry-run", "--format", "csv", "Samples/ride.nmea"]).stdout.split(
            separator: "\n")
        #expect(stored.count == kept.count)
        let segmentColumn = try #require(stored.first?.split(separator: ",").firstIndex(of: "segment"))
        let keptSegment = try #require(kept.first?.split(separator: ",").firstIndex(of: "segment"))
        for (a, b) in zip(stored.dropFirst(), kept.dropFirst()) {
            let x = a.split(separator: ",", omittingEmptySubsequences: false)
            let y = b.split(separator: ",", omittingEmptySubsequences: false)
            #expect(x[0] == y[0] && x[1] == y[1], "time and mode")
            for (column, tolerance) in [(2, 0.51e-7), (3, 0.51e-7), (4, 0.0051), (5, 0.0051)] {
                #expect(abs(Double(x[column])! - Double(y[column])!) <= tolerance, "column \(column) of \(a)")
            }
            #expect(x[segmentColumn] == y[keptSegment], "segment")
        }
    }

    @Test func daysAreLocalDatesInTheConfiguredZone() async throws {
        let s = try store()
        _ = try await run(["import", "--store", s, "Samples/ride.nmea"])  // 06:30-07:00 UTC on 14 June
        let kiritimati = ["--time-zone", "Pacific/Kiritimati"]  // UTC+14: 20:30 local, still the 14th
        #expect(try await run(["rides", "--store", s, "--day", "2026-06-14"] + kiritimati).stdout.contains("ride 1"))
        #expect(
            try await run(["rides", "--store", s, "--day", "2026-06-15"] + kiritimati).stdout.contains("No rides stored"))
        let honolulu = ["--time-zone", "Pacific/Honolulu"]  // UTC-10: 20:30 on the 13th
        #expect(try await run(["rides", "--store", s, "--day", "2026-06-13"] + honolulu).stdout.contains("ride 1"))
        let points = try await run(["points", "--store", s, "--day", "2026-06-13", "--format", "jsonl"] + honolulu)
        #expect(points.stdout.split(separator: "\n").count == 1762)
    }

    @Test func notNMEAExits65AndStoresNothing() async throws {
        let s = try store()
        let junk = try Samples.temporaryDirectory() + "/photo.jpg"
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 97) | 0x80 }).write(to: URL(fileURLWithPath: junk))
        let result = try await run(["import", "--store", s, "Samples/edge/midnight.nmea", junk])
        #expect(result.status == 65)
        #expect(result.stderr.contains("Nothing to import from \(junk): it holds binary data, not text"))
        // The file before it was stored in its own transaction; nothing of the junk.
        #expect(
            try await run(["points", "--store", s, "--day", "2026-06-14", "--time-zone", "UTC"]).stdout.split(separator: "\n")
                .count == 3)
    }

    @Test func emptyFileExits65() async throws {
        let empty = try Samples.temporaryDirectory() + "/empty.nmea"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let result = try await run(["import", "--store", try store(), empty])
        #expect(result.status == 65)
        #expect(result.stderr.contains("Nothing to import from \(empty): it is empty"))
    }

    @Test func storeThatCannotBeWrittenExits73Or77() async throws {
        let missing = try await run([
            "import", "--store", "/proc/trailbook/none.sqlite", "--mkdir", "Samples/edge/midnight.nmea",
        ])
        #expect(missing.status == 73)
        #expect(missing.stderr.contains("Cannot open the store /proc/trailbook/none.sqlite"))
        guard getuid() == 0 else { return }
        let dir = try Samples.temporaryDirectory()
        chmod(dir, 0o755)
        let result = try runBinary(
            ["import", "--store", dir + "/x.sqlite", "Samples/edge/midnight.nmea"],
            prefix: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"])
        #expect(result.status == 77, "\(result.stderr)")
        #expect(result.stderr.contains("Permission denied"))
    }

    @Test func unknownRideExits66() async throws {
        let s = try store()
        _ = try await run(["import", "--store", s, "Samples/edge/midnight.nmea"])
        let result = try await run(["points", "--store", s, "--ride", "42"])
        #expect(result.status == 66)
        #expect(result.stderr.contains("There is no ride 42"))
    }

    @Test func storeFromTheEnvironment() async throws {
        let s = try store()
        let result = try await run(["import", "Samples/edge/midnight.nmea"], environment: ["TRAILBOOK_STORE": s])
        #expect(result.stdout.contains("store \(s)"))
        #expect(FileManager.default.fileExists(atPath: s))
    }
}
