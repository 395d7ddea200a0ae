import Foundation
import GPSCore
import Reports
import Testing
import TrailbookKit
import TrailbookTestSupport

@testable import TrackStore

/// Rides chosen by id or by local days, their statistics, export and overlay pages.
@Suite struct RideSelectionTests {
    let zone = TimeZone(identifier: "Europe/Zurich")!
    let day = CivilDate(year: 2026, month: 6, day: 14)!

    func storeWithRide() async throws -> TrackStore {
        let store = try TrackStore(path: try Samples.temporaryDirectory() + "/s.sqlite")
        var importer = try await ImportService(store: store, device: "bike", options: .init(configuration: .ride))
        _ = try importer.importFile(Samples.path("ride.nmea"))
        return store
    }

    @Test func byRideOrByDaysWithStatisticsAndExport() async throws {
        let store = try await storeWithRide()
        let ride = try #require(try store.readNow { try $0.rides() }.first)
        let byID = try await RideSelection.load(.ride(ride.id), store: store, zone: zone)
        #expect(byID.name == "ride \(ride.id)" && byID.rides.count == 1 && byID.rides[0].points.count == 1762)
        let byDay = try await RideSelection.load(.day(day), store: store, zone: zone)
        #expect(byDay.name == "2026-06-14" && byDay.rides.map(\.ride.id) == [ride.id])
        let open = try await RideSelection.load(.days(first: day, last: nil), store: store, zone: zone)
        #expect(open.name == "2026-06-14 to end")

        await #expect(throws: QueryError.noRides("2026-06-15", zone: "Europe/Zurich")) {
            try await RideSelection.load(.day(day.adding(days: 1)), store: store, zone: zone)
        }
        await #expect(throws: QueryError.noRide(ride.id + 1, store: store.path)) {
            try await RideSelection.load(.ride(ride.id + 1), store: store, zone: zone)
        }
        await #expect(throws: QueryError.noRides("2026-06-14", zone: "Europe/Zurich")) {
            try await RideSelection.load(.day(day), store: store, zone: zone, devices: .named("phone"))
        }

        let statistics = byDay.statistics()
        #expect(statistics.total == nil, "one ride has no total")
        #expect(statistics.rides[0].statistics.distance > 10_000)
        let document = SummaryJSON(statistics, zone: zone)
        #expect(document.rides?.first?.device == "bike" && document.rides?.first?.points == 1762)
        // The day's one move: the kept timeline's distance, the ride's points; a ride by its id has none.
        let moves = try #require(byDay.moveStatistics())
        #expect(moves.moves.count == 1 && moves.total == nil && moves.moves[0].statistics.points == 1762)
        let (move, figures) = moves.moves[0]
        #expect(move.mode == .cycling && figures.distance == move.distance && figures.moving == move.movingSeconds)
        #expect(abs(figures.distance - statistics.rides[0].statistics.distance) < 0.01 * figures.distance)
        #expect(figures.quality.drops == statistics.rides[0].statistics.quality.drops, "the ride's drops go with it")
        #expect(byID.moveStatistics() == nil)
        #expect(SummaryJSON(moves: moves, zone: zone).moves?.first?.mode == "cycling")

        _ = try store.writeNow {
            try $0.addRecord(
                milliseconds: ride.startMilliseconds + 1000, coordinate: Coordinate(latitude: 47, longitude: 8),
                altitude: nil, notes: ["Start"], fields: [], photos: [], account: nil)
        }
        let export = try await byDay.export(store: store, records: true)
        #expect(export.name == "Trailbook 2026-06-14")
        #expect(export.rides.first?.segments.map(\.count).reduce(0, +) == 1762)
        #expect(export.places.map(\.notes) == [["Start"]])
        #expect(try await byID.export(store: store, records: false).places.isEmpty)
    }

    /// One ride recorded by two devices (the same receiver log imported as a bike computer's and
    /// a phone's) is one ride of the day, counted once; an export still has each device's.
    @Test func aRideRecordedByTwoDevicesCountsOnce() async throws {
        let store = try await storeWithRide()
        // The same fixes in another file (a line more): the store takes it as a file of its own.
        let copy = try Samples.temporaryDirectory() + "/phone.nmea"
        try (try Data(contentsOf: URL(fileURLWithPath: Samples.path("ride.nmea"))) + Data("\r\n".utf8))
            .write(to: URL(fileURLWithPath: copy))
        var phone = try await ImportService(store: store, device: "phone", options: .init(configuration: .ride))
        _ = try phone.importFile(copy)
        let alone = try await RideSelection.load(.day(day), store: store, zone: zone, devices: .named("bike"))
            .statistics()
        let both = try await RideSelection.load(.day(day), store: store, zone: zone)
        #expect(both.rides.count == 1, "rides: \(both.rides.map(\.ride.device))")
        let distance = both.statistics().rides.map(\.statistics.distance).reduce(0, +)
        #expect(abs(distance - alone.rides[0].statistics.distance) < 1, "\(distance) m")
        let stored = try await RideSelection.load(.day(day), store: store, zone: zone, fused: false)
        #expect(stored.rides.map(\.ride.device).sorted() == ["bike", "phone"])
        let input = try await DayReportInputs.load(day, store: store, zone: zone, imperial: false, embedPhotos: false)
        #expect(input.rides.count == 1 && input.rides[0].points.count == 1762)
    }

    @Test func overlayPagesAreHandedOverDayByDay() async throws {
        let store = try await storeWithRide()
        var written: [String: String] = [:]
        let count = try await OverlayPages.render(
            [day.adding(days: -1), day, day.adding(days: 1)], title: { "\($0) days" }, store: store, zone: zone,
            style: ReportStyle()
        ) { name, html in written[name] = html }
        #expect(count == 1)
        #expect(written.keys.sorted() == ["2026-06-14.html", "index.html"])
        #expect(written["index.html"]?.contains("1 days") == true)
        #expect(written["index.html"]?.contains("2026-06-14.html") == true)
        await #expect(throws: QueryError.noRides("those days", zone: "Europe/Zurich")) {
            try await OverlayPages.render(
                [day.adding(days: 3)], title: { _ in "" }, store: store, zone: zone, style: ReportStyle()
            ) { _, _ in Issue.record("nothing is written") }
        }
    }
}
