import Foundation
import GPSCore
import Testing
import TrailbookTestSupport

/// A day of continuous logging is stays and moves: a phone lying still for hours, its fixes
/// wandering within their own accuracy, is one stay and no ride; the walk after it is the ride.
@Suite struct StaysNotRidesTests {
    @Test func aPhoneStillForEightHoursIsOneStayAndNoRide() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        #expect(
            try await run(
                ["user", "add", "ana", "--password-stdin", "--store", store],
                input: Data("correct horse battery staple".utf8)
            ).status == 0)
        let token = try await deviceToken("phone", user: "ana", store: store)
        let server = try ServeCommandTests.RunningServer(store: store)
        defer { _ = server.stop() }
        // 2026-06-03 00:30 to 08:30 in Zurich: a fix every 2 minutes within 20 m of the bed, each
        // saying 20 m (OwnTracks' `acc`); then a walk north at 1.4 m/s for 15 minutes.
        let start = 1_780_439_400  // 2026-06-02T22:30:00Z
        let home = Coordinate(latitude: 47.3700, longitude: 8.5400)
        var seed: UInt64 = 5
        func random() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var fixes: [(seconds: Int, at: Coordinate)] = []
        for i in 0...240 {
            let jitter = Geodesy.destination(from: home, bearing: random() * 360, distance: random() * 20)
            fixes.append((start + i * 120, jitter))
        }
        let walkStart = start + 240 * 120 + 60
        for s in stride(from: 0, through: 900, by: 10) {
            fixes.append((walkStart + s, Geodesy.destination(from: home, bearing: 0, distance: 30 + 1.4 * Double(s))))
        }
        try await Self.postOwnTracks(fixes, to: server.url!, user: "ana", token: token)
        let user = ["--store", store, "--user", "ana", "--time-zone", "Europe/Zurich"]
        // As stored: the phone's rule cuts rides at gaps only, so the night is in a ride.
        let stored = try await run(["rides"] + user)
        #expect(stored.stdout.contains("ride 1  2026-06-03 00:30:00"), "\(stored.stdout)")
        // The day: one stay, the walk its only trip and ride.
        let visits = try await run(["visits", "--day", "2026-06-03", "--json"] + user)
        let found = try #require(try JSONSerialization.jsonObject(with: Data(visits.stdout.utf8)) as? [String: Any])
        let stays = try #require(found["visits"] as? [[String: Any]])
        let trips = try #require(found["trips"] as? [[String: Any]])
        #expect(stays.count == 1, "\(stays)")
        #expect(trips.count == 1 && trips.first?["mode"] as? String == "walking", "\(trips)")
        let rides = try await run(["rides", "--day", "2026-06-03"] + user)
        let lines = rides.stdout.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].contains(" 2026-06-03 08:3"), "the walk alone: \(rides.stdout)")
        let summary = try await run(["summary", "--day", "2026-06-03"] + user)
        #expect(summary.status == 0, "\(summary.stderr)")
        // The walk's 1.26 km and its 15 minutes; nothing of the night's wandering.
        let distance = summary.stdout.split(separator: "\n").first { $0.contains("distance") } ?? ""
        #expect(distance.contains("distance 1.2") || distance.contains("distance 1.3"), "\(summary.stdout)")
        #expect(distance.contains("moving 0:1"), "\(summary.stdout)")
        let timeline = try await run(["timeline", "2026-06-03"] + user)
        let rideLines = timeline.stdout.split(separator: "\n").filter { $0.contains("▶ ride") }
        #expect(rideLines.count == 1 && rideLines[0].hasPrefix("08:3"), "\(timeline.stdout)")
    }

    /// `fixes` posted to `base`'s `/pub` as OwnTracks sends a location (HTTP mode, Basic
    /// `user:token`, each saying 20 m of accuracy), each answered 200.
    static func postOwnTracks(_ fixes: [(seconds: Int, at: Coordinate)], to base: URL, user: String, token: String)
        async throws
    {
        let basic = ["Authorization": "Basic " + Data("\(user):\(token)".utf8).base64EncodedString()]
        for f in fixes {
            let body =
                #"{"_type":"location","tid":"an","lat":\#(f.at.latitude),"lon":\#(f.at.longitude),"#
                + #""tst":\#(f.seconds),"acc":20,"batt":80,"conn":"w","t":"u"}"#
            let r = try await HTTP.request(
                URL(string: "\(base)/pub")!, method: "POST", body: Data(body.utf8), headers: basic)
            #expect(r.0 == 200, "\(r)")
        }
    }
}
