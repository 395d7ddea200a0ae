import Foundation
import Testing
import TrailbookTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The diary commands end to end: mark, note, photo, field, records, day, rm.
@Suite struct DiaryCommandTests {
    /// A store holding the sample ride (06:30-07:00 UTC on 2026-06-14), and its folder.
    func storeWithRide() async throws -> (store: String, dir: String) {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/trailbook.sqlite"
        #expect(try await run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        return (store, dir)
    }

    func json(_ result: RunResult) throws -> [String: Any] {
        #expect(result.status == 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    func records(_ store: String, _ extra: [String] = []) async throws -> [[String: Any]] {
        try #require(try await json(run(["records", "--store", store, "--json"] + extra))["records"] as? [[String: Any]])
    }

    let utc = ["--time-zone", "UTC"]

    @Test func markAtAPlaceOrAtAStoredFix() async throws {
        let (store, _) = try await storeWithRide()
        let manual = try await json(
            run(["mark", "--store", store, "--lat", "46.5", "--lon", "7.25", "--at", "2026-06-14T09:00:00Z", "--json"]))
        #expect(manual["id"] as? Int == 1 && manual["manual"] as? Bool == true)
        #expect(manual["lat"] as? Double == 46.5 && manual["time"] as? String == "2026-06-14T09:00:00.000Z")
        // Local HH:MM in the zone, on the stored fix nearest that time.
        let atFix = try await json(
            run(["mark", "--store", store, "--at", "2026-06-14 08:45", "--time-zone", "Europe/Zurich", "--json"]))
        #expect(atFix["time"] as? String == "2026-06-14T06:45:00.000Z")
        let points = try await run(["points", "--store", store, "--day", "2026-06-14"] + utc).stdout
        let row = try #require(points.split(separator: "\n").first { $0.hasPrefix("2026-06-14T06:45:00.000Z") })
        let lat = Double(row.split(separator: ",")[2])!
        #expect(abs((atFix["lat"] as? Double ?? 0) - lat) < 1e-7)

        let noFix = try await run(["mark", "--store", store])
        #expect(noFix.status == 65)
        #expect(noFix.stderr.contains("There is no recent fix"))
        let far = try await run(["mark", "--store", store, "--at", "2026-06-14T12:00:00Z"])
        #expect(far.status == 65)
        #expect(far.stderr.contains("No stored fix lies within 60 s"))
        let badTime = try await run(["mark", "--store", store, "--at", "tomorrow-ish"])
        #expect(badTime.status == 64)
        #expect(badTime.stderr.contains("--at 'tomorrow-ish' is not a time; use ISO 8601"))
        let badField = try await run(["mark", "--store", store, "--lat", "1", "--lon", "2", "--field", "sunny"])
        #expect(badField.status == 64)
        #expect(badField.stderr.contains("has no KEY=VALUE form"))
        #expect(try await records(store).count == 2, "nothing half-written by the failures")
    }

    @Test func notesFromTextFileStdinAndEditorEditAndDelete() async throws {
        let (store, dir) = try await storeWithRide()
        // --at a time between two points: the nearest stored point becomes a record.
        let added = try await run(
            ["note", "add", "--store", store, "--at", "2026-06-14 06:40:00", "--text", "Saw a heron\nby the river"]
                + utc + ["--json"])
        let record = try json(added)
        #expect(record["manual"] as? Bool == false && record["time"] as? String == "2026-06-14T06:40:00.000Z")
        let id = try #require(record["id"] as? Int)
        let file = dir + "/long.txt"
        let long = String(repeating: "Ünïcödé ✓ line\n", count: 2000)
        try long.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try await run(["note", "add", "--store", store, String(id), "--file", file]).status == 0)
        #expect(try await run(["note", "add", "--store", store, String(id)], input: Data("from stdin".utf8)).status == 0)
        var notes = try #require(try await records(store).first?["notes"] as? [[String: Any]])
        // The line end that ends the file is not part of the note; the others are.
        #expect(
            notes.map { $0["text"] as? String } == ["Saw a heron\nby the river", String(long.dropLast()), "from stdin"])

        // Edit through $EDITOR (a script that rewrites the file it is given).
        let editor = dir + "/editor.sh"
        try "#!/bin/sh\nprintf 'edited in the editor' > \"$1\"\n".write(
            toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        let noteID = try #require(notes[0]["id"] as? Int)
        #expect(try await run(["note", "edit", "--store", store, String(noteID), "--text", "A grey heron"]).status == 0)
        notes = try #require(try await records(store).first?["notes"] as? [[String: Any]])
        #expect(notes[0]["text"] as? String == "A grey heron")
        let day = try await run(["day", "2026-06-14", "--store", store, "--edit"], environment: ["EDITOR": editor])
        #expect(day.status == 0, "\(day.stderr)")
        #expect(
            try await json(run(["day", "2026-06-14", "--store", store, "--json"] + utc))["summary"] as? String
                == "edited in the editor")

        #expect(try await run(["note", "rm", "--store", store, String(noteID)]).status == 0)
        #expect((try await records(store).first?["notes"] as? [[String: Any]])?.count == 2)
        let missing = try await run(["note", "rm", "--store", store, "999"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("There is no note 999"))
        let nowhere = try await run(["note", "add", "--store", store, "--at", "2026-06-15T06:00:00Z", "--text", "x"])
        #expect(nowhere.status == 65)
        #expect(nowhere.stderr.contains("No record or stored point lies within 120 s"))
        let unknown = try await run(["note", "add", "--store", store, "77", "--text", "x"])
        #expect(unknown.status == 66)
        #expect(unknown.stderr.contains("There is no record 77"))
    }

    @Test func fieldsSortAndFilterWithNumbersAsNumbers() async throws {
        let (store, _) = try await storeWithRide()
        for (minute, weight, weather) in [("35", "12.5", "sunny"), ("45", "9", "rain"), ("55", "100", "sunny")] {
            let r = try await run(
                [
                    "mark", "--store", store, "--at", "2026-06-14T06:\(minute):00Z", "--field", "weight_kg=\(weight)",
                    "--field", "weather=\(weather)",
                ])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let byWeight = try await records(store, ["--sort", "weight_kg"])
        #expect(byWeight.map { ($0["fields"] as? [String: Any])?["weight_kg"] as? Double } == [9, 12.5, 100])
        let sunny = try await records(store, ["--where", "weather=sunny", "--sort", "weight_kg", "--reverse"])
        #expect(sunny.map { ($0["fields"] as? [String: Any])?["weight_kg"] as? Double } == [100, 12.5])
        let id = try #require(sunny[0]["id"] as? Int)
        #expect(try await run(["field", "set", "--store", store, String(id), "attendees=Ana, Ben"]).status == 0)
        #expect(try await run(["field", "rm", "--store", store, String(id), "weather"]).status == 0)
        let fields = try #require(
            try await records(store, ["--where", "attendees=Ana, Ben"]).first?["fields"] as? [String: Any])
        #expect(fields["weather"] == nil && fields["weight_kg"] as? Double == 100)
        #expect(try await run(["field", "rm", "--store", store, String(id), "nope"]).status == 66)
        // --all lists every plain point too: 1762 points and the 3 marks.
        #expect(try await records(store, ["--all"]).count == 1762 + 3)
    }

    @Test func photosAreCopiedOnceAndGeotaggedByTime() async throws {
        let (store, dir) = try await storeWithRide()
        let media = dir + "/trailbook-media"
        // Camera clock 5 minutes slow, no offset tag: read in Europe/Zurich, corrected by --offset.
        try TestPhotos.make(dir + "/a.jpg", taken: "2026:06:14 08:35:00")
        // GPS tags, taken far from the ride: a new record at its position.
        try TestPhotos.make(
            dir + "/b.jpg", taken: "2026:06:14 12:00:00", offset: "+02:00", gps: (46.0, 7.5, 1500),
            gpsUTC: "2026:06:14 10:00:00", colour: 1)
        // No GPS, far from anything: skipped.
        try TestPhotos.make(dir + "/c.jpg", taken: "2026:06:15 12:00:00", colour: 2)
        let imported = try await run(
            ["photo", "import", "--store", store, dir, "--offset", "300", "--json", "--time-zone", "Europe/Zurich"])
        #expect(imported.status == 65, "one photo found no record")
        let outcomes = try #require(
            (try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])?["photos"]
                as? [[String: Any]])
        #expect(outcomes.count == 3)
        #expect(
            outcomes[0]["taken"] as? String == "2026-06-14T06:40:00.000Z" && outcomes[0]["created"] as? Bool == false)
        #expect(outcomes[1]["created"] as? Bool == true)
        #expect((outcomes[2]["skipped"] as? String)?.contains("no GPS position") == true)
        #expect(imported.stderr.contains("Some photos found no record"))

        let list = try await records(store)
        #expect(list.count == 2)
        #expect((list[1]["lat"] as? Double).map { abs($0 - 46) < 1e-6 } == true)
        // The same photo on another record is stored once.
        let first = try #require(list[0]["id"] as? Int)
        let second = try #require(list[1]["id"] as? Int)
        #expect(try await run(["photo", "add", "--store", store, String(second), dir + "/a.jpg"]).status == 0)
        let files = try FileManager.default.subpathsOfDirectory(atPath: media).filter { $0.hasSuffix(".jpg") }
        #expect(files.count == 2)
        // Removing one record keeps the file the other still uses; removing both deletes it.
        _ = try await run(["rm", "--store", store, String(first), "--yes"])
        #expect(try FileManager.default.subpathsOfDirectory(atPath: media).filter { $0.hasSuffix(".jpg") }.count == 2)
        let removed = try await json(run(["rm", "--store", store, String(second), "--yes", "--json"]))
        #expect(removed["photo_files_deleted"] as? Int == 2)
        #expect(try FileManager.default.subpathsOfDirectory(atPath: media).filter { $0.hasSuffix(".jpg") }.isEmpty)

        // Not a JPEG, or missing: nothing stored.
        let png = dir + "/x.png"
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: URL(fileURLWithPath: png))
        let mark = try await json(run(["mark", "--store", store, "--lat", "1", "--lon", "2", "--json"]))
        let id = String(try #require(mark["id"] as? Int))
        let notJPEG = try await run(["photo", "add", "--store", store, id, png])
        #expect(notJPEG.status == 65)
        #expect(notJPEG.stderr.contains("it is not a JPEG (a PNG image); Trailbook stores JPEG photos"))
        let missing = try await run(["photo", "add", "--store", store, id, dir + "/gone.jpg"])
        #expect(missing.status == 66)
        #expect((try await records(store).last?["photos"] as? [Any])?.isEmpty == true)
    }

    @Test func removedNoteTextIsGoneFromTheStoreFile() async throws {
        let (store, _) = try await storeWithRide()
        let secret = "SECRET-\(UUID().uuidString)-meeting place"
        let mark = try await json(
            run([
                "mark", "--store", store, "--at", "2026-06-14T06:50:00Z", "--note", secret, "--field",
                "who=\(secret)", "--json",
            ]))
        let id = String(try #require(mark["id"] as? Int))
        func fileContains(_ text: String) throws -> Bool {
            let needle = Data(text.utf8)
            for path in [store, store + "-wal"] where FileManager.default.fileExists(atPath: path) {
                if try Data(contentsOf: URL(fileURLWithPath: path)).range(of: needle) != nil { return true }
            }
            return false
        }
        #expect(try fileContains(secret), "the text is in the file before removal")
        let refused = try await run(["rm", "--store", store, id])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("pass --yes to confirm"))
        let removed = try await json(run(["rm", "--store", store, id, "--yes", "--json"]))
        #expect(removed["records"] as? Int == 1 && removed["notes"] as? Int == 1 && removed["fields"] as? Int == 1)
        let stillThere = try fileContains(secret)
        #expect(!stillThere, "the removed text is overwritten, not just unlinked")
        #expect(try await run(["rm", "--store", store, id, "--yes"]).status == 66)
        // A day or range that is not one is said before the store is looked for.
        let gone = store + ".gone"
        for (arguments, words) in [
            (["--day", "2026-13-45"], "--day"),
            (["--from", "2026-06-14T10:00", "--to", "2026-06-14T09:00"], "--to must be after --from"),
        ] {
            let bad = try await run(["rm", "--store", gone, "--yes"] + arguments)
            #expect(bad.status == 64 && bad.stderr.contains(words), "\(bad.stderr)")
        }
    }

    @Test func removalAsksOnATerminal() async throws {
        let (store, dir) = try await storeWithRide()
        let mark = try await json(run(["mark", "--store", store, "--lat", "1", "--lon", "2", "--json"]))
        let id = String(try #require(mark["id"] as? Int))
        let terminal = try PseudoTerminal(linkPath: dir + "/tty")
        let declined = try runBinary(["rm", "--store", store, id], input: Data("n\n".utf8), terminal: terminal)
        #expect(declined.status == 0)
        #expect(declined.stderr.contains("Remove? [y/N]"), "the question is asked: \(declined.stderr)")
        #expect(declined.stderr.contains("Nothing removed."))
        #expect(try await records(store).count == 1, "answering n keeps the record")
        let empty = try runBinary(["rm", "--store", store, id], input: Data("\n".utf8), terminal: terminal)
        #expect(empty.status == 0 && empty.stderr.contains("Nothing removed."), "the default is No")
        #expect(try await records(store).count == 1)
        let accepted = try runBinary(["rm", "--store", store, id], input: Data("y\n".utf8), terminal: terminal)
        #expect(accepted.status == 0, "\(accepted.stderr)")
        #expect(try await records(store).isEmpty, "answering y removes it")
    }

    @Test func removeRideDayAndRange() async throws {
        let (store, _) = try await storeWithRide()
        let range = try await json(
            run([
                "rm", "--store", store, "--from", "2026-06-14T06:30:00Z", "--to", "2026-06-14T06:40:00Z", "--yes",
                "--json",
            ]))
        #expect(range["points"] as? Int == 600)
        let rides = try await json(run(["rides", "--store", store, "--json"]))["rides"] as? [[String: Any]]
        #expect(rides?.first?["start"] as? String == "2026-06-14T06:40:00Z")
        #expect(rides?.first?["points"] as? Int == 1762 - 600)
        _ = try await run(["day", "2026-06-14", "--store", store, "--summary", "A short ride"])
        _ = try await run(["mark", "--store", store, "--lat", "1", "--lon", "2", "--at", "2026-06-14T20:00:00Z"])
        let day = try await json(run(["rm", "--store", store, "--day", "2026-06-14", "--yes", "--json"] + utc))
        #expect(day["points"] as? Int == 1162 && day["rides"] as? Int == 1 && day["records"] as? Int == 1)
        #expect(day["day_summaries"] as? Int == 1)
        #expect(try await run(["rides", "--store", store]).stdout.contains("No rides stored"))

        let (other, _) = try await storeWithRide()
        let ride = try await json(run(["rm", "--store", other, "--ride", "1", "--yes", "--json"]))
        #expect(ride["points"] as? Int == 1762 && ride["rides"] as? Int == 1)
        #expect(try await run(["rm", "--store", other, "--ride", "1", "--yes"]).status == 66)
    }

    @Test func recordKindsAreCheckedAndSortedInSI() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/kinds.sqlite"
        let config = dir + "/kinds.toml"
        try """
        [kinds.catch]
        species = { type = "choice", values = ["pike", "perch", "trout", "carp"], required = true }
        weight  = { type = "mass", min = "0 kg", max = "100 kg" }
        """.write(toFile: config, atomically: true, encoding: .utf8)
        func mark(_ fields: [String], at time: String = "2026-06-01T06:00:00Z") async throws -> RunResult {
            try await run(
                [
                    "mark", "--kind", "catch", "--config", config, "--store", store, "--lat", "47", "--lon", "8",
                    "--at", time,
                ]
                    + fields.flatMap { ["--field", $0] })
        }
        #expect(try await mark(["species=pike", "weight=5.5lb"]).status == 0)
        #expect(try await mark(["species=perch", "weight=3kg"], at: "2026-06-01T07:00:00Z").status == 0)
        #expect(try await mark(["species=carp", "weight=2000 g"], at: "2026-06-01T08:00:00Z").status == 0)
        for (fields, words) in [
            (["weight=2kg"], "Field species is required for a catch"),
            (["species=salmon"], "\"salmon\" is not one of pike, perch, trout, carp"),
            (["species=pike", "weight=120kg"], "above the maximum 100 kg"),
            (["species=pike", "weight=30cm"], "\"cm\" is not a unit of mass"),
        ] {
            let r = try await mark(fields)
            #expect(
                r.status == 65 && r.stderr.contains(words) && r.stderr.contains("Nothing was stored"), "\(r.stderr)")
        }
        let unknown = try await run([
            "mark", "--kind", "fish", "--config", config, "--store", store, "--lat", "47", "--lon", "8",
        ])
        #expect(unknown.status == 64 && unknown.stderr.contains("no record kind fish"), "\(unknown.stderr)")
        // Three stored, none of the refused ones; by weight in SI: 2000 g, 5.5 lb (2.49 kg), 3 kg.
        let listed = try await run([
            "records", "--kind", "catch", "--sort", "weight", "--config", config, "--store", store, "--json",
        ])
        let records =
            (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])?["records"]
            as? [[String: Any]] ?? []
        #expect(
            records.map { ($0["fields"] as? [String: Any])?["weight"] as? String } == ["2000 g", "5.5lb", "3kg"],
            "\(listed.stdout)\(listed.stderr)")
        #expect(records.allSatisfy { ($0["fields"] as? [String: Any])?["kind"] as? String == "catch" })
        let bySpecies = try await run([
            "records", "--kind", "catch", "--sort", "species", "--reverse", "--config", config, "--store", store,
        ])
        let order = bySpecies.stdout.split(separator: "\n").filter { $0.contains("species=") }.map {
            $0.contains("species=pike") ? "pike" : $0.contains("species=perch") ? "perch" : "carp"
        }
        #expect(order == ["pike", "perch", "carp"], "\(bySpecies.stdout)")
    }
}
