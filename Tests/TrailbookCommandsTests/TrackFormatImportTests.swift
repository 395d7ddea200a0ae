import Foundation
import Testing
import TrailbookTestSupport

/// `import` of KML and KMZ, GeoJSON and CSV files, each written here from the same ride
/// (Samples/ride.nmea as stored), Trailbook's own exports read back, and broken files.
@Suite struct TrackFormatImportTests {
    typealias Point = GoogleImportTests.Point
    let google = GoogleImportTests()

    var ride: [Point] { GoogleImportTests.ride }

    func iso(_ ms: Int64) -> String { GoogleImportTests.iso(ms) }

    func write(_ text: String, _ name: String) throws -> String {
        let path = try Samples.temporaryDirectory() + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The texts of a record's notes.
    func notes(_ record: [String: Any]?) -> [String] {
        ((record?["notes"] as? [[String: Any]]) ?? []).compactMap { $0["text"] as? String }
    }

    /// Imports `file` into a new store with `--json`: the file's report, and the store.
    func importJSON(_ file: String) async throws -> (report: [String: Any], store: String) {
        try await google.importJSON(file)
    }

    /// KML: a MultiTrack of two tracks (times, then positions), a point placemark, a record, a
    /// line without times and a track whose counts lie; then the same file as a KMZ.
    @Test func kmlTracksPlacemarksAndKMZ() async throws {
        let ride = ride
        let half = ride.count / 2
        func track(_ points: ArraySlice<Point>, extraWhen: Bool = false) -> String {
            var t = "<gx:Track>\n"
            for p in points { t += "<when>\(iso(p.milliseconds))</when>\n" }
            if extraWhen { t += "<when>\(iso(points.last!.milliseconds + 1000))</when>\n" }
            for p in points {
                t += String(format: "<gx:coord>%.7f %.7f %.1f</gx:coord>\n", p.longitude, p.latitude, p.altitude ?? 0)
            }
            return t + "</gx:Track>\n"
        }
        let last = ride.last!
        let after = last.milliseconds + 120_000
        let kml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
            <Document><name>ride</name>
            <Placemark><name>ride</name><gx:MultiTrack>
            \(track(ride[..<half]))\(track(ride[half...], extraWhen: true))</gx:MultiTrack></Placemark>
            <Placemark><name>stop</name><TimeStamp><when>\(iso(after))</when></TimeStamp>
              <Point><coordinates>\(last.longitude),\(last.latitude)</coordinates></Point></Placemark>
            <Placemark><name>Bakery</name><styleUrl>#record</styleUrl><description>Fresh bread &amp; coffee</description>
              <TimeStamp><when>\(iso(after + 60_000))</when></TimeStamp>
              <Point><coordinates>\(last.longitude),\(last.latitude),410</coordinates></Point></Placemark>
            <Placemark><name>planned</name><LineString><coordinates>8.54,47.37 8.55,47.38 8.56,47.39</coordinates>
              </LineString></Placemark>
            <Placemark><name>undated</name><TimeStamp><when>sometime</when></TimeStamp>
              <Point><coordinates>8.54,47.37</coordinates></Point></Placemark>
            </Document></kml>
            """
        let file = try write(kml, "ride.kml")
        let (report, store) = try await importJSON(file)
        #expect(report["format"] as? String == "KML")
        // The ride, one time too many, the stop, the record, three line positions, the undated.
        #expect(report["elements"] as? Int == ride.count + 1 + 1 + 1 + 3 + 1)
        #expect(report["skipped"] as? [String: Int] == ["no position": 1, "no time": 3, "time unreadable": 1])
        #expect(report["fixes_read"] as? Int == ride.count + 1)
        #expect(report["records"] as? Int == 1)
        let stop = Point(milliseconds: after, latitude: last.latitude, longitude: last.longitude)
        try await google.expectStored(
            store,
            match: ride.map {
                Point(
                    milliseconds: $0.milliseconds, latitude: $0.latitude,
                    longitude: $0.longitude, altitude: (($0.altitude ?? 0) * 10).rounded() / 10)
            } + [stop],
            count: ride.count + 1)
        let records = try await google.records(store)
        #expect(records.count == 1)
        #expect(notes(records.first) == ["Fresh bread & coffee"], "\(records)")

        // The same document zipped as a KMZ: its doc.kml is read in place.
        let dir = try Samples.temporaryDirectory()
        let kmz = dir + "/ride.kmz"
        try google.python(
            """
            import sys, zipfile
            with zipfile.ZipFile(sys.argv[2], "w", zipfile.ZIP_DEFLATED) as z:
                z.write(sys.argv[1], "doc.kml")
                z.writestr("files/icon.png", b"\\x89PNG\\r\\n\\x1a\\n")
            """, [file, kmz])
        let kmzStore = dir + "/kmz.sqlite"
        let result = try await run(["import", "--store", kmzStore, kmz])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("ride.kmz/doc.kml (KML): \(ride.count + 7) elements read"), "\(result.stdout)")
        #expect(result.stderr.contains("1 other file passed over"), "\(result.stderr)")
        #expect(try await GoogleImportTests.storedPoints(kmzStore, day: "2026-06-14").count == ride.count + 1)
    }

    /// A day as Google Maps' Timeline exported it to KML ("Export this day to KML", until 2024):
    /// a Placemark per visit (a `Point`) and per move (a `LineString` whose first position is
    /// written twice), each with a `TimeSpan` and `ExtendedData` (`Email`, `Category`,
    /// `Distance`), the placemarks in a `Folder`. The fields as Google wrote them, converted to
    /// GeoJSON by ogr2ogr in theianzhang/iZhang.github.io js/2020_callback.js @8ac8ead4
    /// ("Driving from … to …. Distance 1976m", `begin`, `end`, `altitudeMode` clampToGround).
    /// Each move's positions are timed by the distance along it from its begin to its end; a
    /// visit is there at both ends; what Google knew is kept as records, as from its JSON.
    @Test func googleTimelineKMLOfADayTimesItsLinesAndKeepsItsPlaces() async throws {
        // 2026-06-14: home until 08:00, driving north along a meridian (three positions 1.11 km
        // apart) until 08:10, the office until 17:00; a line with one time; a line with none.
        let (home, office) = ((47.37, 8.54), (47.39, 8.54))
        func data(_ category: String, _ distance: Int) -> String {
            """
            <ExtendedData><Data name="Email"><value>ana@example.com</value></Data>
            <Data name="Category"><value>\(category)</value></Data>
            <Data name="Distance"><value>\(distance)</value></Data></ExtendedData>
            """
        }
        let kml = """
            <?xml version='1.0' encoding='UTF-8'?>
            <kml xmlns='http://www.opengis.net/kml/2.2'>
            <Document><name>Location history from 2026-06-14 to 2026-06-14 </name><open>1</open>
            <Folder><name>Location history</name>
            <Placemark><name>Home</name><address>Limmatstrasse 1, Zürich</address>\(data("Home", 0))
              <description>Home from 2026-06-14T05:00:00.000Z to 2026-06-14T08:00:00.000Z. Distance 0m </description>
              <Point><coordinates>\(home.1),\(home.0),0</coordinates></Point>
              <TimeSpan><begin>2026-06-14T05:00:00.000Z</begin><end>2026-06-14T08:00:00.000Z</end></TimeSpan>
            </Placemark>
            <Placemark><name>Driving</name><address></address>\(data("Driving", 2224))
              <description>Driving from 2026-06-14T08:00:00.000Z to 2026-06-14T08:10:00.000Z. Distance 2224m </description>
              <LineString><altitudeMode>clampToGround</altitudeMode><extrude>1</extrude><tesselate>1</tesselate>
              <coordinates>\(home.1),\(home.0),0 \(home.1),\(home.0),0 8.54,47.38,0 \(office.1),\(office.0),0</coordinates>
              </LineString>
              <TimeSpan><begin>2026-06-14T08:00:00.000Z</begin><end>2026-06-14T08:10:00.000Z</end></TimeSpan>
            </Placemark>
            <Placemark><name>Office</name><address>Hardstrasse 2, Zürich</address>\(data("Work", 0))
              <Point><coordinates>\(office.1),\(office.0),0</coordinates></Point>
              <TimeSpan><begin>2026-06-14T08:10:00.000Z</begin><end>2026-06-14T17:00:00.000Z</end></TimeSpan>
            </Placemark>
            <Placemark><name>stamped</name><TimeStamp><when>2026-06-14T18:00:00Z</when></TimeStamp>
              <MultiGeometry><LineString><coordinates>8.50,47.30 8.51,47.31</coordinates></LineString></MultiGeometry>
            </Placemark>
            <Placemark><name>planned</name><LineString><coordinates>8.54,47.37 8.55,47.38</coordinates></LineString>
            </Placemark>
            </Folder></Document></kml>
            """
        let file = try write(kml, "history-2026-06-14.kml")
        let (report, store) = try await importJSON(file)
        #expect(report["format"] as? String == "KML")
        // Two visits, four line positions (one repeated), two stamped, two planned.
        #expect(report["elements"] as? Int == 2 + 4 + 2 + 2, "\(report)")
        #expect(
            report["skipped"] as? [String: Int] == ["repeated position": 1, "one time for a line": 1, "no time": 2],
            "\(report)")
        func at(_ time: String, _ p: (Double, Double)) -> Point {
            Point(milliseconds: GoogleImportTests.milliseconds(time)!, latitude: p.0, longitude: p.1)
        }
        let written = [
            at("2026-06-14T05:00:00.000Z", home), at("2026-06-14T08:00:00.000Z", home),
            at("2026-06-14T08:05:00.000Z", (47.38, 8.54)), at("2026-06-14T08:10:00.000Z", office),
            at("2026-06-14T17:00:00.000Z", office), at("2026-06-14T18:00:00.000Z", (47.30, 8.50)),
        ]
        // The visits' ends and the line's meet (08:00 home, 08:10 the office): stored once.
        try await google.expectStored(store, match: written, count: written.count)
        let records = try await google.records(store)
        #expect(records.count == 3, "\(records)")
        let kinds = records.map { google.field($0, "google") as? String }
        #expect(kinds == ["visit", "activity", "visit"], "\(records)")
        #expect(google.field(records[0], "name") as? String == "Home")
        #expect(google.field(records[0], "address") as? String == "Limmatstrasse 1, Zürich")
        #expect(google.field(records[0], "until") as? String == "2026-06-14T08:00:00.000Z")
        #expect(google.field(records[1], "category") as? String == "Driving")
        #expect(google.field(records[1], "distance_m") as? Double == 2224)
        #expect((google.field(records[1], "end_latitude") as? Double).map { abs($0 - office.0) < 1e-9 } == true)
        #expect(
            notes(records[1]) == ["Driving from 2026-06-14T08:00:00.000Z to 2026-06-14T08:10:00.000Z. Distance 2224m"])
        // The day's timeline names the places as Google did.
        let listed = try await run(["visits", "--store", store, "--day", "2026-06-14", "--time-zone", "UTC", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any])
        let names = (json["visits"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        #expect(names.starts(with: ["Home", "Office"]), "\(listed.stdout)")
    }

    /// GeoJSON: a LineString with `coordTimes`, a MultiLineString with nested `times` (the
    /// properties before the geometry), points with Unix times, a record, and what is left out.
    @Test func geoJSONLinesPointsAndRecords() async throws {
        let ride = ride
        let (a, b) = (ride.count / 3, 2 * ride.count / 3)
        func position(_ p: Point) -> [Double] { [p.longitude, p.latitude, p.altitude ?? 0] }
        let last = ride.last!
        let after = last.milliseconds + 60_000
        let features: [[String: Any]] = [
            [
                "type": "Feature",
                "geometry": ["type": "LineString", "coordinates": ride[..<a].map(position)],
                "properties": ["name": "first", "coordTimes": ride[..<a].map { iso($0.milliseconds) }],
            ],
            [
                "properties": ["times": [ride[a..<b].map { iso($0.milliseconds) }, ride[b...].map(\.milliseconds)]],
                "type": "Feature",
                "geometry": [
                    "type": "MultiLineString", "coordinates": [ride[a..<b].map(position), ride[b...].map(position)],
                ],
            ],
            [
                "type": "Feature", "geometry": ["type": "Point", "coordinates": [last.longitude, last.latitude]],
                "properties": ["timestamp": Double(after) / 1000, "speed": 0, "accuracy": 12],
            ],
            [
                "type": "Feature", "geometry": ["type": "Point", "coordinates": [last.longitude, last.latitude]],
                "properties": [
                    "kind": "record", "name": "Top", "time": iso(after + 60_000), "notes": ["View", "Windy"],
                    "fields": ["wind_bft": 5, "ok": true],
                ],
            ],
            ["type": "Feature", "geometry": ["type": "Point", "coordinates": [8.5, 47.3]], "properties": [:]],
            [
                "type": "Feature", "geometry": ["type": "Point", "coordinates": [8.5, 95.0]],
                "properties": ["time": iso(after)],
            ],
            [
                "type": "Feature",
                "geometry": [
                    "type": "Polygon", "coordinates": [[[8.5, 47.3], [8.6, 47.3], [8.6, 47.4], [8.5, 47.3]]],
                ],
                "properties": ["time": iso(after)],
            ],
            ["type": "Feature", "geometry": NSNull(), "properties": ["time": iso(after)]],
        ]
        let path = try Samples.temporaryDirectory() + "/ride.geojson"
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features]).write(
            to: URL(fileURLWithPath: path))
        let (report, store) = try await importJSON(path)
        #expect(report["format"] as? String == "GeoJSON")
        #expect(report["elements"] as? Int == ride.count + 6)
        #expect(
            report["skipped"] as? [String: Int]
                == ["no time": 1, "position out of range": 1, "not a point or line": 1, "no position": 1])
        #expect(report["fixes_read"] as? Int == ride.count + 1)
        #expect(report["records"] as? Int == 1)
        let lines = ride.map {
            Point(
                milliseconds: $0.milliseconds, latitude: $0.latitude, longitude: $0.longitude,
                altitude: $0.altitude ?? 0)
        }
        try await google.expectStored(
            store, match: lines + [Point(milliseconds: after, latitude: last.latitude, longitude: last.longitude)],
            count: ride.count + 1)
        let records = try await google.records(store)
        #expect(records.count == 1)
        let record = try #require(records.first)
        #expect(notes(record) == ["View\n\nWindy"], "\(record)")
        #expect(google.field(record, "wind_bft") as? Double == 5)
        #expect(google.field(record, "name") as? String == "Top")
    }

    /// GeoJSON of a MultiPoint whose positions have their times in `coordTimes` (Unix
    /// milliseconds, as togeojson writes a track's times), then Points whose time is under `date`
    /// (ISO 8601 with an offset): each position at its own time.
    @Test func geoJSONMultiPointWithCoordTimesAndPointsWithADate() async throws {
        let ride = ride
        let half = ride.count / 2
        func position(_ p: Point) -> [Double] { [p.longitude, p.latitude] }
        var features: [[String: Any]] = [
            [
                "type": "Feature",
                "geometry": ["type": "MultiPoint", "coordinates": ride[..<half].map(position)],
                "properties": ["coordTimes": ride[..<half].map(\.milliseconds)],
            ]
        ]
        for p in ride[half...] {
            features.append([
                "type": "Feature", "geometry": ["type": "Point", "coordinates": position(p)],
                "properties": ["date": GoogleImportTests.iso(p.milliseconds, offsetMinutes: 120)],
            ])
        }
        let path = try Samples.temporaryDirectory() + "/points.geojson"
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features]).write(
            to: URL(fileURLWithPath: path))
        let (report, store) = try await importJSON(path)
        #expect(report["format"] as? String == "GeoJSON")
        #expect(report["fixes_read"] as? Int == ride.count, "\(report)")
        try await google.expectStored(store, match: ride.map(\.positionOnly), count: ride.count)
    }

    /// Dawarich's GeoJSON export as it was written from late 2024 to mid 2025: `Points::GeojsonSerializer`
    /// (Freika/dawarich app/serializers/points/geojson_serializer.rb at 0ac3b025ed4418a75ffa5360505eff5298fc449b)
    /// puts `[point.longitude, point.latitude]` in the geometry and the point's columns in the
    /// properties; db/schema.rb (at 0038f72155732e7fd1157ef45966825dd098e64b, version 2024_08_22)
    /// makes latitude and longitude `decimal(10,6)`, which Rails writes as JSON strings, `timestamp`
    /// an integer of Unix seconds, `altitude` and `accuracy` integers, `velocity` a string.
    @Test func dawarichGeoJSONWithCoordinatesAsStrings() async throws {
        let sampled = ride.enumerated().filter { $0.offset % 10 == 0 }.map(\.element)
        func six(_ v: Double) -> String { String(format: "%.6f", v) }
        let features: [[String: Any]] = sampled.map { p in
            [
                "type": "Feature",
                "geometry": ["type": "Point", "coordinates": [six(p.longitude), six(p.latitude)]],
                "properties": [
                    "battery_status": 1, "ping": NSNull(), "battery": 81, "tracker_id": "an",
                    "topic": "owntracks/ana/phone", "altitude": Int((p.altitude ?? 0).rounded()),
                    "longitude": six(p.longitude), "velocity": "18", "trigger": NSNull(), "bssid": NSNull(),
                    "ssid": NSNull(), "connection": 1, "vertical_accuracy": 3, "accuracy": 5,
                    "timestamp": Int(p.milliseconds / 1000), "latitude": six(p.latitude), "mode": NSNull(),
                    "inrids": [String](), "in_regions": [String](), "city": NSNull(), "country": NSNull(),
                    "geodata": [String: Any](),
                ] as [String: Any],
            ]
        }
        let path = try Samples.temporaryDirectory() + "/dawarich-export.json"
        try JSONSerialization.data(withJSONObject: ["type": "FeatureCollection", "features": features]).write(
            to: URL(fileURLWithPath: path))
        let (report, store) = try await importJSON(path)
        #expect(report["format"] as? String == "GeoJSON")
        #expect(report["fixes_read"] as? Int == sampled.count, "\(report)")
        #expect(report["skipped"] == nil || (report["skipped"] as? [String: Int])?.isEmpty == true, "\(report)")
        let written = sampled.map {
            Point(
                milliseconds: $0.milliseconds / 1000 * 1000, latitude: Double(six($0.latitude))!,
                longitude: Double(six($0.longitude))!, altitude: ($0.altitude ?? 0).rounded())
        }
        try await google.expectStored(store, match: written, count: sampled.count)
    }

    /// CSV as loggers write it: GPSLogger's columns with a quoted annotation; `;` with decimal
    /// commas, N/E letters, Unix milliseconds and km/h; E7 integers with Unix seconds and tabs;
    /// date and time in columns of their own.
    @Test(arguments: ["gpslogger", "semicolon", "e7", "date and time"])
    func csvVariantsStoreTheRide(_ variant: String) async throws {
        let ride = ride.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
        var lines: [String]
        var written = ride
        switch variant {
        case "gpslogger":
            // GPSLogger for Android, CSVFileLogger.java (mendhak/gpslogger
            // b91855e6798712f8e8f069d9fe82be472a1b9071): its header, `%f` positions, the
            // annotation quoted with its quotes doubled.
            lines = [
                "time,lat,lon,elevation,accuracy,bearing,speed,satellites,provider,hdop,vdop,pdop,geoidheight,"
                    + "ageofdgpsdata,dgpsid,activity,battery,annotation"
            ]
            for (i, p) in ride.enumerated() {
                let note = i == 10 ? "\"Bakery, \"\"the good one\"\"\"" : ""
                lines.append(
                    String(
                        format: "%@,%f,%f,%.1f,5.0,,%.2f,9,gps,0.9,,,,,,,80,%@", iso(p.milliseconds), p.latitude,
                        p.longitude, p.altitude ?? 0, p.speed ?? 0, note))
            }
            written = ride.map {
                Point(
                    milliseconds: $0.milliseconds, latitude: $0.latitude, longitude: $0.longitude,
                    altitude: (($0.altitude ?? 0) * 10).rounded() / 10, speed: (($0.speed ?? 0) * 100).rounded() / 100)
            }
        case "semicolon":
            lines = ["timestamp;Latitude;Longitude;Altitude (m);Speed (km/h)"]
            for p in ride {
                lines.append(
                    String(
                        format: "%lld;%.7fN;%.7fE;%.1f;%.3f", p.milliseconds, p.latitude, p.longitude,
                        p.altitude ?? 0, (p.speed ?? 0) * 3.6
                    ).replacingOccurrences(of: ".", with: ","))
            }
            written = ride.map {
                Point(
                    milliseconds: $0.milliseconds, latitude: $0.latitude, longitude: $0.longitude,
                    altitude: (($0.altitude ?? 0) * 10).rounded() / 10, speed: $0.speed)
            }
        case "e7":
            lines = ["latitudeE7\tlongitudeE7\ttimestamp"]
            for p in ride {
                lines.append(
                    "\(GoogleImportTests.e7(p.latitude))\t\(GoogleImportTests.e7(p.longitude))\t\(p.milliseconds / 1000)"
                )
            }
            written = ride.filter { $0.milliseconds % 1000 == 0 }.map(\.positionOnly)
        default:
            lines = ["date,time,latitude,longitude,ele"]
            for p in ride {
                let t = iso(p.milliseconds)
                lines.append(
                    "\(t.prefix(10)),\(t.dropFirst(11).prefix(12)),\(p.latitude),\(p.longitude),\(p.altitude ?? 0)")
            }
            written = ride.map {
                Point(
                    milliseconds: $0.milliseconds, latitude: $0.latitude, longitude: $0.longitude,
                    altitude: $0.altitude ?? 0)
            }
        }
        lines.append(variant == "e7" ? "\t\t" : "")
        lines.append(variant == "e7" ? "1900000000\t85417000\t1781418600" : "")
        let file = try write(lines.joined(separator: "\n") + "\n", "track-\(variant.prefix(4)).csv")
        let (report, store) = try await importJSON(file)
        #expect(report["format"] as? String == "CSV")
        #expect(report["fixes_read"] as? Int == ride.count)
        if variant == "e7" {
            #expect(report["skipped"] as? [String: Int] == ["position out of range": 1])
        } else {
            #expect((report["skipped"] as? [String: Int])?.isEmpty == true)
        }
        try await google.expectStored(store, match: written, count: ride.count)
        if variant == "gpslogger" {
            let records = try await google.records(store)
            #expect(records.count == 1)
            #expect(notes(records.first) == ["Bakery, \"the good one\""], "\(records)")
        }
    }

    /// Trailbook's own exports come back whole: the same points with their altitudes, and the
    /// records with their notes.
    /// A phone app's track at a point a minute is split as the phones' posts are (one segment while
    /// the points keep coming), not into a segment per point; the ride at 1 Hz keeps the
    /// configured 30 s gap.
    @Test func aTrackAtAPhonesPaceIsNotASegmentPerPoint() async throws {
        func rides(_ step: Int, count: Int) async throws -> [[String: Any]] {
            var csv = "time,lat,lon\n"
            // A walk north; a pause of 4 minutes in its middle (a segment of its own at 1 Hz).
            for i in 0..<count {
                let t = 1_781_400_000 + step * i + (i >= count / 2 ? 240 : 0)
                csv += "\(t),\(47 + Double(i) * Double(step) * 1.4 / 111_320),8.5\n"
            }
            let file = try write(csv, "walk-\(step).csv")
            let (report, store) = try await importJSON(file)
            #expect(report["stored"] as? Int == count, "\(report)")
            let listed = try await run(["rides", "--store", store, "--json"])
            let json = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any]
            return try #require(json?["rides"] as? [[String: Any]])
        }
        let phone = try await rides(60, count: 120)
        #expect(phone.count == 1 && phone[0]["segments"] as? Int == 1, "a minute apart: \(phone)")
        let watch = try await rides(1, count: 1200)
        #expect(watch.count == 1 && watch[0]["segments"] as? Int == 2, "a second apart, 4 min pause: \(watch)")
    }

    @Test(arguments: ["kml", "geojson", "csv"])
    func exportsReadBack(_ format: String) async throws {
        let dir = try Samples.temporaryDirectory()
        let source = dir + "/source.sqlite"
        #expect(try await run(["import", "--store", source, "Samples/ride.nmea"]).status == 0)
        let mark = try await run([
            "mark", "--store", source, "--at", "2026-06-14T06:40:00Z", "--note", "Bakery", "--field", "loaves=2",
        ])
        #expect(mark.status == 0, "\(mark.stderr)")
        let file = dir + "/ride.\(format)"
        let export = try await run([
            "export", "--store", source, "--day", "2026-06-14", "--time-zone", "UTC", "--format", format, "-o", file,
        ])
        #expect(export.status == 0, "\(export.stderr)")
        let back = dir + "/back.sqlite"
        let result = try await run(["import", "--store", back, file])
        #expect(result.status == 0, "\(result.stderr)")
        // KML and GeoJSON keep positions, times and altitudes; CSV speeds too.
        let original = try await GoogleImportTests.storedPoints(source, day: "2026-06-14").map {
            format == "csv"
                ? $0
                : Point(
                    milliseconds: $0.milliseconds, latitude: $0.latitude, longitude: $0.longitude, altitude: $0.altitude
                )
        }
        try await google.expectStored(back, match: original, count: original.count)
        if format != "csv" {
            // The diary's record; a GeoJSON carries the day's move beside it (field `trailbook`).
            let all = try await google.records(back)
            let records = all.filter { ($0["fields"] as? [String: Any])?["trailbook"] == nil }
            #expect(records.count == 1 && all.count == (format == "geojson" ? 2 : 1), "\(result.stdout)")
            #expect(notes(records.first).first?.hasPrefix("Bakery") == true, "\(records)")
        }
    }

    /// Broken files: one sentence, exit 65, nothing stored.
    @Test(arguments: ["kml", "geojson", "csv"])
    func truncatedFilesExit65AndStoreNothing(_ format: String) async throws {
        let p = ride[0]
        let text: String
        let expected: String
        switch format {
        case "kml":
            text = """
                <kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><TimeStamp><when>\(iso(p.milliseconds))\
                </when></TimeStamp><Point><coordinates>\(p.longitude),\(p.latitude)</coordinates></Point></Placemark>
                <Placemark><name>cut
                """
            expected = "the file ends inside <name>"
        case "geojson":
            text = """
                {"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point",
                "coordinates": [\(p.longitude), \(p.latitude)]}, "properties": {"time": "\(iso(p.milliseconds))"}},
                {"type": "Feature", "geometry": {"type": "Point", "coordinates": [8.5
                """
            expected = "the file ends inside"
        default:
            text = "time,lat,lon,note\n\(iso(p.milliseconds)),\(p.latitude),\(p.longitude),\"cut off\n"
            expected = "a quoted field is not closed"
        }
        let file = try write(text, "cut.\(format)")
        let store = try Samples.temporaryDirectory() + "/s.sqlite"
        let result = try await run(["import", "--store", store, file])
        #expect(result.status == 65, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains(expected), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try await GoogleImportTests.storedPoints(store, day: "2026-06-14").isEmpty)
    }
}
