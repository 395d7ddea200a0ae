import Foundation
import GPSCore
import Pipeline
import RideSimulator
import Testing
import TrailbookKit
import TrailbookTestSupport

@testable import TrackStore

/// The import service on its own, without the command line: logs written by the ride simulator,
/// a store in a temporary folder.
@Suite struct ImportServiceTests {
    /// A simulated log of `seconds` from `start` (time of day in seconds) on `day`, written to `dir`.
    func log(_ dir: String, _ name: String, day: CivilDate, start: Int, seconds: Int, seed: UInt64) throws -> String {
        let simulator = RideSimulator(
            .init(
                startDate: day, startTimeOfDay: start, origin: Coordinate(latitude: 47.3769, longitude: 8.5417),
                duration: seconds, seed: seed))
        let text = simulator.map { $0.sentences.joined(separator: "\r\n") + "\r\n" }.joined()
        let path = dir + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func newStore() throws -> TrackStore { try TrackStore(path: try Samples.temporaryDirectory() + "/s.sqlite") }

    /// What a store holds, ids aside: rides (range, points, segments) and every point's time.
    func contents(_ store: TrackStore) throws -> [String] {
        try store.readNow { try $0.rides() }.map {
            "\($0.device) \($0.startMilliseconds)-\($0.endMilliseconds) \($0.pointCount) \($0.segmentCount)"
        }
            + store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.map {
                "\($0.unixMilliseconds!)"
            }
    }

    @Test func filesInEitherOrderGiveTheSameStore() async throws {
        let dir = try Samples.temporaryDirectory()
        let a = try log(
            dir, "a.nmea", day: CivilDate(year: 2026, month: 6, day: 14)!, start: 25_200, seconds: 300, seed: 1)
        let b = try log(
            dir, "b.nmea", day: CivilDate(year: 2026, month: 6, day: 15)!, start: 25_200, seconds: 300, seed: 2)
        var results: [[String]] = []
        for order in [[a, b], [b, a]] {
            let store = try newStore()
            var service = try await ImportService(
                store: store, device: "import", options: .init(configuration: .ride))
            for path in order {
                let report = try service.importFile(path).report
                #expect(report.dropped["not_later"] == nil, "\(report)")
                #expect(report.stored == report.kept && report.kept > 250)
            }
            results.append(try contents(store))
        }
        #expect(results[0] == results[1])
        #expect(results[0].filter { $0.hasPrefix("import ") }.count == 2)
    }

    /// A log read on its own thread (``FixHandoff``): a long one whose second hour comes first
    /// is read again and sorted, while the reader is far ahead and waiting, and gives the same
    /// store as the log in order; every fix arrives, in order.
    @Test func aLongLogOutOfOrderIsReadAgainWhileItsReaderWaits() async throws {
        let dir = try Samples.temporaryDirectory()
        let day = CivilDate(year: 2026, month: 6, day: 14)!
        let early = try log(dir, "early.nmea", day: day, start: 25_200_000, seconds: 10_000, seed: 3)
        let late = try log(dir, "late.nmea", day: day, start: 36_000_000, seconds: 1_200, seed: 4)
        func joined(_ name: String, _ parts: [String]) throws -> String {
            let path = dir + "/" + name
            try parts.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined().write(
                toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        var results: [[String]] = []
        for (path, reordered) in [
            (try joined("in-order.nmea", [early, late]), false), (try joined("late-first.nmea", [late, early]), true),
        ] {
            let store = try newStore()
            var service = try await ImportService(store: store, device: "import", options: .init(configuration: .ride))
            let report = try service.importFile(path).report
            #expect((report.reordered ?? false) == reordered, "\(path)")
            #expect(report.fixesRead >= 11_000 && report.stored == report.kept && report.kept > 10_000, "\(report)")
            results.append(try contents(store))
        }
        #expect(results[0] == results[1])
    }

    /// The points of a log are stored while it is read (a batch every 4,096 fixes once the file
    /// is known to be new): when the log turns out of order after 10,000 fixes, what was stored
    /// goes and the sorted log is stored whole, every kept point counted once.
    @Test func pointsStoredWhileReadingGoWhenTheLogTurnsOutOfOrder() async throws {
        let dir = try Samples.temporaryDirectory()
        let day = CivilDate(year: 2026, month: 6, day: 14)!
        let late = try log(dir, "late.nmea", day: day, start: 36_000_000, seconds: 10_000, seed: 5)
        let early = try log(dir, "early.nmea", day: day, start: 25_200_000, seconds: 1_200, seed: 6)
        var results: [[String]] = []
        for (name, parts) in [("in-order.nmea", [early, late]), ("early-last.nmea", [late, early])] {
            let path = dir + "/" + name
            try parts.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined().write(
                toFile: path, atomically: true, encoding: .utf8)
            let store = try newStore()
            var service = try await ImportService(store: store, device: "import", options: .init(configuration: .ride))
            let report = try service.importFile(path).report
            #expect((report.reordered ?? false) == (name == "early-last.nmea"))
            #expect(report.kept > 10_000 && report.stored == report.kept, "\(report)")
            #expect(
                try store.readNow { try $0.importedFile(sha256: ContentDigest.hexDigest(ofFile: path)) }?.points
                    == report.kept)
            results.append(try contents(store))
        }
        #expect(results[0] == results[1])
    }

    /// A long log whose gzip data ends early fails after thousands of its points were stored
    /// while it was read: they are rolled back with the rest, and the file is not noted.
    @Test func aLogThatFailsHalfWayStoresNothing() async throws {
        let dir = try Samples.temporaryDirectory()
        let path = try log(
            dir, "long.nmea", day: CivilDate(year: 2026, month: 6, day: 14)!, start: 25_200_000, seconds: 20_000,
            seed: 7)
        let packed = dir + "/long.nmea.gz"
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/sh")
        gzip.arguments = [
            "-c", "gzip -c '\(path)' > '\(packed)' && truncate -s $(( $(stat -c %s '\(packed)') * 4 / 5 )) '\(packed)'",
        ]
        try gzip.run()
        gzip.waitUntilExit()
        #expect(gzip.terminationStatus == 0)
        let store = try newStore()
        var service = try await ImportService(store: store, device: "import", options: .init(configuration: .ride))
        #expect(throws: (any Error).self) { try service.importFile(packed) }
        #expect(try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.isEmpty)
        #expect(try store.readNow { try $0.rides() }.isEmpty)
        #expect(try store.readNow { try $0.importedFile(sha256: ContentDigest.hexDigest(ofFile: packed)) } == nil)
        // The store is free for the next import.
        #expect(try service.importFile(path).report.stored ?? 0 > 15_000)
    }

    @Test func aKnownFileIsSkippedAndReimportReplacesIt() async throws {
        let dir = try Samples.temporaryDirectory()
        let a = try log(
            dir, "a.nmea", day: CivilDate(year: 2026, month: 6, day: 14)!, start: 25_200, seconds: 300, seed: 1)
        let store = try newStore()
        var sparse = PipelineConfiguration.ride
        sparse.interval = 10
        var first = try await ImportService(store: store, device: "bike", options: .init(configuration: sparse))
        let stored = try #require(try first.importFile(a).report.stored)
        #expect(stored > 20 && stored < 40)
        var again = try await ImportService(store: store, device: "bike", options: .init(configuration: .ride))
        let skipped = try again.importFile(a).report
        #expect(skipped.alreadyImported?.points == stored && skipped.stored == nil)
        var options = ImportService.Options(configuration: .ride)
        options.reimport = true
        var replace = try await ImportService(store: store, device: "bike", options: options)
        let replaced = try replace.importFile(a).report
        #expect(replaced.replaced == stored)
        #expect(
            try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.count == replaced.stored)
        #expect(try store.readNow { try $0.devices() }.map(\.name) == ["bike"])
        // The account's imports are read once, before the first file: what the run stores is
        // known to the files after it (a second copy is skipped, or replaces the first's).
        let copy = dir + "/copy of a.nmea"
        try FileManager.default.copyItem(atPath: a, toPath: copy)
        for reimport in [false, true] {
            let fresh = try newStore()
            var run = try await ImportService(
                store: fresh, device: "bike", options: reimport ? options : .init(configuration: .ride))
            let firstCopy = try run.importFile(a).report
            let secondCopy = try run.importFile(copy).report
            #expect(firstCopy.stored ?? 0 > 0 && firstCopy.start != nil && firstCopy.end != nil)
            if reimport {
                #expect(secondCopy.replaced == firstCopy.stored && secondCopy.stored == firstCopy.stored)
            } else {
                #expect(secondCopy.alreadyImported?.points == firstCopy.stored && secondCopy.stored == nil)
            }
            let noted = try fresh.readNow { try $0.importedFiles(account: nil) }.values.map(\.points)
            #expect(noted == [firstCopy.stored ?? -1])
        }
    }

    @Test func aDryRunStoresNothingAndNumbersRidesThroughTheRun() async throws {
        let dir = try Samples.temporaryDirectory()
        let a = try log(
            dir, "a.nmea", day: CivilDate(year: 2026, month: 6, day: 14)!, start: 25_200, seconds: 120, seed: 1)
        let b = try log(
            dir, "b.nmea", day: CivilDate(year: 2026, month: 6, day: 15)!, start: 25_200, seconds: 120, seed: 2)
        var options = ImportService.Options(configuration: .ride)
        options.keepFixes = true
        var service = try await ImportService(store: nil, device: "import", options: options)
        let first = try service.importFile(a)
        let second = try service.importFile(b)
        #expect(first.report.stored == nil)
        #expect(Set(first.keptFixes.map(\.ride)) == [1] && Set(second.keptFixes.map(\.ride)) == [2])
        #expect(service.rides == 2)
    }

    @Test func filesThatCannotBeImportedSayWhy() async throws {
        let dir = try Samples.temporaryDirectory()
        let text = dir + "/notes.txt"
        try "shopping list\nmilk\n".write(toFile: text, atomically: true, encoding: .utf8)
        var service = try await ImportService(
            store: try newStore(), device: "import", options: .init(configuration: .ride))
        #expect(throws: ImportError.nothingToImport(text, found: "no NMEA sentences in it")) {
            try service.importFile(text)
        }
        #expect(throws: InputError.self) { try service.importFile(dir + "/missing.nmea") }
        let broken = dir + "/broken.gpx"
        try "<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"1\" lon=\"2\">".write(
            toFile: broken, atomically: true, encoding: .utf8)
        do {
            _ = try service.importFile(broken)
            Issue.record("a truncated GPX file was imported")
        } catch let error as ImportError {
            #expect(error.kind == .badData)
            #expect(error.description.contains("line 1") && !error.description.contains("--"))
        }
    }
}
