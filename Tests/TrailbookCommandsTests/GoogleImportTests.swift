import Foundation
import GPSCore
import Testing
import TrailbookTestSupport

/// `import` of Google's location history in its four formats, each written here from the same
/// ride (Samples/ride.nmea as stored), and of broken and hostile JSON.
@Suite struct GoogleImportTests {
    /// A point of the ride.
    struct Point {
        var milliseconds: Int64
        var latitude: Double
        var longitude: Double
        var altitude: Double?
        var speed: Double?

        /// The point without what a path point does not carry.
        var positionOnly: Point { Point(milliseconds: milliseconds, latitude: latitude, longitude: longitude) }
    }

    /// The ride as Trailbook stores it from the sample log.
    static let ride: [Point] = {
        let store = try! Samples.temporaryDirectory() + "/ride.sqlite"
        _ = try! runBinary(["import", "--store", store, "Samples/ride.nmea"])
        let listed = try! runBinary([
            "points", "--store", store, "--day", "2026-06-14", "--time-zone", "UTC", "--format", "jsonl",
        ])
        return try! points(listed.stdout).map {
            Point(
                milliseconds: $0.milliseconds, latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude,
                speed: $0.speed)
        }
    }()

    static func storedPoints(_ store: String, day: String, device: String? = nil) async throws -> [Point] {
        let only = device.map { ["--device-name", $0] } ?? []
        return try points(
            try await run(
                ["points", "--store", store, "--day", day, "--time-zone", "UTC", "--format", "jsonl"] + only
            ).stdout)
    }

    /// The points of `points --format jsonl`'s lines.
    static func points(_ jsonl: String) throws -> [Point] {
        try jsonl.split(separator: "\n").map { line in
                let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let time = try #require(row["time"] as? String)
                return Point(
                    milliseconds: try #require(milliseconds(time)), latitude: try #require(row["lat"] as? Double),
                    longitude: try #require(row["lon"] as? Double), altitude: row["alt"] as? Double,
                    speed: row["speed"] as? Double)
            }
    }

    static func milliseconds(_ iso: String) -> Int64? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return f.date(from: iso).map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }

    /// `ms` as ISO 8601 with milliseconds, at `offsetMinutes` from UTC.
    static func iso(_ ms: Int64, offsetMinutes: Int = 0) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        f.timeZone = TimeZone(secondsFromGMT: offsetMinutes * 60)
        return f.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    static func e7(_ degrees: Double) -> Int { Int((degrees * 1e7).rounded()) }

    func write(_ object: Any, _ name: String) throws -> String {
        let path = try Samples.temporaryDirectory() + "/" + name
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted])
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Imports `file` into a new store with `--json`: the file's report, and the store.
    func importJSON(_ file: String) async throws -> (report: [String: Any], store: String) {
        let store = try Samples.temporaryDirectory() + "/google.sqlite"
        let result = try await run(["import", "--store", store, "--json", file])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let files = try #require(json["files"] as? [[String: Any]])
        return (try #require(files.first), store)
    }

    /// Each stored point is the written point of the same millisecond, to 1e-6 degrees.
    func expectStored(_ store: String, match written: [Point], count: Int) async throws {
        let stored = try await Self.storedPoints(store, day: "2026-06-14")
        #expect(stored.count == count)
        let byTime = Dictionary(written.map { ($0.milliseconds, $0) }, uniquingKeysWith: { a, _ in a })
        for p in stored {
            let w = try #require(byTime[p.milliseconds], "a stored point at \(p.milliseconds) that was not written")
            #expect(abs(p.latitude - w.latitude) < 1e-6 && abs(p.longitude - w.longitude) < 1e-6)
            if let a = w.altitude { #expect(abs((p.altitude ?? .nan) - a) < 0.01) }
            if let s = w.speed { #expect(abs((p.speed ?? .nan) - s) < 0.01) }
        }
    }

    func records(_ store: String) async throws -> [[String: Any]] {
        let result = try await run(["records", "--store", store, "--day", "2026-06-14", "--time-zone", "UTC", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return try #require(json["records"] as? [[String: Any]])
    }

    /// The value of field `key` of a record.
    func field(_ record: [String: Any], _ key: String) -> Any? {
        (record["fields"] as? [String: Any])?[key]
    }

    @Test func recordsJSONStoresEveryPositionWithItsTimeInEitherSpelling() async throws {
        let ride = Self.ride
        #expect(ride.count == 1762)
        var locations: [[String: Any]] = ride.enumerated().map { i, p in
            var l: [String: Any] = [
                "latitudeE7": Self.e7(p.latitude), "longitudeE7": Self.e7(p.longitude), "accuracy": 6,
                "source": "GPS", "deviceTag": -1_234_567, "platformType": "ANDROID",
                "activity": [
                    ["timestamp": Self.iso(p.milliseconds), "activity": [["type": "ON_BICYCLE", "confidence": 91]]]
                ],
            ]
            // Newer exports write `timestamp`, older ones `timestampMs` as a string.
            if i % 2 == 0 { l["timestamp"] = Self.iso(p.milliseconds) } else { l["timestampMs"] = "\(p.milliseconds)" }
            if let a = p.altitude { l["altitude"] = a }
            if let s = p.speed { l["velocity"] = s }
            return l
        }
        locations.append(["latitudeE7": 473_769_000, "longitudeE7": 85_417_000])
        locations.append(["timestamp": Self.iso(ride[0].milliseconds), "accuracy": 20])
        locations.append([
            "latitudeE7": 1_900_000_000, "longitudeE7": 85_417_000, "timestamp": Self.iso(ride[5].milliseconds),
        ])
        let file = try write(["locations": locations], "Records.json")
        let (report, store) = try await importJSON(file)
        #expect(report["format"] as? String == "Google Records.json")
        #expect(report["elements"] as? Int == ride.count + 3)
        #expect(report["fixes_read"] as? Int == ride.count)
        let skipped = try #require(report["skipped"] as? [String: Int])
        #expect(skipped == ["no time": 1, "no position": 1, "position out of range": 1])
        #expect(report["stored"] as? Int == ride.count)
        try await expectStored(store, match: ride, count: ride.count)

        // What the phone said it was doing is kept per point: `points` shows it, a CSV export
        // carries it and its import reads it back.
        let day = ["--day", "2026-06-14", "--time-zone", "UTC"]
        let lines = try await run(["points", "--store", store, "--format", "jsonl"] + day).stdout.split(separator: "\n")
        #expect(lines.count == ride.count)
        #expect(lines.allSatisfy { $0.contains(#""activity":"cycling""#) }, "\(lines.first ?? "")")
        let csv = try Samples.temporaryDirectory() + "/ride.csv"
        let export = try await run(["export", "--store", store, "--format", "csv", "-o", csv] + day)
        #expect(export.status == 0, "\(export.stderr)")
        let back = try Samples.temporaryDirectory() + "/back.sqlite"
        #expect(try await run(["import", "--store", back, csv]).status == 0)
        let rows = try await run(["points", "--store", back] + day).stdout.split(separator: "\n")
        #expect(rows.first?.hasSuffix(",temperature,accuracy,activity") == true, "\(rows.first ?? "")")
        #expect(rows.count == ride.count + 1 && rows.dropFirst().allSatisfy { $0.hasSuffix(",cycling") })

        // The same file again stores nothing; the same points in other bytes store nothing twice.
        let again = try await run(["import", "--store", store, file])
        #expect(again.stdout.contains("already imported"))
        let copy = try write(["locations": Array(locations.reversed())], "Records-copy.json")
        let result = try await run(["import", "--store", store, copy])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("0 stored (\(ride.count) already in the store)"), "\(result.stdout)")
        try await expectStored(store, match: ride, count: ride.count)
    }

    /// Two phones in one Records.json (a phone and a tablet carried on the same ride, their
    /// locations taking turns in the list): each `deviceTag` is a device of its own, its points
    /// never mixed with the other's; locations without a tag go to the import's device.
    @Test func eachPhoneOfARecordsJSONIsADeviceOfItsOwn() async throws {
        let ride = Self.ride
        func location(_ p: Point, tag: Int?, shift: Int64, north: Double) -> [String: Any] {
            var l: [String: Any] = [
                "latitudeE7": Self.e7(p.latitude + north), "longitudeE7": Self.e7(p.longitude), "accuracy": 8,
                "timestamp": Self.iso(p.milliseconds + shift),
            ]
            if let tag { l["deviceTag"] = tag }
            return l
        }
        var locations: [[String: Any]] = []
        for p in ride {
            locations.append(location(p, tag: 7, shift: 0, north: 0))
            locations.append(location(p, tag: -9, shift: 400, north: 0.001))
        }
        // An older export's last minutes, without tags.
        let untagged = ride.suffix(30).map { location($0, tag: nil, shift: 3_600_000, north: 0) }
        let file = try write(["locations": locations + untagged], "Records.json")
        // A dry run's CSV: each phone's ride has a number of its own.
        let csv = try await run(["import", "--dry-run", "--format", "csv", file])
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = csv.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let rideColumn = try #require(rows.first?.firstIndex(of: "ride"))
        let rideSizes = Dictionary(grouping: rows.dropFirst(), by: { $0[rideColumn] }).mapValues(\.count).values
            .sorted()
        #expect(rideSizes == [30, ride.count, ride.count], "one ride number per phone: \(rideSizes)")

        let (report, store) = try await importJSON(file)
        #expect(report["fixes_read"] as? Int == 2 * ride.count + 30)
        #expect(report["stored"] as? Int == 2 * ride.count + 30, "\(report)")
        #expect(report["devices"] as? [String] == ["imported-google-7", "imported-google--9"], "\(report)")
        let phone = try await Self.storedPoints(store, day: "2026-06-14", device: "imported-google-7")
        let tablet = try await Self.storedPoints(store, day: "2026-06-14", device: "imported-google--9")
        let own = try await Self.storedPoints(store, day: "2026-06-14", device: "imported")
        #expect(phone.map(\.milliseconds) == ride.map(\.milliseconds))
        #expect(tablet.map(\.milliseconds) == ride.map { $0.milliseconds + 400 })
        #expect(Swift.zip(tablet, ride).allSatisfy { abs($0.latitude - $1.latitude - 0.001) < 1e-6 })
        #expect(own.count == 30)
        let rides = try await run(["rides", "--store", store, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(rides.stdout.utf8)) as? [String: Any]
        let list = try #require(object?["rides"] as? [[String: Any]])
        #expect(
            list.map { "\($0["device"] ?? "") \($0["points"] ?? "")" }.sorted() == [
                "imported 30", "imported-google--9 \(ride.count)", "imported-google-7 \(ride.count)",
            ], "one ride per phone, never merged: \(rides.stdout)")
        // Out of order (read again and sorted), each phone's points are still its own: nothing new.
        let copy = try write(["locations": Array((locations + untagged).reversed())], "Records-copy.json")
        let again = try await run(["import", "--store", store, copy])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("0 stored (\(2 * ride.count + 30) already in the store)"), "\(again.stdout)")
    }

    /// The events a dry run finds in a Records.json of two phones are each of its phone: in the
    /// text, in the JSON, and for the alerts that would have sent them.
    @Test func aDryRunsEventsAreEachOfItsPhone() async throws {
        let t0: Int64 = 1_781_418_600_000  // 2026-06-14T06:30:00Z
        var locations: [[String: Any]] = []
        for (tag, north) in [(7, 0.0), (-9, 0.01)] {
            // Ten minutes riding north, then five standing still: a stop after two minutes.
            for i in 0..<90 {
                locations.append([
                    "latitudeE7": Self.e7(47.37 + north + Double(min(i, 59)) * 0.0004), "longitudeE7": Self.e7(8.54),
                    "accuracy": 8, "timestamp": Self.iso(t0 + Int64(i) * 10_000), "deviceTag": tag,
                ])
            }
        }
        let file = try write(["locations": locations], "Records.json")
        let text = try await run(["import", "--dry-run", "--events", file])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("motion.stopped  (imported-google-7)"), "\(text.stdout)")
        #expect(text.stdout.contains("motion.stopped  (imported-google--9)"), "\(text.stdout)")
        let json = try await run(["import", "--dry-run", "--events", "--json", file])
        let found = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let devices = (found?["events"] as? [[String: Any]] ?? []).compactMap { $0["device"] as? String }
        #expect(devices.sorted() == ["imported-google--9", "imported-google-7"], "\(json.stdout)")
        // An alert on the tablet's stops would have sent the tablet's stop, not the phone's.
        let store = try Samples.temporaryDirectory() + "/alerts.sqlite"
        let added = try await run([
            "alert", "add", "--on", "motion.stopped", "--device", "imported-google--9", "--webhook",
            "http://127.0.0.1:9/x", "--store", store,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let withAlert = try await run(["import", "--dry-run", "--events", "--store", store, file])
        #expect(
            withAlert.stdout.contains(
                "motion.stopped  (imported-google--9)  accuracy_m 8\n    → alert 1 (webhook) would send it live"),
            "\(withAlert.stdout)")
        #expect(withAlert.stdout.components(separatedBy: "would send").count == 2, "once: \(withAlert.stdout)")
    }

    /// A month of Semantic Location History: visits at both ends, the ride's activity with its
    /// simplified raw path.
    @Test func semanticHistoryStoresThePathAndTheVisitsAsRecords() async throws {
        let ride = Self.ride
        let path = ride.enumerated().filter { $0.offset % 10 == 0 }.map(\.element)
        let (first, last) = (ride.first!, ride.last!)
        let objects: [[String: Any]] = [
            [
                "placeVisit": [
                    "location": [
                        "latitudeE7": Self.e7(first.latitude), "longitudeE7": Self.e7(first.longitude),
                        "placeId": "ChIJhome", "address": "Bahnhofplatz 1, 8001 Zürich", "name": "Zürich HB",
                        "semanticType": "TYPE_HOME", "sourceInfo": ["deviceTag": 5],
                    ],
                    "duration": [
                        "startTimestamp": Self.iso(first.milliseconds - 3_600_000),
                        "endTimestamp": Self.iso(first.milliseconds),
                    ],
                    "placeConfidence": "HIGH_CONFIDENCE",
                ]
            ],
            [
                "activitySegment": [
                    "startLocation": ["latitudeE7": Self.e7(first.latitude), "longitudeE7": Self.e7(first.longitude)],
                    "endLocation": ["latitudeE7": Self.e7(last.latitude), "longitudeE7": Self.e7(last.longitude)],
                    "duration": [
                        "startTimestampMs": "\(first.milliseconds)", "endTimestampMs": "\(last.milliseconds)",
                    ],
                    "distance": 7400, "activityType": "CYCLING", "confidence": "HIGH",
                    "activities": [["activityType": "CYCLING", "probability": 91.5]],
                    "waypointPath": [
                        "waypoints": [["latE7": Self.e7(first.latitude), "lngE7": Self.e7(first.longitude)]]
                    ],
                    "simplifiedRawPath": [
                        "points": path.map {
                            [
                                "latE7": Self.e7($0.latitude), "lngE7": Self.e7($0.longitude),
                                "timestamp": Self.iso($0.milliseconds), "accuracyMeters": 5,
                            ] as [String: Any]
                        }
                    ],
                ]
            ],
            [
                "placeVisit": [
                    "location": [
                        "latitudeE7": Self.e7(last.latitude), "longitudeE7": Self.e7(last.longitude),
                        "name": "Uetliberg",
                    ],
                    "duration": ["startTimestampMs": "\(last.milliseconds + 60_000)"],
                ]
            ],
            ["placeVisit": ["duration": ["startTimestamp": Self.iso(last.milliseconds)]]],
        ]
        let file = try write(["timelineObjects": objects], "2026_JUNE.json")
        let (report, store) = try await importJSON(file)
        #expect(report["format"] as? String == "Google Semantic Location History")
        #expect(report["fixes_read"] as? Int == path.count)
        #expect(report["elements"] as? Int == path.count + 4)
        #expect(report["skipped"] as? [String: Int] == ["no position": 1])
        #expect(report["visits"] as? Int == 2 && report["activities"] as? Int == 1)
        #expect(report["records"] as? Int == 3)
        try await expectStored(store, match: path.map(\.positionOnly), count: path.count)
        let stored = try await records(store)
        #expect(stored.count == 3)
        let home = try #require(stored.first { field($0, "name") as? String == "Zürich HB" })
        #expect(field(home, "semantic_type") as? String == "TYPE_HOME")
        #expect(field(home, "google") as? String == "visit")
        #expect(field(home, "minutes") as? Double == 60)
        let cycling = try #require(stored.first { field($0, "activity_type") as? String == "CYCLING" })
        #expect(field(cycling, "distance_m") as? Double == 7400)

        // What Google knew is kept: the hour at the station, with no point in it, is a visit
        // named as Google named it (not "place 1", not part of a trip), and the ride is cycling.
        let listed = try await run(["visits", "--store", store, "--day", "2026-06-14", "--time-zone", "UTC", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let visits = try #require(json["visits"] as? [[String: Any]])
        let station = try #require(visits.first { $0["name"] as? String == "Zürich HB" }, "\(visits)")
        #expect(station["start"] as? String == Self.iso(first.milliseconds - 3_600_000))
        #expect(station["end"] as? String == Self.iso(first.milliseconds))
        let trips = try #require(json["trips"] as? [[String: Any]])
        #expect(!trips.contains { ($0["start"] as? String ?? "") < Self.iso(first.milliseconds) }, "\(trips)")
        #expect(trips.contains { $0["mode"] as? String == "cycling" }, "\(trips)")
    }

    /// Semantic history with no point at all: two visits and, between them, an activity segment
    /// with only its start and end. The day is two visits named as Google named them and a train
    /// trip of Google's distance; `year` counts it.
    ///
    /// Every encoding of its times (ISO 8601; `...TimestampMs` as a string or a number; Unix
    /// seconds as a number) and a segment that has only its start or only its end location
    /// (CarlosBergillos/LocationHistoryFormat, semantic `activitySegment`: `startLocation` and
    /// `endLocation` each optional) read the same.
    @Test(arguments: ["iso", "ms string, start only", "ms number, end only", "seconds"])
    func aSegmentWithOnlyItsEndsIsATripOfItsMode(_ variant: String) async throws {
        let basel = (lat: 47.5476, lon: 7.5897)
        let zurich = (lat: 47.3779, lon: 8.5403)
        let t0 = try #require(Self.milliseconds("2026-06-14T08:00:00.000Z"))
        func location(_ p: (lat: Double, lon: Double), _ name: String? = nil) -> [String: Any] {
            var l: [String: Any] = ["latitudeE7": Self.e7(p.lat), "longitudeE7": Self.e7(p.lon)]
            if let name { l["name"] = name }
            return l
        }
        func duration(_ a: Int64, _ b: Int64) -> [String: Any] {
            switch variant {
            case "iso": ["startTimestamp": Self.iso(a), "endTimestamp": Self.iso(b)]
            case "seconds": ["startTimestamp": a / 1000, "endTimestamp": b / 1000]
            case "ms number, end only": ["startTimestampMs": a, "endTimestampMs": b]
            default: ["startTimestampMs": "\(a)", "endTimestampMs": "\(b)"]
            }
        }
        let objects: [[String: Any]] = [
            ["placeVisit": ["location": location(basel, "Basel SBB"), "duration": duration(t0 - 3_600_000, t0)]],
            [
                "activitySegment": [
                    "startLocation": location(basel), "endLocation": location(zurich),
                    "duration": duration(t0, t0 + 3_300_000), "distance": 86_400, "activityType": "IN_RAIL_VEHICLE",
                ].filter { key, _ in
                    !(variant.hasSuffix("start only") && key == "endLocation")
                        && !(variant.hasSuffix("end only") && key == "startLocation")
                }
            ],
            [
                "placeVisit": [
                    "location": location(zurich, "Zürich HB"), "duration": duration(t0 + 3_300_000, t0 + 7_200_000),
                ]
            ],
        ]
        let (_, store) = try await importJSON(try write(["timelineObjects": objects], "2026_JUNE.json"))
        let listed = try await run(["visits", "--store", store, "--day", "2026-06-14", "--time-zone", "UTC", "--json"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let names = (json["visits"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names == ["Basel SBB", "Zürich HB"], "\(listed.stdout)")
        let trips = try #require(json["trips"] as? [[String: Any]])
        #expect(trips.count == 1 && trips.first?["mode"] as? String == "train", "\(trips)")
        #expect(trips.first?["distance_m"] as? Double == 86_400)
        let year = try await run(["year", "2026", "--store", store, "--time-zone", "UTC"])
        #expect(year.stdout.contains("train 86.4 km"), "\(year.stdout)")
    }

    /// A Takeout of one day with both Records.json (a point a minute, 15 m) and the Semantic
    /// Location History of the same hours (its ride's path a point in five minutes, each saying
    /// 5 m): the day counts the ride once, from the raw locations, within 5% of the truth; the
    /// sum of the two would be about twice it.
    @Test func aTakeoutWithRecordsAndTheSemanticHistoryCountsTheDayOnce() async throws {
        let ride = Self.ride
        let truth = Swift.zip(ride, ride.dropFirst()).reduce(0.0) { sum, pair in
            sum
                + Geodesy.haversineDistance(
                    Coordinate(latitude: pair.0.latitude, longitude: pair.0.longitude),
                    Coordinate(latitude: pair.1.latitude, longitude: pair.1.longitude))
        }
        let folder = try Samples.temporaryDirectory() + "/Takeout"
        let history = folder + "/Location History"
        try FileManager.default.createDirectory(
            atPath: history + "/Semantic Location History/2026", withIntermediateDirectories: true)
        let records = ride.enumerated().filter { $0.offset % 60 == 0 }.map { _, p in
            [
                "latitudeE7": Self.e7(p.latitude), "longitudeE7": Self.e7(p.longitude), "accuracy": 15,
                "timestamp": Self.iso(p.milliseconds), "deviceTag": 7,
            ] as [String: Any]
        }
        try JSONSerialization.data(withJSONObject: ["locations": records]).write(
            to: URL(fileURLWithPath: history + "/Records.json"))
        let path = ride.enumerated().filter { $0.offset % 300 == 0 }.map(\.element)
        let (first, last) = (ride.first!, ride.last!)
        let segment: [String: Any] = [
            "activitySegment": [
                "startLocation": ["latitudeE7": Self.e7(first.latitude), "longitudeE7": Self.e7(first.longitude)],
                "endLocation": ["latitudeE7": Self.e7(last.latitude), "longitudeE7": Self.e7(last.longitude)],
                "duration": [
                    "startTimestamp": Self.iso(first.milliseconds), "endTimestamp": Self.iso(last.milliseconds),
                ],
                "activityType": "CYCLING",
                "simplifiedRawPath": [
                    "points": path.map {
                        [
                            "latE7": Self.e7($0.latitude), "lngE7": Self.e7($0.longitude),
                            "timestamp": Self.iso($0.milliseconds), "accuracyMeters": 5,
                        ] as [String: Any]
                    }
                ],
            ]
        ]
        try JSONSerialization.data(withJSONObject: ["timelineObjects": [segment]]).write(
            to: URL(fileURLWithPath: history + "/Semantic Location History/2026/2026_JUNE.json"))
        let archive = try Samples.temporaryDirectory() + "/takeout.zip"
        try zip(folder, into: archive)
        let store = try Samples.temporaryDirectory() + "/google.sqlite"
        let imported = try await run(["import", "--store", store, archive])
        #expect(imported.status == 0, "\(imported.stderr)")
        func distance(_ extra: [String]) async throws -> Double {
            let result = try await run(
                ["summary", "--store", store, "--day", "2026-06-14", "--time-zone", "UTC", "--json"] + extra)
            #expect(result.status == 0, "\(result.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let moves = try #require(json["moves"] as? [[String: Any]])
            return moves.compactMap { $0["distance_m"] as? Double }.reduce(0, +)
        }
        let day = try await distance([])
        let raw = try await distance(["--device-name", "imported-google-7"])
        let semantic = try await distance(["--device-name", "imported"])
        #expect(raw > 0.9 * truth && semantic > 0.3 * truth, "each source alone: \(raw) m, \(semantic) m of \(truth) m")
        #expect(abs(day - truth) / truth < 0.05, "the day: \(day) m against the truth's \(truth) m")
        #expect(abs(day - raw) < 1, "the raw locations, not the path: \(day) m, raw \(raw) m")
    }

    /// The Android export: the path in a semantic segment, the raw signals, a visit and an
    /// activity, with times at a local offset.
    @Test func androidTimelineStoresPathAndRawSignals() async throws {
        let ride = Self.ride
        let path = ride.enumerated().filter { $0.offset % 30 == 0 }.map(\.element)
        let raw = ride.enumerated().filter { $0.offset % 30 == 15 }.map(\.element)
        let (first, last) = (ride.first!, ride.last!)
        func latLng(_ p: Point) -> String { String(format: "%.7f°, %.7f°", p.latitude, p.longitude) }
        let segments: [[String: Any]] = [
            [
                "startTime": Self.iso(first.milliseconds - 600_000, offsetMinutes: 120),
                "endTime": Self.iso(first.milliseconds, offsetMinutes: 120),
                "startTimeTimezoneUtcOffsetMinutes": 120,
                "visit": [
                    "hierarchyLevel": 0, "probability": 0.9,
                    "topCandidate": [
                        "placeId": "ChIJstart", "semanticType": "HOME", "probability": 0.8,
                        "placeLocation": ["latLng": latLng(first)],
                    ],
                ],
            ],
            [
                "startTime": Self.iso(first.milliseconds, offsetMinutes: 120),
                "endTime": Self.iso(last.milliseconds, offsetMinutes: 120),
                "activity": [
                    "start": ["latLng": latLng(first)], "end": ["latLng": latLng(last)], "distanceMeters": 7400.5,
                    "topCandidate": ["type": "CYCLING", "probability": 0.95],
                ],
            ],
            [
                "startTime": Self.iso(first.milliseconds, offsetMinutes: 120),
                "endTime": Self.iso(last.milliseconds, offsetMinutes: 120),
                "timelinePath": path.map {
                    ["point": latLng($0), "time": Self.iso($0.milliseconds, offsetMinutes: 120)]
                },
            ],
        ]
        var signals: [[String: Any]] = raw.map { p in
            [
                "position": [
                    "LatLng": latLng(p), "accuracyMeters": 4, "altitudeMeters": p.altitude ?? 0, "source": "GPS",
                    "timestamp": Self.iso(p.milliseconds, offsetMinutes: 120), "speedMetersPerSecond": p.speed ?? 0,
                ]
            ]
        }
        signals.append(["wifiScan": ["deliveryTime": Self.iso(first.milliseconds), "devicesRecords": []]])
        signals.append(["position": ["LatLng": "north of here", "timestamp": Self.iso(first.milliseconds)]])
        let file = try write(
            ["semanticSegments": segments, "rawSignals": signals, "userLocationProfile": ["frequentPlaces": []]],
            "Timeline.json")
        let (report, store) = try await importJSON(file)
        #expect(report["format"] as? String == "Google Timeline.json (Android)")
        #expect(report["fixes_read"] as? Int == path.count + raw.count)
        #expect(report["skipped"] as? [String: Int] == ["not a position": 1, "position unreadable": 1])
        #expect(report["visits"] as? Int == 1 && report["activities"] as? Int == 1)
        try await expectStored(store, match: path.map(\.positionOnly) + raw, count: path.count + raw.count)
        let stored = try await records(store)
        let visit = try #require(stored.first { field($0, "google") as? String == "visit" })
        #expect(field(visit, "semantic_type") as? String == "HOME")
        #expect(field(visit, "place_id") as? String == "ChIJstart")
        let activity = try #require(stored.first { field($0, "google") as? String == "activity" })
        #expect(field(activity, "distance_m") as? Double == 7400.5)
        #expect(field(activity, "probability") as? Double == 0.95)
    }

    /// The iOS export: `geo:` positions, path points as minutes after the segment's start.
    @Test func iosLocationHistoryStoresPathPointsAtTheirMinutes() async throws {
        let ride = Self.ride
        let start = ride.first!.milliseconds
        let path = ride.filter { ($0.milliseconds - start) % 60_000 == 0 }
        #expect(path.count > 20)
        func geo(_ p: Point) -> String { String(format: "geo:%.6f,%.6f", p.latitude, p.longitude) }
        let (first, last) = (ride.first!, ride.last!)
        let entries: [[String: Any]] = [
            [
                "startTime": Self.iso(start - 600_000, offsetMinutes: -420),
                "endTime": Self.iso(start, offsetMinutes: -420),
                "visit": [
                    "hierarchyLevel": "0", "probability": "0.87",
                    "topCandidate": [
                        "probability": "0.6", "semanticType": "Unknown", "placeID": "ChIJios",
                        "placeLocation": geo(first),
                    ],
                ],
            ],
            [
                "endTime": Self.iso(last.milliseconds, offsetMinutes: -420),
                "startTime": Self.iso(start, offsetMinutes: -420),
                "activity": [
                    "start": geo(first), "end": geo(last), "distanceMeters": "7400.0",
                    "topCandidate": ["type": "cycling", "probability": "0.9"],
                ],
            ],
            [
                // The path comes before its start time: the points wait for it.
                "timelinePath": path.map {
                    ["point": geo($0), "durationMinutesOffsetFromStartTime": "\(($0.milliseconds - start) / 60_000)"]
                },
                "endTime": Self.iso(last.milliseconds, offsetMinutes: -420),
                "startTime": Self.iso(start, offsetMinutes: -420),
            ],
        ]
        let file = try write(entries, "location-history.json")
        let (report, store) = try await importJSON(file)
        #expect(report["format"] as? String == "Google location-history.json (iOS)")
        #expect(report["fixes_read"] as? Int == path.count)
        #expect(report["visits"] as? Int == 1 && report["activities"] as? Int == 1)
        try await expectStored(store, match: path.map(\.positionOnly), count: path.count)
        let stored = try await records(store)
        let activity = try #require(stored.first { field($0, "google") as? String == "activity" })
        #expect(field(activity, "activity_type") as? String == "cycling")
        #expect(field(activity, "distance_m") as? Double == 7400)
    }

    /// A Takeout folder is taken whole: the files that hold history, in name order; the others
    /// are passed over and counted.
    @Test func aTakeoutFolderImportsEveryHistoryFileUnderIt() async throws {
        let ride = Self.ride
        let root = try Samples.temporaryDirectory() + "/Takeout"
        let history = root + "/Location History (Timeline)"
        try FileManager.default.createDirectory(
            atPath: history + "/Semantic Location History/2026", withIntermediateDirectories: true)
        let morning = ride.prefix(900).map { p in
            [
                "latitudeE7": Self.e7(p.latitude), "longitudeE7": Self.e7(p.longitude),
                "timestamp": Self.iso(p.milliseconds),
            ]
                as [String: Any]
        }
        let recordsFile = try write(["locations": morning], "Records.json")
        try FileManager.default.moveItem(atPath: recordsFile, toPath: history + "/Records.json")
        let last = ride.last!
        let visit: [String: Any] = [
            "timelineObjects": [
                [
                    "placeVisit": [
                        "location": ["latitudeE7": Self.e7(last.latitude), "longitudeE7": Self.e7(last.longitude)],
                        "duration": ["startTimestamp": Self.iso(last.milliseconds)],
                    ]
                ]
            ]
        ]
        let month = try write(visit, "2026_JUNE.json")
        try FileManager.default.moveItem(
            atPath: month, toPath: history + "/Semantic Location History/2026/2026_JUNE.json")
        try #"{"createdTime": "2026-06-15T00:00:00Z", "deviceSettings": []}"#.write(
            toFile: history + "/Settings.json", atomically: true, encoding: .utf8)
        try "<html></html>".write(toFile: root + "/archive_browser.html", atomically: true, encoding: .utf8)
        let store = try Samples.temporaryDirectory() + "/takeout.sqlite"
        let result = try await run(["import", "--store", store, root])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Importing 2 files; 2 other files passed over (no track in them)."))
        #expect(result.stdout.contains("Records.json (Google Records.json): 900 elements read"), "\(result.stdout)")
        #expect(result.stdout.contains("2026_JUNE.json (Google Semantic Location History)"))
        try await expectStored(store, match: Array(ride.prefix(900)).map(\.positionOnly), count: 900)
        #expect(try await records(store).count == 1)

        // A folder with nothing to import says so.
        let empty = try Samples.temporaryDirectory()
        try "<html></html>".write(toFile: empty + "/index.html", atomically: true, encoding: .utf8)
        let nothing = try await run(["import", "--store", store, empty])
        #expect(nothing.status == 65)
        #expect(
            nothing.stderr.contains("no NMEA log, GPX, KML, GeoJSON, CSV or Google location history file is under it"))
    }

    /// An OwnTracks Recorder month: location lines stored (speed from km/h), a transition and a
    /// waypoint kept as records, the other message types and broken lines counted. The lines as
    /// the Recorder writes them (owntracks/recorder storage.c @1788cb58, `RECFORMAT`
    /// "%s\t%-18s\t%s\n": the time, the topic below the device's (`*`, `event`, `waypoint`, or
    /// another whose payload is not JSON), the payload); the messages as the booklet describes
    /// them (owntracks/booklet docs/tech/json.md @0213d45a).
    @Test func ownTracksRecorderFilesStoreTheirLocations() async throws {
        let ride = Self.ride.enumerated().filter { $0.offset % 5 == 0 }.map(\.element)
        var lines = ride.map { p -> String in
            let seconds = Double(p.milliseconds) / 1000
            let message = String(
                format:
                    #"{"_type":"location","tid":"ph","acc":5,"batt":80,"conn":"m","lat":%.7f,"lon":%.7f,"alt":%.0f,"vel":%.0f,"cog":90,"tst":%.0f,"t":"u"}"#,
                p.latitude, p.longitude, (p.altitude ?? 0).rounded(), ((p.speed ?? 0) * 3.6).rounded(), seconds)
            return Self.iso(p.milliseconds).replacingOccurrences(of: ".000", with: "") + "\t*                 \t"
                + message
        }
        let first = ride[0]
        lines.insert(
            "2026-06-14T06:29:00Z\tevent             \t{\"_type\":\"transition\",\"event\":\"leave\",\"tst\":1781418540}",
            at: 0)
        // The month begins with a message whose payload is not JSON.
        lines.insert("2026-06-14T06:28:00Z\tinfo              \tonline", at: 0)
        lines.insert(
            String(
                format:
                    #"2026-06-14T06:29:30Z\#twaypoint          \#t{"_type":"waypoint","desc":"Home","lat":%.7f,"lon":%.7f,"rad":100,"tst":1781418570}"#,
                first.latitude, first.longitude), at: 2)
        lines.insert(
            String(
                format:
                    #"2026-06-14T06:29:50Z\#tevent             \#t{"_type":"transition","wtst":1781418570,"lat":%.7f,"lon":%.7f,"tst":1781418590,"acc":5,"event":"leave","desc":"Home","t":"c","tid":"ph"}"#,
                first.latitude, first.longitude), at: 3)
        lines.append("2026-06-14T07:10:00Z\t*                 \t{\"_type\":\"lwt\",\"tst\":1781421000}")
        lines.append("2026-06-14T07:11:00Z\t*                 \t{\"_type\":\"location\",\"lat\":47.1,")
        let file = try Samples.temporaryDirectory() + "/2026-06.rec"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let (report, store) = try await importJSON(file)
        #expect(report["format"] as? String == "OwnTracks Recorder .rec")
        #expect(report["elements"] as? Int == ride.count + 6)
        #expect(report["skipped"] as? [String: Int] == ["not a location": 2, "no position": 1, "line unreadable": 1])
        #expect(report["fixes_read"] as? Int == ride.count)
        #expect(report["records"] as? Int == 2, "\(report)")
        let kept = try await records(store)
        #expect(kept.map { field($0, "owntracks") as? String } == ["waypoint", "transition"], "\(kept)")
        #expect(kept.map { field($0, "region") as? String } == ["Home", "Home"])
        #expect(field(kept[0], "radius_m") as? Double == 100)
        #expect(field(kept[1], "event") as? String == "leave" && field(kept[1], "trigger") as? String == "c")
        #expect(
            kept.map { ($0["notes"] as? [[String: Any]])?.first?["text"] as? String } == [
                "Region Home, 100 m", "Left Home",
            ])
        #expect(
            kept.map { $0["time"] as? String } == ["2026-06-14T06:29:30.000Z", "2026-06-14T06:29:50.000Z"], "\(kept)")
        let written = ride.map {
            Point(
                milliseconds: $0.milliseconds, latitude: $0.latitude, longitude: $0.longitude,
                altitude: ($0.altitude ?? 0).rounded(), speed: (($0.speed ?? 0) * 3.6).rounded() / 3.6)
        }
        try await expectStored(store, match: written, count: ride.count)
    }

    /// Runs a Python snippet (python3 is what `make test` installs for the page tests too).
    func python(_ code: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", code] + arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3 \(arguments)")
    }

    /// Zips the folder `folder` into `zip` (deflated), its entries named from the folder's name.
    func zip(_ folder: String, into zip: String) throws {
        try python(
            """
            import os, sys, zipfile
            folder, out = sys.argv[1], sys.argv[2]
            base = os.path.dirname(folder)
            with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
                for root, _, names in os.walk(folder):
                    for n in sorted(names):
                        z.write(os.path.join(root, n), os.path.relpath(os.path.join(root, n), base))
            """, [folder, zip])
    }

    /// A Takeout zip is read in place: each history file in it imported as a path through the
    /// archive, the same file unpacked is the same file, and broken or hostile archives say so.
    @Test func aTakeoutZipIsReadInPlace() async throws {
        let ride = Self.ride
        let dir = try Samples.temporaryDirectory()
        let history = dir + "/Takeout/Location History (Timeline)"
        try FileManager.default.createDirectory(atPath: history, withIntermediateDirectories: true)
        let morning = ride.prefix(600).map { p in
            [
                "latitudeE7": Self.e7(p.latitude), "longitudeE7": Self.e7(p.longitude),
                "timestamp": Self.iso(p.milliseconds),
            ]
                as [String: Any]
        }
        try FileManager.default.moveItem(
            atPath: try write(["locations": morning], "Records.json"), toPath: history + "/Records.json")
        try #"{"deviceSettings": []}"#.write(toFile: history + "/Settings.json", atomically: true, encoding: .utf8)
        let archive = dir + "/takeout-20260615T000000Z-001.zip"
        try zip(dir + "/Takeout", into: archive)
        let store = dir + "/zip.sqlite"
        let result = try await run(["import", "--store", store, archive])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Importing 1 file; 1 other file passed over (no track in it)."))
        #expect(
            result.stdout.contains(
                archive + "/Takeout/Location History (Timeline)/Records.json (Google Records.json): 600 elements read"),
            "\(result.stdout)")
        try await expectStored(store, match: Array(ride.prefix(600)).map(\.positionOnly), count: 600)
        // The same file unpacked is the same file.
        let again = try await run(["import", "--store", store, history + "/Records.json"])
        #expect(again.stdout.contains("already imported as " + archive + "/Takeout/"), "\(again.stdout)")

        // Cut short: no directory at its end.
        let data = try Data(contentsOf: URL(fileURLWithPath: archive))
        let cut = dir + "/cut.zip"
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: cut))
        let truncated = try await run(["import", "--store", store, cut])
        #expect(truncated.status == 65)
        #expect(truncated.stderr.contains("it has no zip directory at its end (the archive looks truncated)"))

        // A bomb: 50 MB of spaces deflate 1,030 to 1; and an entry holding more than it declares.
        let bomb = dir + "/bomb.zip"
        try python(
            """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("Records.json", b'{"locations": [' + b' ' * 50_000_000 + b']}')
            """, [bomb])
        let bombed = try await run(["import", "--store", store, bomb])
        #expect(bombed.status == 65)
        #expect(bombed.stderr.contains("(a zip bomb)"), "\(bombed.stderr)")
        let liar = dir + "/liar.zip"
        try python(
            """
            import struct, sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_STORED) as z:
                z.writestr("Records.json", b'{"locations": [' + b' ' * 100_000 + b']}')
            data = bytearray(open(sys.argv[1], "rb").read())
            at = data.rindex(b"PK\\x01\\x02")
            data[at + 24:at + 28] = struct.pack("<I", 5000)
            open(sys.argv[1], "wb").write(data)
            """, [liar])
        let lied = try await run(["import", "--store", store, liar])
        #expect(lied.status == 65)
        #expect(lied.stderr.contains("holds more than the 5000 bytes it declares (a zip bomb)"), "\(lied.stderr)")
        #expect(lied.stderr.split(separator: "\n").count == 1)
        try await expectStored(store, match: Array(ride.prefix(600)).map(\.positionOnly), count: 600)
    }

    /// Broken and hostile JSON: one sentence, exit 65, nothing stored.
    @Test(arguments: ["truncated", "long string", "deep nesting", "not JSON", "other JSON"])
    func brokenFilesExit65AndStoreNothing(_ kind: String) async throws {
        let dir = try Samples.temporaryDirectory()
        let file = dir + "/Records.json"
        let valid =
            #"{"locations": [{"latitudeE7": 473769000, "longitudeE7": 85417000, "timestamp": "2026-06-14T06:30:00Z"}"#
        var expected: String
        switch kind {
        case "truncated":
            try (valid + ",\n{\"latitudeE7\": 47").write(toFile: file, atomically: true, encoding: .utf8)
            expected = "the file ends inside"
        case "long string":
            // 100 MB in a string: refused at 1 MB, never held whole.
            let handle = try #require(
                FileManager.default.createFile(atPath: file, contents: nil) ? FileHandle(forWritingAtPath: file) : nil)
            try handle.write(contentsOf: Data((valid + #", {"source": ""#).utf8))
            let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<100 { try handle.write(contentsOf: chunk) }
            try handle.write(contentsOf: Data("\"}]}".utf8))
            try handle.close()
            expected = "a single value is longer than 1 MB"
        case "deep nesting":
            try (valid + ", " + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "]}")
                .write(toFile: file, atomically: true, encoding: .utf8)
            expected = "it nests deeper than 512 levels"
        case "not JSON":
            try (valid + ", {\"latitudeE7\": 47,, }]}").write(toFile: file, atomically: true, encoding: .utf8)
            expected = "',' where a key in quotes should be"
        default:
            try #"{"meta": {"locations": [], "latitudeE7": 1}}"#.write(toFile: file, atomically: true, encoding: .utf8)
            expected = "none of Google's location history formats"
        }
        let store = dir + "/s.sqlite"
        let result = try await run(["import", "--store", store, file])
        #expect(result.status == 65, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try await Self.storedPoints(store, day: "2026-06-14").isEmpty)
    }
}
