import Foundation
import GPSCore
import RideSimulator
import Testing
import TrackStore
import TrailbookKit
import TrailbookTestSupport
import Visits

/// The edits of the timeline's shape by CLI (issue 82): each is kept, shown by `visits`,
/// survives a detection redone with other settings and a re-import, and `visit undo` takes it
/// back. The day is the simulated fortnight's 3rd of June: home, a ride to work, work, a walk
/// to the canteen at noon and back, work, a drive out in the evening and back home.
extension VisitsCommandTests {
    /// The day's visits as local "HH:mm–HH:mm" spans.
    func stays(_ store: String, _ extra: [String] = []) async throws -> [String] {
        let found = try await visits(store, ["--day", "2026-06-03"] + extra)
        let zurich = TimeZone(identifier: "Europe/Zurich")!
        func clock(_ value: Any?) -> String {
            GoogleImportTests.milliseconds(value as? String ?? "").map { LocalTime.clock($0, zone: zurich) } ?? "?"
        }
        return (found["visits"] as? [[String: Any]] ?? []).map { "\(clock($0["start"]))–\(clock($0["end"]))" }
    }

    @Test func editsOfTheDayStandThroughRedetectionAndUndo() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/edits.sqlite"
        let file = try files()[0]
        #expect(try await run(["import", "--store", store, file]).status == 0)
        let zone = ["--store", store, "--time-zone", "Europe/Zurich"]
        func edit(_ arguments: [String]) async throws -> [String: Any] {
            let result = try await run(["visit"] + arguments + zone + ["--json"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }
        let detected = try await stays(store)
        #expect(detected.contains("12:04–12:45") && detected.contains("07:41–12:00"), "\(detected)")

        // The canteen at noon never happened: the walks there and back are one.
        let removed = try await edit(["rm", "2026-06-03 12:20"])
        #expect(removed["kind"] as? String == "visit" && removed["correction"] as? Int != nil, "\(removed)")
        var now = try await stays(store)
        #expect(!now.contains("12:04–12:45"), "\(now)")
        let trips = try #require(try await visits(store, ["--day", "2026-06-03"])["trips"] as? [[String: Any]])
        let noon = try #require(GoogleImportTests.milliseconds("2026-06-03T10:20:00.000Z"))
        #expect(
            trips.contains { t in
                (GoogleImportTests.milliseconds(t["start"] as? String ?? "") ?? .max) < noon
                    && (GoogleImportTests.milliseconds(t["end"] as? String ?? "") ?? .min) > noon
                    && t["mode"] as? String == "walking"
            }, "one walk over noon: \(trips)")
        // Work before and after it is one stay, from ten to eight (the ride took longer) to five.
        _ = try await edit(["merge", "2026-06-03 09:00", "2026-06-03 14:00"])
        _ = try await edit(["times", "2026-06-03 10:00", "--from", "2026-06-03 07:50", "--to", "2026-06-03 17:00"])
        // Split at half past twelve (a meeting elsewhere in the building), and a missed stop at
        // a shop in the evening.
        _ = try await edit(["split", "2026-06-03 10:00", "--at", "2026-06-03 12:30"])
        _ = try await edit(
            ["add", "--at", "47.3705,8.5390", "--from", "2026-06-03 19:00", "--to", "2026-06-03 19:30"])
        now = try await stays(store)
        #expect(now.contains("07:50–12:30") && now.contains("12:30–17:00") && now.contains("19:00–19:30"), "\(now)")
        #expect(!now.contains { $0.hasPrefix("07:41") || $0.hasPrefix("12:49") }, "\(now)")
        let edited = now

        // Detected again with other settings: the edits stand.
        let config = dir + "/other.toml"
        try "[time]\nzone = \"Europe/Zurich\"\n[visits]\nmin_duration = 240\nradius = 90\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        #expect(try await run(["timeline", "rebuild", "--store", store, "--config", config]).status == 0)
        #expect(try await stays(store, ["--config", config]) == edited, "with other settings")
        // And imported again (the same file, stored anew): they stand.
        #expect(try await run(["import", "--store", store, "--reimport", file]).status == 0)
        #expect(try await stays(store) == edited, "after the file was imported again")
        // Every reader of the day: the timeline lists the same stays.
        let timeline = try await run(["timeline", "2026-06-03"] + zone)
        #expect(
            timeline.stdout.contains("07:50–12:30") && timeline.stdout.contains("19:00–19:30"), "\(timeline.stdout)")

        // The calendar reads the moves as edited: the evening's drive out removed (its stays are
        // kilometres apart: a gap, no stay joined), the day has ten minutes less moving.
        func moving() async throws -> Double {
            let calendar = try await DiaryCalendar.load(
                2026, store: try TrackStore(path: store), zone: TimeZone(identifier: "Europe/Zurich")!,
                devices: .all, rules: VisitRules())
            return calendar.days[CivilDate(unchecked: 2026, 6, 3)]?.seconds ?? -1
        }
        let before = try await moving()
        _ = try await edit(["rm", "2026-06-03 17:35"])
        let after = try await moving()
        #expect(before > 1800 && after < before - 300, "moving \(before) s, then \(after) s")

        // Each is listed, and taken back one by one: the day as detected again.
        let list = try await run(["visit", "corrections", "--json"] + zone)
        let corrections = try #require(
            (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [String: Any])?["corrections"]
                as? [[String: Any]])
        #expect(
            Set(corrections.compactMap { $0["kind"] as? String }) == ["remove", "merge", "times", "split", "add"],
            "\(corrections)")
        #expect(corrections.allSatisfy { GoogleImportTests.milliseconds($0["made"] as? String ?? "") != nil })
        for c in corrections {
            #expect(try await run(["visit", "undo", String(c["id"] as? Int ?? 0)] + zone).status == 0)
        }
        #expect(try await stays(store) == detected)
    }

    @Test func anEditThatCannotBeSaysWhyAndKeepsNothing() async throws {
        let store = try Samples.temporaryDirectory() + "/bad.sqlite"
        #expect(try await run(["import", "--store", store, try files()[0]]).status == 0)
        let zone = ["--store", store, "--time-zone", "Europe/Zurich"]
        for (arguments, status, words) in [
            (["rm", "2026-05-01 12:00"], Int32(66), "Neither a visit nor a trip was found at"),
            (
                ["times", "2026-06-03 10:00", "--from", "2026-06-03 11:00", "--to", "2026-06-03 09:00"], 64,
                "end before"
            ),
            (["merge", "2026-06-03 09:00", "2026-06-03 10:00"], 64, "both moments are in the same visit"),
            (["split", "2026-06-03 10:00", "--at", "2026-06-03 06:00"], 64, "split it at a moment between"),
            (["add", "--at", "99,8", "--from", "2026-06-03 10:00", "--to", "2026-06-03 11:00"], 64, "LAT,LON"),
            (
                ["add", "--place", "place 999", "--from", "2026-06-03 10:00", "--to", "2026-06-03 11:00"], 66,
                "no place"
            ),
        ] {
            let result = try await run(["visit"] + arguments + zone)
            #expect(result.status == status && result.stderr.contains(words), "\(arguments): \(result.stderr)")
        }
        let list = try await run(["visit", "corrections"] + zone)
        #expect(list.stdout.contains("No corrections yet"), "\(list.stdout)")
    }
}
