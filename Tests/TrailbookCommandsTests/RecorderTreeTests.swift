import Foundation
import Testing
import TrailbookTestSupport

/// Moving in from OwnTracks Recorder: its whole store in one `import`. The tree is laid out as the
/// Recorder keeps it (its README, "Storage", owntracks/recorder@02c0ce20: `rec/USER/DEVICE/
/// YYYY-MM.rec`, lower-case names, beside `last/` and `ghash/`), each line as the Recorder writes
/// it (a UTC time, a tab, the topic field `*` padded, a tab, the phone's JSON: the OwnTracks
/// booklet's `location` message with `tst` in seconds, `acc`, `alt`, `vel` in km/h, `batt`).
extension GoogleImportTests {
    /// A device's fixes: every 30 s from `start` (s since 1970 UTC), walking east from `lat`, `lon`.
    static func recorderLines(start: Int, count: Int, lat: Double, lon: Double) -> [(
        tst: Int, lat: Double, lon: Double, line: String
    )] {
        (0..<count).map { i in
            let tst = start + 30 * i
            let (la, lo) = (lat, lon + Double(i) * 0.0004)
            let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(tst)))
            let json = String(
                format:
                    #"{"_type":"location","tid":"xx","acc":8,"alt":410,"batt":77,"vel":5,"lat":%.6f,"lon":%.6f,"tst":%d,"t":"u"}"#,
                la, lo, tst)
            return (tst, la, lo, time + "\t*                 \t" + json)
        }
    }

    @Test func anOwnTracksRecorderTreeOfTwoUsersAndThreeDevicesImportsIntoTheirAccounts() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await WebPageTests().addUsers(["ana", "ben"], store: store)
        let recorder = dir + "/recorder-store"
        // Ana's phone over two months, her tablet, Ben's phone; the Recorder's other folders beside.
        let devices: [(user: String, device: String, months: [(String, Int, Int)])] = [
            ("ana", "phone", [("2026-05", 1_780_210_800, 40), ("2026-06", 1_780_297_200, 30)]),
            ("ana", "tablet", [("2026-06", 1_780_383_600, 25)]),
            ("ben", "phone", [("2026-06", 1_780_470_000, 35)]),
        ]
        var written: [String: [(tst: Int, lat: Double, lon: Double, line: String)]] = [:]
        for (n, d) in devices.enumerated() {
            let folder = "\(recorder)/rec/\(d.user)/\(d.device)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (month, start, count) in d.months {
                let lines = Self.recorderLines(start: start, count: count, lat: 47.37 + Double(n) * 0.01, lon: 8.54)
                written["\(d.user)/\(d.device)", default: []] += lines
                // A transition and a waypoint line among them, as the Recorder keeps them.
                let text =
                    lines.map(\.line).joined(separator: "\n")
                    + "\n2026-06-01T09:00:00Z\t*                 \t{\"_type\":\"transition\",\"event\":\"enter\",\"desc\":\"Home\",\"tst\":1780304400}\n"
                try text.write(toFile: "\(folder)/\(month).rec", atomically: true, encoding: .utf8)
            }
        }
        for other in ["last/ana/phone", "ghash/u0q"] {
            try FileManager.default.createDirectory(atPath: "\(recorder)/\(other)", withIntermediateDirectories: true)
        }
        try "{}".write(toFile: "\(recorder)/last/ana/phone/ana-phone.json", atomically: true, encoding: .utf8)

        // Without an account for each user: one sentence, nothing stored.
        let lonely = dir + "/lonely.sqlite"
        try await WebPageTests().addUsers(["ana"], store: lonely)
        let refused = try await run(["import", "--store", lonely, recorder])
        #expect(refused.status == 66, "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "holds the user ben with no account in \(lonely): add it (trailbook user add NAME)"),
            "\(refused.stderr)")
        #expect(
            try await run([
                "points", "--store", lonely, "--user", "ana", "--from", "2026-05-01", "--to", "2026-06-30", "--format",
                "jsonl",
            ]).stdout.isEmpty)

        let imported = try await run(["import", "--store", store, recorder, "--json"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(imported.stdout.utf8)) as? [String: Any])
        let parts = try #require(answer["recorder"] as? [[String: Any]])
        #expect(
            parts.map { "\($0["account"] ?? "")/\($0["stored_as"] ?? "")" } == ["ana/phone", "ana/tablet", "ben/phone"])
        for d in devices {
            let key = "\(d.user)/\(d.device)"
            let out = try await run([
                "points", "--store", store, "--user", d.user, "--device-name", d.device, "--from", "2026-05-01", "--to",
                "2026-06-30", "--time-zone", "UTC", "--format", "jsonl",
            ])
            let rows = out.stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            let expected = try #require(written[key])
            #expect(rows.count == expected.count, "\(key): \(rows.count) points for \(expected.count) written")
            for (row, w) in Swift.zip(rows, expected) {
                let ms = Self.milliseconds(row["time"] as? String ?? "")
                #expect(ms == Int64(w.tst) * 1000, "\(key): \(row)")
                #expect(
                    abs((row["lat"] as? Double ?? 0) - w.lat) < 1e-6 && abs((row["lon"] as? Double ?? 0) - w.lon) < 1e-6
                )
                #expect(row["device"] as? String == d.device)
            }
        }
        // The other account sees none of them.
        let bens = try await run([
            "points", "--store", store, "--user", "ben", "--device-name", "tablet", "--from", "2026-05-01", "--to",
            "2026-06-30",
        ])
        #expect(bens.status != 0 || bens.stdout.isEmpty, "\(bens.stdout)")
        // With --user, every device into one account, named USER-DEVICE.
        let gathered = dir + "/one.sqlite"
        try await WebPageTests().addUsers(["cleo"], store: gathered)
        let one = try await run(["import", "--store", gathered, "--user", "cleo", recorder + "/rec"])
        #expect(one.status == 0, "\(one.stderr)")
        for line in ["ana/phone → account cleo, device ana-phone:", "ben/phone → account cleo, device ben-phone:"] {
            #expect(one.stdout.contains(line), "\(one.stdout)")
        }
        // --device-name does not go with a tree.
        let named = try await run(["import", "--store", gathered, "--user", "cleo", "--device-name", "x", recorder])
        #expect(named.status == 64 && named.stderr.contains("leave out --device-name"), "\(named.stderr)")
    }
}

extension GoogleImportTests {
    /// Files that hold no track say what they are and what to give instead, in one sentence, exit
    /// 65, nothing stored: Google's Timeline Edits and Settings files (shaped as
    /// CarlosBergillos/LocationHistoryFormat documents them: schemas/TimelineEdits.schema.json
    /// @eec3a7c8, schemas/Settings.schema.json @3e36377f), JSON of another kind, and CSV without
    /// coordinates. In a Takeout folder they are passed over, not refused.
    @Test func refusalsSayWhatTheFileIs() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        let files: [(name: String, text: String, says: String)] = [
            (
                "Timeline Edits.json",
                #"{"timelineEdits":[{"deviceId":"1234","placeAggregates":{"placeAggregateInfo":[],"processWindow":{"#
                    + #""startTime":"2024-01-01T00:00:00Z","endTime":"2024-01-02T00:00:00Z"}}}]}"#,
                "it is Google's Timeline Edits file (the edits made on a phone and its raw signals, not the location "
                    + "history); give Records.json, the Semantic Location History or Timeline.json"
            ),
            (
                "Settings.json",
                #"{"createdTime":"2013-05-15T21:53:59.385Z","modifiedTime":"2020-07-01T21:27:31.880Z","#
                    + #""historyEnabled":true,"deviceSettings":[{"deviceTag":1234567890,"reportingEnabled":true,"#
                    + #""devicePrettyName":"ONEPLUS A6013","platformType":"ANDROID"}],"retentionWindowDays":2147483647}"#,
                "it is Google Location History's settings (its devices and whether history is on, no locations)"
            ),
            (
                "orders.json", #"[{"order":1,"total":12.5},{"order":2,"total":3}]"#,
                "it is JSON, but not GeoJSON, Google location history or a JSON track"
            ),
            (
                "people.csv", "name;born;town\nAna;1990-02-03;Zürich\n",
                "it is CSV whose header (name, born, town) names no latitude and longitude columns; give a CSV"
            ),
        ]
        for f in files {
            let path = dir + "/" + f.name
            try f.text.write(toFile: path, atomically: true, encoding: .utf8)
            let refused = try await run(["import", "--store", store, path])
            #expect(refused.status == 65, "\(f.name): \(refused.stderr)")
            #expect(refused.stderr.contains("Nothing to import from \(path): \(f.says)"), "\(refused.stderr)")
            #expect(!refused.stderr.contains("NMEA"), "\(refused.stderr)")
            #expect(refused.stderr.split(separator: "\n").count == 1, "one sentence: \(refused.stderr)")
        }
        // A Takeout folder with them beside a Records.json: they are passed over, the history is taken.
        let takeout = dir + "/Takeout/Location History"
        try FileManager.default.createDirectory(atPath: takeout, withIntermediateDirectories: true)
        for f in files.prefix(2) { try f.text.write(toFile: takeout + "/" + f.name, atomically: true, encoding: .utf8) }
        let records = Self.ride.prefix(20).map {
            #"{"latitudeE7":\#(Self.e7($0.latitude)),"longitudeE7":\#(Self.e7($0.longitude)),"timestamp":"\#(Self.iso($0.milliseconds))"}"#
        }
        try (#"{"locations":["# + records.joined(separator: ",") + "]}").write(
            toFile: takeout + "/Records.json", atomically: true, encoding: .utf8)
        let taken = try await run(["import", "--store", store, dir + "/Takeout"])
        #expect(taken.status == 0, "\(taken.stderr)")
        #expect(taken.stderr.contains("2 other files passed over"), "\(taken.stderr)")
    }
}
