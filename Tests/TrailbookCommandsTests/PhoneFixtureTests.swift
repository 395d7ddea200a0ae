import Foundation
import GPSCore
import Testing
import TrackModel
import TrailbookTestSupport

/// Each app's request as its published source builds it, and what the server stores of it, in
/// the app's units (issue 37). Every fixture names the file and commit it follows.
@Suite struct PhoneFixtureTests {
    /// 2026-11-25T10:00:05.123Z and its whole second.
    static let ms: Int64 = 1_795_600_805_123
    static var seconds: Int64 { ms / 1000 }
    static var iso: String { "2026-11-25T10:00:05Z" }
    static var isoMs: String { "2026-11-25T10:00:05.123Z" }

    struct Fixture {
        let name: String
        let method: String
        let path: String
        var body: String? = nil
        var headers: [String: String] = [:]
        /// What must be stored: time (ms), lat, lon, speed (m/s), accuracy (m), altitude (m), battery (%).
        let time: Int64
        let lat: Double
        let lon: Double
        var speed: Double? = nil
        var accuracy: Double? = nil
        var altitude: Double? = nil
        var battery: Double? = nil
        /// The phone's motion activity, when the app sends one.
        var activity: MotionActivity? = nil
    }

    static func fixtures(tokens: [String: String]) -> [Fixture] {
        func token(_ device: String) -> String { tokens[device, default: ""] }
        func basic(_ device: String) -> [String: String] {
            ["Authorization": "Basic " + Data("ana:\(token(device))".utf8).base64EncodedString()]
        }
        return [
            // OsmAnd's online tracking, its default URL (OsmandSettings' LIVE_MONITORING_URL:
            // lat={0}&lon={1}&timestamp={2}&hdop={3}&altitude={4}&speed={5}) with our `id`;
            // osmandapp/OsmAnd OsmAnd/src/net/osmand/plus/plugins/monitoring/live/LiveSender.java
            // @ 8156a5a10d43ae563dacae56821c92a0b3ef7939 fills {2} with the time in ms, {3} with
            // Location.getAccuracy() (m), {5} with getSpeed() (m/s), floats as Java prints them
            // (LiveMonitoringData.java @ f610eecc3564b67786f3656b942d511749d82a52).
            Fixture(
                name: "osmand", method: "GET",
                path: "/osmand?id=\(token("osmand"))&lat=47.376887&lon=8.541694&timestamp=\(ms)&hdop=7.5"
                    + "&altitude=412.3&speed=5.8",
                time: ms, lat: 47.376887, lon: 8.541694, speed: 5.8, accuracy: 7.5, altitude: 412.3),
            // The URL docs/SERVER.md gives for OsmAnd: bearing {6} and battery {11} too.
            Fixture(
                name: "osmand-documented", method: "GET",
                path: "/osmand?id=\(token("osmand-documented"))&lat=47.376887&lon=8.541694&timestamp=\(ms)"
                    + "&hdop=7.5&altitude=412.3&speed=5.8&bearing=181.5&batt=64",
                time: ms, lat: 47.376887, lon: 8.541694, speed: 5.8, accuracy: 7.5, altitude: 412.3, battery: 64),
            // Traccar Client for Android before 10 (traccar/traccar-client-android
            // app/src/main/java/org/traccar/client/ProtocolFormatter.kt @ 958eb77c51b10b7ed43e04a658f20f063fcd1f69):
            // a POST with the values in the query, seconds, speed in knots, battery in percent.
            Fixture(
                name: "traccar-legacy", method: "POST",
                path: "/osmand?id=\(token("traccar-legacy"))&timestamp=\(seconds)&lat=47.376887&lon=8.541694"
                    + "&speed=10.5&bearing=90.0&altitude=410.0&accuracy=5.0&batt=81.0",
                time: seconds * 1000, lat: 47.376887, lon: 8.541694, speed: 10.5 * 1852 / 3600, accuracy: 5,
                altitude: 410, battery: 81),
            // Traccar Client 10: flutter_background_geolocation's body from the template in
            // traccar/traccar-client lib/preferences.dart @ 930fc53767da5d0e8663fa7854f24e1a7d4773d6
            // (`_locationTemplate`, `device_id` in http.params): ISO time with ms, m/s, level 0-1.
            Fixture(
                name: "traccar-10", method: "POST", path: "/osmand",
                body: #"{"location":{"timestamp":"\#(isoMs)","coords":{"latitude":47.376887,"longitude":8.541694,"#
                    + #""accuracy":6.5,"speed":5.5,"heading":181.2,"altitude":409.8},"is_moving":true,"odometer":1520.4,"#
                    + #""event":"motionchange","battery":{"level":0.63,"is_charging":false},"#
                    + #""activity":{"type":"on_bicycle"},"extras":{},"#
                    + #""_":"&id=\#(token("traccar-10"))&lat=47.376887&lon=8.541694&timestamp=\#(isoMs)&"},"#
                    + #""device_id":"\#(token("traccar-10"))"}"#,
                headers: ["Content-Type": "application/json"],
                time: ms, lat: 47.376887, lon: 8.541694, speed: 5.5, accuracy: 6.5, altitude: 409.8, battery: 63,
                activity: .cycling),
            // GPSLogger's default custom URL (mendhak/gpslogger
            // gpslogger/src/main/java/com/mendhak/gpslogger/common/PreferenceHelper.java
            // @ 008eab75df497bccc66c01c1137f9f992bee1078: lat=%LAT&longitude=%LON&time=%TIME&s=%SPD).
            Fixture(
                name: "gpslogger-default", method: "GET",
                path: "/gpslogger?lat=47.376887&longitude=8.541694&time=\(iso)&s=4.5",
                headers: basic("gpslogger-default"), time: seconds * 1000, lat: 47.376887, lon: 8.541694, speed: 4.5),
            // The URL docs/SERVER.md gives for GPSLogger.
            Fixture(
                name: "gpslogger-documented", method: "GET",
                path: "/gpslogger?lat=47.376887&lon=8.541694&time=\(iso)&alt=411.0&acc=4.0&spd=4.5&dir=12.0&batt=55.0",
                headers: basic("gpslogger-documented"), time: seconds * 1000, lat: 47.376887, lon: 8.541694,
                speed: 4.5, accuracy: 4, altitude: 411, battery: 55),
            // OwnTracks' location message (owntracks/android
            // project/app/src/main/java/org/owntracks/android/model/messages/MessageLocation.kt
            // @ 00933e0749498cf3f62bdabed0941372238c26ac): whole numbers for acc (m), alt (m),
            // vel (km/h) and batt (%), tst in seconds.
            Fixture(
                name: "owntracks", method: "POST", path: "/pub",
                body: #"{"_type":"location","acc":12,"alt":410,"batt":76,"bs":1,"conn":"w","lat":47.376887,"#
                    + #""lon":8.541694,"t":"u","tid":"an","tst":\#(seconds),"vac":3,"vel":18}"#,
                headers: basic("owntracks"), time: seconds * 1000, lat: 47.376887, lon: 8.541694, speed: 5,
                accuracy: 12, altitude: 410, battery: 76),
            // Overland's batch (aaronpk/Overland-iOS GPSLogger/GLManager.m
            // @ 81e0dc47ed5551ee6c95e1a22772d1961c9b755a): a location, a tracking-stats entry
            // (`logAction:`, no geometry before the first fix) and the trip summary
            // (`writeTripToDB:`, properties.type "trip").
            Fixture(
                name: "overland", method: "POST", path: "/overland",
                body:
                    #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[8.541694,47.376887]},"#
                    + #""properties":{"timestamp":"\#(iso)","altitude":412,"speed":4.2,"horizontal_accuracy":8,"#
                    + #""vertical_accuracy":4,"motion":["cycling"],"battery_state":"unplugged","battery_level":0.8,"#
                    + #""wifi":"","device_id":""}},"#
                    + #"{"type":"Feature","properties":{"timestamp":"\#(iso)","action":"tracking_started","#
                    + #""battery_state":"unplugged","battery_level":0.8,"wifi":"","device_id":""}},"#
                    + #"{"type":"Feature","geometry":{"type":"Point","coordinates":[8.541694,47.376887]},"#
                    + #""properties":{"timestamp":"\#(iso)","type":"trip","mode":"bicycle","start":"\#(iso)","#
                    + #""end":"\#(iso)","start_location":null,"end_location":null,"duration":1200,"distance":5100,"#
                    + #""stopped_automatically":false,"steps":0,"device_id":""}}],"current":null}"#,
                headers: ["Authorization": "Bearer \(token("overland"))", "Content-Type": "application/json"],
                time: seconds * 1000, lat: 47.376887, lon: 8.541694, speed: 4.2, accuracy: 8, altitude: 412,
                battery: 80,
                activity: .cycling),
        ]
    }

    @Test func everyAppsRequestIsStoredInItsUnits() async throws {
        let (store, folder) = try newStore(.sqlite)
        #expect(
            try await run(
                ["user", "add", "ana", "--password-stdin", "--store", store],
                input: Data("correct horse battery staple".utf8)
            ).status == 0)
        var tokens: [String: String] = [:]
        for f in Self.fixtures(tokens: [:]) {
            tokens[f.name] = try await deviceToken(f.name, user: "ana", store: store)
        }
        tokens["traccar-sos"] = try await deviceToken("traccar-sos", user: "ana", store: store)
        let hook = try HookReceiver(secret: "s", directory: folder)
        try hook.start()
        defer { hook.stop() }
        // An alert that asks for arrivals only: an SOS goes out on it all the same.
        let added = try await run([
            "alert", "add", "--user", "ana", "--on", "place.arrive", "--webhook", "http://127.0.0.1:\(hook.port)/sos",
            "--secret", "s", "--store", store,
        ])
        #expect(added.status == 0, "\(added.stderr)")
        let server = try ServeCommandTests.RunningServer(store: store)
        defer { _ = server.stop() }
        let fixtures = Self.fixtures(tokens: tokens)
        // Each request twice, as an app resends when a reply is lost: everything is kept once.
        for f in fixtures + fixtures {
            let r = try await HTTP.request(
                URL(string: server.url.absoluteString + f.path)!, method: f.method, body: f.body.map { Data($0.utf8) },
                headers: f.headers)
            #expect(r.0 == 200, "\(f.name): \(r)")
            if f.name == "overland" { #expect(r.1 == #"{"result":"ok"}"#, "\(r.1)") }
        }
        // Traccar Client's SOS button: `alarm=sos` with the position.
        let sos = try await HTTP.request(
            URL(
                string: server.url.absoluteString
                    + "/osmand?id=\(tokens["traccar-sos"]!)&timestamp=\(Self.seconds)&lat=47.38&lon=8.55&speed=0.0"
                    + "&bearing=0.0&altitude=410.0&accuracy=5.0&batt=40.0&alarm=sos")!, method: "POST")
        #expect(sos.0 == 200)
        for _ in 0..<80 where hook.requests().isEmpty { try await Task.sleep(for: .milliseconds(250)) }
        try await Task.sleep(for: .milliseconds(500))
        let (status, log) = server.stop()
        #expect(status == 0, "\(log)")

        let opened = try openStore(store)
        for f in fixtures {
            let points = try await opened.read {
                try $0.points(account: "ana", fromMilliseconds: .min, toMilliseconds: .max)
            }
            .filter { $0.device == f.name }.map(\.fix)
            guard let p = points.first, points.count == 1 else {
                Issue.record("\(f.name): \(points.count) points stored")
                continue
            }
            #expect(p.unixMilliseconds == f.time, "\(f.name): time \(p.unixMilliseconds ?? 0) vs \(f.time)")
            #expect(
                abs(p.coordinate!.latitude - f.lat) < 1e-6 && abs(p.coordinate!.longitude - f.lon) < 1e-6,
                "\(f.name): \(p.coordinate!)")
            func close(_ a: Double?, _ b: Double?, _ tolerance: Double = 0.01) -> Bool {
                switch (a, b) {
                case (nil, nil): return true
                case (let a?, let b?): return abs(a - b) <= tolerance
                default: return false
                }
            }
            #expect(close(p.speed, f.speed), "\(f.name): speed \(p.speed ?? -1) m/s, expected \(f.speed ?? -1)")
            #expect(close(p.altitudeMSL, f.altitude), "\(f.name): altitude \(p.altitudeMSL ?? -1)")
            #expect(p.sensors?.activity == f.activity, "\(f.name): activity \(String(describing: p.sensors))")
            let state = try storeRows(
                store,
                """
                select s.battery, s.accuracy from device_state s join device d on d.id = s.device_id
                where d.name = '\(f.name)'
                """
            ).split(separator: " ").map { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            #expect(state.count == 2 && close(state[1], f.accuracy, 0.05), "\(f.name): accuracy \(state)")
            #expect(state.count == 2 && close(state[0], f.battery, 0.05), "\(f.name): battery \(state)")
        }
        // The account reads its own points and rides from the command line.
        let listed = try await run([
            "points", "--user", "ana", "--device-name", "osmand", "--day", "2026-11-25", "--time-zone", "UTC",
            "--format", "jsonl", "--store", store,
        ])
        #expect(listed.status == 0 && listed.stdout.split(separator: "\n").count == 1, "\(listed)")
        #expect(
            listed.stdout.contains("47.376887") && listed.stdout.contains("\"device\":\"osmand\""), "\(listed.stdout)")
        let all = try await run(["points", "--user", "ana", "--day", "2026-11-25", "--time-zone", "UTC", "--store", store])
        #expect(
            all.stdout.split(separator: "\n").count == 1 + fixtures.count + 1, "a header, a point per fixture, the SOS")
        let rides = try await run(["rides", "--user", "ana", "--json", "--store", store])
        #expect(rides.status == 0 && rides.stdout.contains("\"traccar-sos\""), "\(rides)")
        let summary = try await run([
            "summary", "--user", "ana", "--device-name", "traccar-10", "--day", "2026-11-25", "--time-zone", "UTC",
            "--json", "--store", store,
        ])
        #expect(summary.status == 0 && summary.stdout.contains("\"moves\""), "\(summary)")
        let gpx = try await run([
            "export", "--user", "ana", "--day", "2026-11-25", "--time-zone", "UTC", "--format", "gpx", "--store", store,
        ])
        #expect(
            gpx.status == 0 && gpx.stdout.components(separatedBy: "<trkpt").count - 1 == fixtures.count + 1, "\(gpx)")
        let mine = try await run(["points", "--device-name", "osmand", "--day", "2026-11-25", "--store", store])
        #expect(mine.status == 66, "the store's own account has no such device: \(mine)")
        let nobody = try await run(["points", "--user", "nobody", "--day", "2026-11-25", "--store", store])
        #expect(nobody.status == 66 && nobody.stderr.contains("There is no account nobody"), "\(nobody)")
        // Overland's stats entry and trip summary are kept as the device's messages, not points,
        // once although the batch came twice.
        let messages = try await opened.read { try $0.deviceMessages(account: "ana") }.filter {
            $0.device == "overland"
        }
        .map(\.type)
        #expect(messages.sorted() == ["overland.stats", "overland.trip"], "\(messages)")
        // The SOS: a device.alarm event, sent once to the account's webhook although it asks for arrivals.
        let events = try await ServerEventTests.events(of: "ana", store: store)
        #expect(events.filter { $0.hasPrefix("device.alarm") } == ["device.alarm sos"], "\(events)")
        let sent = hook.requests()
        #expect(sent.count == 1 && sent.first?["path"] as? String == "/sos", "\(sent)")
        let body = sent.first?["body"] as? String ?? ""
        #expect(body.contains("SOS from traccar-sos") && body.contains("device.alarm"), "\(body)")
    }
}
