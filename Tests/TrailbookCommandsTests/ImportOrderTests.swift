import Foundation
import Synchronization
import Testing
import TrailbookTestSupport

/// `import` of files in any order: nothing is dropped for being earlier than what is stored,
/// the store is the same whatever the order, and a file counts as imported only for what it stored.
@Suite struct ImportOrderTests {
    func store() throws -> String { try Samples.temporaryDirectory() + "/trailbook.sqlite" }

    /// A simulated ride log (1 Hz) in `dir`.
    func simulate(_ dir: String, _ name: String, start: String, seconds: Int, seed: Int) async throws -> String {
        let path = dir + "/" + name
        let result = try await run([
            "simulate", "--duration", "\(seconds)", "--seed", "\(seed)", "--start", start, "-o", path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        return path
    }

    /// The kept fixes of `log` as GPX track points, each `shift` seconds later; `tracks` splits
    /// them into that many tracks, written newest first when `reversed`.
    func gpx(from log: String, to path: String, shift: Double = 0, tracks: Int = 1, reversed: Bool = false) async throws {
        let csv = try await run(["decode", log]).stdout.split(separator: "\n").dropFirst()
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var points: [String] = []
        for row in csv {
            let c = row.split(separator: ",", omittingEmptySubsequences: false)
            guard c[1] != "1", !c[2].isEmpty, let t = formatter.date(from: String(c[0])) else { continue }
            let time = formatter.string(from: t.addingTimeInterval(shift))
            points.append(
                "<trkpt lat=\"\(c[2])\" lon=\"\(c[3])\"><ele>\(c[4])</ele><time>\(time)</time><hdop>\(c[8])</hdop></trkpt>"
            )
        }
        let size = (points.count + tracks - 1) / tracks
        var parts = stride(from: 0, to: points.count, by: size).map {
            "<trk><trkseg>" + points[$0..<min($0 + size, points.count)].joined(separator: "\n") + "</trkseg></trk>"
        }
        if reversed { parts.reverse() }
        let text =
            "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
            + parts.joined(separator: "\n") + "\n</gpx>\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// What the store holds, without the ids (which depend on the order rows were made): the
    /// rides (range, points, segments, drops) and every point with the start of its ride.
    func contents(_ store: String) async throws -> [String] {
        let rides = try await run(["rides", "--store", store, "--json"])
        #expect(rides.status == 0, "\(rides.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(rides.stdout.utf8)) as? [String: Any])
        let list = try #require(json["rides"] as? [[String: Any]])
        var startOf: [String: String] = [:]
        var lines: [String] = []
        for r in list {
            let id = "\(r["id"]!)"
            startOf[id] = "\(r["start"]!)"
            let dropped = (r["dropped"] as? [String: Int] ?? [:]).sorted { $0.key < $1.key }
            lines.append("ride \(r["start"]!) \(r["end"]!) \(r["points"]!) \(r["segments"]!) \(dropped)")
        }
        let points = try await run(["points", "--store", store, "--from", "2026-06-13", "--to", "2026-06-17"])
        let rows = points.stdout.split(separator: "\n")
        // The decode columns, then ride and segment (stored ids, which differ by order), then sensors.
        let rideColumn = try #require(rows.first?.split(separator: ",").firstIndex(of: "ride"))
        for row in rows.dropFirst() {
            var c = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let ride = c[rideColumn]
            c.removeSubrange(rideColumn...)
            lines.append(c.joined(separator: ",") + " in ride " + (startOf[ride] ?? "?"))
        }
        return lines.sorted()
    }

    func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { i in
            var rest = items
            let first = rest.remove(at: i)
            return permutations(rest).map { [first] + $0 }
        }
    }

    /// The issue's reproduction: a later file first no longer drops the earlier one, and its
    /// retry is recognised as a file already imported.
    @Test func anEarlierFileAfterALaterOneIsStoredWhole() async throws {
        let dir = try Samples.temporaryDirectory()
        let b = try await simulate(dir, "b.nmea", start: "2026-06-15T07:00:00", seconds: 600, seed: 2)
        let a = try await simulate(dir, "a.nmea", start: "2026-06-14T07:00:00", seconds: 600, seed: 1)
        let s = try store()
        let result = try await run(["import", "--store", s, b, a])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("a.nmea: 600 fixes read, 600 kept, 600 stored, 0 dropped"), "\(result.stdout)")
        #expect(!result.stdout.contains("not_later"))
        let again = try await run(["import", "--store", s, a])
        #expect(again.stdout.contains("a.nmea: already imported, skipped (600 points stored"), "\(again.stdout)")
        #expect(again.stdout.contains("--reimport replaces them"))
        #expect(try await contents(s).filter { $0.hasPrefix("ride ") }.count == 2)
    }

    /// Any order of the files of one import gives the store that the files in time order give:
    /// four files over two days, two of them overlapping in time (their rides become one ride).
    @Test func anyOrderOfTheFilesGivesTheSameStore() async throws {
        let dir = try Samples.temporaryDirectory()
        let morning = try await simulate(dir, "morning.nmea", start: "2026-06-14T07:00:00", seconds: 900, seed: 1)
        let overlapLog = try await simulate(dir, "overlap.nmea", start: "2026-06-14T07:10:00", seconds: 600, seed: 3)
        let overlap = dir + "/overlap.gpx"
        // Half a second later than the log's own times, so no point shares a millisecond with the morning.
        try await gpx(from: overlapLog, to: overlap, shift: 0.5)
        let night = try await simulate(dir, "night.nmea", start: "2026-06-14T23:50:00", seconds: 1200, seed: 2)
        let next = try await simulate(dir, "next.nmea", start: "2026-06-15T07:00:00", seconds: 600, seed: 4)
        let inTimeOrder = [morning, overlap, night, next]

        let reference = try store()
        let first = try await run(["import", "--store", reference, "--json"] + inTimeOrder)
        #expect(first.status == 0, "\(first.stderr)")
        let counts = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        let kept = try #require(counts["kept"] as? Int)
        #expect(counts["stored"] as? Int == kept)
        #expect(kept > 3000)
        let expected = try await contents(reference)
        let rides = expected.filter { $0.hasPrefix("ride ") }
        #expect(rides.count == 3, "\(rides)")  // morning and overlap in one ride; night; next
        #expect(expected.count - rides.count == kept)

        for order in permutations(inTimeOrder).dropFirst() {
            let s = try store()
            let result = try await run(["import", "--store", s] + order)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try await contents(s) == expected, "order: \(order.map { ($0 as NSString).lastPathComponent })")
        }
    }

    /// A log whose epochs are slightly out of order (a logger buffering badly) is put in time
    /// order: every epoch is stored, none dropped as not later.
    @Test func epochsOutOfOrderInsideALogAreSorted() async throws {
        let dir = try Samples.temporaryDirectory()
        let log = try await simulate(dir, "ride.nmea", start: "2026-06-14T07:00:00", seconds: 300, seed: 5)
        // Swap every 50th epoch with the one after it (an epoch starts at each RMC).
        var epochs: [[Substring]] = []
        for line in try String(contentsOfFile: log, encoding: .utf8).split(whereSeparator: \.isNewline) {
            if line.dropFirst(3).hasPrefix("RMC") || epochs.isEmpty { epochs.append([]) }
            epochs[epochs.count - 1].append(line)
        }
        for i in stride(from: 10, to: epochs.count - 1, by: 50) { epochs.swapAt(i, i + 1) }
        let shuffled = dir + "/shuffled.nmea"
        try (epochs.flatMap { $0 }.joined(separator: "\r\n") + "\r\n").write(
            toFile: shuffled, atomically: true, encoding: .utf8)

        let plain = try store()
        let sorted = try store()
        #expect(try await run(["import", "--store", plain, log]).status == 0)
        let result = try await run(["import", "--store", sorted, shuffled])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("300 fixes read, 300 kept, 300 stored, 0 dropped"), "\(result.stdout)")
        #expect(result.stdout.contains("points put in time order"))
        #expect(try await contents(sorted) == contents(plain))
    }

    /// A GPX file whose tracks are written newest first stores every track, the same as the log.
    @Test func gpxTracksNewestFirstAreAllStored() async throws {
        let dir = try Samples.temporaryDirectory()
        let log = try await simulate(dir, "ride.nmea", start: "2026-06-14T07:00:00", seconds: 900, seed: 6)
        let newestFirst = dir + "/newest-first.gpx"
        let inOrder = dir + "/in-order.gpx"
        try await gpx(from: log, to: newestFirst, tracks: 3, reversed: true)
        try await gpx(from: log, to: inOrder, tracks: 3)
        let a = try store()
        let b = try store()
        let result = try await run(["import", "--store", a, newestFirst])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("not_later"), "\(result.stdout)")
        #expect(try await run(["import", "--store", b, inOrder]).status == 0)
        #expect(try await contents(a) == contents(b))
        #expect(try await contents(a).count > 800)
    }

    /// Processes opening a new store and importing at the same moment: every one exits 0, the
    /// migrations run once, the same file is stored once and the others are all stored.
    @Test func concurrentImportsIntoANewStore() async throws {
        let dir = try Samples.temporaryDirectory()
        var logs: [String] = []
        for k in 0..<3 {
            logs.append(
                try await simulate(dir, "day\(k).nmea", start: "2026-06-1\(k + 4)T07:00:00", seconds: 120, seed: k + 1))
        }
        let s = try store()
        let jobs = logs + logs  // each file twice
        let results = Mutex<[RunResult?]>(Array(repeating: nil, count: jobs.count))
        DispatchQueue.concurrentPerform(iterations: jobs.count) { i in
            let result = try? runBinary(["import", "--store", s, jobs[i]])
            results.withLock { $0[i] = result }
        }
        let all = results.withLock { $0 }
        for (job, result) in zip(jobs, all) {
            #expect(result?.status == 0, "\(job): \(result?.stderr ?? "did not run")")
        }
        let skipped = all.filter { $0?.stdout.contains("already imported") == true }.count
        #expect(skipped == logs.count, "\(all.map { $0?.stdout ?? "" })")
        let rides = try await contents(s).filter { $0.hasPrefix("ride ") }
        #expect(rides.count == logs.count, "\(rides)")
    }

    /// An import that stored nothing (rules too strict) is not remembered: the same file with
    /// looser rules is imported.
    @Test func aFileThatStoredNothingCanBeImportedAgain() async throws {
        let dir = try Samples.temporaryDirectory()
        let log = try await simulate(dir, "ride.nmea", start: "2026-06-14T07:00:00", seconds: 300, seed: 1)
        let s = try store()
        let strict = try await run(["import", "--store", s, "--max-hdop", "0.5", log])
        #expect(strict.status == 0, "\(strict.stderr)")
        #expect(strict.stdout.contains("0 kept, 0 stored"), "\(strict.stdout)")
        let loose = try await run(["import", "--store", s, log])
        #expect(loose.stdout.contains("300 kept, 300 stored"), "\(loose.stdout)")
    }

    /// --reimport replaces what a file stored with what the current rules keep: no point of the
    /// first import is left over, and the ride is rebuilt.
    @Test func reimportReplacesWhatTheFileStored() async throws {
        let dir = try Samples.temporaryDirectory()
        let log = try await simulate(dir, "ride.nmea", start: "2026-06-14T07:00:00", seconds: 600, seed: 1)
        let other = try await simulate(dir, "other.nmea", start: "2026-06-14T09:00:00", seconds: 120, seed: 2)
        let s = try store()
        let sparse = try await run(["import", "--store", s, "--interval", "10", log, other])
        #expect(sparse.stdout.contains("ride.nmea: 600 fixes read, 60 kept, 60 stored"), "\(sparse.stdout)")
        let again = try await run(["import", "--store", s, "--reimport", log])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("600 kept, 600 stored"), "\(again.stdout)")
        #expect(again.stdout.contains("replaced 60 points of the earlier import"), "\(again.stdout)")
        let fresh = try store()
        #expect(try await run(["import", "--store", fresh, log]).status == 0)
        #expect(try await run(["import", "--store", fresh, "--interval", "10", other]).status == 0)
        #expect(try await contents(s) == contents(fresh))
        // The other file's points are untouched; a plain import of the same file is skipped again.
        #expect(try await run(["import", "--store", s, log]).stdout.contains("already imported, skipped (600 points"))
    }
}

/// A store written by the first release (../shared/fixtures/v1-store) after the provenance
/// migration: its data unchanged, its import still known, and imports of files in any order work.
@Suite struct UpgradedStoreImportTests {
    @Test func theFirstReleasesStoreUpgradesAndImports() async throws {
        let fixture = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures/v1-store").path
        guard FileManager.default.fileExists(atPath: fixture + "/v1.sqlite") else {
            throw RunError("\(fixture) is missing: clone the shared folder beside the repository (CI has it).")
        }
        let dir = try Samples.temporaryDirectory()
        try FileManager.default.copyItem(atPath: fixture, toPath: dir + "/v1")
        let s = dir + "/v1/v1.sqlite"
        let rides = try await run(["rides", "--store", s, "--json"])
        #expect(rides.status == 0, "\(rides.stderr)")
        // The same rides as the first release printed, each now on the device `default`.
        let before = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture + "/rides.json")))
                as? [String: [[String: Any]]])
        var after = try #require(
            try JSONSerialization.jsonObject(with: Data(rides.stdout.utf8)) as? [String: [[String: Any]]])
        #expect(after["rides"]?.map { $0["device"] as? String } == ["default"])
        after["rides"] = after["rides"]?.map { $0.filter { $0.key != "device" } }
        #expect(NSDictionary(dictionary: before) == NSDictionary(dictionary: after))
        // The same records, notes, fields and photo (its path is where the store now is).
        func normalized(_ data: Data) throws -> String {
            let text = String(decoding: data, as: UTF8.self)
            let cut = text.replacingOccurrences(
                of: "\"path\" *: *\"[^\"]*/v1-media/", with: "\"path\" : \"v1-media/", options: .regularExpression)
            let object = try JSONSerialization.jsonObject(with: Data(cut.utf8))
            return String(
                decoding: try JSONSerialization.data(withJSONObject: object, options: .sortedKeys), as: UTF8.self)
        }
        let records = try await run(["records", "--store", s, "--json"])
        // The first release captured no conditions: each upgraded record carries an empty set.
        var upgraded = try #require(
            try JSONSerialization.jsonObject(with: Data(records.stdout.utf8)) as? [String: [[String: Any]]])
        #expect(upgraded["records"]?.map { ($0["conditions"] as? [String: Any])?.isEmpty } == [true, true, true])
        upgraded["records"] = upgraded["records"]?.map { $0.filter { $0.key != "conditions" } }
        #expect(
            try normalized(Data(contentsOf: URL(fileURLWithPath: fixture + "/records.json")))
                == normalized(try JSONSerialization.data(withJSONObject: upgraded, options: .withoutEscapingSlashes)))
        let points = try await run(["points", "--store", s, "--ride", "1"])
        #expect(points.stdout.split(separator: "\n").count == 1763)

        let again = try await run(["import", "--store", s, "Samples/ride.nmea"])
        #expect(again.stdout.contains("already imported as"), "\(again.stdout)")
        let replace = try await run(["import", "--store", s, "--reimport", "Samples/ride.nmea"])
        #expect(replace.stdout.contains("cannot replace them; skipped"), "\(replace.stdout)")
        // A day before the stored ride, imported after it, is stored whole.
        let earlier = dir + "/earlier.nmea"
        #expect(
            try await run(["simulate", "--duration", "300", "--start", "2026-06-13T07:00:00", "-o", earlier]).status == 0)
        let imported = try await run(["import", "--store", s, earlier])
        #expect(imported.stdout.contains("300 kept, 300 stored"), "\(imported.stdout)")
        let list = try JSONSerialization.jsonObject(with: Data(try await run(["rides", "--store", s, "--json"]).stdout.utf8))
        #expect(((list as? [String: Any])?["rides"] as? [Any])?.count == 2)
    }
}
