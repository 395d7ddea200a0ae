import Foundation
import GPSCore
import TrackModel

/// The contract every store keeps, as checks on a fresh, empty store: the SQLite store's tests
/// run every case, and the PostgreSQL store's tests will run the same ones. A case throws
/// ``Violation`` saying what the store did instead.
public enum StoreContract {
    /// One clause of the contract.
    /// One clause of the contract, which holds for the store's operations each in a transaction
    /// of its own and for them all inside one unit of work.
    public struct Case: Sendable, CustomStringConvertible {
        public let description: String
        public let check: @Sendable (any StoreWriting) throws -> Void
    }

    /// A clause about units of work themselves.
    public struct UnitCase: Sendable, CustomStringConvertible {
        public let description: String
        public let check: @Sendable (any TrackStoring) async throws -> Void
    }

    /// A broken clause: what was expected and what the store did.
    public struct Violation: Error, CustomStringConvertible {
        public let description: String
    }

    /// 2026-06-14T06:30:00Z.
    static let t0: Int64 = 1_781_418_600_000

    public static let cases: [Case] = [
        Case(description: "the gazetteer is replaced whole and read by cell") { store in
            func entry(_ id: Int64, _ name: String, _ lat: Double, _ lon: Double) -> GazetteerEntry {
                GazetteerEntry(
                    id: id, name: name, latitude: lat, longitude: lon, country: "CH", admin1: "Zurich", population: 500,
                    zone: "Europe/Zurich")
            }
            let first = [
                entry(1, "Zürich", 47.37, 8.55), entry(2, "Kloten", 47.45, 8.58), entry(3, "Taveuni", -16.8, 179.97),
            ]
            try expect(!(try store.hasGazetteer()), "a new store has no gazetteer")
            let stored = try store.replaceGazetteer { sink in
                try sink(Array(first.prefix(2)))
                try sink(Array(first.suffix(1)))
            }
            try expect(stored == 3 && (try store.hasGazetteer()), "3 entries stored in two batches: \(stored)")
            let near = try store.gazetteer(cells: GazetteerEntry.cells(aroundLatitude: 47.4, longitude: 8.5, rings: 1))
            try expect(near == Array(first.prefix(2)), "the two near Zurich with every value: \(near)")
            let across = try store.gazetteer(
                cells: GazetteerEntry.cells(aroundLatitude: -16.8, longitude: -179.95, rings: 1))
            try expect(across.map(\.name) == ["Taveuni"], "found across the antimeridian: \(across)")
            try expect(
                (try store.replaceGazetteer { sink in try sink([entry(4, "Bern", 46.95, 7.45)]) }) == 1, "replaced")
            try expect((try store.gazetteer(cells: [first[0].cell])).isEmpty, "the old entries gone")
        },
        Case(description: "found places keep their ids and names; corrections are per account, one per moment") {
            store in
            let zurich = Coordinate(latitude: 47.37, longitude: 8.55)
            let kloten = Coordinate(latitude: 47.45, longitude: 8.58)
            let mine = try store.rememberPlaces([zurich, kloten], milliseconds: t0, account: nil)
            try expect(mine.map(\.center) == [zurich, kloten] && mine[0].id < mine[1].id, "two places: \(mine)")
            let read = try store.foundPlaces(account: nil)
            try expect(read == mine, "read back whole: \(read)")
            try expect(try store.nameFoundPlace(mine[1].id, name: "Airport", account: nil), "named")
            try expect(try store.foundPlaces(account: nil)[1].name == "Airport", "the name kept")
            try expect(try store.setFoundPlaceAddress(mine[0].id, address: "Bahnhofplatz 1", account: nil), "addressed")
            try expect(
                try store.foundPlaces(account: nil).map(\.address) == ["Bahnhofplatz 1", nil], "the address kept")
            try store.suggestFoundPlaces(home: mine[1].id, work: mine[0].id, account: nil)
            try store.suggestFoundPlaces(home: mine[0].id, work: nil, account: nil)
            let suggested = try store.foundPlaces(account: nil).map(\.suggestion)
            try expect(suggested == ["home", nil], "the latest suggestions only: \(suggested)")
            _ = try store.addAccount(name: "ana", passwordHash: "v1$a")
            try expect(try store.foundPlaces(account: "ana").isEmpty, "ana has none of mine")
            try expect(!(try store.nameFoundPlace(mine[0].id, name: "x", account: "ana")), "ana cannot name mine")
            try expect(try store.rememberPlaces([zurich], milliseconds: t0, account: "nobody").isEmpty, "no account")
            // Numbers are the account's own: ana's first place is her place 1, whatever mine are.
            try expect(mine.map(\.id) == [1, 2], "my places are numbered from 1: \(mine)")
            let hers = try store.rememberPlaces([kloten], milliseconds: t0, account: "ana")
            try expect(hers.map(\.id) == [1], "her first place is her place 1: \(hers)")
            try expect(try store.nameFoundPlace(1, name: "Hangar", account: "ana"), "she names her place 1")
            try expect(try store.foundPlaces(account: nil)[0].name == nil, "my place 1 keeps no name")
            let more = try store.rememberPlaces([zurich, kloten], milliseconds: t0, account: nil)
            try expect(more.map(\.id) == [3, 4], "numbered after my last: \(more)")
            let train = MovementCorrection(milliseconds: t0 + 60_000, kind: .mode, value: "train")
            let first = try store.addCorrection(train, account: nil)
            let again = try store.addCorrection(
                MovementCorrection(milliseconds: t0 + 60_000, kind: .mode, value: "car"), account: nil)
            try expect(
                first != nil && first == again,
                "one correction a kind and moment: \(String(describing: first)), \(String(describing: again))")
            let place = try store.addCorrection(
                MovementCorrection(milliseconds: t0, kind: .place, value: String(mine[0].id)), account: nil)
            let listed = try store.corrections(account: nil)
            try expect(
                listed.map(\.value) == [String(mine[0].id), "car"] && listed.map(\.id) == [place!, first!],
                "in time order with the later value: \(listed)")
            let now = UTCTimestamp.now()
            try expect(
                listed.allSatisfy { $0.madeMilliseconds > now - 600_000 && $0.madeMilliseconds <= now },
                "each with when it was made: \(listed)")
            try expect(try store.corrections(account: "ana").isEmpty, "ana has none of mine")
            try expect(!(try store.removeCorrection(first!, account: "ana")), "ana cannot remove mine")
            try expect(try store.removeCorrection(first!, account: nil), "removed")
            try expect(try store.corrections(account: nil).map(\.kind) == [.place], "one left")
        },
        Case(description: "the kept timeline is per account, read by overlap, replaced by its entries' start") {
            store in
            let home = Coordinate(latitude: 47.37, longitude: 8.54)
            let office = Coordinate(latitude: 47.39, longitude: 8.515)
            let h: Int64 = 3_600_000
            let entries = [
                KeptEntry(kind: .stay, start: t0 - 8 * h, end: t0, from: home, to: home, spread: 12.5, fixes: 300),
                KeptEntry(
                    kind: .move, start: t0, end: t0 + h / 4, from: home, to: office, fixes: 90, distance: 3400.5,
                    movingSeconds: 840, medianSpeed: 4.1, highSpeed: 6.2, mode: "cycling", modeFrom: "speeds"),
                KeptEntry(
                    kind: .stay, start: t0 + h / 4, end: t0 + 9 * h, from: office, to: office, spread: 8, fixes: 400,
                    ongoing: true),
            ]
            try expect(try store.keptTimelineState(account: nil) == nil, "none kept in a new store")
            let state = KeptTimelineState(version: 1, rules: "r", through: t0 + 9 * h, madeMilliseconds: t0 + 10 * h)
            try expect(try store.keepTimeline(entries, from: .min, to: .max, state: state, account: nil), "kept")
            try expect(try store.keptTimelineState(account: nil) == state, "its state read back")
            let all = try store.keptTimeline(fromMilliseconds: .min, toMilliseconds: .max, account: nil)
            func unnumbered(_ e: KeptEntry) -> KeptEntry {
                var e = e
                e.id = 0
                return e
            }
            try expect(
                all.map(unnumbered) == entries && Set(all.map(\.id)).count == 3,
                "read back whole, each with an id of its own: \(all)")
            // By overlap: the night ends at t0, the ride starts there.
            let ride = try store.keptTimeline(fromMilliseconds: t0 + 1, toMilliseconds: t0 + h / 4, account: nil)
            try expect(ride.map(\.kind) == [.move], "the entry under way: \(ride)")
            let edge = try store.keptTimeline(fromMilliseconds: t0, toMilliseconds: t0 + 1, account: nil)
            try expect(edge.count == 2, "one ending at the start and one starting there: \(edge)")
            // Replaced from the ride on: the night keeps its id, the rest are new rows.
            var redone = Array(entries.suffix(2))
            redone[0].mode = "car"
            let later = KeptTimelineState(version: 1, rules: "r", through: t0 + 9 * h, madeMilliseconds: t0 + 11 * h)
            try expect(try store.keepTimeline(redone, from: t0, to: .max, state: later, account: nil), "replaced")
            let after = try store.keptTimeline(fromMilliseconds: .min, toMilliseconds: .max, account: nil)
            try expect(
                after.map(\.mode) == [nil, "car", nil] && after[0].id == all[0].id
                    && Set(after.map(\.id)).isDisjoint(with: all.suffix(2).map(\.id)),
                "the night kept, the rest replaced with new ids: \(after)")
            _ = try store.addAccount(name: "ben", passwordHash: "v1$b")
            try expect(
                try store.keptTimeline(fromMilliseconds: .min, toMilliseconds: .max, account: "ben").isEmpty
                    && (try store.keptTimelineState(account: "ben")) == nil, "ben has none of mine")
            try expect(
                !(try store.keepTimeline(entries, from: .min, to: .max, state: state, account: "nobody")), "no account")
        },
        Case(description: "a device name gives one device, made on first use") { store in
            let bike = try store.device(named: "bike")
            try expect(try store.device(named: "bike") == bike, "the same name gave another device")
            let phone = try store.device(named: "phone")
            try expect(phone != bike, "two names gave one device")
            try expect(try store.devices().map(\.name) == ["bike", "phone"], "devices() lists them in order")
        },
        Case(description: "a point keeps its values to the stored resolution") { store in
            let writer = store.makeWriter(device: try store.device(named: "bike"))
            var fix = makeFix(t0 + 123, latitude: 47.123_456_78, longitude: -8.765_432_12)
            fix.altitudeMSL = 412.345
            fix.speed = 5.678
            fix.track = 359.994
            fix.hdop = 0.87
            fix.satellitesUsed = 11
            try writer.write([KeptPoint(fix: fix, ride: 1, segment: 1)], drops: [:])
            var bare = makeFix(t0 + 1000, latitude: -33.9, longitude: 151.2)
            bare.mode = .twoD
            try writer.write([KeptPoint(fix: bare, ride: 1, segment: 1)], drops: [:])
            // A phone's point: no HDOP, its accuracy (21.4 m) kept in whole metres.
            var phone = makeFix(t0 + 2000)
            (phone.latitudeError, phone.longitudeError) = (21.4 / 2.squareRoot(), 21.4 / 2.squareRoot())
            try writer.write([KeptPoint(fix: phone, ride: 1, segment: 1)], drops: [:])
            let back = try store.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
            try expect(back.count == 3, "3 points stored, \(back.count) read")
            try expect(
                back[2].horizontalError == 21 && back[2].hdop == nil, "accuracy: \(back[2].horizontalError ?? -1)")
            try expect(back[0].sensors == nil, "a point with an HDOP keeps no accuracy beside it")
            let p = back[0]
            try expect(p.unixMilliseconds == t0 + 123, "time to the millisecond")
            try expect(
                abs(p.coordinate!.latitude - 47.123_456_8) < 1e-9 && abs(p.coordinate!.longitude + 8.765_432_1) < 1e-9,
                "position to 1e-7 degrees: \(p.coordinate!)")
            try expect(p.altitudeMSL == 412.35 && p.speed == 5.68 && p.track == 359.99, "hundredths")
            try expect(p.hdop == 0.87 && p.satellitesUsed == 11 && p.mode == .threeD, "HDOP, satellites, mode")
            let q = back[1]
            try expect(q.altitudeMSL == nil && q.speed == nil && q.hdop == nil && q.mode == .twoD, "unknowns stay nil")
        },
        Case(description: "two devices at the same millisecond both keep their points") { store in
            let fixes = (0..<30).map { makeFix(t0 + Int64($0) * 1000, latitude: 47 + Double($0) * 1e-4, longitude: 8) }
            for name in ["bike", "phone"] {
                let writer = store.makeWriter(device: try store.device(named: name))
                try writer.write(fixes.map { KeptPoint(fix: $0, ride: 1, segment: 1) }, drops: [:])
                try expect(writer.stored == 30, "\(name) stored \(writer.stored) of 30")
            }
            try expect(try store.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .all).count == 60, "60")
            let phone = try store.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .named("phone"))
            try expect(phone.count == 30, "the phone's 30")
            var each: [Int64?] = []
            try store.forEachPoint(fromMilliseconds: t0 + 5000, toMilliseconds: t0 + 10_000, devices: .named("phone")) {
                each.append($0.unixMilliseconds)
            }
            try expect(
                each == (5..<10).map { t0 + Int64($0) * 1000 }, "the phone's points in [5 s, 10 s), one by one: \(each)"
            )
            let rides = try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
            try expect(rides.map(\.device).sorted() == ["bike", "phone"], "a ride per device")
            let placed = try store.pointsWithSegments(fromMilliseconds: t0, toMilliseconds: t0 + 1, devices: .all)
            try expect(Set(placed.map(\.device)) == ["bike", "phone"], "each point carries its device")
            try expect(
                try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .named("nobody")).isEmpty,
                "an unknown device has no rides")
        },
        Case(description: "an account's points are counted per grid cell, every device of it, no other's") { store in
            for name in ["ana", "ben"] { _ = try store.addAccount(name: name, passwordHash: "v1$x") }
            // Ana: 3 points in one cell, 2 in the next one east (both devices), 1 south of the equator and
            // west of Greenwich; Ben: 4 points, none counted for Ana.
            let places: [(String, String, Double, Double)] = [
                ("ana", "phone", 47.01, 8.01), ("ana", "phone", 47.02, 8.02), ("ana", "bike", 47.03, 8.03),
                ("ana", "bike", 47.01, 8.11), ("ana", "phone", 47.02, 8.12), ("ana", "phone", -0.05, -0.05),
                ("ben", "phone", 47.01, 8.01), ("ben", "phone", 47.02, 8.02), ("ben", "phone", 10, 10),
                ("ben", "phone", 11, 11),
            ]
            for (i, (user, device, latitude, longitude)) in places.enumerated() {
                let writer = store.makeWriter(device: try store.device(named: device, account: user)!)
                let fix = makeFix(t0 + Int64(i) * 1000, latitude: latitude, longitude: longitude)
                try writer.write([KeptPoint(fix: fix, ride: 1, segment: 1)], drops: [:])
            }
            let cells = try store.pointCells(account: "ana", cellDegrees: 0.1)
            try expect(
                cells == [
                    PointCell(row: 899, column: 1799, count: 1), PointCell(row: 1370, column: 1880, count: 3),
                    PointCell(row: 1370, column: 1881, count: 2),
                ], "Ana's cells: \(cells)")
            try expect(try store.pointCells(account: "nobody", cellDegrees: 0.1).isEmpty, "no account, no cells")
            // Of a time: the second to the fourth point (the phone's second, the bike's two).
            let some = try store.pointCells(
                account: "ana", cellDegrees: 0.1, fromMilliseconds: t0 + 1000, toMilliseconds: t0 + 4000)
            try expect(
                some == [PointCell(row: 1370, column: 1880, count: 2), PointCell(row: 1370, column: 1881, count: 1)],
                "Ana's cells of a time: \(some)")
        },
        Case(description: "a writer skips milliseconds it has and continues rides across batches") { store in
            let writer = store.makeWriter(device: try store.device(named: "bike"))
            let first = (0..<10).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 1, segment: 1) }
            try expect(try writer.write(first, drops: [1: ["accuracy": 2]]) == 10, "10 new points")
            let second = (5..<20).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 1, segment: 1) }
            try expect(try writer.write(second, drops: [1: ["accuracy": 1]]) == 10, "5 known, 10 new")
            let third = (100..<105).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 2, segment: 2) }
            try writer.write(third, drops: [:])
            let rides = try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
            try expect(rides.map(\.pointCount) == [20, 5], "rides of 20 and 5 points: \(rides.map(\.pointCount))")
            try expect(rides[0].drops == ["accuracy": 3], "drops add up: \(rides[0].drops)")
            try expect(
                rides[0].startMilliseconds == t0 && rides[0].endMilliseconds == t0 + 19_000, "the ride's range")
            let range = try store.rideRange(rides[1].id)
            try expect(range?.start == t0 + 100_000 && range?.end == t0 + 104_000, "rideRange")
            try expect(try store.rideRange(rides[1].id + 1000) == nil, "no such ride")
            try expect(try store.latestPoint(devices: .all)?.unixMilliseconds == t0 + 104_000, "the latest point")
            try expect(
                try store.nearestPoint(to: t0 + 50_000, within: 10_000, devices: .all) == nil, "nothing within 10 s")
            try expect(
                try store.nearestPoint(to: t0 + 25_000, within: 10_000, devices: .all)?.unixMilliseconds == t0 + 19_000,
                "the nearest point within 10 s")
        },
        Case(description: "an import merges with overlapping rides and is remembered by its bytes") { store in
            let writer = store.makeWriter(device: try store.device(named: "import"))
            func stream(_ range: Range<Int>) -> ImportStream {
                ImportStream(
                    points: range.map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 1, segment: 1) },
                    drops: [:])
            }
            let file = ImportedFile(sha256: String(repeating: "a", count: 64), name: "b.gpx", bytes: 10)
            let place = ImportedPlace(
                milliseconds: t0, coordinate: Coordinate(latitude: 47, longitude: 8), altitude: nil, notes: ["Hut"],
                fields: [Field(key: "kind", value: .text("hut"))])
            // The later part first: order must not matter.
            var outcome = try writer.writeImport([stream(20..<40)], places: [], file: nil, replacing: nil)
            try expect(outcome.points == 20, "20 points")
            outcome = try writer.writeImport([stream(0..<25)], places: [place], file: file, replacing: nil)
            try expect(outcome.points == 20 && outcome.places == 1, "20 new points and a place: \(outcome)")
            let rides = try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
            try expect(rides.count == 1 && rides[0].pointCount == 40, "one ride of 40: \(rides.map(\.pointCount))")
            let known = try store.importedFile(sha256: file.sha256)
            try expect(known?.name == "b.gpx" && known?.points == 20, "the file is remembered with its points")
            let again = try writer.writeImport([stream(0..<25)], places: [], file: file, replacing: known)
            try expect(again.replacedPoints == 20 && again.points == 20, "a reimport replaces: \(again)")
            try expect(
                try store.records(fromMilliseconds: .min, toMilliseconds: .max, plainPoints: false, account: nil).first?
                    .notes.map(
                        \.text) == ["Hut"], "the place is a record with its note")
        },
        Case(description: "an account export's areas become places, its places visited named found places, once") {
            store in
            let writer = store.makeWriter(device: try store.device(named: "import"))
            let stream = ImportStream(points: [KeptPoint(fix: makeFix(t0), ride: 1, segment: 1)], drops: [:])
            let home = Coordinate(latitude: 47.3769, longitude: 8.5417)
            let cafe = Coordinate(latitude: 47.372, longitude: 8.544)
            let known = try store.rememberPlaces([cafe], milliseconds: t0, account: nil)
            let told = ImportedPlaces(
                areas: [Place(name: "Home", center: home, radius: 75, source: "dawarich")],
                visited: [
                    .init(name: "Office", center: Coordinate(latitude: 47.39, longitude: 8.51)),
                    .init(name: "Café", center: Coordinate(latitude: 47.3721, longitude: 8.5441)),
                    .init(name: "Office again", center: Coordinate(latitude: 47.3901, longitude: 8.5101)),
                ], radius: 150)
            let outcome = try writer.writeImport([stream], places: [], accountPlaces: told, file: nil, replacing: nil)
            try expect(outcome.areas == 1 && outcome.visitedPlaces == 1, "one place, one found place: \(outcome)")
            let places = try store.places(account: nil)
            try expect(
                places.map(\.name) == ["Home"] && places[0].radius == 75 && places[0].source == "dawarich",
                "the area is a place: \(places)")
            let found = try store.foundPlaces(account: nil)
            try expect(
                found.map(\.name) == [nil, "Office"] && found.map(\.id) == [known[0].id, known[0].id + 1],
                "the office is remembered after the café, named; the café near one known is not: \(found)")
            let again = try writer.writeImport([stream], places: [], accountPlaces: told, file: nil, replacing: nil)
            try expect(again.areas == 0 && again.visitedPlaces == 0, "nothing twice: \(again)")
        },
        Case(description: "a new writer's points inside a stored ride continue it; an import bridging rides joins them")
        { store in
            let bike = try store.device(named: "bike")
            func points(_ range: Range<Int>, ride: Int, segment: Int) -> [KeptPoint] {
                range.map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: ride, segment: segment) }
            }
            // Every other second from 0 to 18 s, then 50 to 59 s: two rides.
            let evens = points(0..<19, ride: 1, segment: 1).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            try store.makeWriter(device: bike).write(evens, drops: [1: ["hdop": 1]])
            try store.makeWriter(device: bike).write(points(50..<60, ride: 1, segment: 1), drops: [1: ["jump": 2]])
            // Another run (numbers from 1 again) whose first new point (1 s) falls inside the first ride.
            try store.makeWriter(device: bike).write(points(0..<15, ride: 1, segment: 1), drops: [:])
            var rides = try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
            try expect(
                rides.map(\.pointCount) == [17, 10], "the second run continued ride 1: \(rides.map(\.pointCount))")
            // An import whose ride overlaps both stored rides makes them one, the earliest keeping its id.
            let first = rides[0].id
            let outcome = try store.makeWriter(device: bike).writeImport(
                [ImportStream(points: points(12..<55, ride: 1, segment: 1), drops: [1: ["accuracy": 4]])], places: [],
                file: nil, replacing: nil)
            try expect(outcome.points == 33, "the new points only: \(outcome.points)")
            rides = try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
            try expect(rides.count == 1 && rides[0].id == first, "one ride, the earliest's id: \(rides.map(\.id))")
            try expect(rides[0].pointCount == 60, "all 60 points: \(rides[0].pointCount)")
            try expect(rides[0].drops == ["hdop": 1, "jump": 2, "accuracy": 4], "the drops joined: \(rides[0].drops)")
            let segments = try store.pointsWithSegments(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
            try expect(Set(segments.map(\.segment)).count == 1, "one segment")
        },
        Case(description: "an import begun while its file is read stores it at finish; a cancelled one stores nothing")
        { store in
            let writer = store.makeWriter(device: try store.device(named: "import"))
            let points = (0..<30).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 1, segment: 1) }
            let file = ImportedFile(sha256: String(repeating: "c", count: 64), name: "c.nmea", bytes: 99)
            let cancelled = try writer.beginImport(file: file, replacing: nil)
            try cancelled.add(Array(points[0..<10]), stream: 0, device: nil)
            cancelled.cancel()
            try expect(
                try store.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .all).isEmpty,
                "nothing stored after a cancel")
            try expect(try store.importedFile(sha256: file.sha256) == nil, "the file is not noted")
            let streaming = try writer.beginImport(file: file, replacing: nil)
            try streaming.add(Array(points[0..<10]), stream: 0, device: nil)
            try streaming.add(Array(points[10..<30]), stream: 0, device: nil)
            let outcome = try streaming.finish(
                [ImportStream(points: [], extents: RideExtent.extents(of: points), drops: [1: ["speed": 3]])],
                places: [])
            try expect(outcome.points == 30, "30 points: \(outcome)")
            let rides = try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
            try expect(rides.map(\.pointCount) == [30] && rides[0].drops == ["speed": 3], "one ride of 30, its drops")
            try expect(try store.importedFile(sha256: file.sha256)?.points == 30, "the file is noted with 30 points")
            // The same points again under another file store nothing, and that file is forgotten.
            let other = ImportedFile(sha256: String(repeating: "d", count: 64), name: "d.nmea", bytes: 99)
            let again = try writer.beginImport(file: other, replacing: nil)
            try again.add(points, stream: 0, device: nil)
            let none = try again.finish(
                [ImportStream(points: [], extents: RideExtent.extents(of: points), drops: [1: ["speed": 3]])],
                places: [])
            try expect(none.points == 0, "nothing new")
            try expect(try store.importedFile(sha256: other.sha256) == nil, "a file that stored nothing is forgotten")
            let after = try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
            try expect(after.map(\.drops) == [["speed": 3]], "drops count once: \(after.map(\.drops))")
        },
        Case(description: "an import's rides closed while its file is read are stored as those given at its finish") {
            store in
            let writer = store.makeWriter(device: try store.device(named: "import"))
            let first = (0..<10).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 1, segment: 1) }
            let second = (0..<10).map {
                KeptPoint(fix: makeFix(t0 + 3_600_000 + Int64($0) * 1000), ride: 2, segment: 2)
            }
            let stop = TrailEvent(milliseconds: t0 + 9000, type: .motionStopped)
            let importing = try writer.beginImport(file: nil, replacing: nil)
            try importing.add(first, stream: 0, device: nil)
            try importing.close(
                RideExtent.extents(of: first), drops: [1: ["speed": 2]], events: [stop], stream: 0, device: nil)
            try importing.add(second, stream: 0, device: nil)
            let outcome = try importing.finish(
                [ImportStream(points: [], extents: RideExtent.extents(of: second), drops: [2: ["hdop": 1]])],
                places: [])
            try expect(outcome.points == 20, "20 points: \(outcome)")
            let rides = try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
            try expect(
                rides.map(\.pointCount) == [10, 10] && rides.map(\.drops) == [["speed": 2], ["hdop": 1]],
                "the closed ride and the one given at the finish, each with its drops: \(rides)")
            let events = try store.events(fromMilliseconds: .min, toMilliseconds: .max, types: nil, account: nil)
            try expect(events.map(\.event) == [stop], "the closed ride's event: \(events.map(\.event))")
        },
        Case(description: "an import's streams that name a device go to it, made in the account; a cancel makes none") {
            store in
            let writer = store.makeWriter(device: try store.device(named: "imported"))
            let points = (0..<20).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 1, segment: 1) }
            let file = ImportedFile(sha256: String(repeating: "f", count: 64), name: "Records.json", bytes: 9)
            let cancelled = try writer.beginImport(file: file, replacing: nil)
            try cancelled.add(Array(points[0..<5]), stream: 0, device: "imported-google-7")
            cancelled.cancel()
            try expect(
                !(try store.devices().contains { $0.name == "imported-google-7" }), "no device made by a cancel")
            // Two phones at the same moments: two streams, one a device each, never merged.
            let streaming = try writer.beginImport(file: file, replacing: nil)
            try streaming.add(Array(points[0..<10]), stream: 0, device: "imported-google-7")
            try streaming.add(points, stream: 1, device: "imported-google-9")
            let outcome = try streaming.finish(
                [
                    ImportStream(
                        points: Array(points[10..<20]), extents: RideExtent.extents(of: points), drops: [:],
                        device: "imported-google-7"),
                    ImportStream(
                        points: [], extents: RideExtent.extents(of: points), drops: [1: ["speed": 1]],
                        device: "imported-google-9"),
                ], places: [])
            try expect(outcome.points == 40, "20 points for each phone: \(outcome)")
            let devices = try store.devices().filter { $0.name.hasPrefix("imported-google-") }
            try expect(devices.map(\.name).sorted() == ["imported-google-7", "imported-google-9"], "\(devices)")
            let rides = try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
            try expect(
                rides.map(\.pointCount) == [20, 20] && Set(rides.map(\.device)).count == 2,
                "a ride of 20 per phone: \(rides.map(\.pointCount))")
            try expect(rides.map(\.drops).contains(["speed": 1]), "the second phone's drops: \(rides.map(\.drops))")
        },
        Case(description: "each account's imports are its own: the same file is stored for each, replaced for one") {
            store in
            try expect(try store.addAccount(name: "ana", passwordHash: "v1$a"), "ana added")
            let anas = try some(
                try store.addDevice(named: "phone", account: "ana", tokenHash: String(repeating: "1", count: 64)),
                "ana's phone")
            let mine = try store.device(named: "imported")
            let file = ImportedFile(sha256: String(repeating: "e", count: 64), name: "e.gpx", bytes: 5)
            let points = (0..<10).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 1, segment: 1) }
            for device in [mine, anas] {
                let outcome = try store.makeWriter(device: device).writeImport(
                    [ImportStream(points: points, drops: [:])], places: [], file: file, replacing: nil)
                try expect(outcome.points == 10 && !outcome.importedMeanwhile, "stored for each: \(outcome)")
            }
            let own = try some(try store.importedFile(sha256: file.sha256, account: nil), "my import")
            let hers = try some(try store.importedFile(sha256: file.sha256, account: "ana"), "ana's import")
            try expect(own.id != hers.id && hers.points == 10, "two imports of one file")
            try expect(try store.importedFile(sha256: file.sha256, account: "bo") == nil, "none for an unknown account")
            let again = try store.makeWriter(device: anas).writeImport(
                [ImportStream(points: Array(points.prefix(4)), drops: [:])], places: [], file: file, replacing: hers)
            try expect(again.replacedPoints == 10 && again.points == 4, "ana's reimport replaces hers: \(again)")
            let counts = try [DeviceFilter.all, .account("ana", device: nil)].map {
                try store.points(fromMilliseconds: .min, toMilliseconds: .max, devices: $0).count
            }
            try expect(counts == [10, 4], "my 10 stay, hers are the 4 new ones: \(counts)")
        },
        Case(description: "an error that is not the store's is neither busy nor the store being away") { store in
            struct Other: Error {}
            try expect(!store.isBusy(Other()) && !store.isUnavailable(Other()), "a foreign error")
            try store.limitWriteWait(to: 2)
            try expect(try store.device(named: "bike") == store.device(named: "bike"), "the store still works")
        },
        Case(description: "records carry notes, fields, photos and conditions; weather readings are kept") { store in
            let id = try some(
                try store.addRecord(
                    milliseconds: t0, coordinate: Coordinate(latitude: 47.5, longitude: 8.5), altitude: 400,
                    notes: ["One"], fields: [Field(key: "n", value: .number(2))], photos: [], account: nil),
                "a record of the store's own user")
            let record = try store.record(id, account: nil)
            try expect(record?.manual == true && record?.altitude == 400, "a manual record with its altitude")
            try expect(record?.fields == [Field(key: "n", value: .number(2))], "a number stays a number")
            let note = try some(try store.addNote(to: id, text: "Two", account: nil), "a note on its record")
            try expect(try store.note(note.id, account: nil)?.text == "Two" && note.recordID == id, "the note")
            try expect(try store.updateNote(note.id, text: "Zwei", account: nil), "update says it found the note")
            try expect(try store.updateNote(note.id + 1000, text: "x", account: nil) == false, "no such note")
            try expect(try store.deleteNote(note.id, account: nil)?.text == "Zwei", "delete returns the note")
            try expect(try store.note(note.id, account: nil) == nil, "deleted")
            try store.setFields(
                [Field(key: "n", value: .text("three")), Field(key: "m", value: .number(1))], on: id, account: nil)
            let fields = try store.record(id, account: nil)?.fields ?? []
            try expect(
                fields.contains(Field(key: "n", value: .text("three"))) && fields.count == 2, "set replaces a key")
            try expect(
                try store.removeField("m", from: id, account: nil)
                    && !(try store.removeField("m", from: id, account: nil)), "remove once")
            try expect(try store.record(id + 1000, account: nil) == nil, "no such record")
            let list = try store.records(fromMilliseconds: t0, toMilliseconds: t0 + 1, plainPoints: false, account: nil)
            try expect(list.map(\.id) == [id], "records in a range")
            let pressure = ConditionValue(key: "weather.pressure_hpa", value: .number(1013.2), source: .device)
            try store.setConditions(
                [ConditionValue(key: "sun.phase", value: .text("dawn"), source: .computed), pressure], on: id,
                account: nil)
            try store.setConditions(
                [ConditionValue(key: "weather.pressure_hpa", value: .number(1009.5), source: .imported)], on: id,
                account: nil)
            try expect(
                try store.record(id, account: nil)?.conditions == [
                    ConditionValue(key: "sun.phase", value: .text("dawn"), source: .computed),
                    ConditionValue(key: "weather.pressure_hpa", value: .number(1009.5), source: .imported),
                ], "conditions in key order, a key replaced with its source")
            let readings = [
                WeatherReading(milliseconds: t0, temperature: 12.5, pressure: 1013.2),
                WeatherReading(milliseconds: t0 + 3_600_000, pressure: 1011.0, windSpeed: 3.5, windDirection: 270),
            ]
            try expect(try store.addWeatherReadings(readings, account: nil) == 2, "two readings are new")
            var replaced = readings[1]
            replaced.cloud = 75
            try expect(try store.addWeatherReadings([replaced], account: nil) == 0, "the same time replaces a reading")
            try expect(
                try store.weatherReadings(fromMilliseconds: t0, toMilliseconds: t0 + 3_600_001, account: nil) == [
                    readings[0], replaced,
                ],
                "readings in time order, as stored")
            try expect(
                try store.weatherReadings(fromMilliseconds: t0 + 1, toMilliseconds: t0 + 3_600_000, account: nil)
                    .isEmpty,
                "the range is half-open")
            let phone = try store.device(named: "phone")
            let measured = WeatherReading(milliseconds: t0, pressure: 1002.5, device: phone)
            try expect(
                try store.addWeatherReadings([measured], account: nil) == 1, "a device's reading beside a station's")
            try expect(
                try store.weatherReadings(fromMilliseconds: t0, toMilliseconds: t0 + 1, account: nil) == [
                    readings[0], measured,
                ],
                "the station's first, then the device's")
        },
        Case(description: "a note near a point makes the point a record") { store in
            let writer = store.makeWriter(device: try store.device(named: "bike"))
            try writer.write((0..<10).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 1, segment: 1) })
            let id = try store.nearestRecordID(to: t0 + 3_400, within: 2_000, account: nil)
            let record = try id.flatMap { try store.record($0, account: nil) }
            try expect(
                record?.milliseconds == t0 + 3_000 && record?.manual == false, "the point at 3 s: \(record as Any)")
            try expect(try store.nearestRecordID(to: t0 + 60_000, within: 2_000, account: nil) == nil, "nothing near")
            try expect(
                try store.records(fromMilliseconds: .min, toMilliseconds: .max, plainPoints: true, account: nil).count
                    == 10,
                "nine plain points and the record")
        },
        Case(description: "each account's diary is its own: records, notes, fields, photos, days, weather, removal") {
            store in
            _ = try store.addAccount(name: "ana", passwordHash: "v1$a")
            _ = try store.addAccount(name: "bo", passwordHash: "v1$b")
            let anasPhone = try some(
                try store.addDevice(named: "phone", account: "ana", tokenHash: "ta"), "ana's phone")
            let bosPhone = try some(try store.addDevice(named: "phone", account: "bo", tokenHash: "tb"), "bo's phone")
            for (device, latitude) in [(anasPhone, 47.0), (bosPhone, 46.0)] {
                try store.makeWriter(device: device).write(
                    (0..<5).map {
                        KeptPoint(fix: makeFix(t0 + Int64($0) * 1000, latitude: latitude), ride: 1, segment: 1)
                    })
            }
            let place = Coordinate(latitude: 1, longitude: 2)
            let anas = try some(
                try store.addRecord(
                    milliseconds: t0, coordinate: place, altitude: nil, notes: ["ana's"], fields: [], photos: [],
                    account: "ana"), "ana's record")
            try expect(
                try store.addRecord(
                    milliseconds: t0, coordinate: place, altitude: nil, notes: [], fields: [], photos: [],
                    account: "nobody") == nil, "no record for an account the store does not have")
            try expect(try store.record(anas, account: "bo") == nil && store.record(anas, account: nil) == nil, "hers")
            try expect(try store.addNote(to: anas, text: "bo's?", account: "bo") == nil, "no note on another's record")
            try expect(
                try !store.setFields([Field(key: "k", value: .number(1))], on: anas, account: "bo"), "nor a field")
            try expect(try !store.setConditions([], on: anas, account: "bo"), "nor conditions")
            try expect(try !store.attachPhotos([], to: anas, account: "bo"), "nor a photo")
            let note = try some(try store.record(anas, account: "ana")?.notes.first, "ana's note")
            try expect(try store.note(note.id, account: "bo") == nil, "her note is not his")
            try expect(try !store.updateNote(note.id, text: "x", account: "bo"), "nor his to change")
            try expect(try store.deleteNote(note.id, account: "bo") == nil, "nor to delete")
            try expect(try !store.removeField("k", from: anas, account: "bo"), "nor her fields to remove")
            // A point of bo's phone becomes a record in bo's diary; ana's nearest is her own.
            let near = try some(try store.nearestRecordID(to: t0 + 2_100, within: 500, account: "bo"), "bo's point")
            try expect(
                try store.record(near, account: "bo")?.coordinate.latitude == 46
                    && store.record(near, account: "ana") == nil,
                "the record of bo's point is bo's")
            try expect(
                try store.records(fromMilliseconds: .min, toMilliseconds: .max, plainPoints: true, account: "ana")
                    .allSatisfy { $0.coordinate.latitude != 46 }, "ana's plain points are her phone's")
            try expect(
                try store.nearestPoint(to: t0, within: 10, devices: .account("bo", device: nil))?.coordinate?.latitude
                    == 46, "the nearest point of bo's devices")
            try expect(
                try store.latestPoint(devices: .account("ana", device: nil))?.coordinate?.latitude == 47, "ana's latest"
            )
            let day = CivilDate(year: 2026, month: 6, day: 14)!
            try expect(try store.setDaySummary(day, text: "ana's day", account: "ana"), "ana's day")
            try expect(try store.setDaySummary(day, text: "bo's day", account: "bo"), "bo's day")
            try expect(try !store.setDaySummary(day, text: "x", account: "nobody"), "no account, no day")
            try expect(
                try store.daySummary(day, account: "ana") == "ana's day" && store.daySummary(day, account: nil) == nil,
                "a day's summary per account")
            let reading = WeatherReading(milliseconds: t0, pressure: 1000)
            try expect(try store.addWeatherReadings([reading], account: "ana") == 1, "ana's reading")
            try expect(try store.addWeatherReadings([reading], account: "bo") == 1, "bo's, at the same time, is new")
            try expect(
                try store.weatherReadings(fromMilliseconds: t0, toMilliseconds: t0 + 1, account: nil).isEmpty,
                "the store's own user has none")
            // Removal: another's record is missing; a day removed for one account leaves the other's.
            let refused = try store.remove(records: [anas], account: "bo")
            try expect(
                refused.missing == [anas] && (try store.record(anas, account: "ana")) != nil, "not bo's to remove")
            let ride = try some(
                try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .account("ana", device: nil))
                    .first,
                "ana's ride")
            try expect(try store.remove(ride: ride.id, account: "bo") == nil, "nor her ride")
            let removal = try store.remove(
                fromMilliseconds: t0, toMilliseconds: t0 + 10_000, days: [day], account: "ana")
            try expect(
                removal.records == 1 && removal.points == 5 && removal.daySummaries == 1, "ana's day went: \(removal)")
            try expect(try store.daySummary(day, account: "bo") == "bo's day", "bo's day stays")
            try expect(
                try store.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .account("bo", device: nil))
                    .count == 5 && (try store.record(near, account: "bo")) != nil, "bo's points and record stay")
        },
        Case(description: "a photo is stored once per content and discarded when unused") { store in
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID())").path
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: dir) }
            try Data("photo one".utf8).write(to: URL(fileURLWithPath: dir + "/a.jpg"))
            try Data("photo one".utf8).write(to: URL(fileURLWithPath: dir + "/b.jpg"))
            try Data("photo two".utf8).write(to: URL(fileURLWithPath: dir + "/c.jpg"))
            let a = try store.storePhotoFile(dir + "/a.jpg", takenMilliseconds: t0)
            let b = try store.storePhotoFile(dir + "/b.jpg", takenMilliseconds: nil)
            try expect(a.sha256 == b.sha256 && a.file == b.file && a.bytes == 9, "one file for one content")
            try expect(a.name == "a.jpg" && b.name == "b.jpg", "each keeps the name it was added under")
            let id = try some(
                try store.addRecord(
                    milliseconds: t0, coordinate: Coordinate(latitude: 1, longitude: 2), altitude: nil, notes: [],
                    fields: [], photos: [a], account: nil), "a record of the store's own user")
            let c = try store.storePhotoFile(dir + "/c.jpg", takenMilliseconds: nil)
            store.discardUnattached([a, c])
            try expect(
                FileManager.default.fileExists(atPath: store.mediaDirectory + "/" + a.file), "a used photo stays")
            try expect(
                !FileManager.default.fileExists(atPath: store.mediaDirectory + "/" + c.file), "an unused one goes")
            // One content is one photo: on another record it keeps the name it was first added under.
            let other = try some(
                try store.addRecord(
                    milliseconds: t0 + 1000, coordinate: Coordinate(latitude: 1, longitude: 2), altitude: nil,
                    notes: [],
                    fields: [], photos: [], account: nil), "a record of the store's own user")
            try store.attachPhotos([b], to: other, account: nil)
            try store.attachPhotos([b], to: id, account: nil)
            try expect(try store.record(id, account: nil)?.photos.map(\.sha256) == [a.sha256], "once per record")
            try expect(try store.record(other, account: nil)?.photos.map(\.name) == ["a.jpg"], "the first name stays")
        },
        Case(description: "a day's summary is set, replaced and removed by empty text") { store in
            let day = CivilDate(year: 2026, month: 6, day: 14)!
            try expect(try store.daySummary(day, account: nil) == nil, "none at first")
            try store.setDaySummary(day, text: "Loop", account: nil)
            try store.setDaySummary(day, text: "Long loop", account: nil)
            try expect(try store.daySummary(day, account: nil) == "Long loop", "replaced")
            try store.setDaySummary(day, text: "", account: nil)
            try expect(try store.daySummary(day, account: nil) == nil, "removed")
        },
        Case(description: "removal takes what it names and counts it") { store in
            let writer = store.makeWriter(device: try store.device(named: "bike"))
            try writer.write((0..<10).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 1, segment: 1) })
            try writer.write((50..<60).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 2, segment: 2) })
            let manual = try some(
                try store.addRecord(
                    milliseconds: t0 + 20_000, coordinate: Coordinate(latitude: 1, longitude: 2), altitude: nil,
                    notes: ["x", "y"], fields: [], photos: [], account: nil), "a record of the store's own user")
            let refused = try store.remove(records: [manual, manual + 1000], account: nil)
            try expect(
                refused.missing == [manual + 1000] && refused.removal == Removal()
                    && (try store.record(manual, account: nil)) != nil,
                "one missing id: nothing removed, the missing named")
            let removal = try store.remove(records: [manual], account: nil).removal
            try expect(removal.records == 1 && removal.notes == 2, "the record and its notes: \(removal)")
            let rides = try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
            let byRide = try store.remove(ride: rides[1].id, account: nil)
            try expect(byRide?.points == 10 && byRide?.rides == 1, "the ride and its points: \(byRide as Any)")
            try expect(try store.remove(ride: rides[1].id, account: nil) == nil, "no such ride any more")
            let byRange = try store.remove(fromMilliseconds: t0, toMilliseconds: t0 + 5_000, days: [], account: nil)
            try expect(byRange.points == 5, "five points in the range: \(byRange)")
            try expect(
                try store.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .all).count == 5, "5 left")
            // The ride the range reached into shrinks to what it has left; emptied, it goes.
            let shrunk = try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all)
            try expect(
                shrunk.map { [$0.startMilliseconds - t0, $0.endMilliseconds - t0, Int64($0.pointCount)] }
                    == [[5_000, 9_000, 5]], "the ride shrunk to its last five points: \(shrunk)")
            let emptied = try store.remove(fromMilliseconds: t0, toMilliseconds: t0 + 10_000, days: [], account: nil)
            try expect(emptied.points == 5 && emptied.rides == 1, "the emptied ride goes: \(emptied)")
            try expect(
                try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .all).isEmpty, "no ride left")
        },
        Case(description: "the pause switch and recorder statuses") { store in
            try expect(try store.pausedUntil() == nil, "not paused at first")
            try store.setPausedUntil(0)
            try expect(try store.pausedUntil() == 0, "paused until resumed")
            try store.setPausedUntil(t0)
            try expect(try store.pausedUntil() == t0, "paused until a time")
            try store.setPausedUntil(nil)
            try expect(try store.pausedUntil() == nil, "resumed")
            let bike = try store.device(named: "bike")
            let phone = try store.device(named: "phone")
            var status = RecorderStatus(
                pid: 42, source: "/dev/ttyUSB0", startedMilliseconds: t0, heartbeatMilliseconds: t0 + 1000,
                paused: false)
            try store.writeRecorderStatus(status, device: bike)
            status.heartbeatMilliseconds = t0 + 2000
            status.lastFixMilliseconds = t0 + 1500
            status.lastFixSeenMilliseconds = t0 + 1600
            try store.writeRecorderStatus(status, device: bike)
            status.heartbeatMilliseconds = t0 + 5000
            try store.writeRecorderStatus(status, device: phone)
            let statuses = try store.recorderStatuses()
            try expect(statuses.map(\.device) == ["phone", "bike"], "one per device, newest heartbeat first")
            try expect(statuses[1].lastFixMilliseconds == t0 + 1500 && statuses[1].pid == 42, "the status as written")
            try store.removeRecorderStatus(device: phone)
            try expect(try store.recorderStatuses().map(\.device) == ["bike"], "removed")
        },
        Case(description: "accounts and device tokens, by their hashes") { store in
            try expect(try store.addAccount(name: "ana", passwordHash: "v1$a"), "a new account")
            try expect(try store.addAccount(name: "ana", passwordHash: "v1$b") == false, "a name once")
            try expect(try store.passwordHash(of: "ana") == "v1$a", "its hash")
            try expect(
                try store.setPasswordHash("v1$c", of: "ana") && store.passwordHash(of: "ana") == "v1$c", "changed")
            try expect(try store.setPasswordHash("v1$c", of: "bob") == false, "no such account")
            try expect(try store.accounts().contains { $0.name == "ana" && $0.hasPassword }, "listed")
            let phone = try store.addDevice(named: "phone", account: "ana", tokenHash: "t1")
            try expect(phone != nil, "a device with a token")
            try expect(try store.addDevice(named: "phone", account: "ana", tokenHash: "t2") == nil, "a name once")
            try expect(try store.addDevice(named: "phone", account: "bob", tokenHash: "t3") == nil, "no such account")
            let found = try store.device(tokenHash: "t1")
            try expect(found?.account == "ana" && found?.device == phone && found?.name == "phone", "found by token")
            try expect(try store.devices(of: "ana")?.map(\.name) == ["phone"], "the account's devices")
            try expect(try store.devices(of: "bob") == nil, "no such account")
            try expect(try store.revokeDevice(named: "phone", account: "ana", at: t0), "revoked")
            try expect(try store.device(tokenHash: "t1") == nil, "a revoked token finds nothing")
            try expect(try store.revokeDevice(named: "phone", account: "ana", at: t0) == false, "revoked once")
            try expect(try store.removeAccount("ana") && store.accounts().allSatisfy { $0.name != "ana" }, "removed")
            try expect(try store.removeAccount("ana") == false, "removed once")
        },
        Case(description: "share codes are one use, failures are counted, grants pause, expire and end") { store in
            for name in ["ana", "ben", "cat"] { _ = try store.addAccount(name: name, passwordHash: "v1$x") }
            try expect(
                try store.addShareCode(
                    owner: "ana", codeHash: "c1", scopes: ["live", "motion"], historyHours: 24,
                    expiresMilliseconds: t0 + 60_000), "a code for ana")
            try expect(
                try store.addShareCode(
                    owner: "nobody", codeHash: "c0", scopes: ["live"], historyHours: 0, expiresMilliseconds: t0)
                    == false, "no code for a missing account")
            func redeem(_ hash: String, _ viewer: String, at now: Int64 = t0) throws -> Redemption {
                try store.redeemShareCode(codeHash: hash, viewer: viewer, now: now, maxFailures: 3, window: 60_000)
            }
            try expect(try redeem("c1", "ana") == .own, "one's own code grants nothing")
            guard case .granted(let grant) = try redeem("c1", "ben") else {
                throw Violation(description: "ben redeems ana's code")
            }
            try expect(
                grant.owner == "ana" && grant.viewer == "ben" && grant.scopes == ["live", "motion"]
                    && grant.historyHours == 24 && grant.createdMilliseconds == t0, "the grant as made: \(grant)")
            try expect(try redeem("c1", "cat") == .unknown, "a code is used once")
            _ = try store.addShareCode(
                owner: "ana", codeHash: "c2", scopes: ["live"], historyHours: 0, expiresMilliseconds: t0 + 1000)
            try expect(try redeem("c2", "cat", at: t0 + 1000) == .unknown, "an expired code is unknown")
            _ = try store.addShareCode(
                owner: "ana", codeHash: "c3", scopes: ["live"], historyHours: 0, expiresMilliseconds: t0 + 120_000)
            try expect(try redeem("xx", "cat") == .unknown, "a third failure")
            try expect(try redeem("c3", "cat") == .throttled, "three failures in the window: nothing checked")
            guard case .granted = try redeem("c3", "cat", at: t0 + 61_001) else {
                throw Violation(description: "after the window the code works again")
            }
            try expect(try store.grants(owner: "ana").map(\.viewer) == ["ben", "cat"], "ana's viewers")
            try expect(try store.grants(viewer: "ben").map(\.owner) == ["ana"], "whom ben sees")
            try expect(try store.revokeGrant(owner: "ana", viewer: "ben"), "revoked")
            try expect(try store.revokeGrant(owner: "ana", viewer: "ben") == false, "revoked once")
            try expect(try store.grants(viewer: "ben").isEmpty, "ben sees no one")
            let phone = try store.addDevice(named: "phone", account: "ana", tokenHash: "t")!
            let writer = store.makeWriter(device: phone)
            try writer.write(
                (0..<5).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 1, segment: 1) }, drops: [:])
            let recent = try store.recentPoints(account: "ana", limit: 3)
            try expect(
                recent.count == 1 && recent[0].device == "phone"
                    && recent[0].fixes.map(\.unixMilliseconds) == [t0 + 2000, t0 + 3000, t0 + 4000],
                "the newest three, oldest first: \(recent.map { ($0.device, $0.fixes.count) })")
            try expect(try store.recentPoints(account: "ben", limit: 3).isEmpty, "ben has no points")
            try store.setDeviceState(phone, atMilliseconds: t0 + 4000, battery: 57, accuracy: 12.5)
            let state = try store.recentPoints(account: "ana", limit: 1).first
            try expect(state?.battery == 57 && state?.accuracy == 12.5, "the device's state: \(state as Any)")
            try store.setDeviceState(phone, atMilliseconds: t0 + 5000, battery: nil, accuracy: nil)
            let later = try store.recentPoints(account: "ana", limit: 1).first
            try expect(
                later?.battery == 57 && later?.accuracy == nil,
                "the last known battery stays, the accuracy is the newest point's: \(later as Any)")
            let span = try store.points(account: "ana", fromMilliseconds: t0 + 1000, toMilliseconds: t0 + 3000)
            try expect(
                span.map(\.fix.unixMilliseconds) == [t0 + 1000, t0 + 2000] && span.allSatisfy { $0.device == "phone" },
                "points of the account in [from, to): \(span.map(\.fix.unixMilliseconds))")
            try expect(
                try store.points(account: "ben", fromMilliseconds: .min, toMilliseconds: .max).isEmpty,
                "none of another account's")
            try expect(
                try store.updateGrant(owner: "ana", viewer: "cat", paused: true, expiresMilliseconds: t0 + 9000),
                "a grant paused")
            let changed = try store.grants(owner: "ana").first
            try expect(
                changed?.paused == true && changed?.expiresMilliseconds == t0 + 9000
                    && changed?.isActive(at: t0) == false, "paused until resumed, expiring: \(changed as Any)")
            _ = try store.updateGrant(owner: "ana", viewer: "cat", paused: false, expiresMilliseconds: t0 + 9000)
            let resumed = try store.grants(viewer: "cat").first
            try expect(
                resumed?.isActive(at: t0) == true && resumed?.isActive(at: t0 + 9000) == false, "resumed, then expired")
            try expect(
                try store.updateGrant(owner: "ana", viewer: "ben", paused: true, expiresMilliseconds: nil) == false,
                "no grant to change")
        },
        Case(description: "a batch's phone state goes in with its points; a live view reads grants and points together")
        {
            store in
            for name in ["ana", "ben", "cat", "dan"] { _ = try store.addAccount(name: name, passwordHash: "v1$x") }
            for (code, viewer) in [("c1", "ben"), ("c2", "cat"), ("c3", "dan")] {
                _ = try store.addShareCode(
                    owner: "ana", codeHash: code, scopes: ["live"], historyHours: 0, expiresMilliseconds: t0 + 60_000)
                _ = try store.redeemShareCode(codeHash: code, viewer: viewer, now: t0, maxFailures: 3, window: 60_000)
            }
            _ = try store.revokeGrant(owner: "ana", viewer: "ben")
            let phone = try store.addDevice(named: "phone", account: "ana", tokenHash: "t")!
            let writer = store.makeWriter(device: phone)
            let rule = PointPlacement(segmentGapSeconds: 30, rideGapSeconds: 600)
            func place(_ t: Int64, _ state: DeviceStateUpdate) throws -> Int {
                try writer.place(
                    [KeptPoint(fix: makeFix(t), ride: 0, segment: 0)], drops: [:], rule: rule, state: state)
            }
            func state() throws -> (Double?, Double?) {
                let recent = try store.recentPoints(account: "ana", limit: 1).first
                return (recent?.battery, recent?.accuracy)
            }
            try expect(try place(t0, .init(milliseconds: t0, battery: 40, accuracy: 8)) == 1, "a point placed")
            let s1 = try state()
            try expect(s1 == (40, 8), "with the phone's state: \(s1)")
            try expect(try place(t0, .init(milliseconds: t0 + 1000, battery: nil, accuracy: 3)) == 0, "resent")
            try expect(try state() == (40, 8), "a batch that added nothing and says no battery changes nothing")
            _ = try place(t0, .init(milliseconds: t0 + 1000, battery: 35, accuracy: 3))
            let s2 = try state()
            try expect(s2 == (35, 3), "one that says the battery moves it on: \(s2)")
            _ = try place(t0 + 2000, .init(milliseconds: t0 + 500, battery: 20, accuracy: 1))
            let s3 = try state()
            try expect(s3 == (35, 3), "an older state changes nothing: \(s3)")
            _ = try place(t0 + 3000, .init(milliseconds: t0 + 3000, battery: nil, accuracy: 5))
            let s4 = try state()
            try expect(s4 == (35, 5), "no battery keeps the last known level: \(s4)")
            func latest() throws -> Int64? {
                try store.latestPoint(devices: .account("ana", device: "phone"))?.unixMilliseconds
            }
            try expect(try latest() == t0 + 3000, "the newest point is the device's latest")
            // A late point 40 days back (another month) leaves the latest where it was.
            let late = t0 - 40 * 86_400_000
            _ = try place(late, .init(milliseconds: late, battery: nil, accuracy: 9))
            let after = try latest()
            try expect(after == t0 + 3000, "the latest after a late point: \(after as Any)")
            try expect(
                try store.points(
                    fromMilliseconds: .min, toMilliseconds: .max, devices: .account("ana", device: "phone")
                )
                .first?.unixMilliseconds == late, "the late point is stored")

            let view = try store.liveView(
                owner: "ana", device: "phone", viewers: ["ben", "cat", "dan", "eve"], limit: 2)
            try expect(
                view.grants == (try store.grants(owner: "ana")) && view.grants.map(\.viewer) == ["cat", "dan"],
                "the grants to the viewers, by viewer: \(view.grants.map(\.viewer))")
            try expect(
                view.recent?.device == "phone" && view.recent?.fixes.map(\.unixMilliseconds) == [t0 + 2000, t0 + 3000]
                    && view.recent?.battery == 35 && view.recent?.accuracy == 5,
                "the newest two points once, oldest first, with the state: \(view.recent as Any)")
            let ben = try store.liveView(owner: "ana", device: "phone", viewers: ["ben"], limit: 2)
            try expect(ben.grants.isEmpty && ben.recent == nil, "no grant: nothing")
            let tablet = try store.liveView(owner: "ana", device: "tablet", viewers: ["dan"], limit: 2)
            try expect(
                tablet.grants.map(\.viewer) == ["dan"] && tablet.recent == nil, "no such device: the grant alone")
            let other = try store.liveView(owner: "cat", device: "phone", viewers: ["ana", "dan"], limit: 2)
            try expect(other.grants.isEmpty && other.recent == nil, "cat gave no grant")
        },
        Case(description: "a device's messages that are not positions are kept once, per account") { store in
            try expect(try store.addAccount(name: "ana", passwordHash: "v1$x"), "ana added")
            try expect(try store.addAccount(name: "ben", passwordHash: "v1$x"), "ben added")
            guard let phone = try store.addDevice(named: "phone", account: "ana", tokenHash: "aa"),
                let bens = try store.addDevice(named: "phone", account: "ben", tokenHash: "bb")
            else { throw Violation(description: "the devices were not added") }
            try store.addDeviceMessage(
                phone, type: "transition", receivedMilliseconds: t0 + 2, body: #"{"event":"leave"}"#)
            try store.addDeviceMessage(phone, type: "lwt", receivedMilliseconds: t0 + 1, body: "{}")
            try store.addDeviceMessage(bens, type: "waypoint", receivedMilliseconds: t0, body: "{}")
            try expect(
                try !store.addDeviceMessage(phone, type: "lwt", receivedMilliseconds: t0 + 9, body: "{}"),
                "the same message again (a resent batch) is kept once")
            try expect(
                try store.addDeviceMessage(phone, type: "waypoint", receivedMilliseconds: t0 + 9, body: "{}"),
                "another type with the same body is another message")
            let anas = try store.deviceMessages(account: "ana").filter { $0.type != "waypoint" }
            try expect(anas.map(\.type) == ["lwt", "transition"], "oldest first, ana's only: \(anas)")
            try expect(anas[1].body == #"{"event":"leave"}"# && anas[1].device == "phone", "kept as sent")
            try expect(try store.deviceMessages(account: "nobody").isEmpty, "an unknown account has none")
        },
        Case(description: "upload cursors: the points after one, per device and server, only forward") { store in
            let bike = try store.device(named: "bike")
            let phone = try store.device(named: "phone")
            let points = (0..<25).map { KeptPoint(fix: makeFix(t0 + Int64($0) * 1000), ride: 1, segment: 1) }
            try store.makeWriter(device: bike).write(points, drops: [:])
            try store.makeWriter(device: phone).write(Array(points.prefix(3)), drops: [:])
            try expect(try store.uploadCursor(device: bike, server: "a") == nil, "nothing sent yet")
            try expect(try store.pointCount(device: bike, after: nil) == 25, "all 25 of the bike's to send")
            let first = try store.points(device: bike, after: nil, limit: 10)
            try expect(
                first.map(\.unixMilliseconds) == (0..<10).map { t0 + Int64($0) * 1000 }, "the first 10, in order")
            try store.setUploadCursor(device: bike, server: "a", milliseconds: t0 + 9000)
            try expect(try store.uploadCursor(device: bike, server: "a") == t0 + 9000, "the cursor is kept")
            try expect(try store.uploadCursor(device: bike, server: "b") == nil, "per server")
            try expect(try store.uploadCursor(device: phone, server: "a") == nil, "per device")
            try expect(try store.pointCount(device: bike, after: t0 + 9000) == 15, "15 after the cursor")
            let next = try store.points(device: bike, after: t0 + 9000, limit: 100)
            try expect(next.first?.unixMilliseconds == t0 + 10_000 && next.count == 15, "the 15 after it")
            try store.setUploadCursor(device: bike, server: "a", milliseconds: t0)
            try expect(try store.uploadCursor(device: bike, server: "a") == t0 + 9000, "a cursor never goes back")
        },
        Case(description: "sessions end, expire and go with their account; failed logins count per key in a window") {
            store in
            try expect(try store.addAccount(name: "ana", passwordHash: "v1$x"), "ana added")
            try expect(
                try store.addSession(
                    tokenHash: "s1", account: "nobody", csrf: "c", expiresMilliseconds: t0 + 10, now: t0)
                    == false, "no session for an unknown account")
            try expect(
                try store.addSession(
                    tokenHash: "s1", account: "ana", csrf: "c1", expiresMilliseconds: t0 + 100, now: t0),
                "a session")
            _ = try store.addSession(
                tokenHash: "s2", account: "ana", csrf: "c2", expiresMilliseconds: t0 + 100, now: t0)
            let found = try store.session(tokenHash: "s1", now: t0 + 50)
            try expect(
                found?.account == "ana" && found?.csrf == "c1", "the session's account and CSRF token: \(found as Any)")
            try expect(try store.session(tokenHash: "s1", now: t0 + 100) == nil, "expired at its time")
            try expect(try store.session(tokenHash: "zz", now: t0) == nil, "an unknown token")
            try store.endSession(tokenHash: "s1")
            try expect(try store.session(tokenHash: "s1", now: t0) == nil, "ended")
            _ = try store.addSession(
                tokenHash: "s3", account: "ana", csrf: "c3", expiresMilliseconds: t0 + 100, now: t0)
            _ = try store.addSession(
                tokenHash: "s4", account: "ana", csrf: "c4", expiresMilliseconds: t0 + 100, now: t0)
            try expect(try store.endSessions(account: "ana", except: "s2") == 2, "the others end: s3 and s4")
            try expect(
                try store.session(tokenHash: "s3", now: t0) == nil && store.session(tokenHash: "s2", now: t0) != nil,
                "all but the one kept")
            _ = try store.addSession(
                tokenHash: "s5", account: "ana", csrf: "c5", expiresMilliseconds: t0 + 100, now: t0)
            try expect(try store.endSessions(account: "ana", except: nil) == 2, "every one: s2 and s5")
            try expect(try store.session(tokenHash: "s2", now: t0) == nil, "none left")
            _ = try store.addSession(
                tokenHash: "s2", account: "ana", csrf: "c2", expiresMilliseconds: t0 + 100, now: t0)
            try expect(try store.preferences(account: "ana") == AccountPreferences(), "the server's, until chosen")
            let chosen = AccountPreferences(timeZone: "Asia/Tokyo", units: "imperial")
            try expect(try store.setPreferences(account: "ana", chosen), "ana's preferences")
            try expect(try store.preferences(account: "ana") == chosen, "read back")
            try expect(
                try store.setPreferences(account: "ana", AccountPreferences(units: "metric")), "set again, in place")
            try expect(try store.preferences(account: "ana") == AccountPreferences(units: "metric"), "replaced whole")
            try expect(try store.setPreferences(account: "nobody", chosen) == false, "no such account")
            try expect(try store.removeAccount("ana"), "ana removed")
            try expect(try store.session(tokenHash: "s2", now: t0) == nil, "gone with the account")
            try expect(try store.preferences(account: "ana") == AccountPreferences(), "preferences gone with it")
            let keys = ["user:ana", "address:10.0.0.1"]
            try store.addLoginFailure(keys: keys, at: t0, window: 1000)
            try store.addLoginFailure(keys: keys, at: t0 + 10, window: 1000)
            try store.addLoginFailure(keys: ["address:10.0.0.1"], at: t0 + 20, window: 1000)
            let counts = try store.loginFailures(keys: keys + ["user:ben"], since: t0 - 1000)
            try expect(counts == ["user:ana": 2, "address:10.0.0.1": 3], "per key: \(counts)")
            try expect(
                try store.loginFailures(keys: keys, since: t0 + 5) == ["user:ana": 1, "address:10.0.0.1": 2],
                "only those after the start of the window")
        },
        Case(description: "places are the account's, by name; events are kept once, read back in time order") {
            store in
            let home = Place(name: "home", center: Coordinate(latitude: 47.37, longitude: 8.54), radius: 120)
            try expect(try store.addPlace(home, account: nil), "home added")
            try expect(try store.addPlace(home, account: nil) == false, "a second home refused")
            let ring = [(47.0, 8.0), (47.0, 8.01), (47.01, 8.01), (47.01, 8.0)].map {
                Coordinate(latitude: $0.0, longitude: $0.1)
            }
            let park = Place(name: "park", polygon: ring)!
            try expect(try store.addPlace(park, account: nil), "the park added")
            let places = try store.places(account: nil)
            try expect(places.map(\.name) == ["home", "park"], "by name: \(places.map(\.name))")
            try expect(places[0] == home, "the circle as it was: \(places[0])")
            try expect(
                places[1].polygon?.count == 4 && abs(places[1].radius - park.radius) < 1e-6, "the polygon's corners")
            try expect(try store.addAccount(name: "ana", passwordHash: "v1$x"), "ana added")
            var moved = home
            moved.radius = 50
            moved.source = "owntracks"
            try expect(try store.savePlace(home, account: "ana"), "ana's home saved")
            try expect(try store.savePlace(moved, account: "ana"), "ana's home replaced")
            try expect(try store.savePlace(moved, account: "nobody") == false, "no such account")
            try expect(try store.places(account: "ana") == [moved], "ana's own home, replaced")
            try expect(try store.places(account: nil).first?.radius == 120, "mine unchanged")
            try expect(try store.removePlace(named: "park", account: nil), "the park removed")
            try expect(try store.removePlace(named: "park", account: nil) == false, "and gone")

            let bike = try store.device(named: "bike")
            let events = [
                TrailEvent(
                    milliseconds: t0 + 60_000, type: .placeArrive, place: "home",
                    coordinate: Coordinate(latitude: 47.37, longitude: 8.54), details: ["accuracy_m": 4.5]),
                TrailEvent(milliseconds: t0, type: .motionStopped, details: ["accuracy_m": 3]),
                TrailEvent(milliseconds: t0 + 60_000, type: .placeDepart, place: "work", text: "a note"),
            ]
            try expect(try store.addEvents(events, device: bike) == 3, "3 events new")
            try expect(try store.addEvents(events, device: bike) == 0, "the same events again add nothing")
            let back = try store.events(fromMilliseconds: .min, toMilliseconds: .max, types: nil, account: nil)
            try expect(back.map(\.event) == [events[1], events[0], events[2]], "in time order: \(back.map(\.event))")
            try expect(back.allSatisfy { $0.device == "bike" }, "the device's name")
            let arrivals = try store.events(
                fromMilliseconds: t0 + 1, toMilliseconds: t0 + 60_001, types: [.placeArrive], account: nil)
            try expect(arrivals.map(\.event) == [events[0]], "by time and type")
            try expect(
                try store.events(fromMilliseconds: .min, toMilliseconds: .max, types: nil, account: "ana").isEmpty,
                "not ana's")
            // A friend's arrival is in the viewer's list, on the friend's device; two cues at one
            // place and moment are two events.
            let anasPhone = try store.addDevice(named: "phone", account: "ana", tokenHash: "contract-events-ana")!
            let cues = [1.0, 2.0].map {
                TrailEvent(milliseconds: t0, type: .cue, place: "home", text: "cue \($0)", details: ["cue": $0])
            }
            try expect(try store.addEvents(cues, device: anasPhone) == 2, "two cues at one moment")
            let friend = TrailEvent(milliseconds: t0, type: .friendArrive, place: "home", text: "ana")
            try expect(try store.addEvents([friend], device: anasPhone, viewer: "me") == 1, "the friend event, mine")
            try expect(try store.addEvents([friend], device: anasPhone, viewer: "me") == 0, "once")
            try expect(try store.addEvents([friend], device: anasPhone, viewer: "nobody") == 0, "no such viewer")
            let mine = try store.events(fromMilliseconds: t0, toMilliseconds: t0 + 1, types: nil, account: nil)
            try expect(mine.map(\.event) == [events[1], friend] && mine[1].device == "phone", "\(mine.map(\.event))")
            let anas = try store.events(fromMilliseconds: t0, toMilliseconds: t0 + 1, types: nil, account: "ana")
            try expect(anas.map(\.event.type) == [.cue, .cue], "ana's: her cues only")
            // An event moves to an earlier time (late points showed it there), the account's only;
            // onto the same event of that time it goes.
            let departure = try some(back.first { $0.event.type == .placeDepart }, "the departure")
            try expect(
                try !store.moveEvent(departure.id, toMilliseconds: t0 + 30_000, coordinate: nil, account: "ana"),
                "not ana's to move")
            try expect(
                try store.moveEvent(
                    departure.id, toMilliseconds: t0 + 30_000, coordinate: Coordinate(latitude: 1, longitude: 2),
                    account: nil), "moved")
            let movedBack = try store.events(
                fromMilliseconds: t0 + 30_000, toMilliseconds: t0 + 30_001, types: [.placeDepart], account: nil)
            try expect(
                movedBack.map(\.id) == [departure.id] && movedBack.first?.event.coordinate?.latitude == 1
                    && movedBack.first?.event.text == "a note", "at its new time and place, the rest kept")
            try expect(try store.addEvents([events[2]], device: bike) == 1, "the old time is free again")
            let twin = try some(
                try store.events(
                    fromMilliseconds: t0 + 60_000, toMilliseconds: t0 + 60_001, types: [.placeDepart], account: nil
                ).first, "the departure again")
            try expect(
                try store.moveEvent(twin.id, toMilliseconds: t0 + 30_000, coordinate: nil, account: nil),
                "moved onto its twin")
            try expect(
                try store.events(fromMilliseconds: .min, toMilliseconds: .max, types: [.placeDepart], account: nil)
                    .map(\.event.milliseconds) == [t0 + 30_000], "the twin went, one departure is left")
        },
        Case(description: "cues, tasks and alerts are the account's; the outbox delivers each event once per alert") {
            store in
            let t0: Int64 = 1_780_000_000_000
            var cue = Cue(text: "bread", place: "home", moment: .depart, once: true)
            cue.id = try store.addCue(cue, account: nil) ?? -1
            try expect(try store.addCue(cue, account: "nobody") == nil, "no such account")
            try store.markCueFired(cue.id, atMilliseconds: t0)
            cue.firedMilliseconds = t0
            let cues = try store.cues(account: nil)
            try expect(cues == [cue], "the cue, fired: \(cues)")
            var task = ScheduledTask(text: "cat", dueMilliseconds: t0, rule: "daily", timeZone: "Europe/Zurich")
            task.id = try store.addTask(task, account: nil) ?? -1
            try expect(try store.advanceTask(task.id, from: t0, to: t0 + 86_400_000), "advanced")
            try expect(try store.advanceTask(task.id, from: t0, to: t0 + 86_400_000) == false, "once")
            try expect(try store.completeTask(task.id, account: "nobody", atMilliseconds: t0) == false, "not theirs")
            try expect(try store.completeTask(task.id, account: nil, atMilliseconds: t0 + 5), "done")
            task.dueMilliseconds = t0 + 86_400_000
            task.firedMilliseconds = t0
            task.doneMilliseconds = t0 + 5
            let tasks = try store.tasks(account: nil)
            try expect(tasks == [task], "\(tasks)")
            try expect(try store.advanceTask(task.id, from: t0 + 86_400_000, to: nil) == false, "done: no more")

            let hook = AlertChannel.webhook(URL(string: "http://127.0.0.1:9/h")!, secret: "s")
            var alert = Alert(
                types: [.placeArrive, .cue], place: "home", quiet: "22:00-07:00", cooldown: 60, channel: hook)
            alert.id = try store.addAlert(alert, account: nil) ?? -1
            let mqtt = Alert(types: [.batteryLow], channel: .mqtt(host: "broker", port: 1884, topic: "a/b"))
            let second = try store.addAlert(mqtt, account: nil) ?? -1
            try expect(try store.alerts(account: nil).map(\.channel) == [hook, mqtt.channel], "both channels")
            let first = try store.alerts(account: nil)[0]
            try expect(first == alert, "as added: \(first)")
            let offer = [
                NewDelivery(alert: alert.id, key: "bike|1|place.arrive|home", payload: "{}", eventMilliseconds: t0),
                NewDelivery(alert: second, key: "bike|2|battery.low|", payload: "{}", eventMilliseconds: t0 + 9),
            ]
            try expect(try !store.hasDueDeliveries(nowMilliseconds: t0), "nothing due in an empty outbox")
            try expect(try store.enqueue(offer, nowMilliseconds: t0) == 2, "two deliveries")
            try expect(try store.hasDueDeliveries(nowMilliseconds: t0), "due once put in")
            try expect(try !store.hasDueDeliveries(nowMilliseconds: t0 - 1), "not before")
            try expect(try store.enqueue(offer, nowMilliseconds: t0 + 1) == 0, "offered again: none")
            try expect(try store.alerts(account: nil)[0].lastMilliseconds == t0, "the alert's last event")
            let claimed = try store.claimDeliveries(nowMilliseconds: t0, lease: 60_000, limit: 10)
            try expect(claimed.map(\.alert) == [alert.id, second], "both due")
            try expect(
                try store.claimDeliveries(nowMilliseconds: t0 + 1, lease: 60_000, limit: 10).isEmpty,
                "held by the lease")
            try expect(try !store.hasDueDeliveries(nowMilliseconds: t0 + 1), "nothing due while lent")
            try store.settleDelivery(claimed[0].id, .delivered(atMilliseconds: t0 + 2))
            try store.settleDelivery(claimed[1].id, .retry(atMilliseconds: t0 + 5_000, error: "down"))
            let retried = try store.claimDeliveries(nowMilliseconds: t0 + 5_000, lease: 60_000, limit: 10)
            try expect(retried.map(\.id) == [claimed[1].id] && retried[0].attempts == 1, "the failed one again")
            try store.settleDelivery(retried[0].id, .dropped(reason: "a day passed"))
            let counts = try store.alerts(account: nil).map(\.counts)
            try expect(
                counts == [DeliveryCounts(delivered: 1), DeliveryCounts(dropped: 1)], "counts: \(counts)")
            // One that came too late goes in dropped, never claimed; the log lists all, newest first.
            let late = NewDelivery(
                alert: alert.id, key: "bike|3|place.depart|home", payload: "{}", eventMilliseconds: t0, dropped: "late")
            try expect(try store.enqueue([late], nowMilliseconds: t0 + 6_000) == 1, "the late one")
            try expect(
                try store.claimDeliveries(nowMilliseconds: t0 + 7_000, lease: 60_000, limit: 10).isEmpty, "not sent")
            try expect(try !store.hasDueDeliveries(nowMilliseconds: t0 + 100_000), "nothing due: delivered or dropped")
            let log = try store.deliveries(account: nil, limit: 10)
            try expect(
                log.map(\.dropped) == ["late", "a day passed", nil] && log[2].deliveredMilliseconds == t0 + 2
                    && log[1].attempts == 1 && log[1].lastError == "down",
                "the log: \(log)")
            try expect(try store.deliveries(account: "nobody", limit: 10).isEmpty, "another account's: none")
            try expect(try store.removeScheduled(.alert, id: second, account: "nobody") == false, "not theirs")
            try expect(try store.removeScheduled(.alert, id: second, account: nil), "removed with its deliveries")
            try expect(try store.removeScheduled(.cue, id: cue.id, account: nil), "cue removed")
            try expect(try store.removeScheduled(.task, id: task.id, account: nil), "task removed")
            try expect(
                try store.cues(account: nil).isEmpty && store.tasks(account: nil).isEmpty
                    && store.alerts(account: nil).count == 1, "what is left")
        },
        Case(description: "points placed in any order, resent, give the segments and rides of the whole set") { store in
            let rule = PointPlacement(segmentGapSeconds: 30, rideGapSeconds: 600)
            // 300 times with gaps inside a segment (5 s), between segments (2 min), between rides (20 min).
            var times: [Int64] = []
            var t = t0
            for i in 0..<300 {
                t += i % 97 == 96 ? 1_200_000 : i % 41 == 40 ? 120_000 : 5_000
                times.append(t)
            }
            func points(_ ts: some Sequence<Int64>) -> [KeptPoint] {
                ts.map { KeptPoint(fix: makeFix($0, latitude: 47 + Double($0 - t0) * 1e-9), ride: 0, segment: 0) }
            }
            let ordered = store.makeWriter(device: try store.device(named: "ordered"))
            for batch in stride(from: 0, to: times.count, by: 15) {
                try ordered.place(points(times[batch..<min(batch + 15, times.count)]), drops: [:], rule: rule)
            }
            // Batches of 15 in a shuffled order (a fixed one), each sent twice, the second after the next.
            var order = Array(stride(from: 0, to: times.count, by: 15))
            var seed: UInt64 = 42
            for i in order.indices.reversed() {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                order.swapAt(i, Int(seed >> 33) % (i + 1))
            }
            let shuffled = store.makeWriter(device: try store.device(named: "shuffled"))
            var stored = 0
            for (k, batch) in order.enumerated() {
                let batchTimes = Array(times[batch..<min(batch + 15, times.count)]).reversed()
                // One point twice in the batch, as a phone's queue can hold it.
                stored += try shuffled.place(points(batchTimes + [batchTimes.first!]), drops: [:], rule: rule)
                if k > 0 {
                    let previous = order[k - 1]
                    stored += try shuffled.place(
                        points(times[previous..<min(previous + 15, times.count)]), drops: [:], rule: rule)
                }
            }
            try expect(stored == 300 && ordered.stored == 300, "each point once: \(stored), \(ordered.stored)")
            // The runs the gaps give: a new segment after more than 30 s, a new ride after more than 600 s.
            func runs(_ limit: Int64) -> [[Int64]] {
                var out: [[Int64]] = []
                for t in times {
                    if let last = out.last?.last, t - last <= limit {
                        out[out.count - 1].append(t)
                    } else {
                        out.append([t])
                    }
                }
                return out
            }
            for name in ["ordered", "shuffled"] {
                let rides = try store.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .named(name))
                let expectedRides = runs(600_000)
                try expect(
                    rides.map { [$0.startMilliseconds, $0.endMilliseconds, Int64($0.pointCount)] }
                        == expectedRides.map { [$0.first!, $0.last!, Int64($0.count)] },
                    "\(name): rides \(rides.map { ($0.startMilliseconds - t0, $0.pointCount) })")
                try expect(
                    rides.map(\.segmentCount)
                        == expectedRides.map { ride in runs(30_000).filter { ride.contains($0[0]) }.count },
                    "\(name): segments per ride \(rides.map(\.segmentCount))")
                let placed = try store.pointsWithSegments(
                    fromMilliseconds: .min, toMilliseconds: .max, devices: .named(name))
                var bySegment: [Int64: [Int64]] = [:]
                for p in placed { bySegment[p.segment, default: []].append(p.fix.unixMilliseconds!) }
                let segments = bySegment.values.map { $0.sorted() }.sorted { $0[0] < $1[0] }
                try expect(
                    segments == runs(30_000), "\(name): \(segments.count) segments, \(runs(30_000).count) expected")
            }
        },
    ]

    /// A 3D fix with 8 satellites at `ms`.
    static func makeFix(_ ms: Int64, latitude: Double = 47.37, longitude: Double = 8.54) -> Fix {
        var fix = Fix()
        UTCTimestamp.set(ms, on: &fix)
        fix.coordinate = Coordinate(latitude: latitude, longitude: longitude)
        fix.mode = .threeD
        fix.satellitesUsed = 8
        return fix
    }

    static func expect(_ condition: Bool, _ what: @autoclosure () -> String) throws {
        if !condition { throw Violation(description: what()) }
    }

    /// The value, or a violation naming `what` was missing.
    static func some<T>(_ value: T?, _ what: String) throws -> T {
        guard let value else { throw Violation(description: "no \(what)") }
        return value
    }
}
