import Foundation
import Testing
import TrackStore
import TrailbookTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `trailbook record` through a real pseudo-terminal.
@Suite(.serialized) struct RecordCommandTests {
    /// Starts `trailbook record` on `device` into `store`.
    func startRecord(device: String, store: String) throws -> Process {
        let process = Process()
        process.executableURL = try trailbookBinary()
        process.arguments = ["record", "--device", device, "--store", store, "--log-level", "warning"]
        process.currentDirectoryURL = packageRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test func recordEndsWithWhatImportStores() throws {
        let dir = try Samples.temporaryDirectory()
        let epochs = Array(try Samples.rideEpochs()[0..<120])
        let log = dir + "/part.nmea"
        try Data(epochs.joined()).write(to: URL(fileURLWithPath: log))
        let imported = dir + "/imported.sqlite"
        #expect(try run(["import", "--store", imported, log]).status == 0)

        let recorded = dir + "/recorded.sqlite"
        let pty = try PseudoTerminal(linkPath: dir + "/ttyGPS")
        let record = try startRecord(device: pty.linkPath, store: recorded)
        Thread.sleep(forTimeInterval: 1)  // the recorder opens the port before the receiver speaks
        Feeder(pty, epochs: epochs, rate: 40).wait()
        Thread.sleep(forTimeInterval: 2.5)  // the last epoch is flushed after 1.5 s of quiet
        kill(record.processIdentifier, SIGTERM)
        record.waitUntilExit()
        #expect(record.terminationReason == .exit && record.terminationStatus == 0)

        let a = try TrackStore(path: imported)
        let b = try TrackStore(path: recorded)
        let importedPoints = try a.points(fromMilliseconds: .min, toMilliseconds: .max)
        let recordedPoints = try b.points(fromMilliseconds: .min, toMilliseconds: .max)
        #expect(importedPoints.count > 100)
        #expect(recordedPoints.map(\.unixMilliseconds) == importedPoints.map(\.unixMilliseconds))
        #expect(recordedPoints.map(\.coordinate) == importedPoints.map(\.coordinate))
        #expect(try b.rides().map(\.pointCount) == (try a.rides().map(\.pointCount)))
    }

    @Test func missingDeviceExits69WithOneSentence() throws {
        let store = try Samples.temporaryDirectory() + "/store.sqlite"
        let result = try run(["record", "--device", "/dev/ttyUSB-none", "--store", store, "--log-level", "error"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("trailbook: /dev/ttyUSB-none does not exist"))
        #expect(!result.stderr.contains("ServiceGroupError"))
    }

    @Test func killedRecorderLeavesASoundStoreAndTheNextOneAppends() throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/store.sqlite"
        let epochs = try Samples.rideEpochs()
        for round in 0..<3 {
            let pty = try PseudoTerminal(linkPath: dir + "/ttyGPS")
            let record = try startRecord(device: pty.linkPath, store: store)
            Thread.sleep(forTimeInterval: 1)
            let feeder = Feeder(pty, epochs: Array(epochs[(round * 300)..<(round * 300 + 300)]), rate: 50)
            // Killed mid-feed, at a different moment each round.
            Thread.sleep(forTimeInterval: 2 + Double(round) * 0.37)
            kill(record.processIdentifier, SIGKILL)
            record.waitUntilExit()
            feeder.stop()
            pty.unplug()

            let opened = try TrackStore(path: store)
            #expect(try opened.integrityCheck() == "ok")
            let points = try opened.points(fromMilliseconds: .min, toMilliseconds: .max)
            #expect(!points.isEmpty)
            // What was committed is a gap-free run of the fed epochs, round after round.
            let times = points.map { $0.unixMilliseconds! }
            #expect(times == times.sorted() && Set(times).count == times.count)
        }
        let rides = try TrackStore(path: store).rides()
        #expect(rides.count >= 1)
        #expect(rides.map(\.segmentCount).reduce(0, +) >= 3, "each recorder run starts its own segment")
    }
}
