import Foundation
import GPSCore
import GPSDevices
import Logging
import NMEA
import Testing
import TrailbookTestSupport

/// The gpsd path against a real gpsd started by gpsfake.
@Suite(.serialized) struct GPSDSourceTests {
    let logger = Logger(label: "test")

    @Test func fixesEqualWhatDecodeGetsFromTheSameLog() throws {
        let dir = try Samples.temporaryDirectory()
        let log = dir + "/short.nmea"
        let epochs = try Samples.rideEpochs()[0..<120]
        try Data(epochs.flatMap { $0 }).write(to: URL(fileURLWithPath: log))
        var truth: [Int64: Fix] = [:]
        let decoder = NMEADecoder()
        Array(epochs.joined()).withUnsafeBytes { decoder.feed($0) { truth[$0.unixMilliseconds!] = $0 } }
        decoder.finish { truth[$0.unixMilliseconds!] = $0 }

        let gpsd = try GPSFake(log: log, cycle: 0.005)
        var source = GPSDSource(host: "127.0.0.1", port: String(gpsd.port), logger: logger)
        var fixes: [Fix] = []
        var connected = false
        let deadline = Date().addingTimeInterval(25)
        try source.run(shouldStop: { fixes.count >= 40 || Date() > deadline }) { event in
            switch event {
            case .fix(let f): if f.hasPosition { fixes.append(f) }
            case .connected: connected = true
            case .disconnected: break
            }
        }
        #expect(connected)
        #expect(fixes.count >= 40, "fixes through gpsd: \(fixes.count)")
        for fix in fixes {
            let expected = try #require(truth[fix.unixMilliseconds!], "gpsd reported a time the log does not have")
            #expect(abs(fix.coordinate!.latitude - expected.coordinate!.latitude) < 1e-9)
            #expect(abs(fix.coordinate!.longitude - expected.coordinate!.longitude) < 1e-9)
            #expect(abs(fix.altitudeMSL! - expected.altitudeMSL!) < 1e-3)
            #expect(abs(fix.speed! - expected.speed!) < 1e-3)
        }
    }

    @Test func survivesAGpsdRestart() throws {
        let dir = try Samples.temporaryDirectory()
        let log = dir + "/long.nmea"
        try Data(try Samples.rideEpochs()[0..<600].flatMap { $0 }).write(to: URL(fileURLWithPath: log))
        let first = try GPSFake(log: log, cycle: 0.01)
        let port = first.port
        let events = Locked<[SourceEvent]>([])
        let fixCount: @Sendable () -> Int = {
            events.withLock { $0.filter { if case .fix = $0 { true } else { false } }.count }
        }
        let done: @Sendable () -> Bool = { events.withLock { Self.fixesAfterReconnect($0) >= 5 } }
        let restarterDone = DispatchSemaphore(value: 0)
        let restarter = Thread {
            defer { restarterDone.signal() }
            // Let some fixes through, stop gpsd, and start a new one on the same port.
            while fixCount() < 5 { usleep(50_000) }
            first.stop()
            Thread.sleep(forTimeInterval: 1)
            do {
                let second = try GPSFake(log: log, cycle: 0.01, port: port)
                let until = Date().addingTimeInterval(20)
                while !done() && Date() < until { usleep(50_000) }
                second.stop()
            } catch {
                Issue.record("second gpsfake: \(error)")
            }
        }
        restarter.start()
        var source = GPSDSource(host: "127.0.0.1", port: String(port), logger: logger)
        let deadline = Date().addingTimeInterval(30)
        try source.run(shouldStop: { done() || Date() > deadline }) { event in
            events.withLock { $0.append(event) }
        }
        #expect(restarterDone.wait(timeout: .now() + 30) == .success, "the gpsd restarter finished")
        let all = events.withLock { $0 }
        let connects = all.filter { if case .connected = $0 { true } else { false } }.count
        let disconnects = all.filter { if case .disconnected = $0 { true } else { false } }.count
        // A gpsd that is going down may still accept a connection and drop it, so there can be
        // more than one round; each disconnect must be followed by a reconnect.
        #expect(
            disconnects >= 1 && connects == disconnects + 1, "events: \(connects) connects, \(disconnects) disconnects")
        #expect(Self.fixesAfterReconnect(all) >= 5)
    }

    /// Fixes that arrived after the last reconnection (a `connected` that follows a `disconnected`).
    static func fixesAfterReconnect(_ events: [SourceEvent]) -> Int {
        var sawDisconnect = false
        var fixes: Int?
        for e in events {
            switch e {
            case .disconnected: sawDisconnect = true
            case .connected: if sawDisconnect { fixes = 0 }
            case .fix: if let n = fixes { fixes = n + 1 }
            }
        }
        return fixes ?? 0
    }

    @Test func gpsdNotAnsweringIsAnErrorAtStart() throws {
        var source = GPSDSource(host: "127.0.0.1", port: "1", logger: logger)
        #expect {
            try source.run(shouldStop: { false }) { _ in }
        } throws: { error in
            guard case .gpsdUnavailable = error as? DeviceError else { return false }
            // The library's own words: what to do, without the command line's flags.
            return "\(error)".contains("read the receiver directly") && !"\(error)".contains("--")
        }
    }

    @Test func devicesProbeSeesGpsd() throws {
        let dir = try Samples.temporaryDirectory()
        // The whole ride (minutes of sentences at this cycle): gpsfake drops its device when the
        // log ends, and a probe on a loaded machine has come after a short one ended (CI).
        let log = dir + "/ride.nmea"
        try Data(try Samples.rideEpochs().flatMap { $0 }).write(to: URL(fileURLWithPath: log))
        let gpsd = try GPSFake(log: log, cycle: 0.01)
        let status = GPSDProbe.status(host: "127.0.0.1", port: String(gpsd.port), timeout: 5)
        #expect(status.answering)
        #expect(!status.devices.isEmpty, "gpsfake's pty is listed")
        #expect(GPSDProbe.status(host: "127.0.0.1", port: "1").answering == false)
    }
}
