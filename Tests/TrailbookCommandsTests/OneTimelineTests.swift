import Foundation
import GPSCore
import RideSimulator
import Testing
import TrailbookTestSupport

/// Issue 61's "done when": a generated Takeout zip (Records.json and the semantic history of the
/// same three days) and a Timeline.json of a fourth, imported into one account, read as the days
/// were lived. The files' shapes are those of GoogleImportTests (Records.json, the semantic
/// history's `placeVisit`/`activitySegment`, Android's Timeline.json `semanticSegments`), whose
/// sources are cited there; the days come from ``HistorySimulator`` with the truth beside them.
extension WebPageTests {
    struct Lived {
        var simulator: HistorySimulator
        /// Each stay's place as Google named it, by the truth's span index.
        var names: [Int: (name: String, id: String)]
        /// Each move's activity type as Google writes it.
        var activities: [Int: String]
    }

    static let home = Coordinate(latitude: 47.3700, longitude: 8.5400)
    static let office = Coordinate(latitude: 47.3900, longitude: 8.5150)
    static let cafe = Geodesy.destination(from: office, bearing: 60, distance: 400)
    static let basel = Coordinate(latitude: 47.5476, longitude: 7.5896)
    static let theatre = Geodesy.destination(from: home, bearing: 200, distance: 1100)
    /// 2026-06-01 00:00 in Zurich.
    static let start: Int64 = 1_780_264_800_000

    /// Three working days in Zurich, the phone logging all the time: by bike to the office, a
    /// walk to the café at noon and back; on the second, by train to Basel and back in the
    /// afternoon; home by bike; the nights at home.
    static func lived() -> Lived {
        var steps: [HistorySimulator.Step] = []
        var clock = start
        var names: [Int: (String, String)] = [:]
        var activities: [Int: String] = [:]
        var spans = 0
        var place: (String, String) = ("Home", "ChIJhome")
        func stay(until day: Int, _ hour: Double) {
            let until = start + Int64(day) * 86_400_000 + Int64(hour * 3_600_000)
            steps.append(.stay(seconds: Int((until - clock) / 1000)))
            clock = until
            names[spans] = place
            spans += 1
        }
        func go(_ to: Coordinate, _ mode: String, _ google: String, _ speed: Double, _ name: (String, String)) {
            let from = steps.isEmpty ? home : currentPosition
            clock += Int64((Geodesy.haversineDistance(from, to) / speed * 1000).rounded())
            steps.append(.move(to: to, speed: speed, mode: mode))
            activities[spans] = google
            spans += 1
            currentPosition = to
            place = name
        }
        var currentPosition = home
        for day in 0..<3 {
            stay(until: day, 7.5)
            go(office, "cycling", "CYCLING", 5.5, ("Office", "ChIJoffice"))
            stay(until: day, 12)
            go(cafe, "walking", "WALKING", 1.4, ("Café Henrici", "ChIJhenrici"))
            stay(until: day, 13)
            go(office, "walking", "WALKING", 1.4, ("Office", "ChIJoffice"))
            if day == 1 {
                stay(until: day, 15)
                go(basel, "train", "IN_RAIL_VEHICLE", 30, ("Basel SBB", "ChIJbasel"))
                stay(until: day, 18)
                go(office, "train", "IN_RAIL_VEHICLE", 30, ("Office", "ChIJoffice"))
                stay(until: day, 19)
            } else {
                stay(until: day, 17.5)
            }
            go(home, "cycling", "CYCLING", 5.5, ("Home", "ChIJhome"))
        }
        stay(until: 3, 6)
        var simulator = HistorySimulator(start: home, startMilliseconds: start, steps: steps)
        simulator.seed = 61
        return Lived(simulator: simulator, names: names, activities: activities)
    }

    /// The truth of local day `day` (0: 2026-06-01): its moves' distance (m) and time (s).
    static func truth(_ lived: Lived, day: Int) -> (distance: Double, seconds: Double) {
        let (a, b) = (start + Int64(day) * 86_400_000, start + Int64(day + 1) * 86_400_000)
        var position = home
        var total = (distance: 0.0, seconds: 0.0)
        for span in lived.simulator.truth {
            if span.mode != nil, span.start >= a, span.start < b {
                total.distance += Geodesy.haversineDistance(position, span.at)
                total.seconds += Double(span.end - span.start) / 1000
            }
            position = span.at
        }
        return total
    }

    /// The Takeout: Records.json of every fix, and the semantic history of the same days.
    func takeout(_ lived: Lived) throws -> String {
        let folder = try Samples.temporaryDirectory() + "/Takeout"
        let history = folder + "/Location History"
        try FileManager.default.createDirectory(
            atPath: history + "/Semantic Location History/2026", withIntermediateDirectories: true)
        let records = Array(lived.simulator).map { f -> [String: Any] in
            [
                "latitudeE7": GoogleImportTests.e7(f.coordinate!.latitude),
                "longitudeE7": GoogleImportTests.e7(f.coordinate!.longitude),
                "accuracy": (f.speed ?? 0) > 0 ? 5 : 15, "timestamp": GoogleImportTests.iso(f.unixMilliseconds!),
                "deviceTag": 7,
            ]
        }
        try JSONSerialization.data(withJSONObject: ["locations": records]).write(
            to: URL(fileURLWithPath: history + "/Records.json"))
        var objects: [[String: Any]] = []
        var position = Self.home
        for (i, span) in lived.simulator.truth.enumerated() {
            func location(_ c: Coordinate) -> [String: Any] {
                ["latitudeE7": GoogleImportTests.e7(c.latitude), "longitudeE7": GoogleImportTests.e7(c.longitude)]
            }
            let duration = [
                "startTimestamp": GoogleImportTests.iso(span.start), "endTimestamp": GoogleImportTests.iso(span.end),
            ]
            if span.mode == nil, let (name, id) = lived.names[i] {
                var place = location(span.at)
                (place["name"], place["placeId"], place["address"]) = (name, id, "\(name), Zürich")
                objects.append(["placeVisit": ["location": place, "duration": duration]])
            } else if let type = lived.activities[i] {
                // Only the ends: no path, no waypoints.
                objects.append([
                    "activitySegment": [
                        "startLocation": location(position), "endLocation": location(span.at), "duration": duration,
                        "activityType": type,
                        "distance": Int(Geodesy.haversineDistance(position, span.at).rounded()),
                    ]
                ])
            }
            position = span.at
        }
        try JSONSerialization.data(withJSONObject: ["timelineObjects": objects]).write(
            to: URL(fileURLWithPath: history + "/Semantic Location History/2026/2026_JUNE.json"))
        let archive = try Samples.temporaryDirectory() + "/takeout.zip"
        try GoogleImportTests().zip(folder, into: archive)
        return archive
    }

    /// Android's on-device Timeline.json of the fourth evening: a walk to the theatre, two hours
    /// there with no raw point, a walk home (each walk only its ends and Google's distance).
    func timelineJSON() throws -> String {
        func latLng(_ c: Coordinate) -> String { String(format: "%.7f°, %.7f°", c.latitude, c.longitude) }
        func local(_ day: Int, _ hour: Double) -> String {
            GoogleImportTests.iso(Self.start + Int64(day) * 86_400_000 + Int64(hour * 3_600_000), offsetMinutes: 120)
        }
        let walk = Int(Geodesy.haversineDistance(Self.home, Self.theatre).rounded())
        let segments: [[String: Any]] = [
            [
                "startTime": local(3, 18.75), "endTime": local(3, 19), "startTimeTimezoneUtcOffsetMinutes": 120,
                "activity": [
                    "start": ["latLng": latLng(Self.home)], "end": ["latLng": latLng(Self.theatre)],
                    "distanceMeters": Double(walk), "topCandidate": ["type": "WALKING", "probability": 0.9],
                ],
            ],
            [
                "startTime": local(3, 19), "endTime": local(3, 21), "startTimeTimezoneUtcOffsetMinutes": 120,
                "visit": [
                    "hierarchyLevel": 0, "probability": 0.8,
                    "topCandidate": [
                        "placeId": "ChIJtheatre", "semanticType": "UNKNOWN", "probability": 0.7,
                        "placeLocation": ["latLng": latLng(Self.theatre)],
                    ],
                ],
            ],
            [
                "startTime": local(3, 21), "endTime": local(3, 21.25), "startTimeTimezoneUtcOffsetMinutes": 120,
                "activity": [
                    "start": ["latLng": latLng(Self.theatre)], "end": ["latLng": latLng(Self.home)],
                    "distanceMeters": Double(walk), "topCandidate": ["type": "WALKING", "probability": 0.9],
                ],
            ],
        ]
        let path = try Samples.temporaryDirectory() + "/Timeline.json"
        try JSONSerialization.data(withJSONObject: ["semanticSegments": segments, "rawSignals": []]).write(
            to: URL(fileURLWithPath: path))
        return path
    }

    /// An ISO 8601 time with or without milliseconds, at any offset, in ms.
    static func instant(_ value: Any?) -> Int64? {
        guard let text = value as? String else { return nil }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        let date =
            f.date(from: text)
            ?? GoogleImportTests.milliseconds(text).map { Date(timeIntervalSince1970: Double($0) / 1000) }
        return date.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) }
    }

    /// A bike computer's GPX of the first ride to the office, which the phone logged too: a fix
    /// a second along the way, 4 m beside the phone's line (another receiver).
    static func bikeGPX(_ lived: Lived) throws -> String {
        let ride = try #require(lived.simulator.truth.first { $0.mode == "cycling" })
        let from = Geodesy.destination(from: home, bearing: 0, distance: 4)
        let to = Geodesy.destination(from: ride.at, bearing: 0, distance: 4)
        let seconds = Int((ride.end - ride.start) / 1000)
        var gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Bike computer" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>

            """
        for s in 0...seconds {
            let f = Double(s) / Double(seconds)
            let c = Coordinate(
                latitude: from.latitude + (to.latitude - from.latitude) * f,
                longitude: from.longitude + (to.longitude - from.longitude) * f)
            gpx += String(format: "<trkpt lat=\"%.7f\" lon=\"%.7f\">", c.latitude, c.longitude)
            gpx += "<time>\(GoogleImportTests.iso(ride.start + Int64(s) * 1000))</time></trkpt>\n"
        }
        gpx += "</trkseg></trk></gpx>\n"
        let path = try Samples.temporaryDirectory() + "/bike.gpx"
        try gpx.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aTakeoutAndATimelineJSONReadAsTheDaysWereLived() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana"], store: store)
        let lived = Self.lived()
        for file in [try takeout(lived), try timelineJSON()] {
            let imported = try await run(["import", "--store", store, "--user", "ana", file])
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        // The bike computer's ride the phone logged too: one ride, counted once.
        let bike = try await run(
            ["import", "--store", store, "--user", "ana", "--device-name", "bike", try Self.bikeGPX(lived)])
        #expect(bike.status == 0, "\(bike.stderr)")
        let config = dir + "/config.toml"
        try "[time]\nzone = \"Europe/Zurich\"\n[maps]\ntiles = \"none\"\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let user = ["--store", store, "--user", "ana", "--config", config]
        func json(_ arguments: [String]) async throws -> [String: Any] {
            let result = try await run(arguments + user + ["--json"])
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        }
        func near(_ measured: Double, _ truth: Double) -> Bool { abs(measured - truth) <= 0.05 * truth }
        /// "3.52 km" and "0:12:44" as metres and seconds.
        func figures(_ distance: String, _ moving: String) -> (Double, Double) {
            let km = Double(distance.replacingOccurrences(of: " km", with: "")) ?? -1
            let parts = moving.split(separator: ":").compactMap { Double($0) }
            return (km * 1000, parts.count == 3 ? parts[0] * 3600 + parts[1] * 60 + parts[2] : -1)
        }
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let ana = try await signIn(server.url!, as: "ana")
        let jar = ["Cookie": "trailbook_session=\(ana)"]
        let days = try await HTTP.request(
            URL(string: "\(server.url!)/days?from=2026-06-01&to=2026-06-04")!, headers: jar)
        #expect(days.0 == 200)
        var total = 0.0
        for day in 0..<3 {
            let date = "2026-06-0\(day + 1)"
            let truth = Self.truth(lived, day: day)
            total += truth.distance
            // summary --day --user
            let summary = try await json(["summary", "--day", date])
            let rides = try #require(summary["moves"] as? [[String: Any]])
            let distance = rides.compactMap { $0["distance_m"] as? Double }.reduce(0, +)
            let moving = rides.compactMap { $0["moving_s"] as? Double }.reduce(0, +)
            #expect(near(distance, truth.distance), "\(date) summary: \(distance) m, truth \(truth.distance) m")
            #expect(near(moving, truth.seconds), "\(date) summary: moving \(moving) s, truth \(truth.seconds) s")
            // The day page's totals.
            let page = try await HTTP.request(URL(string: "\(server.url!)/day/\(date)")!, headers: jar)
            let totals = try #require(
                page.1.components(separatedBy: #"<div class="totals"><span>"#).dropFirst().first)
            let pageFigures = figures(
                String(totals.prefix { $0 != "<" }),
                String(
                    totals.components(separatedBy: #"<span>moving "#).dropFirst().first?.prefix {
                        $0 != "<"
                    } ?? ""))
            #expect(
                near(pageFigures.0, truth.distance) && near(pageFigures.1, truth.seconds),
                "\(date) page: \(pageFigures), truth \(truth)")
            // The days' list.
            let row = try #require(
                days.1.components(separatedBy: "data-day=\"\(date)\"").dropFirst().first, "\(days.1.suffix(3000))")
            let cells = row.components(separatedBy: #"<td class="nowrap">"#).dropFirst().first ?? ""
            let listed = figures(
                String(cells.prefix { $0 != "<" }),
                String(cells.components(separatedBy: "<td>").dropFirst().first?.prefix { $0 != "<" } ?? ""))
            #expect(
                near(listed.0, truth.distance) && near(listed.1, truth.seconds),
                "\(date) /days: \(listed), truth \(truth)")
            // One answer: the readers of the kept moves agree within 1% (the page's and the list's
            // figures are rounded to 10 m and a second).
            let byMode = try await json(["year", "--day", date])["by_mode"] as? [[String: Any]] ?? []
            let year = (
                byMode.compactMap { $0["distance_m"] as? Double }.reduce(0, +),
                byMode.compactMap { $0["seconds"] as? Double }.reduce(0, +)
            )
            func trips(_ document: [String: Any]) -> (Double, Double) {
                let trips = (document["entries"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "trip" }
                return (
                    trips.compactMap { $0["distance_m"] as? Double }.reduce(0, +),
                    trips.compactMap { $0["moving_s"] as? Double }.reduce(0, +)
                )
            }
            let timeline = trips(try await json(["timeline", date]))
            let api = try await HTTP.request(URL(string: "\(server.url!)/api/days/\(date)")!, headers: jar)
            let served = trips(
                try #require(try JSONSerialization.jsonObject(with: Data(api.1.utf8)) as? [String: Any], "\(api.1)"))
            for (reader, figures) in [
                ("day page", pageFigures), ("/days", listed), ("timeline --json", timeline), ("/api/days", served),
            ] {
                #expect(
                    abs(figures.0 - distance) <= 0.01 * distance && abs(figures.1 - moving) <= 0.01 * moving,
                    "\(date) \(reader): \(figures), summary \((distance, moving))")
            }
            // The year counts each mode's time travelled, not its moving time: its distance.
            #expect(abs(year.0 - distance) <= 0.01 * distance, "\(date) year --day: \(year), summary \(distance) m")
            // The visits carry Google's names; the trips its modes; no ride or trip over the night.
            let found = try await json(["visits", "--day", date])
            let names = Set((found["visits"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
            #expect(names.isSuperset(of: ["Office", "Café Henrici"]), "\(date): \(names)")
            let modes = (found["trips"] as? [[String: Any]] ?? []).compactMap { $0["mode"] as? String }
            #expect(modes.contains("cycling") && modes.contains("walking"), "\(date): \(modes)")
            if day == 1 { #expect(modes.filter { $0 == "train" }.count == 2 && names.contains("Basel SBB")) }
            let nightStart = Self.start + Int64(day) * 86_400_000 + 3_600_000 * 2
            let listedRides = try await json(["rides", "--day", date])["rides"] as? [[String: Any]] ?? []
            let trips = found["trips"] as? [[String: Any]] ?? []
            for item in listedRides + trips {
                let a = Self.instant(item["start"]) ?? .min
                let b = Self.instant(item["end"]) ?? .max
                #expect(!(a < nightStart && b > nightStart), "\(date): over 02:00 at home: \(item)")
                #expect(b - a < 3 * 3_600_000, "\(date): \(item)")
            }
        }
        // The fourth evening, from Timeline.json alone: a visit at the theatre for its hours, the
        // walks Google's, and the year counts them once.
        let evening = try await json(["visits", "--day", "2026-06-04"])
        let visits = evening["visits"] as? [[String: Any]] ?? []
        let theatre = visits.first {
            GoogleImportTests.milliseconds($0["start"] as? String ?? "") == Self.start + 3 * 86_400_000 + 19 * 3_600_000
        }
        #expect(theatre != nil, "\(visits)")
        let walks = (evening["trips"] as? [[String: Any]] ?? [])
        #expect(walks.count == 2 && walks.allSatisfy { $0["mode"] as? String == "walking" }, "\(walks)")
        let walked = 2 * Geodesy.haversineDistance(Self.home, Self.theatre)
        // No point that evening, and still its day has an answer: `summary` counts the two walks.
        let evenings = try await json(["summary", "--day", "2026-06-04"])["moves"] as? [[String: Any]] ?? []
        let summed = evenings.compactMap { $0["distance_m"] as? Double }.reduce(0, +)
        #expect(evenings.count == 2 && abs(summed - walked) <= 0.01 * walked, "\(evenings)")
        let year = try await json(["year", "2026"])
        let byMode = year["by_mode"] as? [[String: Any]] ?? []
        let yearDistance = byMode.compactMap { $0["distance_m"] as? Double }.reduce(0, +)
        #expect(near(yearDistance, total + walked), "year: \(yearDistance) m, truth \(total + walked) m, \(byMode)")
    }
}
