import Foundation
import GPSCore
import NMEA
import Pipeline
import Testing
import TrailbookTestSupport

@testable import TrackStore

/// Runs the sample ride (or `bytes`) through the decoder and the ride pipeline.
func keptPoints(_ bytes: [UInt8]) -> (points: [TrackWriter.KeptPoint], drops: [Int: [String: Int]]) {
    let (points, _, drops) = keptPointsAndFixes(bytes)
    return (points, drops)
}

/// The kept points of a log with the fixes they were made from, in the same order.
func keptPointsAndFixes(_ bytes: [UInt8]) -> (
    points: [TrackWriter.KeptPoint], fixes: [Fix], drops: [Int: [String: Int]]
) {
    var pipeline = Pipeline(configuration: .ride)
    var points: [TrackWriter.KeptPoint] = []
    var fixes: [Fix] = []
    let decoder = NMEADecoder()
    let handle: (Fix) -> Void = { fix in
        pipeline.process(fix) { event in
            if case .kept(let f, let ride, let segment) = event {
                points.append(.init(fix: f, ride: ride, segment: segment))
                fixes.append(f)
            }
        }
    }
    bytes.withUnsafeBytes { decoder.feed($0, handle) }
    decoder.finish(handle)
    pipeline.finish { _ in }
    var drops: [Int: [String: Int]] = [:]
    for (ride, counts) in pipeline.drops {
        for (reason, n) in counts.byReason { drops[ride, default: [:]][reason.rawValue] = n }
    }
    return (points, fixes, drops)
}

@Suite struct TrackStoreTests {
    func newStorePath() throws -> String { try Samples.temporaryDirectory() + "/data/trailbook.sqlite" }

    @Test func createsAndMigratesAPrivateWALStore() throws {
        let path = try newStorePath()
        let store = try TrackStore(path: path)
        #expect(
            try store.appliedMigrations() == [
                "v1-tracks", "v2-imports", "v3-diary", "v4-import-provenance", "v5-users-devices", "v6-accounts",
                "v7-uploads", "v8-device-messages", "v9-sessions", "v10-store-copy", "v11-places-events",
                "v12-cues-tasks-alerts", "v13-record-conditions", "v14-weather-readings", "v15-diary-accounts",
                "v16-import-accounts", "v17-segment-ride-index", "v18-point-sensors", "v19-account-preferences",
                "v20-gazetteer", "v21-found-places", "v22-found-place-numbers", "v23-sensors-in-point",
                "v24-kept-timeline",
            ])
        #expect(try store.integrityCheck() == "ok")
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: (path as NSString).deletingLastPathComponent)
        #expect((folder[.posixPermissions] as? Int) == 0o700)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "WAL mode")
        // Opening again migrates nothing new.
        #expect(
            try TrackStore(path: path).appliedMigrations() == [
                "v1-tracks", "v2-imports", "v3-diary", "v4-import-provenance", "v5-users-devices", "v6-accounts",
                "v7-uploads", "v8-device-messages", "v9-sessions", "v10-store-copy", "v11-places-events",
                "v12-cues-tasks-alerts", "v13-record-conditions", "v14-weather-readings", "v15-diary-accounts",
                "v16-import-accounts", "v17-segment-ride-index", "v18-point-sensors", "v19-account-preferences",
                "v20-gazetteer", "v21-found-places", "v22-found-place-numbers", "v23-sensors-in-point",
                "v24-kept-timeline",
            ])
    }

    /// A store as each earlier version left it, with data, opens migrated and keeps its data.
    @Test(arguments: ["v1-tracks", "v2-imports", "v3-diary", "v4-import-provenance"])
    func migratesFromEarlierVersions(last: String) throws {
        let path = try newStorePath()
        do {
            let old = try TrackStore(path: path, migratingUpTo: last)
            #expect(try old.appliedMigrations().last == last)
            // Rows as the code of that version wrote them: a point keyed by its time alone.
            let fixes = Array(keptPointsAndFixes(try Samples.bytes("ride.nmea")).fixes.prefix(100))
            try old.databasePool.write { db in
                for f in fixes {
                    try db.execute(
                        sql: "INSERT INTO point (t, lat, lon, alt, mode_sats) VALUES (?, ?, ?, ?, ?)",
                        arguments: [
                            f.unixMilliseconds!, Int64((f.coordinate!.latitude * 1e7).rounded()),
                            Int64((f.coordinate!.longitude * 1e7).rounded()), f.altitudeMSL.map { Int64($0 * 100) },
                            f.mode.rawValue,
                        ])
                }
                let (start, end) = (fixes.first!.unixMilliseconds!, fixes.last!.unixMilliseconds!)
                try db.execute(
                    sql: "INSERT INTO ride (id, start_ms, end_ms, point_count) VALUES (1, ?, ?, 100)",
                    arguments: [start, end])
                try db.execute(
                    sql: "INSERT INTO segment (ride_id, start_ms, end_ms, point_count) VALUES (1, ?, ?, 100)",
                    arguments: [start, end])
                if ["v3-diary", "v4-import-provenance"].contains(last) {
                    // Paused until resumed, as `trailbook pause` of those versions wrote it.
                    try db.execute(sql: "INSERT INTO setting (key, value) VALUES ('paused_until_ms', '0')")
                }
            }
        }
        let store = try TrackStore(path: path)
        #expect(
            try store.appliedMigrations() == [
                "v1-tracks", "v2-imports", "v3-diary", "v4-import-provenance", "v5-users-devices", "v6-accounts",
                "v7-uploads", "v8-device-messages", "v9-sessions", "v10-store-copy", "v11-places-events",
                "v12-cues-tasks-alerts", "v13-record-conditions", "v14-weather-readings", "v15-diary-accounts",
                "v16-import-accounts", "v17-segment-ride-index", "v18-point-sensors", "v19-account-preferences",
                "v20-gazetteer", "v21-found-places", "v22-found-place-numbers", "v23-sensors-in-point",
                "v24-kept-timeline",
            ])
        #expect(try store.readNow { try $0.rides() }.map(\.pointCount) == [100])
        #expect(try store.readNow { try $0.rides() }.map(\.device) == ["default"])
        #expect(try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.count == 100)
        #expect(try store.readNow { try $0.devices() }.map(\.name) == ["default"])
        #expect(
            try store.readNow { try $0.pausedUntil() }
                == (["v3-diary", "v4-import-provenance"].contains(last) ? 0 : nil))
        #expect(try store.integrityCheck() == "ok")
        #expect(try store.readNow { try $0.importedFile(sha256: String(repeating: "0", count: 64)) } == nil)
    }

    /// A value no stored integer holds (a speed of 1e300 m/s from a hostile client) is stored as
    /// unknown; converting it used to trap.
    @Test func valuesNoIntegerHoldsAreStoredAsUnknown() throws {
        let store = try TrackStore(path: try newStorePath())
        var fix = Fix()
        UTCTimestamp.set(1_781_418_600_000, on: &fix)
        fix.coordinate = Coordinate(latitude: 47, longitude: 8)
        fix.speed = 1e300
        fix.altitudeMSL = -.infinity
        fix.track = 12.5
        try store.writeNow { tx in
            try tx.makeWriter(device: try tx.device(named: "bike")).write(
                [KeptPoint(fix: fix, ride: 1, segment: 1)], drops: [:])
        }
        let back = try #require(try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.first)
        #expect(back.speed == nil && back.altitudeMSL == nil && back.track == 12.5)
    }

    @Test func sha256MatchesKnownDigests() throws {
        #expect(
            ContentDigest.hexDigest(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            ContentDigest.hexDigest(of: Array("abc".utf8))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // A file read in chunks, the same as coreutils' sha256sum.
        let path = Samples.path("ride.nmea")
        let sum = Process()
        let pipe = Pipe()
        sum.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        sum.arguments = [path]
        sum.standardOutput = pipe
        try sum.run()
        sum.waitUntilExit()
        let expected = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(64)
        #expect(try ContentDigest.hexDigest(ofFile: path) == String(expected))
        #expect(ContentDigest.hexDigest(of: try Samples.bytes("ride.nmea")) == String(expected))
    }

    /// Runs `code` in another process with python3 (whose sqlite3 module is another SQLite
    /// client of the store); returns its exit status.
    func python(_ code: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", code]
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    @Test func refusesAStoreFromANewerTrailbook() throws {
        let path = try newStorePath()
        _ = try TrackStore(path: path)
        #expect(
            try python(
                "import sqlite3; c = sqlite3.connect('\(path)'); c.execute(\"INSERT INTO grdb_migrations VALUES ('v9-future')\"); c.commit()"
            ) == 0)
        #expect(throws: StoreError.newerSchema(path: path, unknown: ["v9-future"])) { try TrackStore(path: path) }
    }

    /// A store opened a second time in the same process keeps the first one's lock on the file:
    /// another process that opens and closes the store does not take itself for the last one and
    /// delete the write-ahead log the first store is writing (which lost concurrent imports).
    @Test func openingTheStoreAgainKeepsItsLock() throws {
        let path = try newStorePath()
        let store = try TrackStore(path: path)
        func point(_ ms: Int64) -> KeptPoint {
            var fix = Fix()
            UTCTimestamp.set(ms, on: &fix)
            fix.coordinate = Coordinate(latitude: 47, longitude: 8)
            return KeptPoint(fix: fix, ride: 1, segment: 1)
        }
        try store.writeNow { tx in
            try tx.makeWriter(device: try tx.device(named: "bike")).write([point(1_781_418_600_000)], drops: [:])
        }
        _ = try TrackStore(path: path)
        _ = try TrackStore(existingAt: path)
        #expect(
            try python(
                "import sqlite3; c = sqlite3.connect('\(path)'); c.execute('SELECT count(*) FROM point').fetchall(); c.close()"
            ) == 0)
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the other process deleted the log in use")
        try store.writeNow { tx in
            try tx.makeWriter(device: try tx.device(named: "bike")).write([point(1_781_418_601_000)], drops: [:])
        }
        #expect(
            try TrackStore(existingAt: path).readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }
                .count == 2)
    }

    @Test func aFileThatIsNotAStoreIsRefused() throws {
        let path = try Samples.temporaryDirectory() + "/notes.txt"
        try String(repeating: "not a database\n", count: 100).write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try TrackStore(path: path)
        } throws: { error in
            if case .notAStore = error as? StoreError { return true }
            return false
        }
    }

    @Test func pointsRoundTripAndRidesAreRecorded() throws {
        let store = try TrackStore(path: try newStorePath())
        let (points, fixes, drops) = keptPointsAndFixes(try Samples.bytes("ride.nmea"))
        #expect(
            try store.writeNow { tx in try tx.makeWriter(device: tx.device(named: "test")).write(points, drops: drops) }
                == points.count)
        let rides = try store.readNow { try $0.rides() }
        #expect(rides.count == Set(points.map(\.ride)).count)
        #expect(rides.map(\.pointCount).reduce(0, +) == points.count)
        #expect(rides.first?.drops["no_fix"] == 38)
        let back = try store.readNow { tx in
            let range = try #require(try tx.rideRange(rides[0].id))
            return try tx.points(fromMilliseconds: range.start, toMilliseconds: range.end + 1, devices: .all)
        }
        #expect(back.count == rides[0].pointCount)
        for (original, stored) in zip(fixes, back) {
            #expect(stored.unixMilliseconds == original.unixMilliseconds)
            #expect(abs(stored.coordinate!.latitude - original.coordinate!.latitude) <= 0.5e-7)
            #expect(abs(stored.coordinate!.longitude - original.coordinate!.longitude) <= 0.5e-7)
            #expect(abs((stored.altitudeMSL ?? 0) - (original.altitudeMSL ?? 0)) <= 0.005)
            #expect(abs((stored.speed ?? 0) - (original.speed ?? 0)) <= 0.005)
            #expect(stored.mode == original.mode && stored.satellitesUsed == original.satellitesUsed)
        }
    }

    /// Several devices' points come merged in time order, by device where two share a
    /// millisecond, the same from the list and from the cursor.
    @Test func severalDevicesPointsAreMergedInTimeOrder() throws {
        let store = try TrackStore(path: try newStorePath())
        let (points, fixes, _) = keptPointsAndFixes(try Samples.bytes("ride.nmea"))
        func moved(_ p: TrackWriter.KeptPoint, _ fix: Fix, ms: Int64, north: Double) -> TrackWriter.KeptPoint {
            var f = fix
            UTCTimestamp.set(fix.unixMilliseconds! + ms, on: &f)
            f.coordinate!.latitude += north
            return TrackWriter.KeptPoint(fix: f, ride: p.ride, segment: p.segment)
        }
        // a: the ride; b: half a second later, 1° north; c: at a's times, 2° north.
        for (name, ms, north) in [("a", Int64(0), 0.0), ("b", 500, 1), ("c", 0, 2)] {
            let moved = zip(points, fixes).map { moved($0, $1, ms: ms, north: north) }
            #expect(
                try store.writeNow { tx in try tx.makeWriter(device: tx.device(named: name)).write(moved) }
                    == points.count)
        }
        let all = try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }
        #expect(all.count == 3 * points.count)
        var streamed: [Fix] = []
        try store.readNow { tx in
            try tx.forEachPoint(fromMilliseconds: .min, toMilliseconds: .max, devices: .all) { streamed.append($0) }
        }
        #expect(streamed.map(\.unixMilliseconds) == all.map(\.unixMilliseconds))
        #expect(streamed.map(\.coordinate) == all.map(\.coordinate))
        let first = fixes[0].coordinate!.latitude
        let order = all.prefix(6).map { Int(($0.coordinate!.latitude - first).rounded()) }
        #expect(order == [0, 2, 1, 0, 2, 1], "a and c share each millisecond, b comes half a second later: \(order)")
        for (x, y) in zip(all, all.dropFirst()) {
            #expect(x.unixMilliseconds! <= y.unixMilliseconds!)
        }
    }

    @Test func theSamePointsTwiceAreStoredOnce() throws {
        let store = try TrackStore(path: try newStorePath())
        let (points, _) = keptPoints(try Samples.bytes("ride.nmea"))
        func write() throws -> Int {
            try store.writeNow { tx in try tx.makeWriter(device: tx.device(named: "test")).write(points) }
        }
        #expect(try write() == points.count)
        let ridesBefore = try store.readNow { try $0.rides() }
        #expect(try write() == 0)
        #expect(try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.count == points.count)
        #expect(try store.readNow { try $0.rides() } == ridesBefore, "no empty rides from the second write")
    }

    @Test func aDayOfOneHertzPointsTakesAtMostFortyBytesEach() throws {
        let path = try newStorePath()
        let store = try TrackStore(path: path)
        let dir = try Samples.temporaryDirectory()
        let log = dir + "/day.nmea"
        let simulate = Process()
        simulate.executableURL = try trailbookForTests()
        simulate.arguments = ["simulate", "--duration", "86400", "--seed", "24", "-o", log]
        try simulate.run()
        simulate.waitUntilExit()
        let (points, drops) = keptPoints(try Array(Data(contentsOf: URL(fileURLWithPath: log))))
        #expect(points.count > 80_000)
        try store.writeNow { tx in try tx.makeWriter(device: tx.device(named: "test")).write(points, drops: drops) }
        let size = try store.compactedSize()
        // Per point: what the day added to a new store (each table's first page, about 40 of
        // them, is the store's whatever it holds, and grows with every table added).
        let empty = try TrackStore(path: try newStorePath()).compactedSize()
        let perPoint = Double(size - empty) / Double(points.count)
        print(
            "store: \(points.count) points, \(size) bytes (\(empty) empty), \(String(format: "%.1f", perPoint)) bytes per point"
        )
        #expect(perPoint <= 40, "\(perPoint) bytes per point")
    }

    @Test func readersRunWhileAWriterWrites() async throws {
        let path = try newStorePath()
        let store = try TrackStore(path: path)
        let (points, _) = keptPoints(try Samples.bytes("ride.nmea"))
        let reader = try TrackStore(path: path)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let device = try store.writeNow { try $0.device(named: "test") }
                var numbering = RunNumbering()
                for start in stride(from: 0, to: points.count, by: 50) {
                    // A writer per unit, continuing the run's rides and segments.
                    try store.writeNow { tx in
                        let writer = tx.makeWriter(device: device)
                        writer.numbering = numbering
                        try writer.write(Array(points[start..<min(start + 50, points.count)]))
                        numbering = writer.numbering
                    }
                }
            }
            group.addTask {
                for _ in 0..<200 { _ = try reader.readNow { try $0.rides() } }
            }
            try await group.waitForAll()
        }
        #expect(
            try reader.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.count == points.count)
    }
}

/// The trailbook executable next to the test bundle (for `simulate`).
func trailbookForTests() throws -> URL {
    let candidates = [
        Bundle.main.bundleURL.appendingPathComponent("trailbook"),
        Samples.directory.deletingLastPathComponent().appendingPathComponent(".build/debug/trailbook"),
    ]
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
        throw SupportError(
            "The trailbook executable was not found; run `swift build` (or `make test`) before the tests.")
    }
    return found
}
