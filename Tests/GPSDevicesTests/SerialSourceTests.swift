import Foundation
import GPSCore
import GPSDevices
import Logging
import NMEA
import Testing
import TrailbookTestSupport

/// The serial path through real pseudo-terminals and real termios.
@Suite(.serialized) struct SerialSourceTests {
    let logger = Logger(label: "test")

    /// Decodes epochs the way a file would be decoded, keyed by time.
    func reference(_ epochs: ArraySlice<[UInt8]>) -> [Int64: Fix] {
        let decoder = NMEADecoder()
        var result: [Int64: Fix] = [:]
        let bytes = epochs.flatMap { $0 }
        bytes.withUnsafeBytes { decoder.feed($0) { result[$0.unixMilliseconds!] = $0 } }
        decoder.finish { result[$0.unixMilliseconds!] = $0 }
        return result
    }

    /// A port's opening is seen from the receiver's side (the tests wait for it instead of a
    /// fixed time): not before the port is opened, and once it is, what is sent is read, none of
    /// it dropped by the flush that comes with the port's settings.
    @Test func theOpeningOfThePortIsSeenAndNothingSentAfterItIsDropped() throws {
        let pty = try PseudoTerminal(linkPath: try Samples.temporaryDirectory() + "/ttyGPS")
        #expect(throws: SupportError.self) { try pty.awaitOpened(timeout: 0.3) }
        let port = try SerialPort(path: pty.linkPath, baud: 9600)
        try pty.awaitOpened(timeout: 5)
        let sentence = Array("$GPGGA,120000.00,,,,,0,00,99.99,,,,,,*6A\r\n".utf8)
        #expect(pty.send(sentence))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        let deadline = Date().addingTimeInterval(5)
        while received.count < sentence.count && Date() < deadline {
            let result = buffer.withUnsafeMutableBytes { port.read(into: $0, milliseconds: 100) }
            if case .data(let n) = result { received += buffer[0..<n] }
        }
        #expect(received == sentence)
        // A second opening of the same terminal is waited for again.
        pty.expectOpening()
        #expect(throws: SupportError.self) { try pty.awaitOpened(timeout: 0.3) }
        try port.configure(baud: 4800)
        try pty.awaitOpened(timeout: 5)
    }

    @Test func readsAtTenHertzAndSurvivesUnplugAndReplug() throws {
        let dir = try Samples.temporaryDirectory()
        let link = dir + "/ttyGPS"
        let epochs = try Samples.rideEpochs()
        let first = epochs[0..<40]
        let second = epochs[60..<130]
        let truth = reference(epochs[0..<130])

        let lock = NSLock()
        var events: [SourceEvent] = []
        // The receiver: 40 epochs at 10 Hz, pulled out for 2 s, plugged back in on the same path.
        let plugDone = DispatchSemaphore(value: 0)
        let plug = Thread {
            defer { plugDone.signal() }
            do {
                let pty = try PseudoTerminal(linkPath: link)
                try pty.awaitOpened(by: "the serial source")
                let feeder = Feeder(pty, epochs: Array(first), rate: 10)
                feeder.wait()
                pty.unplug()
                Thread.sleep(forTimeInterval: 2)
                let again = try PseudoTerminal(linkPath: link)
                try again.awaitOpened(by: "the serial source")
                Feeder(again, epochs: Array(second), rate: 10).wait()
                Thread.sleep(forTimeInterval: 0.5)
                again.unplug()
            } catch {
                Issue.record("pseudo-terminal: \(error)")
            }
        }
        // Wait for the link before the source starts: a missing device at start is an error.
        let pty0Ready = Date().addingTimeInterval(5)
        plug.start()
        while !FileManager.default.fileExists(atPath: link) && Date() < pty0Ready { usleep(20_000) }

        var source = SerialSource(path: link, baud: .auto, probeWindow: 0.5, logger: logger)
        let deadline = Date().addingTimeInterval(30)
        try source.run(shouldStop: {
            lock.withLock {
                let secondPhase = events.drop { if case .disconnected = $0 { false } else { true } }
                return secondPhase.filter { if case .fix = $0 { true } else { false } }.count >= 30
            } || Date() > deadline
        }) { event in lock.withLock { events.append(event) } }

        #expect(plugDone.wait(timeout: .now() + 30) == .success, "the receiver thread finished")
        let connects = events.filter { if case .connected = $0 { true } else { false } }.count
        #expect(connects == 2, "connected before and after the replug")
        let disconnectIndex = try #require(events.firstIndex { if case .disconnected = $0 { true } else { false } })
        let before = events[..<disconnectIndex].compactMap { if case .fix(let f) = $0 { f } else { nil } }
        let after = events[disconnectIndex...].compactMap { if case .fix(let f) = $0 { f } else { nil } }
        #expect(before.count >= 25, "fixes before the unplug: \(before.count)")
        #expect(after.count >= 30, "fixes after the replug: \(after.count)")
        let all = before + after
        #expect(zip(all, all.dropFirst()).allSatisfy { $0.unixMilliseconds! < $1.unixMilliseconds! })
        for fix in all {
            let expected = try #require(truth[fix.unixMilliseconds!], "a fix that is not in the sample")
            #expect(fix.coordinate == expected.coordinate && fix.altitudeMSL == expected.altitudeMSL)
            #expect(fix.speed == expected.speed && fix.date == expected.date)
        }
    }

    @Test func missingDeviceAtStartNamesWhatExists() {
        var source = SerialSource(path: "/dev/ttyUSB-trailbook-none", logger: logger)
        #expect {
            try source.run(shouldStop: { false }) { _ in }
        } throws: { error in
            guard case .missing(let path, _) = error as? DeviceError else { return false }
            return path == "/dev/ttyUSB-trailbook-none"
        }
    }

    @Test func deviceWithoutNMEAFailsAfterTheProbe() throws {
        let dir = try Samples.temporaryDirectory()
        let pty = try PseudoTerminal(linkPath: dir + "/ttyNoise")
        let noise = (0..<40).map { i in (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ i &* 11) | 0x80 } }
        let feeder = Feeder(pty, epochs: noise, rate: 20)
        defer { feeder.stop() }
        var source = SerialSource(path: pty.linkPath, baud: .auto, probeWindow: 0.2, logger: logger)
        #expect {
            try source.run(shouldStop: { false }) { _ in }
        } throws: { error in
            guard case .noNMEA(_, let bauds, _) = error as? DeviceError else { return false }
            return bauds.count == SerialPort.probeOrder.count
        }
    }

    @Test func fixedBaudWithoutNMEASaysToTryAuto() throws {
        let dir = try Samples.temporaryDirectory()
        let pty = try PseudoTerminal(linkPath: dir + "/ttyQuiet")
        var source = SerialSource(path: pty.linkPath, baud: .fixed(4800), probeWindow: 0.2, logger: logger)
        #expect {
            try source.run(shouldStop: { false }) { _ in }
        } throws: { error in
            "\(error)".contains("at 4800 baud") && "\(error)".contains("probe the rates")
        }
    }
}
