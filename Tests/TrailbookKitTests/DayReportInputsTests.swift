import Foundation
import GPSCore
import Pipeline
import Testing
import TrailbookKit
import TrailbookTestSupport

@testable import TrackStore

/// The day report's input read from a store, without the command line.
@Suite struct DayReportInputsTests {
    @Test func aDayOfTwoDevicesAndItsRecords() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = try TrackStore(path: dir + "/s.sqlite")
        // The same ride from two devices: a file is known by its bytes, so the phone's copy
        // differs by a line end.
        let copy = dir + "/phone.nmea"
        try (String(contentsOfFile: Samples.path("ride.nmea"), encoding: .utf8) + "\r\n").write(
            toFile: copy, atomically: true, encoding: .utf8)
        for (device, file) in [("bike", Samples.path("ride.nmea")), ("phone", copy)] {
            var service = try await ImportService(store: store, device: device, options: .init(configuration: .ride))
            #expect(try service.importFile(file).report.stored == 1762)
        }
        let day = CivilDate(year: 2026, month: 6, day: 14)!
        let record = try store.writeNow {
            try $0.addRecord(
                milliseconds: 1_781_418_900_000, coordinate: Coordinate(latitude: 47.37, longitude: 8.54),
                altitude: nil,
                notes: ["Coffee"], fields: [], photos: [], account: nil)
        }
        try store.writeNow { try $0.setDaySummary(day, text: "Morning loop", account: nil) }
        let zone = TimeZone(identifier: "Europe/Zurich")!

        let both = try await DayReportInputs.load(day, store: store, zone: zone, imperial: false, embedPhotos: false)
        // One timeline (docs/TIMELINE.md): the ride the two devices recorded at once is one ride
        // of the day, not two.
        #expect(both.rides.count == 1)
        #expect(both.rides.allSatisfy { $0.points.count == 1762 && $0.statistics.distance > 10_000 })
        #expect(both.records.map(\.id) == [record] && both.records.first?.notes == ["Coffee"])
        #expect(both.summary == "Morning loop")

        let one = try await DayReportInputs.load(
            day, store: store, zone: zone, imperial: false, embedPhotos: false, devices: .named("phone"))
        #expect(one.rides.count == 1)
        let otherDay = try await DayReportInputs.load(
            day.adding(days: 1), store: store, zone: zone, imperial: false, embedPhotos: false)
        #expect(otherDay.rides.isEmpty)
    }

    @Test func localDaysFollowTheZone() {
        let day = CivilDate(year: 2026, month: 6, day: 14)!
        let zurich = LocalDay.range(day, in: TimeZone(identifier: "Europe/Zurich")!)
        #expect(zurich.from == 1_781_388_000_000)  // 2026-06-13T22:00:00Z
        #expect(zurich.to - zurich.from == 86_400_000)
    }
}
