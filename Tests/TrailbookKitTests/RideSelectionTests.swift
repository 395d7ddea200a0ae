import Foundation
import GPSCore
import Reports
import Testing
import TrackStore
import TrailbookKit
import TrailbookTestSupport

/// Rides chosen by id or by local days, their statistics, export and overlay pages.
@Suite struct RideSelectionTests {
    let zone = TimeZone(identifier: "Europe/Zurich")!
    let day = CivilDate(year: 2026, month: 6, day: 14)!

    func storeWithRide() throws -> TrackStore {
        let store = try TrackStore(path: try Samples.temporaryDirectory() + "/s.sqlite")
        var importer = try ImportService(store: store, device: "bike", options: .init(configuration: .ride))
        _ = try importer.importFile(Samples.path("ride.nmea"))
        return store
    }

    @Test func byRideOrByDaysWithStatisticsAndExport() throws {
        let store = try storeWithRide()
        let ride = try #require(try store.rides().first)
        let byID = try RideSelection.load(.ride(ride.id), store: store, zone: zone)
        #expect(byID.name == "ride \(ride.id)" && byID.rides.count == 1 && byID.rides[0].points.count == 1762)
        let byDay = try RideSelection.load(.day(day), store: store, zone: zone)
        #expect(byDay.name == "2026-06-14" && byDay.rides.map(\.ride.id) == [ride.id])
        let open = try RideSelection.load(.days(first: day, last: nil), store: store, zone: zone)
        #expect(open.name == "2026-06-14 to end")

        #expect(throws: QueryError.noRides("2026-06-15", zone: "Europe/Zurich")) {
            try RideSelection.load(.day(day.adding(days: 1)), store: store, zone: zone)
        }
        #expect(throws: QueryError.noRide(ride.id + 1, store: store.path)) {
            try RideSelection.load(.ride(ride.id + 1), store: store, zone: zone)
        }
        #expect(throws: QueryError.noRides("2026-06-14", zone: "Europe/Zurich")) {
            try RideSelection.load(.day(day), store: store, zone: zone, devices: .named("phone"))
        }

        let statistics = byDay.statistics()
        #expect(statistics.total == nil, "one ride has no total")
        #expect(statistics.rides[0].statistics.distance > 10_000)
        let document = SummaryJSON(statistics, zone: zone)
        #expect(document.rides.first?.device == "bike" && document.rides.first?.points == 1762)

        _ = try store.addRecord(
            milliseconds: ride.startMilliseconds + 1000, coordinate: Coordinate(latitude: 47, longitude: 8),
            altitude: nil, notes: ["Start"], account: nil)
        let export = try byDay.export(store: store, records: true)
        #expect(export.name == "Trailbook 2026-06-14")
        #expect(export.rides.first?.segments.map(\.count).reduce(0, +) == 1762)
        #expect(export.places.map(\.notes) == [["Start"]])
        #expect(try byID.export(store: store, records: false).places.isEmpty)
    }

    @Test func overlayPagesAreHandedOverDayByDay() throws {
        let store = try storeWithRide()
        var written: [String: String] = [:]
        let count = try OverlayPages.render(
            [day.adding(days: -1), day, day.adding(days: 1)], title: { "\($0) days" }, store: store, zone: zone,
            style: ReportStyle()
        ) { name, html in written[name] = html }
        #expect(count == 1)
        #expect(written.keys.sorted() == ["2026-06-14.html", "index.html"])
        #expect(written["index.html"]?.contains("1 days") == true)
        #expect(written["index.html"]?.contains("2026-06-14.html") == true)
        #expect(throws: QueryError.noRides("those days", zone: "Europe/Zurich")) {
            try OverlayPages.render(
                [day.adding(days: 3)], title: { _ in "" }, store: store, zone: zone, style: ReportStyle()
            ) { _, _ in Issue.record("nothing is written") }
        }
    }
}
