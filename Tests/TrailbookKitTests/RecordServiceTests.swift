import Foundation
import GPSCore
import GPSDevices
import Logging
import Pipeline
import Testing
import TrailbookKit
import TrailbookTestSupport

@testable import TrackStore

/// The recorder as a service, run directly on a replayed log: no process, no terminal.
@Suite struct RecordServiceTests {
    func newStore() throws -> TrackStore { try TrackStore(path: try Samples.temporaryDirectory() + "/s.sqlite") }

    func record(_ log: String, into store: TrackStore, as name: String) async throws {
        let service = RecordService(
            source: ReplaySource(path: log), device: try store.writeNow { try $0.device(named: name) },
            sourceName: "replay",
            configuration: .ride, store: store, commitInterval: 1, logger: Logger(label: "test"))
        try await service.run()
    }

    /// A replayed log recorded ends in the points and rides its import stores, and the recorder
    /// leaves no status behind.
    @Test func aReplayRecordsWhatAnImportStores() async throws {
        let log = Samples.path("ride.nmea")
        let recorded = try newStore()
        try await record(log, into: recorded, as: "bike")
        let imported = try newStore()
        var service = try await ImportService(store: imported, device: "bike", options: .init(configuration: .ride))
        _ = try service.importFile(log)
        let a = try recorded.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }
        let b = try imported.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }
        #expect(a.count == 1762)
        #expect(a.map(\.unixMilliseconds) == b.map(\.unixMilliseconds))
        #expect(a.map(\.coordinate) == b.map(\.coordinate))
        #expect(
            try recorded.readNow { try $0.rides() }.map(\.pointCount)
                == imported.readNow { try $0.rides() }.map(\.pointCount))
        #expect(try recorded.readNow { try $0.recorderStatuses() }.isEmpty)
    }

    /// With the pause switch on, nothing is stored.
    @Test func aPausedRecorderStoresNothing() async throws {
        let store = try newStore()
        try store.writeNow { try $0.setPausedUntil(0) }
        try await record(Samples.path("ride.nmea"), into: store, as: "bike")
        #expect(try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.isEmpty)
        try store.writeNow { try $0.setPausedUntil(nil) }
        #expect(try store.readNow { try PauseSwitch.pause(in: $0, now: UTCTimestamp.now()) }.paused == false)
    }
}
