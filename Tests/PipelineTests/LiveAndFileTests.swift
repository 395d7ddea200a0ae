import Foundation
import GPSCore
import GPSDevices
import Logging
import Pipeline
import Testing
import TrailbookTestSupport

/// The same fixes fed live through a pseudo-terminal and from the file give the same decisions.
@Suite struct LiveAndFileTests {
    @Test func liveThroughAPtyEqualsReplayOfTheFile() throws {
        var settings = PipelineConfiguration.ride
        settings.interval = 3
        settings.maxHDOP = 0.9  // drops some, so the comparison covers drops too
        let configuration = settings
        let epochs = Array(try Samples.rideEpochs()[0..<200])
        let dir = try Samples.temporaryDirectory()
        let file = dir + "/ride.nmea"
        try Data(epochs.joined()).write(to: URL(fileURLWithPath: file))

        // From the file.
        var fromFile: [PipelineEvent] = []
        var filePipeline = Pipeline(configuration: configuration)
        var replay = ReplaySource(path: file)
        try replay.run(shouldStop: { false }) { event in
            if case .fix(let f) = event { filePipeline.process(f) { fromFile.append($0) } }
        }
        filePipeline.finish { fromFile.append($0) }
        #expect(fromFile.kept.count > 30 && !fromFile.reasons.isEmpty)

        // Live: the source opens the pty first, then the receiver starts sending at 100 Hz.
        let pty = try PseudoTerminal(linkPath: dir + "/ttyGPS")
        let live = Locked<[PipelineEvent]>([])
        let stop = Locked(false)
        let finished = DispatchSemaphore(value: 0)
        let reader = Thread {
            defer { finished.signal() }
            var pipeline = Pipeline(configuration: configuration)
            var source = SerialSource(path: pty.linkPath, baud: .auto, probeWindow: 2, logger: Logger(label: "test"))
            do {
                try source.run(shouldStop: { stop.withLock { $0 } }) { event in
                    if case .fix(let f) = event { pipeline.process(f) { e in live.withLock { $0.append(e) } } }
                }
            } catch {
                Issue.record("live source: \(error)")
            }
            pipeline.finish { e in live.withLock { $0.append(e) } }
        }
        reader.start()
        try pty.awaitOpened(by: "the serial source")
        Feeder(pty, epochs: epochs, rate: 100).wait()
        let deadline = Date().addingTimeInterval(15)
        while live.withLock({ $0.count }) < fromFile.count && Date() < deadline { usleep(50_000) }
        Thread.sleep(forTimeInterval: 2)  // the idle flush reports the last epoch
        stop.withLock { $0 = true }
        finished.wait()
        #expect(live.withLock { $0 } == fromFile)
    }
}
