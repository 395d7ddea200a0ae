import Foundation
import GPSCore
import Reports
import Testing
import TrailbookTestSupport

@testable import TrackStore
@testable import TrailbookKit

/// What the web app keeps per ride for its heavy views: the overlay's lines and figures
/// (`OverlayShapes`) and the heat map's counts (`HeatCells`), the same as reading the points
/// each time, and worked out again (not kept twice) when the ride grows.
@Suite struct OverlayShapesTests {
    let zone = TimeZone(identifier: "Europe/Zurich")!
    let day = CivilDate(year: 2026, month: 6, day: 14)!

    /// A store with the sample ride's first `epochs` seconds, as the account `ana`'s.
    func store(_ dir: String, epochs: Int) async throws -> TrackStore {
        let store = try TrackStore(path: dir + "/s.sqlite")
        let log = dir + "/part-\(epochs).nmea"
        try Data(try Samples.rideEpochs().prefix(epochs).flatMap { $0 }).write(to: URL(fileURLWithPath: log))
        var importer = try await ImportService(store: store, device: "bike", options: .init(configuration: .ride))
        _ = try importer.importFile(log)
        return store
    }

    /// A day recorded by two devices at once (the same log as a bike computer's and a phone's)
    /// is as far as the bike's alone in the overlay, as on its day page: one timeline, not two.
    @Test func aDayOfTwoDevicesAtOnceCountsOnce() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = try await self.store(dir, epochs: 900)
        // The same fixes in another file (a line more): the store takes it as a file of its own.
        try (try Data(contentsOf: URL(fileURLWithPath: dir + "/part-900.nmea")) + Data("\r\n".utf8))
            .write(to: URL(fileURLWithPath: dir + "/phone.nmea"))
        var phone = try await ImportService(store: store, device: "phone", options: .init(configuration: .ride))
        _ = try phone.importFile(dir + "/phone.nmea")
        #expect(try store.readNow { try $0.devices() }.map(\.name).sorted() == ["bike", "phone"])
        let summed = try await OverlayShapes().days([day], store: store, zone: zone, devices: .named("phone")) {
            "\($0)"
        }
        let bike = try #require(
            try await OverlayShapes().days([day], store: store, zone: zone, devices: .named("bike")) { "\($0)" }.first)
        let both = try #require(
            try await OverlayShapes().days([day], store: store, zone: zone, devices: .all) { "\($0)" }.first)
        #expect(abs((summed.first?.distance ?? 0) - bike.distance) < 0.001, "the phone has the same ride")
        #expect(
            bike.distance > 1000 && abs(both.distance - bike.distance) < 0.001,
            "\(both.distance) m, bike \(bike.distance) m")
        #expect(abs(both.moving - bike.moving) < 0.001)
        // The fused figures read every point of the day: they are kept with what they came from,
        // in memory and in the cache file, and read again only when that changed.
        let path = dir + "/views.sqlite"
        let kept = OverlayShapes(cache: try ViewCache(path: path))
        func look(_ shapes: OverlayShapes) async throws -> OverlayReport.Day {
            try #require(try await shapes.days([day], store: store, zone: zone, devices: .all) { "\($0)" }.first)
        }
        #expect(try await look(kept).distance == both.distance && kept.daysWorkedOut == 1)
        #expect(try await look(kept).distance == both.distance && kept.daysWorkedOut == 1, "kept in memory")
        let started = OverlayShapes(cache: try ViewCache(path: path))
        #expect(try await look(started).distance == both.distance && started.daysWorkedOut == 0, "kept in the file")
        // A ride that grows the day after (within the detector's reach) is read again.
        var more = try await ImportService(store: store, device: "watch", options: .init(configuration: .ride))
        let points = (0..<60).map { i in
            #"<trkpt lat="47.38" lon="\#(8.54 + Double(i) * 0.0002)"><time>2026-06-15T08:00:\#(i < 10 ? "0" : "")\#(i)Z</time></trkpt>"#
        }
        try (#"<gpx version="1.1" creator="test"><trk><trkseg>"# + points.joined() + "</trkseg></trk></gpx>")
            .write(toFile: dir + "/watch.gpx", atomically: true, encoding: .utf8)
        _ = try more.importFile(dir + "/watch.gpx")
        #expect(try store.readNow { try $0.devices() }.count == 3)
        #expect(try await look(started).distance == both.distance && started.daysWorkedOut == 1, "the next day changed")
        let (pages, _) = try await OverlayPages.collect(
            [day], store: store, zone: zone, style: ReportStyle(), visits: nil, link: { "\($0)" })
        #expect(abs((pages.first?.distance ?? 0) - bike.distance) < 0.001)
        // The calendar shades the day by the time recorded, once.
        let calendar = try await DiaryCalendar.load(2026, store: store, zone: zone, devices: .all)
        let ride = try #require(try store.readNow { try $0.rides() }.first)
        #expect(calendar.days[day]?.seconds == Double(ride.endMilliseconds - ride.startMilliseconds) / 1000)
        #expect(DiaryCalendar.covered([(0, 10), (5, 20), (30, 40), (32, 35)]) == 30)
    }

    @Test func theOverlayKeptPerRideIsTheOverlayReadFromThePoints() async throws {
        let dir = try Samples.temporaryDirectory()
        var store = try await self.store(dir, epochs: 900)
        let shapes = OverlayShapes()
        func look() async throws -> OverlayReport.Day {
            let days = try await shapes.days([day], store: store, zone: zone, devices: .all) { "/day/\($0)" }
            #expect(days.count == 1)
            return try #require(days.first)
        }
        func read() async throws -> OverlayReport.Day {
            let (days, _) = try await OverlayPages.collect(
                [day], store: store, zone: zone, style: ReportStyle(), visits: nil, link: { "/day/\($0)" })
            return try #require(days.first)
        }
        let half = try await look()
        let exact = try await read()
        #expect(abs(half.distance - exact.distance) < 0.001 && half.moving == exact.moving, "\(half.distance)")
        #expect(half.lines.count == exact.lines.count && half.link == "/day/2026-06-14")
        // Simplified within 2 m: fewer points, the same ends.
        #expect(half.lines.joined().count < exact.lines.joined().count)
        #expect(half.lines.first?.first == exact.lines.first?.first && half.lines.last?.last == exact.lines.last?.last)
        #expect(shapes.keptParts == 1)
        #expect(try await look().distance == half.distance && shapes.keptParts == 1, "kept, not worked out again")

        // The whole ride: the same ride grows; it is worked out again, and kept once.
        store = try await self.store(dir, epochs: 1800)
        let whole = try await look()
        let wholeRead = try await read()
        #expect(whole.distance > half.distance && abs(whole.distance - wholeRead.distance) < 0.001)
        #expect(shapes.keptParts == 1, "the older part is not kept beside the new")

        // The heat map's counts add up to the points, a ride counted once.
        let heat = HeatCells()
        let cells = try await heat.cells(account: "me", store: store)
        let points = try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.count
        #expect(cells.values.reduce(0, +) == points && heat.countedRides == 1)
        #expect(try await heat.cells(account: "me", store: store) == cells)
        let coarse = HeatCells.coarser(cells, by: 10)
        #expect(coarse.map(\.count).reduce(0, +) == points && coarse.count < cells.count)
    }

    /// A server started again (a new `KeptViews` on the same cache file) finds the overlay and
    /// the heat map as they were, reading no point; a ride that changed is worked out again and
    /// kept in place of its older state; a removed ride's entries go.
    @Test func whatIsKeptOutlivesTheServer() async throws {
        let dir = try Samples.temporaryDirectory()
        var store = try await self.store(dir, epochs: 900)
        #expect(try store.writeNow { try $0.setPasswordHash("not a real hash", of: "me") })
        let path = ViewCache.path(store: dir + "/s.sqlite", environment: ["XDG_CACHE_HOME": dir + "/cache"])
        #expect(path.hasPrefix(dir + "/cache/trailbook/views/") && path.hasSuffix(".sqlite"))
        func look(_ views: KeptViews) async throws -> (OverlayReport.Day, [Int64: Int]) {
            let days = try await views.shapes.days(
                [day], store: store, zone: zone, devices: DeviceFilter(account: "me")
            ) {
                "/day/\($0)"
            }
            return (try #require(days.first), try await views.heat.cells(account: "me", store: store))
        }

        // The server's first start files every ride once.
        let first = KeptViews(cache: try ViewCache(path: path))
        let filled = try await first.fill(store: store, zone: zone)
        // No day's figures: the round kept the account's timeline, whose moves the overlay counts.
        #expect(filled.rides == 1 && filled.parts == 1 && filled.days == 0)
        #expect(try await first.fill(store: store, zone: zone) == (0, 0, 0), "nothing is worked out twice")
        let (day0, cells0) = try await look(KeptViews())  // from the points

        // Started again: the same lines to the last digit, the same counts, no point read.
        let again = KeptViews(cache: try ViewCache(path: path))
        let (day1, cells1) = try await look(again)
        #expect(again.shapes.workedOut == 0 && again.heat.countedFromPoints == 0 && again.shapes.daysWorkedOut == 0)
        #expect(day1.lines == day0.lines && day1.distance == day0.distance && day1.moving == day0.moving)
        #expect(cells1 == cells0)

        // The ride grows: worked out again, and the file keeps its new state only.
        store = try await self.store(dir, epochs: 1800)
        let third = KeptViews(cache: try ViewCache(path: path))
        let (day2, cells2) = try await look(third)
        #expect(third.shapes.workedOut == 1 && third.heat.countedFromPoints == 1 && third.shapes.daysWorkedOut == 1)
        #expect(day2.distance > day0.distance && cells2.values.reduce(0, +) > cells0.values.reduce(0, +))
        let ride = try #require(try store.readNow { try $0.rides() }.first)
        let states = try await #require(third.cache).partStates(of: [ride.id])
        #expect(states.count == 1 && states.values.first == ViewCache.RideState(ride))
        let fourth = KeptViews(cache: try ViewCache(path: path))
        #expect(try await look(fourth).0.lines == day2.lines && fourth.shapes.workedOut == 0)

        // The account's days cut at the midnights of a zone whose midnight falls within the ride:
        // two parts, and the part of the old cut goes.
        let middle = (ride.startMilliseconds + ride.endMilliseconds) / 2 / 1000 % 86_400
        let night = try #require(TimeZone(secondsFromGMT: -Int(middle / 60 * 60)))
        #expect(try await fourth.fill(store: store, zone: night) == (0, 2, 0))
        let cut = try await fourth.cache!.partStates(of: [ride.id])
        #expect(cut.count == 2 && cut[states.keys.first!] == nil, "\(cut) after \(states)")

        // Removed from the store: its entries go at the next start.
        #expect(try store.writeNow { try $0.remove(ride: ride.id, account: nil) } != nil)
        #expect(try await fourth.fill(store: store, zone: zone) == (0, 0, 0))
        #expect(try await fourth.cache!.partStates(of: [ride.id]).isEmpty)
        #expect(try await fourth.cache!.heat(of: [ride.id]).isEmpty)

        // A file of another version is emptied, not misread.
        let cache = try ViewCache(path: path)
        try await cache.keep(heat: [
            7: (ViewCache.RideState(points: 1, start: 0, end: 0), [HeatCells.key(.init(latitude: 47, longitude: 8)): 1])
        ])
        try await cache.pool.write { try $0.execute(sql: "PRAGMA user_version = 0") }
        #expect(try await ViewCache(path: path).heat(of: [7]).isEmpty)
    }

    /// The cache's numbers: every size of step, both signs, and a truncated blob refused.
    @Test func packedNumbersReadBackAsWritten() async throws {
        let values: [Int64] = [0, 1, -1, 63, -64, 64, 300, -300, 1 << 40, .max, .min]
        var writer = PackedWriter()
        for v in values { writer.int(v) }
        writer.double(-12.345)
        var reader = PackedReader(Data(writer.bytes))
        #expect(try values.map { _ in try reader.int() } == values)
        #expect(try reader.double() == -12.345)
        await #expect(throws: PackedReader.Truncated.self) { try reader.int() }
    }
}
