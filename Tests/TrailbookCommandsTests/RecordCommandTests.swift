import Foundation
import Testing
import TrailbookTestSupport

@testable import TrackStore

#if canImport(Glibc)
    import Glibc
#endif

/// `trailbook record` through a real pseudo-terminal.
@Suite(.serialized) struct RecordCommandTests {
    /// Starts `trailbook record` on `device` (or gpsd with `["--gpsd", ADDRESS]`) into `store`.
    func startRecord(device: String, store: String, source: [String]? = nil) throws -> Process {
        let process = Process()
        process.executableURL = try trailbookBinary()
        process.arguments =
            ["record"] + (source ?? ["--device", device]) + ["--store", store, "--log-level", "warning"]
        process.currentDirectoryURL = packageRoot
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Starts `trailbook record` on `device` into `store` at log level info, its log going to `log`.
    func startLoggedRecord(device: String, store: String, log: String) throws -> Process {
        FileManager.default.createFile(atPath: log, contents: nil)
        let record = Process()
        record.executableURL = try trailbookBinary()
        record.arguments = ["record", "--device", device, "--store", store, "--log-level", "info"]
        record.standardOutput = FileHandle.nullDevice
        record.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try record.run()
        return record
    }

    /// Waits (at most 20 s) until the store at `path` holds `count` points: a recorder stores its
    /// last epoch after 1.5 s of quiet. False when it does not.
    func awaitPoints(_ count: Int, in path: String) throws -> Bool {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: path),
                try TrackStore(path: path).readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.count
                    >= count
            {
                return true
            }
            usleep(100_000)
        }
        return false
    }

    /// A folder with the first 120 epochs of the sample ride written as a log and imported into
    /// `imported.sqlite` there: what a recorder fed the same epochs must end with.
    func importedReference() async throws -> (dir: String, epochs: [[UInt8]], imported: String) {
        let dir = try Samples.temporaryDirectory()
        let epochs = Array(try Samples.rideEpochs()[0..<120])
        let log = dir + "/part.nmea"
        try Data(epochs.joined()).write(to: URL(fileURLWithPath: log))
        let imported = dir + "/imported.sqlite"
        #expect(try await run(["import", "--store", imported, log]).status == 0)
        return (dir, epochs, imported)
    }

    @Test func recordEndsWithWhatImportStores() async throws {
        let (dir, epochs, imported) = try await importedReference()

        let recorded = dir + "/recorded.sqlite"
        let pty = try PseudoTerminal(linkPath: dir + "/ttyGPS")
        let record = try startRecord(device: pty.linkPath, store: recorded)
        try pty.awaitOpened()
        // Readers run all the while the recorder writes: never "database is locked".
        let readers = ReaderLoop(store: recorded)
        Feeder(pty, epochs: epochs, rate: 40).wait()
        let expected = try TrackStore(path: imported).readNow {
            try $0.points(fromMilliseconds: .min, toMilliseconds: .max)
        }.count
        #expect(try awaitPoints(expected, in: recorded), "the recorder stored every epoch within 20 s")
        let reads = readers.stop()
        kill(record.processIdentifier, SIGTERM)
        record.waitUntilExit()
        #expect(record.terminationReason == .exit && record.terminationStatus == 0)
        #expect(reads.runs >= 3, "reader runs: \(reads.runs)")
        #expect(reads.failures.isEmpty, "\(reads.failures)")

        let a = try TrackStore(path: imported)
        let b = try TrackStore(path: recorded)
        let importedPoints = try a.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }
        let recordedPoints = try b.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }
        #expect(importedPoints.count > 100)
        #expect(recordedPoints.map(\.unixMilliseconds) == importedPoints.map(\.unixMilliseconds))
        #expect(recordedPoints.map(\.coordinate) == importedPoints.map(\.coordinate))
        #expect(
            try b.readNow { try $0.rides() }.map(\.pointCount) == (try a.readNow { try $0.rides() }.map(\.pointCount)))
    }

    /// Two receivers recording into one store at the same moment: two `record` processes on two
    /// pseudo-terminals fed the same log together. Every point of both devices is kept (the key
    /// is device and time), each device has its own ride, and each device's points are those
    /// `import` stores for the log.
    @Test func twoRecordersAtTheSameMomentKeepEveryPoint() async throws {
        let (dir, epochs, imported) = try await importedReference()

        let store = dir + "/shared.sqlite"
        let ptys = [try PseudoTerminal(linkPath: dir + "/ttyGPS0"), try PseudoTerminal(linkPath: dir + "/ttyGPS1")]
        let logs = [dir + "/record0.log", dir + "/record1.log"]
        let recorders = try zip(ptys, logs).map { try startLoggedRecord(device: $0.linkPath, store: store, log: $1) }
        for pty in ptys { try pty.awaitOpened() }
        let feeders = ptys.map { Feeder($0, epochs: epochs, rate: 40) }
        // Not feeder.wait(): a recorder that died would leave its feeder blocked on a full terminal.
        while feeders.contains(where: { $0.sent < epochs.count }) && recorders.allSatisfy(\.isRunning) {
            try await Task.sleep(for: .seconds(0.2))
        }
        let expected = try TrackStore(path: imported).readNow {
            try $0.points(fromMilliseconds: .min, toMilliseconds: .max)
        }.count
        #expect(try awaitPoints(2 * expected, in: store), "both recorders stored every epoch within 20 s")
        for feeder in feeders { feeder.stop() }
        for pty in ptys { pty.unplug() }  // releases a feeder still blocked in a write
        for (record, log) in zip(recorders, logs) {
            kill(record.processIdentifier, SIGTERM)
            record.waitUntilExit()
            #expect(
                record.terminationReason == .exit && record.terminationStatus == 0,
                "\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        }

        let reference = try TrackStore(path: imported).readNow {
            try $0.points(fromMilliseconds: .min, toMilliseconds: .max)
        }
        let both = try TrackStore(path: store)
        #expect(try both.readNow { try $0.devices() }.map(\.name) == ["ttyGPS0", "ttyGPS1"])
        #expect(reference.count > 100)
        for name in ["ttyGPS0", "ttyGPS1"] {
            let points = try both.readNow {
                try $0.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .named(name))
            }
            let sameTimes = points.map(\.unixMilliseconds) == reference.map(\.unixMilliseconds)
            let samePlaces = points.map(\.coordinate) == reference.map(\.coordinate)
            #expect(sameTimes && samePlaces, "\(name): \(points.count) points, \(reference.count) imported")
        }
        #expect(
            try both.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.count == 2
                * reference.count)
        let rides = try both.readNow { try $0.rides() }
        #expect(rides.map(\.device).sorted() == ["ttyGPS0", "ttyGPS1"])
        #expect(rides.allSatisfy { $0.pointCount == reference.count })
        // The commands filter by device, and their JSON names it.
        let json = try await run(["rides", "--store", store, "--device-name", "ttyGPS1", "--json"])
        #expect(json.stdout.contains("\"device\" : \"ttyGPS1\"") && !json.stdout.contains("ttyGPS0"), "\(json.stdout)")
        let unknown = try await run(["rides", "--store", store, "--device-name", "nope"])
        #expect(unknown.status == 66)
        #expect(unknown.stderr.contains("There is no device nope"), "\(unknown.stderr)")
    }

    /// The same log through a real gpsd (gpsfake) ends in the same stored points and rides as
    /// its import.
    @Test func recordFromGpsdEndsWithWhatImportStores() async throws {
        let dir = try Samples.temporaryDirectory()
        let log = dir + "/part.nmea"
        // gpsfake starts feeding gpsd before the recorder has connected, so the log opens with
        // ten minutes of no-fix epochs (about 6 s of playback) that neither path stores.
        var warmUp = ""
        for second in 0..<600 {
            let time = String(format: "06%02d%02d.00", 20 + second / 60, second % 60)
            for body in ["GPRMC,\(time),V,,,,,,,140626,,,N", "GPGGA,\(time),,,,,0,00,99.99,,,,,,"] {
                let sum = body.utf8.reduce(UInt8(0), ^)
                warmUp += "$\(body)*\(String(format: "%02X", sum))\r\n"
            }
        }
        try (Data(warmUp.utf8) + Data(try Samples.rideEpochs()[0..<120].joined())).write(
            to: URL(fileURLWithPath: log))
        let imported = dir + "/imported.sqlite"
        #expect(try await run(["import", "--store", imported, log]).status == 0)
        let expected = try TrackStore(path: imported).readNow {
            try $0.points(fromMilliseconds: .min, toMilliseconds: .max)
        }

        let recorded = dir + "/recorded.sqlite"
        let gpsd = try GPSFake(log: log, cycle: 0.005)
        defer { gpsd.stop() }
        let record = try startRecord(device: "", store: recorded, source: ["--gpsd", "127.0.0.1:\(gpsd.port)"])
        // Wait until the recorder has committed what gpsd passed on (gpsfake plays the log once).
        let deadline = Date().addingTimeInterval(40)
        var count = 0
        while Date() < deadline {
            try await Task.sleep(for: .seconds(0.5))
            guard FileManager.default.fileExists(atPath: recorded) else { continue }
            let now = try TrackStore(path: recorded).readNow {
                try $0.points(fromMilliseconds: .min, toMilliseconds: .max)
            }.count
            if now == count && now >= expected.count - 3 { break }
            count = now
        }
        kill(record.processIdentifier, SIGTERM)
        record.waitUntilExit()
        #expect(record.terminationReason == .exit && record.terminationStatus == 0)

        let store = try TrackStore(path: recorded)
        let points = try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }
        let truth = Dictionary(uniqueKeysWithValues: expected.map { ($0.unixMilliseconds!, $0) })
        #expect(points.count >= expected.count - 3, "\(points.count) of \(expected.count) through gpsd")
        for p in points {
            let t = try #require(truth[p.unixMilliseconds!], "a time import did not store")
            #expect(p.coordinate == t.coordinate && p.altitudeMSL == t.altitudeMSL, "at \(p.unixMilliseconds!)")
        }
        #expect(try store.readNow { try $0.rides() }.count == 1)
        #expect(try store.integrityCheck() == "ok")
    }

    /// `pause` stops a running recorder from storing within two seconds and `resume` restarts it
    /// (in a new segment); both say so in its log, and `status` reports it.
    @Test func pauseAndResumeARunningRecorder() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/store.sqlite"
        let log = dir + "/record.log"
        let pty = try PseudoTerminal(linkPath: dir + "/ttyGPS")
        let record = try startLoggedRecord(device: pty.linkPath, store: store, log: log)
        defer {
            if record.isRunning { kill(record.processIdentifier, SIGKILL) }
        }
        try pty.awaitOpened()
        let feeder = Feeder(pty, epochs: try Samples.rideEpochs(), rate: 10)
        defer { feeder.stop() }
        func count() throws -> Int {
            try TrackStore(path: store).readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.count
        }
        #expect(try awaitPoints(1, in: store), "the recorder stores the ride")
        let status = try await run(["status", "--store", store, "--json"])
        let running = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(running["running"] as? Bool == true && running["paused"] as? Bool == false)
        #expect(running["source"] as? String == pty.linkPath)
        #expect((running["last_fix_age_s"] as? Double).map { $0 < 5 } == true)

        #expect(try await run(["pause", "--store", store]).status == 0)
        try await Task.sleep(for: .seconds(2.5))  // stops storing within two seconds
        let paused = try count()
        try await Task.sleep(for: .seconds(2))
        #expect(try count() == paused, "nothing stored while paused")
        #expect(try await run(["status", "--store", store]).stdout.contains(", paused."))
        #expect(try await run(["resume", "--store", store]).status == 0)
        #expect(try awaitPoints(paused + 1, in: store), "storing again after resume")
        kill(record.processIdentifier, SIGTERM)
        record.waitUntilExit()
        #expect(record.terminationStatus == 0)

        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(text.contains("collection paused"))
        #expect(text.contains("collection resumed; a new segment starts"))
        #expect(try await run(["status", "--store", store]).stdout.contains("No recorder is running."))
        let rides = try TrackStore(path: store).readNow { try $0.rides() }
        #expect(rides.map(\.segmentCount).reduce(0, +) >= 2, "the resume starts a new segment")
    }

    /// Another process holding the store's write lock for longer than SQLite's busy timeout (10 s
    /// here; a huge import, say) neither stops the recorder nor loses a point: the points wait in
    /// memory, the recorder goes on reading, and they are stored once the store is free.
    @Test func recorderOutlastsABusyStore() async throws {
        let dir = try Samples.temporaryDirectory()
        let epochs = Array(try Samples.rideEpochs()[0..<200])
        let part = dir + "/part.nmea"
        try Data(epochs.joined()).write(to: URL(fileURLWithPath: part))
        let imported = dir + "/imported.sqlite"
        #expect(try await run(["import", "--store", imported, part]).status == 0)

        let recorded = dir + "/recorded.sqlite"
        let log = dir + "/record.log"
        let pty = try PseudoTerminal(linkPath: dir + "/ttyGPS")
        let record = try startLoggedRecord(device: pty.linkPath, store: recorded, log: log)
        defer {
            if record.isRunning { kill(record.processIdentifier, SIGKILL) }
        }
        try pty.awaitOpened()
        let feeder = Feeder(pty, epochs: epochs, rate: 10)
        defer { feeder.stop() }
        #expect(try awaitPoints(1, in: recorded), "the recorder stores before the store is busy")
        // Hold the write lock for 12 s from another process.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        holder.arguments = [
            "-c",
            "import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
                + "c.execute('BEGIN IMMEDIATE'); time.sleep(12); c.execute('COMMIT')",
            recorded,
        ]
        try holder.run()
        holder.waitUntilExit()
        #expect(holder.terminationStatus == 0, "the lock was taken and released")
        // Not feeder.wait(): a recorder that died would leave the feeder blocked on a full terminal.
        while feeder.sent < epochs.count && record.isRunning { try await Task.sleep(for: .seconds(0.2)) }
        if record.isRunning {
            let expected = try TrackStore(path: imported).readNow {
                try $0.points(fromMilliseconds: .min, toMilliseconds: .max)
            }.count
            _ = try awaitPoints(expected, in: recorded)  // what is missing then is said below
            kill(record.processIdentifier, SIGTERM)
        }
        record.waitUntilExit()
        pty.unplug()  // releases a feeder still blocked in a write
        let text = try String(contentsOfFile: log, encoding: .utf8)
        #expect(record.terminationReason == .exit && record.terminationStatus == 0, "\(text)")
        #expect(text.contains("the store is busy"), "\(text)")
        #expect(text.contains("the store is free again"), "\(text)")

        let importedPoints = try TrackStore(path: imported).readNow {
            try $0.points(fromMilliseconds: .min, toMilliseconds: .max)
        }
        let recordedPoints = try TrackStore(path: recorded).readNow {
            try $0.points(fromMilliseconds: .min, toMilliseconds: .max)
        }
        #expect(importedPoints.count > 150)
        // The first epoch can come before the port is set up (opening it drops what came before its
        // settings, SerialPort; a CI run lost it once): from the first point stored on, none is lost.
        let first = recordedPoints.first?.unixMilliseconds
        #expect(importedPoints.prefix(2).contains { $0.unixMilliseconds == first }, "the recorder began at once")
        let since = importedPoints.drop { $0.unixMilliseconds != first }
        #expect(recordedPoints.map(\.unixMilliseconds) == since.map(\.unixMilliseconds), "no point lost")
    }

    @Test func missingDeviceExits69WithOneSentence() async throws {
        let store = try Samples.temporaryDirectory() + "/store.sqlite"
        let result = try await run(["record", "--device", "/dev/ttyUSB-none", "--store", store, "--log-level", "error"])
        #expect(result.status == 69)
        #expect(result.stderr.contains("trailbook: /dev/ttyUSB-none does not exist"))
        #expect(!result.stderr.contains("ServiceGroupError"))
    }

    /// SIGKILL at a different moment each round; `TRAILBOOK_KILL_ROUNDS=N make test` runs N
    /// rounds instead of 3 (on a longer simulated ride when the sample is too short).
    @Test func killedRecorderLeavesASoundStoreAndTheNextOneAppends() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/store.sqlite"
        let rounds = ProcessInfo.processInfo.environment["TRAILBOOK_KILL_ROUNDS"].flatMap(Int.init) ?? 3
        var epochs = try Samples.rideEpochs()
        if rounds * 300 > epochs.count {
            let ride = try await run(["simulate", "--duration", String(rounds * 300 + 60), "--seed", "5"])
            epochs = Samples.epochs(of: Array(ride.stdout.utf8))
        }
        var lostPerRound: [Int] = []
        var storedBefore = 0
        for round in 0..<rounds {
            let pty = try PseudoTerminal(linkPath: dir + "/ttyGPS")
            let record = try startRecord(device: pty.linkPath, store: store)
            try pty.awaitOpened()
            let feeder = Feeder(pty, epochs: Array(epochs[(round * 300)..<(round * 300 + 300)]), rate: 50)
            // Killed mid-feed, at a different moment each round.
            try await Task.sleep(for: .seconds(2 + Double(round % 7) * 0.37))
            // What a reader sees committed just before the kill must all be there after it.
            let committed = try TrackStore(path: store).readNow {
                try $0.points(fromMilliseconds: .min, toMilliseconds: .max)
            }
            .map { $0.unixMilliseconds! }
            kill(record.processIdentifier, SIGKILL)
            let sent = feeder.sent
            record.waitUntilExit()
            feeder.stop()
            pty.unplug()

            let opened = try TrackStore(path: store)
            // Epochs sent this round but not committed: the last commit interval and the epoch
            // in flight (a figure for the long run; timing bounds belong in benchmarks).
            let after = try opened.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.map {
                $0.unixMilliseconds!
            }
            #expect(Set(committed).isSubset(of: Set(after)), "no committed fix is lost")
            let stored = after.count
            lostPerRound.append(sent - (stored - storedBefore))
            storedBefore = stored
            #expect(try opened.integrityCheck() == "ok")
            let points = try opened.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }
            #expect(!points.isEmpty)
            // What was committed is a gap-free run of the fed epochs, round after round.
            let times = points.map { $0.unixMilliseconds! }
            #expect(times == times.sorted() && Set(times).count == times.count)
        }
        print("kill rounds: \(rounds); epochs sent but not stored per round (50 Hz feed): \(lostPerRound)")
        let rides = try TrackStore(path: store).readNow { try $0.rides() }
        #expect(rides.count >= 1)
        #expect(rides.map(\.segmentCount).reduce(0, +) >= rounds, "each recorder run starts its own segment")
    }
}

/// Runs `rides --json` and `points --format jsonl` against a store in a loop on a background
/// thread, collecting any run that failed.
final class ReaderLoop: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var runs = 0
    private var failures: [String] = []
    private let done = DispatchSemaphore(value: 0)

    init(store: String) {
        Thread { [self] in
            while !lock.withLock({ stopped }) {
                for arguments in [
                    ["rides", "--store", store, "--json"],
                    ["points", "--store", store, "--from", "2026-06-14", "--to", "2026-06-15", "--format", "jsonl"],
                ] {
                    do {
                        let result = try runBinary(arguments)
                        // Before the first commit the store may not exist yet: that is not a failure.
                        let ok = result.status == 0 || !FileManager.default.fileExists(atPath: store)
                        lock.withLock {
                            runs += 1
                            if !ok || result.stderr.contains("locked") {
                                failures.append("\(arguments[0]): \(result.status) \(result.stderr)")
                            }
                        }
                    } catch {
                        lock.withLock { failures.append("\(error)") }
                    }
                }
            }
            done.signal()
        }.start()
    }

    /// Stops the loop and returns how many reads ran and which failed.
    func stop() -> (runs: Int, failures: [String]) {
        lock.withLock { stopped = true }
        done.wait()
        return lock.withLock { (runs, failures) }
    }
}
