import Foundation
import GPSCore
import GPSDevices
import Testing
import TrailbookTestSupport

@Suite struct ReplaySourceTests {
    @Test func asFastAsPossibleGivesEveryEpoch() throws {
        var source = ReplaySource(path: Samples.path("ride.nmea"))
        var fixes = 0
        try source.run(shouldStop: { false }) { if case .fix = $0 { fixes += 1 } }
        #expect(fixes == 1800)
        #expect(source.statistics.decoded > 10_000)
    }

    /// Pacing can only be checked from below without a timing threshold: a paced replay never
    /// delivers a fix before its time.
    @Test func realtimeNeverRunsAheadOfTheLog() throws {
        var source = ReplaySource(path: Samples.path("ride.nmea"), realtime: true, speed: 20)
        let start = Date()
        var times: [(Double, Int64)] = []
        try source.run(shouldStop: { times.count >= 21 }) { event in
            if case .fix(let f) = event { times.append((Date().timeIntervalSince(start), f.unixMilliseconds!)) }
        }
        let t0 = times[0].1
        for (elapsed, ms) in times {
            #expect(elapsed + 0.01 >= Double(ms - t0) / 1000 / 20)
        }
    }

    @Test func missingFileIsUnreadable() {
        var source = ReplaySource(path: "/nonexistent/ride.nmea")
        #expect {
            try source.run(shouldStop: { false }) { _ in }
        } throws: { error in
            (error as? DeviceError)?.kind == .noInput
        }
    }
}
