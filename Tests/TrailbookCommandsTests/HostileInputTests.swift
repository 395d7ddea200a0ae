import Foundation
import Testing
import TrailbookTestSupport

/// Files users find somewhere: each gets a clear error or safe handling, in bounded memory, with
/// nothing stored half-way and nothing written outside the store and the chosen output.
@Suite struct HostileInputTests {
    /// Runs trailbook under /usr/bin/time and returns the result and the peak RSS in MB.
    func measured(_ arguments: [String]) throws -> (result: RunResult, peakMB: Double) {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/time") else {
            throw RunError("/usr/bin/time is missing: sudo apt-get install time (make test does this).")
        }
        let dir = try Samples.temporaryDirectory()
        let result = try runBinary(arguments, prefix: ["/usr/bin/time", "-f", "%M", "-o", dir + "/rss"])
        let kb =
            Double(try String(contentsOfFile: dir + "/rss", encoding: .utf8).split(separator: "\n").last ?? "0") ?? 0
        return (result, kb / 1024)
    }

    /// Writes `count` bytes made of `unit` repeated to `path`, in 1 MB blocks.
    func write(_ path: String, prefix: String = "", unit: String, count: Int, suffix: String = "") throws {
        FileManager.default.createFile(atPath: path, contents: Data(prefix.utf8))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        let block = Data(String(repeating: unit, count: (1 << 20) / unit.utf8.count).utf8)
        var written = 0
        while written < count {
            handle.write(block)
            written += block.count
        }
        handle.write(Data(suffix.utf8))
        try handle.close()
    }

    @Test func tenMegabytesOfNMEAWithoutANewline() async throws {
        let dir = try Samples.temporaryDirectory()
        // Text that never starts a sentence: nothing to decode, nothing stored.
        let text = dir + "/one-line.txt"
        try write(text, unit: "GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", count: 10 << 20)
        let (decode, decodeMB) = try measured(["decode", text])
        #expect(decode.status == 65)
        #expect(decode.stderr.contains("No NMEA sentences found"), "\(decode.stderr)")
        #expect(decodeMB < 64, "peak RSS \(decodeMB) MB")
        let store = dir + "/s.sqlite"
        let (imported, importMB) = try measured(["import", "--store", store, text])
        #expect(imported.status == 65)
        #expect(importMB < 64, "peak RSS \(importMB) MB")
        #expect(try await run(["rides", "--store", store]).stdout.contains("No rides stored"))
        // Sentences run together without line ends (and without checksums): each `$` ends the
        // one before, so they decode, one candidate of at most 130 bytes at a time.
        let run = dir + "/run-together.nmea"
        try write(run, unit: "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", count: 10 << 20)
        let (together, togetherMB) = try measured(["decode", "--date", "2026-06-14", run])
        #expect(together.status == 0, "\(together.stderr)")
        #expect(togetherMB < 64, "peak RSS \(togetherMB) MB")
    }

    @Test func aHundredMegabyteGPXOnOneLine() throws {
        let dir = try Samples.temporaryDirectory()
        let file = dir + "/huge.gpx"
        try write(file, prefix: "<?xml version=\"1.0\"?><gpx><trk><name>", unit: "all on one line ", count: 100 << 20)
        let store = dir + "/s.sqlite"
        let (result, mb) = try measured(["import", "--store", store, file])
        #expect(result.status == 65)
        #expect(result.stderr.contains("a run of text is longer than 1 MB"), "\(result.stderr)")
        #expect(mb < 64, "peak RSS \(mb) MB")
        // Many points on one line are fine, memory stays bounded too.
        let points = dir + "/points.gpx"
        try write(
            points, prefix: "<gpx><trk><trkseg>",
            unit: "<trkpt lat=\"47.1\" lon=\"8.2\"><time>2026-06-14T06:30:00Z</time></trkpt>", count: 20 << 20,
            suffix: "</trkseg></trk></gpx>")
        let (many, manyMB) = try measured(["import", "--dry-run", points])
        #expect(many.status == 0, "\(many.stderr)")
        #expect(many.stdout.contains("not_later"), "one point kept, the rest not later than it")
        #expect(manyMB < 200, "peak RSS \(manyMB) MB")
    }

    /// An import stores a file's points while it reads it and keeps only the time ranges of its
    /// rides and segments (not the points, not decoded fixes): a log twelve times as long costs a
    /// few MB more (the file's pages, SQLite's page cache).
    @Test func importMemoryPerPointIsSmall() async throws {
        let dir = try Samples.temporaryDirectory()
        var peaks: [Double] = []
        for hours in [1, 12] {
            let log = dir + "/\(hours)h.nmea"
            #expect(try await run(["simulate", "--duration", String(hours * 3600), "--seed", "5", "-o", log]).status == 0)
            let (result, mb) = try measured(["import", "--store", dir + "/\(hours)h.sqlite", log])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\(hours * 3600) fixes read"), "\(result.stdout)")
            peaks.append(mb)
        }
        // About 39,600 more points kept. Points wait in memory until the file's digest (on another
        // thread) says the file is new, up to 2^18 of them: how many of the 12 h wait depends on
        // when that thread runs, so the figure varies with the machine's load: measured 160-272
        // bytes each (a dry run alone: ~160). Holding the decoded fixes costs ~550: that is what
        // this guards against.
        let bytesPerPoint = (peaks[1] - peaks[0]) * 1_048_576 / 39_600
        #expect(bytesPerPoint < 400, "peak RSS \(peaks[0]) MB for 1 h, \(peaks[1]) MB for 12 h")
    }

    /// A history written newest first is sorted through a temporary file: memory does not grow
    /// with it (held in memory, each fix cost some 300 bytes until the end).
    @Test func aFileNewestFirstIsSortedInBoundedMemory() async throws {
        let dir = try Samples.temporaryDirectory()
        var peaks: [Double] = []
        for count in [20_000, 140_000] {
            // A walk, a point every 2 s, the rows from the last to the first.
            var csv = "time,lat,lon\n"
            for i in (0..<count).reversed() {
                csv += "\(1_781_400_000 + 2 * i),\(47 + Double(i) * 1e-5),\(8.5 + Double(i % 100) * 1e-5)\n"
            }
            let file = dir + "/newest-first-\(count).csv"
            try csv.write(toFile: file, atomically: true, encoding: .utf8)
            let (result, mb) = try measured(["import", "--store", dir + "/\(count).sqlite", file])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout.contains("\(count) fixes read"), "\(result.stdout)")
            #expect(result.stdout.contains("points put in time order"), "\(result.stdout)")
            peaks.append(mb)
        }
        let points = try await run([
            "points", "--store", dir + "/140000.sqlite", "--from", "2026-06-14", "--to", "2026-06-17", "--time-zone",
            "UTC", "--format", "jsonl",
        ]).stdout.split(separator: "\n")
        #expect(points.count == 140_000)
        #expect(points.first?.contains(#""time":"2026-06-14T01:20:00.000Z","mode":2,"lat":47.000000000,"#) == true)
        #expect(points.last?.contains(#""lat":48.399990000,"#) == true, "\(points.last ?? "")")
        // The import's look at the visits after it holds the walk (one trip) in the detector:
        // ~80 bytes a point while its reads ran on the import's thread, ~115 since each two-day
        // window is a read unit on GRDB's reader thread, whose malloc arena holds its own share
        // (heaptrack: the same 12.07 MB heap peak either way; docs/BENCHMARKS.md). Held in memory,
        // the fixes cost some 300 more.
        let bytesPerPoint = (peaks[1] - peaks[0]) * 1_048_576 / 120_000
        #expect(bytesPerPoint < 150, "peak RSS \(peaks[0]) MB for 20,000 points, \(peaks[1]) MB for 140,000")
    }

    @Test func billionLaughsAndExternalEntitiesAreRefused() throws {
        let dir = try Samples.temporaryDirectory()
        var bomb = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        for i in 1...9 {
            bomb +=
                "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10) + "\">\n"
        }
        bomb += "]>\n<gpx><wpt lat=\"1\" lon=\"1\"><name>&lol9;</name></wpt></gpx>\n"
        try bomb.write(toFile: dir + "/bomb.gpx", atomically: true, encoding: .utf8)
        let (result, mb) = try measured(["import", "--store", dir + "/s.sqlite", dir + "/bomb.gpx"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("line 2: it contains a document type declaration"))
        #expect(mb < 64)
    }

    @Test(arguments: [
        ("<gpx><trk><trkseg><trkpt lat=\"1e308\" lon=\"0\"/></trkseg></trk></gpx>", "not a number within ±90"),
        ("<gpx><trk><trkseg><trkpt lat=\"-inf\" lon=\"0\"/></trkseg></trk></gpx>", "not a number within ±90"),
        ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"181\"/></trkseg></trk></gpx>", "not a number within ±180"),
        (
            "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><ele>nan</ele></trkpt></trkseg></trk></gpx>",
            "not a finite number"
        ),
    ])
    func outOfRangeAndNonFiniteNumbers(gpx: String, reason: String) async throws {
        let dir = try Samples.temporaryDirectory()
        try gpx.write(toFile: dir + "/bad.gpx", atomically: true, encoding: .utf8)
        let result = try await run(["import", "--store", dir + "/s.sqlite", dir + "/bad.gpx"])
        #expect(result.status == 65)
        #expect(result.stderr.contains(reason), "\(result.stderr)")
    }

    /// A photo reached through `..` and a symbolic link is copied by content into the media
    /// folder; nothing is written anywhere else, and an output path that is a planted link to
    /// another file is not followed.
    @Test func photoPathsWithDotDotAndLinksStayInTheMediaFolder() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/store/trailbook.sqlite"
        try FileManager.default.createDirectory(atPath: dir + "/store", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/a/b", withIntermediateDirectories: true)
        try TestPhotos.make(dir + "/a/photo.jpg", taken: "2026:06:14 06:40:00")
        try FileManager.default.createSymbolicLink(atPath: dir + "/link.jpg", withDestinationPath: dir + "/a/photo.jpg")
        let mark = try await run(
            [
                "mark", "--store", store, "--lat", "1", "--lon", "2", "--photo", dir + "/a/b/../photo.jpg", "--photo",
                dir + "/link.jpg",
            ])
        #expect(mark.status == 0, "\(mark.stderr)")
        let media = try FileManager.default.subpathsOfDirectory(atPath: dir + "/store/trailbook-media")
        #expect(media.filter { $0.hasSuffix(".jpg") }.count == 1, "one content, one file: \(media)")
        let outside = try FileManager.default.subpathsOfDirectory(atPath: dir).filter { !$0.hasPrefix("store") }
        #expect(Set(outside) == ["a", "a/b", "a/photo.jpg", "link.jpg"], "\(outside)")
        // An output path that is a link to another file: the link is replaced, the file untouched.
        try "keep me".write(toFile: dir + "/victim.txt", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/out.gpx", withDestinationPath: dir + "/victim.txt")
        _ = try await run(["import", "--store", store, "Samples/ride.nmea"])
        let export = try await run(["export", "--store", store, "--ride", "1", "--format", "gpx", "-o", dir + "/out.gpx"])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try String(contentsOfFile: dir + "/victim.txt", encoding: .utf8) == "keep me")
        let kind = try FileManager.default.attributesOfItem(atPath: dir + "/out.gpx")[.type] as? FileAttributeType
        #expect(kind == .typeRegular)
    }

    @Test func notesWithMarkupAndControlCharactersAreKeptAndShownSafely() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        _ = try await run(["import", "--store", store, "Samples/ride.nmea"])
        let text = "<img src=x onerror=alert(1)>\u{1B}[31mred\u{07}end"
        let mark = try await run(["mark", "--store", store, "--at", "2026-06-14T06:40:00Z", "--note", text, "--json"])
        #expect(mark.status == 0)
        // Stored as given (JSON escapes the control characters)...
        #expect(mark.stdout.contains("\\u001b[31mred\\u0007"))
        // ...and harmless in the HTML and the GPX.
        _ = try await run(["report", "day", "2026-06-14", "--store", store, "-o", dir + "/d.html", "--time-zone", "UTC"])
        let html = try String(contentsOfFile: dir + "/d.html", encoding: .utf8)
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;[31mred"))
        #expect(!html.contains("<img src=x"))
        let gpx = try await run(["export", "--store", store, "--day", "2026-06-14", "--format", "gpx", "--time-zone", "UTC"])
        #expect(!gpx.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" && $0 != "\r" })
    }
}
