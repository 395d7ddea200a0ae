import Foundation
import GPSCore
import RideSimulator
import Testing
import TrackModel
import TrailbookTestSupport
import Visits

@testable import TrackStore
@testable import TrailbookKit

/// The kept timeline (issue 80, docs/TIMELINE.md): the stays and moves are rows the writes make
/// and every reader reads; a read makes none.
extension VisitsCommandTests {
    /// Each kept entry as its kind, times and mode (its id aside).
    static func kept(_ path: String, account: String? = nil) throws -> [String] {
        let store = try TrackStore(path: path)
        return try store.readNow { try $0.keptTimeline(fromMilliseconds: .min, toMilliseconds: .max, account: account) }
            .map { "\($0.kind) \($0.start) \($0.end) \($0.mode ?? "-")" }
    }

    /// What the store keeps of the timeline and of places, to compare before and after reads.
    static func keptState(_ path: String) throws -> String {
        let store = try TrackStore(path: path)
        return try store.readNow { tx in
            let entries = try tx.keptTimeline(fromMilliseconds: .min, toMilliseconds: .max, account: nil)
            return "\(entries.map(\.id)) \(entries) \(String(describing: try tx.keptTimelineState(account: nil))) "
                + "\(try tx.foundPlaces(account: nil)) \(try tx.corrections(account: nil))"
        }
    }

    /// Three files imported one after the other keep the same stays and moves as one rebuild of
    /// the whole (the redone edges leave no seam), in either order.
    @Test func importsKeepWhatARebuildOfTheWholeFinds() async throws {
        let parts = try files()
        let dir = try Samples.temporaryDirectory()
        for (name, order) in [("in-order", [0, 1, 2]), ("backwards", [2, 0, 1])] {
            let store = "\(dir)/\(name).sqlite"
            #expect(try Self.kept(store).isEmpty)
            for i in order {
                #expect(try await run(["import", "--store", store, parts[i]]).status == 0)
                #expect(!(try Self.kept(store)).isEmpty, "kept by the import of part \(i + 1)")
            }
            let byImports = try Self.kept(store)
            let rebuilt = try await run(["timeline", "rebuild", "--store", store, "--json"])
            #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(rebuilt.stdout.utf8)) as? [String: Any])
            let stays = Fortnight.simulator().truth.filter { $0.mode == nil }.count
            #expect(report["whole"] as? Bool == true && report["stays"] as? Int == stays, "\(report)")
            #expect(report["rules"] as? String == "radius 100 m, stay 300 s, gap 86400 s, accuracy 250 m")
            let whole = try Self.kept(store)
            #expect(whole.count == (report["stays"] as? Int ?? 0) + (report["moves"] as? Int ?? 0))
            #expect(byImports == whole, "\(name): \(byImports.difference(from: whole))")
        }
    }

    /// Two processes making one account's timeline (an import beside the server): a making that
    /// finds the kept state changed since it read keeps nothing and is made again from what is
    /// stored then.
    @Test func aMakingThatAnotherProcessOvertookKeepsNothing() async throws {
        let path = try Samples.temporaryDirectory() + "/s.sqlite"
        #expect(try await run(["import", "--store", path, try files()[0]]).status == 0)
        let store = try TrackStore(path: path)
        let rules = VisitRules()
        let read = try #require(try await store.read { try $0.keptTimelineState(account: nil) })
        let rows = try Self.kept(path)
        // Another process keeps the account's timeline (here: says it saw a newer point).
        #expect(
            try await TimelineKeeper.keep(
                [], from: 0, to: 0, through: read.through + 1, store: store, account: nil, rules: rules,
                expecting: read))
        // This one, from what it read before, finds it changed: nothing written.
        let stale = KeptEntry(
            kind: .stay, start: read.through - 1000, end: read.through, from: Fortnight.home, to: Fortnight.home,
            fixes: 2)
        #expect(
            try await !TimelineKeeper.keep(
                [stale], from: .min, to: .max, through: read.through, store: store, account: nil, rules: rules,
                expecting: read))
        #expect(try Self.kept(path) == rows, "the other process's rows stand")
        // A redo reads again and keeps.
        let first = try #require(rows.first?.split(separator: " ").dropFirst().first.flatMap { Int64($0) })
        _ = try await TimelineKeeper.redo(store: store, account: nil, from: first, to: first + 3_600_000, rules: rules)
        let now = try #require(try await store.read { try $0.keptTimelineState(account: nil) })
        #expect(now.through == read.through + 1 && now.version == read.version)
    }

    /// Reading writes nothing: every read command leaves the kept rows, their ids, the places
    /// and the corrections as they were.
    @Test func readsLeaveTheKeptTimelineAsItWas() async throws {
        let parts = try files()
        let store = try Samples.temporaryDirectory() + "/reads.sqlite"
        for part in parts { #expect(try await run(["import", "--store", store, part]).status == 0) }
        let before = try Self.keptState(store)
        let zone = ["--store", store, "--time-zone", "Europe/Zurich"]
        for command in [
            ["visits"], ["visits", "--day", "2026-06-03", "--json"], ["visits", "--places"], ["day", "2026-06-03"],
            ["timeline", "2026-06-03", "--json"], ["timeline", "show", "2026-06-04"], ["year", "2026"],
            ["summary", "--day", "2026-06-03"], ["report", "day", "2026-06-03", "-o", store + ".html"],
        ] {
            let result = try await run(command + zone)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(try Self.keptState(store) == before, "\(command) changed what is kept")
        }
    }

    /// A removal makes the kept entries of its time again; other rules are a rebuild of the whole,
    /// and until then a reader with those rules works the days out itself.
    @Test func aRemovalAndOtherRulesRedoWhatIsKept() async throws {
        let parts = try files()
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/rm.sqlite"
        for part in parts { #expect(try await run(["import", "--store", store, part]).status == 0) }
        let all = try Self.kept(store)
        // The last day removed (2026-06-14 in Zurich): what is kept ends before it.
        let removed = try await run([
            "rm", "--day", "2026-06-14", "--yes", "--store", store, "--time-zone", "Europe/Zurich",
        ])
        #expect(removed.status == 0, "\(removed.stderr)")
        let dayStart = Fortnight.start + 13 * 86_400_000
        let after = try Self.kept(store)
        let startOf = { (line: String) in Int64(line.split(separator: " ")[1])! }
        let endOf = { (line: String) in Int64(line.split(separator: " ")[2])! }
        #expect(after.count < all.count && after.allSatisfy { startOf($0) < dayStart }, "\(after.suffix(3))")
        #expect(after.last.map(endOf) ?? 0 <= dayStart, "the evening before ends by midnight: \(after.suffix(2))")
        #expect(Array(all.prefix(after.count - 1)) == Array(after.dropLast()), "what came before kept")

        // Other rules: a rebuild of those days is one of the whole, said so.
        let config = dir + "/config.toml"
        try "[visits]\nmin_duration = 600\n".write(toFile: config, atomically: true, encoding: .utf8)
        let shorter = try await run([
            "timeline", "rebuild", "--from", "2026-06-03", "--to", "2026-06-04", "--json", "--store", store, "--config",
            config,
        ])
        #expect(shorter.status == 0, "\(shorter.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(shorter.stdout.utf8)) as? [String: Any])
        #expect(
            report["whole"] as? Bool == true
                && report["rules"] as? String == "radius 100 m, stay 600 s, gap 86400 s, accuracy 250 m")
        let text = try await run(["timeline", "rebuild", "--store", store, "--config", config])
        #expect(text.status == 0 && text.stdout.hasPrefix("Kept the whole timeline: "), "\(text.stdout)")
        let state = try TrackStore(path: store).readNow { try $0.keptTimelineState(account: nil) }
        #expect(state?.rules.contains("stay 600 s") == true && state?.version == TimelineKeeper.version)
    }

    /// `timeline D --json` and `visits --json` name each stay and move by its kept row's id: the
    /// same in both, the same on every read, and kept when a later import adds other days.
    @Test func theDaysEntriesCarryTheirKeptIDs() async throws {
        let parts = try files()
        let store = try Samples.temporaryDirectory() + "/ids.sqlite"
        for part in parts.prefix(2) { #expect(try await run(["import", "--store", store, part]).status == 0) }
        let zone = ["--store", store, "--time-zone", "Europe/Zurich"]
        func timelineIDs() async throws -> [String: Int] {
            let result = try await run(["timeline", "2026-06-03", "--json"] + zone)
            #expect(result.status == 0, "\(result.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let entries = try #require(json["entries"] as? [[String: Any]])
            var ids: [String: Int] = [:]
            for e in entries where ["visit", "trip"].contains(e["kind"] as? String) {
                ids["\(e["kind"]!) \(e["start"]!)"] = e["id"] as? Int
            }
            return ids
        }
        let first = try await timelineIDs()
        #expect(first.count >= 5 && first.values.allSatisfy { $0 > 0 }, "\(first)")
        #expect(try await timelineIDs() == first, "the same ids on another read")
        let found = try await visits(store, ["--day", "2026-06-03"])
        let visitIDs = (found["visits"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
        let tripIDs = (found["trips"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? Int }
        #expect(Set(visitIDs + tripIDs).isSuperset(of: Set(first.values)), "visits --json names the same rows")
        // The last days imported: the 3rd keeps its rows.
        #expect(try await run(["import", "--store", store, parts[2]]).status == 0)
        #expect(try await timelineIDs() == first, "kept through an import of other days")
    }

    /// An export of days carries their stays and moves (docs/TIMELINE.md, "Exports"): a place's
    /// name and a mode put right come back with an import into a new store, in every format.
    @Test func anExportCarriesTheNamesAndModesOfItsDays() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/named.sqlite"
        let zone = ["--time-zone", "Europe/Zurich"]
        #expect(try await run(["import", "--store", store, try files()[0]]).status == 0)
        let places = try #require(try await visits(store)["places"] as? [[String: Any]])
        let canteen = try #require(
            places.first { p in
                Geodesy.haversineDistance(
                    Coordinate(latitude: p["lat"] as! Double, longitude: p["lon"] as! Double), Fortnight.canteen) < 50
            }?["id"] as? Int)
        #expect(try await run(["visit", "name", String(canteen), "Canteen", "--store", store] + zone).status == 0)
        let day = ["--day", "2026-06-03"]
        let ride = try #require((try await visits(store, day)["trips"] as? [[String: Any]])?.first)
        let start = try #require(GoogleImportTests.milliseconds(ride["start"] as! String))
        let corrected = try await run(
            ["visit", "mode", GoogleImportTests.iso(start + 120_000), "running", "--store", store] + zone)
        #expect(corrected.status == 0 && ride["mode"] as? String == "cycling", "\(corrected.stderr)")
        /// The day's stays (their names) and moves (their modes), as `visits` lists them.
        func listed(_ store: String) async throws -> (names: [String], modes: [String]) {
            let text = try await run(["visits", "--store", store] + day + zone)
            let found = try await visits(store, day)
            return (
                text.stdout.split(separator: "\n").filter { $0.contains("Canteen") }.map { _ in "Canteen" },
                (found["trips"] as? [[String: Any]] ?? []).compactMap { $0["mode"] as? String }
            )
        }
        let was = try await listed(store)
        #expect(!was.names.isEmpty && was.modes.first == "running", "\(was)")
        for format in ["gpx", "geojson", "csv", "json"] {
            let file = dir + "/day.\(format)"
            let exported = try await run(
                ["export", "--format", format, "-o", file, "--store", store] + day + zone)
            #expect(exported.status == 0, "\(format): \(exported.stderr)")
            let back = dir + "/back-\(format).sqlite"
            #expect(try await run(["import", "--store", back, file]).status == 0, "\(format)")
            let now = try await listed(back)
            #expect(now.names == was.names && now.modes == was.modes, "\(format): \(now), before \(was)")
            // Exported again, each stay and move is written once: not again from the records the
            // first export made.
            let again = dir + "/again.\(format)"
            #expect(try await run(["export", "--format", format, "-o", again, "--store", back] + day + zone).status == 0)
            let ends = try String(contentsOfFile: again, encoding: .utf8).matches(
                of: /until\W{1,4}(\d{4}-\d\d-\d\dT[\d:.]+Z)/
            ).map { String($0.output.1) }
            #expect(ends.count > 5 && Set(ends).count == ends.count, "\(format): \(ends)")
        }
    }

    /// A flight over midnight is counted once: the two days it touches split it at midnight, and
    /// their sum is the range of both (`summary --day`, `year --day`; docs/TIMELINE.md, "Midnight").
    @Test func aFlightOverMidnightCountsOnce() async throws {
        let store = try await Self.flightStore()
        func json(_ arguments: [String]) async throws -> [String: Any] { try await Self.zurichJSON(arguments, store) }
        func planeKilometres(_ days: [String]) async throws -> Double {
            let modes = try await json(["year"] + days)["by_mode"] as? [[String: Any]] ?? []
            return (modes.first { $0["mode"] as? String == "plane" }?["distance_m"] as? Double ?? 0) / 1000
        }
        func summaryKilometres(_ days: [String]) async throws -> Double {
            let summary = try await json(["summary"] + days)
            let total = summary["total"] as? [String: Any] ?? (summary["moves"] as? [[String: Any]])?.first
            return (total?["distance_m"] as? Double ?? 0) / 1000
        }
        let both = ["--from", "2026-06-10", "--to", "2026-06-11"]
        let (tenth, eleventh) = (["--day", "2026-06-10"], ["--day", "2026-06-11"])
        let flight = try await planeKilometres(both)
        let (a, b) = (try await planeKilometres(tenth), try await planeKilometres(eleventh))
        #expect(flight > 9000 && a > 0 && b > 0, "the flight \(flight) km: \(a) km on the 10th, \(b) km on the 11th")
        #expect(abs(a + b - flight) <= 0.01 * flight, "year: \(a) + \(b) for \(flight) km")
        let whole = try await summaryKilometres(both)
        let (c, d) = (try await summaryKilometres(tenth), try await summaryKilometres(eleventh))
        #expect(c > 0 && d > 0 && abs(c + d - whole) <= 0.01 * whole, "summary: \(c) + \(d) for \(whole) km")
        // One answer: each day's flight in `summary` is the one `year` counts (the kept move's,
        // the gap without fixes included), not only the way along its points.
        for (days, kilometres) in [(tenth, a), (eleventh, b), (both, flight)] {
            let moves = try await json(["summary"] + days)["moves"] as? [[String: Any]] ?? []
            let plane = moves.filter { $0["mode"] as? String == "plane" }.compactMap { $0["distance_m"] as? Double }
            #expect(
                abs(plane.reduce(0, +) / 1000 - kilometres) <= 0.01 * kilometres,
                "\(days): summary \(plane.reduce(0, +) / 1000) km by plane, year \(kilometres) km")
        }
        // The calendar shades the days by the moves' time, as `year` counts it: not the hours the
        // track covers, stays in Zurich and Tokyo included.
        let year = try await json(["year"] + both)["by_mode"] as? [[String: Any]] ?? []
        let moving = year.compactMap { $0["seconds"] as? Double }.reduce(0, +)
        let zurich = TimeZone(identifier: "Europe/Zurich")!
        let calendar = try await DiaryCalendar.load(
            2026, store: try TrackStore(path: store), zone: zurich, devices: .all, rules: VisitRules())
        let shaded = calendar.days.values.map(\.seconds).reduce(0, +)
        #expect(moving > 3600 && abs(shaded - moving) <= 0.01 * moving, "calendar \(shaded) s, year \(moving) s moving")
        let covered = try await DiaryCalendar.load(2026, store: try TrackStore(path: store), zone: zurich, devices: .all)
        #expect(covered.days.values.map(\.seconds).reduce(0, +) > shaded + 3600, "without the rules: the rides' hours")
    }
}

/// An export of days is a way back in (issue 80): three Takeout days exported in each format and
/// imported into a new store give the same day totals and the same stays.
extension WebPageTests {
    @Test func anExportOfDaysImportsBackToTheSameDays() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        let lived = Self.lived()
        #expect(try await run(["import", "--store", store, try takeout(lived)]).status == 0)
        let zone = ["--time-zone", "Europe/Zurich"]
        /// The day's total distance (m) and moving time (s) of `summary --day`, and its visits.
        func day(_ day: String, _ store: String) async throws -> (distance: Double, moving: Double, visits: Int) {
            let summary = try await run(["summary", "--day", day, "--json", "--store", store] + zone)
            #expect(summary.status == 0, "\(summary.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [String: Any])
            let total = try #require(json["total"] as? [String: Any] ?? (json["moves"] as? [[String: Any]])?.first)
            let visits = try await run(["visits", "--day", day, "--json", "--store", store] + zone)
            let found = try #require(try JSONSerialization.jsonObject(with: Data(visits.stdout.utf8)) as? [String: Any])
            return (
                total["distance_m"] as? Double ?? -1, total["moving_s"] as? Double ?? -1,
                (found["visits"] as? [Any])?.count ?? -1
            )
        }
        for format in ["gpx", "geojson", "csv", "json"] {
            let file = dir + "/days.\(format)"
            let exported = try await run(
                [
                    "export", "--from", "2026-06-01", "--to", "2026-06-03", "--format", format, "-o", file, "--store",
                    store,
                ]
                    + zone)
            #expect(exported.status == 0, "\(format): \(exported.stderr)")
            let back = dir + "/back-\(format).sqlite"
            let imported = try await run(["import", "--store", back, file])
            #expect(imported.status == 0, "\(format): \(imported.stderr)")
            for (i, date) in ["2026-06-01", "2026-06-02", "2026-06-03"].enumerated() {
                let (was, now) = (try await day(date, store), try await day(date, back))
                let truth = Self.truth(lived, day: i)
                #expect(
                    abs(now.distance - was.distance) <= 0.01 * was.distance
                        && abs(now.moving - was.moving) <= 0.01 * was.moving,
                    "\(format) \(date): \(now) after the round trip, \(was) before")
                #expect(abs(now.distance - truth.distance) <= 0.05 * truth.distance, "\(format) \(date): \(now)")
                #expect(now.visits == was.visits, "\(format) \(date): \(now.visits) stays, \(was.visits) before")
            }
        }
    }
}

extension WebPageTests {
    /// A phone's batch reaches the kept timeline within seconds: the server makes the entries of
    /// its time again a second after it (``TimelineUpkeep``), without a reader's help.
    @Test func aPhonesBatchIsKeptWithinSeconds() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana"], store: store)
        let token = try await deviceToken("phone", user: "ana", store: store)
        let server = try ServeCommandTests.RunningServer(store: store)
        defer { _ = server.stop() }
        // Half an hour at home (a point a minute), ten minutes' walk (one each 10 s), half an hour at a café.
        let home = Coordinate(latitude: 47.3700, longitude: 8.5400)
        let cafe = Geodesy.destination(from: home, bearing: 60, distance: 900)
        let start = (UTCTimestamp.now() / 60_000 - 120) * 60_000
        var points: [(Int64, Coordinate)] = (0..<30).map { (start + Int64($0) * 60_000, home) }
        points += (1...60).map { i in
            (
                start + 1_800_000 + Int64(i) * 10_000,
                Geodesy.destination(from: home, bearing: 60, distance: 15 * Double(i))
            )
        }
        points += (1...30).map { (start + 2_400_000 + Int64($0) * 60_000, cafe) }
        let features = points.map { t, c in
            """
            {"type":"Feature","geometry":{"type":"Point","coordinates":[\(c.longitude),\(c.latitude)]},\
            "properties":{"timestamp":"\(GoogleImportTests.iso(t))","horizontal_accuracy":8}}
            """
        }
        let batch = "{\"locations\":[\(features.joined(separator: ","))]}"
        let answer = try await HTTP.exchange(
            server.url!.appendingPathComponent("overland"), method: "POST", body: Data(batch.utf8),
            headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"])
        #expect(answer.status == 200, "\(answer.body)")
        let last = points.last!.0
        let opened = try TrackStore(path: store)
        let deadline = ContinuousClock.now + .seconds(60)
        var state: KeptTimelineState?
        while ContinuousClock.now < deadline {
            state = try opened.readNow { try $0.keptTimelineState(account: "ana") }
            if let state, state.through >= last { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(state?.through == last, "kept through the batch's last point: \(String(describing: state))")
        let kept = try opened.readNow {
            try $0.keptTimeline(fromMilliseconds: .min, toMilliseconds: .max, account: "ana")
        }
        #expect(kept.map(\.kind) == [.stay, .move, .stay], "\(kept)")
        #expect(kept.first { $0.kind == .move }?.mode == "walking", "\(kept)")
    }
}
