import Foundation
import Testing
import TrailbookTestSupport

/// What a new user trips over in the first hour (issue 23, items 1-10), end to end.
@Suite struct FirstHourTests {
    func storeWithRide() throws -> (store: String, dir: String) {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/trailbook.sqlite"
        #expect(try run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        return (store, dir)
    }

    /// 1. Reading never makes a store: a mistyped path is exit 66 and names the default store.
    @Test func aMistypedStoreIsNotCreated() throws {
        let (store, dir) = try storeWithRide()
        for arguments in [
            ["rides"], ["points", "--day", "2026-06-14"], ["summary", "--day", "2026-06-14"], ["records"],
            ["report", "day", "2026-06-14", "-o", dir + "/day.html"], ["status"], ["day", "2026-06-14"],
            ["export", "--day", "2026-06-14", "--format", "gpx"],
        ] {
            let r = try run(arguments + ["--store", dir + "/nope/x.sqlite"], environment: ["TRAILBOOK_STORE": store])
            #expect(r.status == 66, "\(arguments): \(r.stderr)")
            #expect(r.stderr.contains("There is no store at \(dir)/nope/x.sqlite."))
            #expect(r.stderr.contains("The default store is \(store)"), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/nope"), "no folder made")
        #expect(!FileManager.default.fileExists(atPath: dir + "/day.html"), "no page written")
        // Without a default store the hint says how to make one.
        let none = try run(["rides", "--store", dir + "/other.sqlite"])
        #expect(none.status == 66 && none.stderr.contains("trailbook import FILE"), "\(none.stderr)")
        // Commands that store make it.
        let marked = try run(["mark", "--store", dir + "/new/s.sqlite", "--lat", "47", "--lon", "8"])
        #expect(marked.status == 0 && FileManager.default.fileExists(atPath: dir + "/new/s.sqlite"))
    }

    /// 2. A negative number is an option's value, as `--offset -30` and as `--offset=-30`.
    @Test func negativeValuesAreTaken() throws {
        let (store, dir) = try storeWithRide()
        try FileManager.default.createDirectory(atPath: dir + "/photos", withIntermediateDirectories: true)
        try TestPhotos.make(dir + "/photos/a.jpg", taken: "2026:06:14 06:40:30")
        for offset in [["--offset", "-30"], ["--offset=-30"]] {
            let r = try run(
                ["photo", "import", dir + "/photos", "--store", store, "--time-zone", "UTC", "--json"] + offset)
            #expect(r.status == 0, "\(offset): \(r.stderr)")
            #expect(r.stdout.contains("2026-06-14T06:40:00.000Z"), "30 s earlier: \(r.stdout)")
        }
        let south = try run(["mark", "--store", store, "--lat", "-33.9", "--lon", "-151.2", "--json"])
        #expect(south.status == 0 && south.stdout.contains("-33.9") && south.stdout.contains("-151.2"), "\(south)")
        // A value that must be positive says so.
        let negative = try run(["mark", "--store", store, "--within", "-5", "--at", "2026-06-14T06:40:00Z"])
        #expect(negative.status == 64 && negative.stderr.contains("--within must be a positive number"))
    }

    /// 3. Text that is not NMEA, and an empty file, are exit 65 and store or remember nothing.
    @Test func textAndEmptyFilesAreRefused() throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        let empty = dir + "/empty.nmea"
        FileManager.default.createFile(atPath: empty, contents: Data())
        let readme = try run(["import", "--store", store, "README.md"])
        #expect(readme.status == 65 && readme.stderr.contains("Nothing to import from README.md"), "\(readme)")
        #expect(!readme.stdout.contains("0 fixes read"))
        let decodeEmpty = try run(["decode", empty])
        #expect(decodeEmpty.status == 65 && decodeEmpty.stdout.isEmpty, "no header: \(decodeEmpty.stdout)")
        #expect(decodeEmpty.stderr.contains("it is empty"))
        let decodeText = try run(["decode", "README.md"])
        #expect(decodeText.status == 65 && decodeText.stdout.isEmpty)
        #expect(try run(["import", "--store", store, empty]).status == 65)
        // Nothing was remembered: the real log still imports.
        let sqlite = try run(["rides", "--store", store, "--json"])
        #expect(sqlite.stdout.contains("\"rides\" : [\n\n  ]") || !sqlite.stdout.contains("\"id\""), "\(sqlite)")
    }

    /// 4. One reader of dates: today/yesterday and plain dates everywhere, days that do not exist named.
    @Test func everyCommandReadsDatesTheSameWay() throws {
        let (store, _) = try storeWithRide()
        let bad = try run(["rides", "--store", store, "--day", "2026-02-30"])
        #expect(bad.status == 64 && bad.stderr.contains("February 2026 has no 30th"), "\(bad.stderr)")
        let month = try run(["report", "day", "2026-13-01", "--store", store])
        #expect(month.status == 64 && month.stderr.contains("'2026-13-01' is not a date; there is no month 13"))
        for arguments in [
            ["rides", "--day", "today"], ["rides", "--from", "yesterday", "--to", "today"],
            ["records", "--day", "yesterday"], ["day", "yesterday"],
        ] {
            let r = try run(arguments + ["--store", store])
            #expect(r.status == 0, "\(arguments): \(r.stderr)")
        }
        // rm --from takes a plain date (its local midnight), like every other --from.
        let range = try run([
            "rm", "--store", store, "--from", "2026-06-14", "--to", "2026-06-15", "--time-zone", "UTC", "--yes",
            "--json",
        ])
        #expect(range.status == 0 && range.stdout.contains("\"points\" : 1762"), "\(range)")
        let leap = try run(["rm", "--store", store, "--day", "2026-02-29", "--yes"])
        #expect(leap.status == 64 && leap.stderr.contains("February 2026 has no 29th"))
    }

    /// 5. Times printed for people carry their zone's offset.
    @Test func printedTimesShowTheirZone() throws {
        let (store, dir) = try storeWithRide()
        let zurich = ["--time-zone", "Europe/Zurich"]
        let mark = try run(["mark", "--store", store, "--at", "2026-06-14 08:40"] + zurich)
        #expect(mark.stdout.contains("2026-06-14 08:40:00 +02:00"), "\(mark.stdout)")
        let records = try run(["records", "--store", store, "--time-zone", "UTC"])
        #expect(records.stdout.contains("2026-06-14 06:40:00 UTC"), "the same moment in UTC: \(records.stdout)")
        let pause = try run(["pause", "--store", store, "--for", "1h"] + zurich)
        #expect(pause.stdout.range(of: #"paused until .* \+0[12]:00\."#, options: .regularExpression) != nil)
        let status = try run(["status", "--store", store] + zurich)
        #expect(status.stdout.range(of: #"Paused until .* \+0[12]:00\."#, options: .regularExpression) != nil)
        // A photo that finds nothing says in which zone its camera clock was read.
        try FileManager.default.createDirectory(atPath: dir + "/p", withIntermediateDirectories: true)
        try TestPhotos.make(dir + "/p/far.jpg", taken: "2026:06:20 12:00:00")
        let photo = try run(["photo", "import", dir + "/p", "--store", store] + zurich)
        #expect(photo.status == 65)
        #expect(photo.stdout.contains("2026-06-20 12:00:00 +02:00 (its camera clock read in Europe/Zurich)"))
        #expect(photo.stderr.contains("--time-zone") && photo.stderr.contains("--offset"))
    }

    /// 6. rm lists what goes before asking, and offers to remove only the note.
    @Test func removalSaysWhatGoes() throws {
        let (store, _) = try storeWithRide()
        let note = try run(["note", "add", "--store", store, "--at", "2026-06-14T06:45:00Z", "--text", "Heron"])
        #expect(note.status == 0)
        let asked = try run(["rm", "--store", store, "1"], input: Data())
        #expect(asked.status == 64)
        #expect(asked.stderr.contains("Record 1 and what it carries will be removed for good:"))
        #expect(asked.stderr.contains("the stored point at 2026-06-14 06:45:00 UTC of ride 1, which leaves its ride"))
        #expect(asked.stderr.contains("with 1 note") && asked.stderr.contains("trailbook note rm 1"), "\(asked.stderr)")
        let ride = try run(["rm", "--store", store, "--ride", "1"], input: Data())
        #expect(ride.stderr.contains("ride 1: 1762 points in 2 segments"), "\(ride.stderr)")
        #expect(ride.stderr.contains("1 record of its points with 1 note"))
    }

    /// 7. Messages name the option used; read-only commands do not take the collection rules.
    @Test func messagesNameTheRightOption() throws {
        let (store, _) = try storeWithRide()
        let whereOption = try run(["records", "--store", store, "--where", "weather"])
        #expect(whereOption.status == 64 && whereOption.stderr.contains("--where 'weather' has no KEY=VALUE form"))
        #expect(!whereOption.stderr.contains("--field"))
        let set = try run(["field", "set", "--store", store, "1", "novalue"])
        #expect(
            set.status == 64 && set.stderr.contains("'novalue' has no KEY=VALUE form") && !set.stderr.contains("--"))
        for command in [["points", "--ride", "1"], ["rides"]] {
            let r = try run(command + ["--store", store, "--interval", "60"])
            #expect(r.status == 64 && r.stderr.contains("Unknown option '--interval'"), "\(command)")
        }
    }

    /// 8. A piped note loses the newline that ends it, and nothing more.
    @Test func pipedNotesLoseTheirFinalNewline() throws {
        let (store, _) = try storeWithRide()
        let r = try run(
            ["note", "add", "--store", store, "--at", "2026-06-14T06:45:00Z", "--json"],
            input: Data("Two lines\nof text\n".utf8))
        #expect(r.status == 0 && r.stdout.contains(#""text" : "Two lines\nof text""#), "\(r.stdout)")
        let crlf = try run(
            ["note", "add", "--store", store, "--at", "2026-06-14T06:50:00Z", "--json"], input: Data("Windows\r\n".utf8)
        )
        #expect(crlf.stdout.contains(#""text" : "Windows""#), "\(crlf.stdout)")
    }

    /// 9. One ride, one segment: no "1 rides".
    @Test func countsTakeTheRightNumber() throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        let log = dir + "/short.nmea"
        #expect(try run(["simulate", "--duration", "120", "--seed", "3", "-o", log]).status == 0)
        let imported = try run(["import", "--store", store, log])
        #expect(imported.stdout.contains("1 ride, 1 segment;"), "\(imported.stdout)")
        let rides = try run(["rides", "--store", store])
        #expect(rides.stdout.contains("1 segment,") && !rides.stdout.contains("1 segments"), "\(rides.stdout)")
        let summary = try run(["summary", "1", "--store", store])
        #expect(summary.stdout.contains("1 segment, 0 gaps"), "\(summary.stdout)")
        let removed = try run(["rm", "--store", store, "--ride", "1", "--yes"])
        #expect(removed.stdout.contains(", 1 ride, 0 records,"), "\(removed.stdout)")
    }

    /// 10. -o naming a folder says what to do; an overlay without rides leaves no folder.
    @Test func outputsThatCannotBeWrittenSayWhy() throws {
        let (store, dir) = try storeWithRide()
        let export = try run(["export", "--store", store, "--day", "2026-06-14", "--format", "gpx", "-o", dir])
        #expect(export.status == 73 && export.stderr.contains("is a folder; give a file name, for example"))
        let overlay = try run([
            "report", "overlay", "--store", store, "--from", "2026-07-01", "--to", "2026-07-02", "-o", dir + "/ov",
        ])
        #expect(overlay.status == 66 && overlay.stderr.contains("No rides stored on those days"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/ov"), "no empty folder left")
    }
}

/// 11. Splits are moving time; the rest after the last full kilometre is labelled as such.
@Suite struct SplitLabelTests {
    @Test func splitsAreMovingTimeAndTheRestIsLabelled() throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        #expect(try run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        let text = try run(["summary", "1", "--store", store]).stdout
        #expect(text.contains("splits (moving time): km 1 "), "\(text)")
        #expect(text.range(of: #"last 0\.\d\d km \d:\d\d:\d\d"#, options: .regularExpression) != nil, "\(text)")
        #expect(!text.contains("km 15 "), "no partial split labelled as a full one")
        let json = try run(["summary", "1", "--store", store, "--json"]).stdout
        #expect(json.contains("\"partial\" : true") && json.contains("\"elapsed_s\""))
        let imperial = try run(["summary", "1", "--store", store, "--units", "imperial"]).stdout
        #expect(imperial.range(of: #"last 0\.\d\d mi "#, options: .regularExpression) != nil, "\(imperial)")
    }
}
