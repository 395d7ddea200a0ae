import Foundation
import Testing
import TrailbookTestSupport

/// Trailbook's own exports read back: a month of 50 rides and 30 records (July), and a week of a
/// phone's history (a point a minute, its rides cut at the phone's gaps and stops), exported as
/// GPX, GeoJSON and CSV and imported into a new store, come back as the same rides (start, end,
/// points, segments) and the same records (time, position, notes, fields).
@Suite struct RoundTripTests {
    /// A store with the month and the phone's week: (store, folder).
    static let month: (store: String, dir: String) = {
        let dir = try! Samples.temporaryDirectory()
        let store = dir + "/month.sqlite"
        // 50 rides: two a day for 25 days, each 10 minutes at 1 Hz (the simulator's bike).
        var logs: [String] = []
        for day in 1...25 {
            for hour in [7, 17] {
                let log = dir + String(format: "/ride-%02d-%02d.nmea", day, hour)
                let start = String(format: "2026-07-%02dT%02d:00:00", day, hour)
                precondition(
                    try! runBinary([
                        "simulate", "--duration", "600", "--seed", "\(day * 100 + hour)", "--start", start, "-o", log,
                    ])
                    .status == 0)
                logs.append(log)
            }
        }
        precondition(try! runBinary(["import", "--store", store, "--time-zone", "UTC"] + logs).status == 0)
        // 30 records with a note and two fields each.
        for i in 1...30 {
            let at = String(format: "2026-07-%02dT12:%02d:00Z", i % 25 + 1, i)
            let marked = try! runBinary([
                "mark", "--store", store, "--time-zone", "UTC", "--at", at, "--lat", "47.\(i)", "--lon", "8.5",
                "--note", "note \(i)", "--field", "n=\(i)", "--field", "kind=test",
            ])
            precondition(marked.status == 0, marked.stderr)
        }
        // A phone's week before it (from 31 May) as OwnTracks Recorder wrote it: a point a
        // minute, imported as a phone's.
        let life = dir + "/life.csv"
        precondition(try! runBinary(["simulate", "--fortnights", "1", "--every", "60", "-o", life]).status == 0)
        var lines: [String] = []
        for row in try! String(contentsOfFile: life, encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = row.split(separator: ",").map(String.init)
            guard f.count >= 5, let ms = Int64(f[0]), let speed = Double(f[3]), let acc = Double(f[4]) else { continue }
            guard ms < 1_780_264_800_000 + 7 * 86_400_000 else { break }
            let time = Date(timeIntervalSince1970: Double(ms) / 1000).ISO8601Format()
            lines.append(
                "\(time)\t*                 \t{\"_type\":\"location\",\"lat\":\(f[1]),\"lon\":\(f[2]),"
                    + "\"tst\":\(ms / 1000),\"acc\":\(Int(acc)),\"vel\":\(Int(speed * 3.6))}")
        }
        let rec = dir + "/2026-05.rec"
        try! (lines.joined(separator: "\n") + "\n").write(toFile: rec, atomically: true, encoding: .utf8)
        let phone = try! runBinary(["import", "--store", store, "--time-zone", "UTC", "--device-name", "phone", rec])
        precondition(phone.status == 0, phone.stderr)
        return (store, dir)
    }()

    static func json(_ arguments: [String]) async throws -> [String: Any] {
        let result = try await run(arguments)
        #expect(result.status == 0, "\(arguments): \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// The store's rides as (start, end, points, segments), in time order.
    static func rides(_ store: String) async throws -> [String] {
        let rides = try #require(try await json(["rides", "--store", store, "--json"])["rides"] as? [[String: Any]])
        return rides.map { "\($0["start"] ?? "") \($0["end"] ?? "") \($0["points"] ?? "") \($0["segments"] ?? "")" }
            .sorted()
    }

    /// The store's records as (time, position to 1e-6, notes, fields), in time order.
    static func records(_ store: String) async throws -> [String] {
        let records = try #require(
            try await json([
                "records", "--store", store, "--from", "2026-05-01", "--to", "2026-07-31", "--time-zone", "UTC",
                "--json",
            ])["records"] as? [[String: Any]])
        // The diary's records: not the stays and moves an export of days writes beside them.
        return records.filter { ($0["fields"] as? [String: Any])?["trailbook"] == nil }.map { r in
            let notes = (r["notes"] as? [[String: Any]] ?? []).compactMap { $0["text"] as? String }
            let fields = (r["fields"] as? [String: Any] ?? [:]).map { "\($0.key)=\($0.value)" }.sorted()
            let lat = String(format: "%.6f", r["lat"] as? Double ?? .nan)
            let lon = String(format: "%.6f", r["lon"] as? Double ?? .nan)
            return "\(r["local_time"] ?? "") \(lat) \(lon) \(notes) \(fields)"
        }.sorted()
    }

    @Test(arguments: ["gpx", "geojson", "csv"])
    func anExportReadBackIsTheSameRidesAndRecords(_ format: String) async throws {
        let (store, dir) = Self.month
        let before = try await Self.rides(store)
        let kept = try await Self.records(store)
        #expect(before.filter { $0.hasPrefix("2026-07") }.count == 50 && before.count > 100, "\(before.count) rides")
        #expect(kept.count == 30)
        let file = dir + "/export.\(format)"
        let exported = try await run([
            "export", "--store", store, "--time-zone", "UTC", "--from", "2026-05-01", "--to", "2026-07-31",
            "--format", format, "-o", file,
        ])
        #expect(exported.status == 0, "\(exported.stderr)")
        let back = dir + "/back-\(format).sqlite"
        let imported = try await run(["import", "--store", back, "--time-zone", "UTC", file])
        #expect(imported.status == 0, "\(imported.stderr)")
        let after = try await Self.rides(back)
        #expect(after.count == before.count, "\(before.count) rides went out, \(after.count) came back")
        #expect(after == before, "\(Set(before).symmetricDifference(after).sorted().prefix(6))")
        #expect(try await Self.records(back) == kept)
    }

    /// Tar archives that would write outside their folder or lie about their size, made with
    /// Python's tarfile (GNU and pax formats, as GNU tar and others write them): `store copy` and
    /// `import` refuse each whole with one sentence, exit 65, and write nothing (no store, no
    /// file outside).
    @Test(arguments: ["climb", "absolute", "symlink", "hardlink", "bomb", "twice"])
    func aHostileArchiveIsRefusedWithNothingWritten(_ kind: String) async throws {
        let dir = try Samples.temporaryDirectory()
        let tar = dir + "/\(kind).tar"
        try GoogleImportTests().python(
            """
            import io, sys, tarfile
            kind, out = sys.argv[1], sys.argv[2]
            def add(t, name, data=b"SQLite format 3\\0", typ=tarfile.REGTYPE, link=""):
                i = tarfile.TarInfo(name); i.type = typ; i.linkname = link
                i.size = len(data) if typ == tarfile.REGTYPE else 0
                t.addfile(i, io.BytesIO(data) if typ == tarfile.REGTYPE else None)
            with tarfile.open(out, "w", format=tarfile.PAX_FORMAT if kind == "absolute" else tarfile.GNU_FORMAT) as t:
                add(t, "trailbook-ana-2026-11-28/trailbook.sqlite")
                if kind == "climb": add(t, "trailbook-ana-2026-11-28/../../evil.txt")
                if kind == "absolute": add(t, "/tmp/evil.txt")
                if kind == "symlink": add(t, "trailbook-ana-2026-11-28/trailbook-media", typ=tarfile.SYMTYPE, link="/etc")
                if kind == "hardlink": add(t, "trailbook-ana-2026-11-28/x", typ=tarfile.LNKTYPE, link="/etc/passwd")
                if kind == "twice": add(t, "trailbook-ana-2026-11-28/./trailbook.sqlite")
            if kind == "bomb":
                # A header that says 100 GiB follow (GNU's base-256 size), with 512 bytes after it.
                data = bytearray(open(out, "rb").read()[:512])
                data[124:136] = (0x80).to_bytes(1, "big") + (100 << 30).to_bytes(11, "big")
                data[148:156] = b"        "
                data[148:155] = ("%06o\\0" % sum(data)).encode()
                open(out, "wb").write(bytes(data) + b"\\0" * 512)
            """, [kind, tar])
        let expected = [
            "climb": "an entry's name climbs out of its folder (trailbook-ana-2026-11-28/../../evil.txt)",
            "absolute": "an entry's name climbs out of its folder (/tmp/evil.txt)",
            "symlink": "it holds a link (trailbook-ana-2026-11-28/trailbook-media → /etc)",
            "hardlink": "it holds a link (trailbook-ana-2026-11-28/x → /etc/passwd)",
            "bomb": "it is cut short (trailbook-ana-2026-11-28/trailbook.sqlite runs past its end)",
            "twice": "it holds trailbook-ana-2026-11-28/trailbook.sqlite twice",
        ][kind]!
        let copied = try await run(["store", "copy", tar, dir + "/copy.sqlite"])
        #expect(
            copied.status == 65 && copied.stderr.contains("\(kind).tar is refused: \(expected)"), "\(copied.stderr)")
        let imported = try await run(["import", "--store", dir + "/import.sqlite", tar])
        #expect(imported.status == 65 && imported.stderr.contains("is refused: \(expected)"), "\(imported.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(written == ["\(kind).tar"], "nothing but the archive: \(written)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/evil.txt"))
    }
}
