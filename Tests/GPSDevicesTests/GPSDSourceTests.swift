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

    @Test func gpsdNotAnsweringIsAnErrorAtStart() throws {
        var source = GPSDSource(host: "127.0.0.1", port: "1", logger: logger)
        #expect {
            try source.run(shouldStop: { false }) { _ in }
        } throws: { error in
            guard case .gpsdUnavailable = error as? DeviceError else { return false }
            return "\(error)".contains("--device")
        }
    }

    @Test func devicesProbeSeesGpsd() throws {
        let dir = try Samples.temporaryDirectory()
        let log = dir + "/short.nmea"
        try Data(try Samples.rideEpochs()[0..<30].flatMap { $0 }).write(to: URL(fileURLWithPath: log))
        let gpsd = try GPSFake(log: log, cycle: 0.01)
        let status = GPSDProbe.status(host: "127.0.0.1", port: String(gpsd.port), timeout: 5)
        #expect(status.answering)
        #expect(!status.devices.isEmpty, "gpsfake's pty is listed")
        #expect(GPSDProbe.status(host: "127.0.0.1", port: "1").answering == false)
    }
}
