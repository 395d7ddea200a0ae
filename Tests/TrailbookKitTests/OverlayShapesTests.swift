import Foundation
import GPSCore
import Reports
import Testing
import TrackStore
import TrailbookTestSupport

@testable import TrailbookKit

/// What the web app keeps per ride for its heavy views: the overlay's lines and figures
/// (`OverlayShapes`) and the heat map's counts (`HeatCells`), the same as reading the points
/// each time, and worked out again (not kept twice) when the ride grows.
@Suite struct OverlayShapesTests {
    let zone = TimeZone(identifier: "Europe/Zurich")!
    let day = CivilDate(year: 2026, month: 6, day: 14)!

    /// A store with the sample ride's first `epochs` seconds, as the account `ana`'s.
    func store(_ dir: String, epochs: Int) throws -> TrackStore {
        let store = try TrackStore(path: dir + "/s.sqlite")
        let log = dir + "/part-\(epochs).nmea"
        try Data(try Samples.rideEpochs().prefix(epochs).flatMap { $0 }).write(to: URL(fileURLWithPath: log))
        var importer = try ImportService(store: store, device: "bike", options: .init(configuration: .ride))
        _ = try importer.importFile(log)
        return store
    }

    @Test func theOverlayKeptPerRideIsTheOverlayReadFromThePoints() throws {
        let dir = try Samples.temporaryDirectory()
        var store = try self.store(dir, epochs: 900)
        let shapes = OverlayShapes()
        func look() throws -> OverlayReport.Day {
            let days = try shapes.days([day], store: store, zone: zone, devices: .all) { "/day/\($0)" }
            #expect(days.count == 1)
            return try #require(days.first)
        }
        func read() throws -> OverlayReport.Day {
            let (days, _) = try OverlayPages.collect(
                [day], store: store, zone: zone, style: ReportStyle(), visits: nil, link: { "/day/\($0)" })
            return try #require(days.first)
        }
        let half = try look()
        let exact = try read()
        #expect(abs(half.distance - exact.distance) < 0.001 && half.moving == exact.moving, "\(half.distance)")
        #expect(half.lines.count == exact.lines.count && half.link == "/day/2026-06-14")
        // Simplified within 2 m: fewer points, the same ends.
        #expect(half.lines.joined().count < exact.lines.joined().count)
        #expect(half.lines.first?.first == exact.lines.first?.first && half.lines.last?.last == exact.lines.last?.last)
        #expect(shapes.keptParts == 1)
        #expect(try look().distance == half.distance && shapes.keptParts == 1, "kept, not worked out again")

        // The whole ride: the same ride grows; it is worked out again, and kept once.
        store = try self.store(dir, epochs: 1800)
        let whole = try look()
        let wholeRead = try read()
        #expect(whole.distance > half.distance && abs(whole.distance - wholeRead.distance) < 0.001)
        #expect(shapes.keptParts == 1, "the older part is not kept beside the new")

        // The heat map's counts add up to the points, a ride counted once.
        let heat = HeatCells()
        let cells = try heat.cells(account: "me", store: store)
        let points = try store.points(fromMilliseconds: .min, toMilliseconds: .max).count
        #expect(cells.values.reduce(0, +) == points && heat.countedRides == 1)
        #expect(try heat.cells(account: "me", store: store) == cells)
        let coarse = HeatCells.coarser(cells, by: 10)
        #expect(coarse.map(\.count).reduce(0, +) == points && coarse.count < cells.count)
    }
}
