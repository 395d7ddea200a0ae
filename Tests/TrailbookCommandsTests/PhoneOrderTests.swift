import Foundation
import GPSCore
import Testing
import TrackModel
import TrailbookTestSupport

/// Phones send their backlog late and resend what got no reply: whatever the order, every
/// acknowledged point is kept once, in its place (issue 37).
@Suite struct PhoneOrderTests {
    /// The apps' protocols, each posting one point per request or a batch per request.
    enum App: String, CaseIterable, CustomStringConvertible {
        case owntracks, osmand, traccar
        case traccarJSON = "traccar-json"
        case gpslogger, overland
        var description: String { rawValue }
    }

    /// Point `i` of 200: every 5 s, at home (47.37, 8.54) for the first 150 s, then moving north
    /// at about 2.2 m/s; the battery falling.
    struct Point {
        let i: Int
        let seconds: Int
        var lat: Double { 47.37 + Double(max(0, i - 30)) * 2e-5 * 5 }
        var lon: Double { 8.54 + Double(i % 3) * 1e-6 }
        var altitude: Int { 410 + i % 7 }
        var battery: Int { 95 - i / 5 }
    }

    /// The request(s) that post `points` as `app` does, for the device with `token` of ana.
    static func post(_ points: [Point], app: App, token: String, server: URL) async throws {
        let iso = ISO8601DateFormatter()
        func time(_ p: Point) -> String { iso.string(from: Date(timeIntervalSince1970: Double(p.seconds))) }
        let basic = ["Authorization": "Basic " + Data("ana:\(token)".utf8).base64EncodedString()]
        func send(_ path: String, method: String = "GET", body: String? = nil, headers: [String: String] = [:])
            async throws
        {
            let r = try await HTTP.request(
                URL(string: server.absoluteString + path)!, method: method, body: body.map { Data($0.utf8) },
                headers: headers)
            #expect(r.0 == 200, "\(app) \(path): \(r)")
        }
        switch app {
        case .owntracks:
            for p in points {
                try await send(
                    "/pub", method: "POST",
                    body: #"{"_type":"location","tid":"an","lat":\#(p.lat),"lon":\#(p.lon),"tst":\#(p.seconds),"#
                        + #""acc":6,"alt":\#(p.altitude),"vel":8,"cog":0,"batt":\#(p.battery),"conn":"m","t":"u"}"#,
                    headers: basic)
            }
        case .osmand:
            for p in points {
                try await send(
                    "/osmand?id=\(token)&lat=\(p.lat)&lon=\(p.lon)&timestamp=\(p.seconds * 1000)&hdop=6.0"
                        + "&altitude=\(p.altitude).0&speed=2.2&bearing=0.0&batt=\(p.battery)")
            }
        case .traccar:
            for p in points {
                try await send(
                    "/osmand?id=\(token)&timestamp=\(p.seconds)&lat=\(p.lat)&lon=\(p.lon)&speed=4.3&bearing=0.0"
                        + "&altitude=\(p.altitude).0&accuracy=6.0&batt=\(p.battery).0", method: "POST")
            }
        case .traccarJSON:
            let locations = points.map { p in
                #"{"timestamp":"\#(time(p))","coords":{"latitude":\#(p.lat),"longitude":\#(p.lon),"accuracy":6,"#
                    + #""speed":2.2,"heading":0,"altitude":\#(p.altitude)},"is_moving":true,"odometer":0,"#
                    + #""event":"motionchange","battery":{"level":\#(Double(p.battery) / 100),"is_charging":false},"#
                    + #""activity":{"type":"on_bicycle"},"extras":{}}"#
            }
            try await send(
                "/osmand", method: "POST",
                body: #"{"location":[\#(locations.joined(separator: ","))],"device_id":"\#(token)"}"#,
                headers: ["Content-Type": "application/json"])
        case .gpslogger:
            for p in points {
                try await send(
                    "/gpslogger?lat=\(p.lat)&longitude=\(p.lon)&time=\(time(p))&s=2.2&alt=\(p.altitude)&acc=6"
                        + "&batt=\(p.battery)", headers: basic)
            }
        case .overland:
            let features = points.map { p in
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(p.lon),\#(p.lat)]},"#
                    + #""properties":{"timestamp":"\#(time(p))","altitude":\#(p.altitude),"speed":2.2,"#
                    + #""horizontal_accuracy":6,"motion":["cycling"],"battery_level":\#(Double(p.battery) / 100)}}"#
            }
            try await send(
                "/overland", method: "POST", body: #"{"locations":[\#(features.joined(separator: ","))]}"#,
                headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"])
        }
    }

    /// What the store holds of one device: its points, rides, segments, state and events.
    static func snapshot(_ store: String, device: String) async throws -> [String] {
        let points = try await openStore(store).read {
            try $0.points(account: "ana", fromMilliseconds: .min, toMilliseconds: .max)
        }
        .filter { $0.device == device }.map(\.fix)
        func rows(_ query: String) throws -> [String] {
            try storeRows(store, query).split(separator: "\n").map(String.init)
        }
        let owner = "join device d on d.id = x.device_id where d.name = '\(device)'"
        return points.map { f in
            "\(f.unixMilliseconds!) \(f.coordinate!) \(f.altitudeMSL ?? -1) \(f.speed ?? -1) \(f.horizontalError ?? -1)"
        } + (try rows("select 'segment', x.start_ms, x.end_ms, x.point_count from segment x \(owner) order by 2"))
            + (try rows(
                """
                select 'ride', x.start_ms, x.end_ms, x.point_count, (select count(*) from segment s where s.ride_id = x.id)
                from ride x \(owner) order by 2
                """))
            + (try rows("select 'state', x.at_ms, x.battery, x.accuracy from device_state x \(owner)"))
            + (try rows("select 'event', x.type, x.t from event x \(owner) order by 3, 2"))
    }

    @Test func latePointsAndResendsGiveTheStoreOfPointsInOrder() async throws {
        let (store, _) = try newStore(.sqlite)
        #expect(
            try await run(
                ["user", "add", "ana", "--password-stdin", "--store", store],
                input: Data("correct horse battery staple".utf8)
            ).status == 0)
        var found: [String: String] = [:]
        for app in App.allCases {
            for order in ["in-order", "shuffled"] {
                found["\(app)-\(order)"] = try await deviceToken("\(app)-\(order)", user: "ana", store: store)
            }
        }
        // Her home, where the phones start: leaving it is an event whatever order the points come in.
        #expect(
            try await run([
                "place", "add", "home", "--user", "ana", "--lat", "47.37", "--lon", "8.54", "--radius", "60",
                "--store", store,
            ]).status == 0)
        let tokens = found
        let server = try ServeCommandTests.RunningServer(store: store)
        defer { _ = server.stop() }
        let start = Int(Date().timeIntervalSince1970) - 3 * 3600
        let points = (0..<200).map { Point(i: $0, seconds: start + $0 * 5) }
        let batches = stride(from: 0, to: 200, by: 10).map { Array(points[$0..<$0 + 10]) }
        // A fixed shuffle of the 20 batches (each batch's points newest first), every batch sent
        // again after the one that follows it (a reply lost).
        var shuffle = Array(batches.indices)
        var seed: UInt64 = 7
        for i in shuffle.indices.reversed() {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            shuffle.swapAt(i, Int(seed >> 33) % (i + 1))
        }
        let order = shuffle
        #expect(order != Array(batches.indices))
        // Every device posts on a connection of its own, all at once (as phones do).
        let url = server.url!
        try await withThrowingTaskGroup(of: Void.self) { group in
            for app in App.allCases {
                group.addTask {
                    for batch in batches {
                        try await Self.post(batch, app: app, token: tokens["\(app)-in-order"]!, server: url)
                    }
                }
                group.addTask {
                    let token = tokens["\(app)-shuffled"]!
                    for (k, b) in order.enumerated() {
                        try await Self.post(batches[b].reversed(), app: app, token: token, server: url)
                        if k > 0 { try await Self.post(batches[order[k - 1]], app: app, token: token, server: url) }
                    }
                    try await Self.post(batches[order.last!], app: app, token: token, server: url)
                }
            }
            try await group.waitForAll()
        }
        let (status, log) = server.stop()
        #expect(status == 0, "\(log)")
        for app in App.allCases {
            let inOrder = try await Self.snapshot(store, device: "\(app)-in-order")
            let shuffled = try await Self.snapshot(store, device: "\(app)-shuffled")
            #expect(inOrder.count > 200, "\(app): \(inOrder.count) lines")
            #expect(inOrder.filter { $0.hasPrefix("ride") }.count == 1, "\(app): one ride \(inOrder.suffix(4))")
            #expect(inOrder.contains { $0.hasPrefix("state") }, "\(app): the device has a state")
            #expect(
                inOrder.filter { $0.hasPrefix("event") }.map { $0.split(separator: " ")[1] }
                    == ["motion.moving", "place.depart"], "\(app): \(inOrder.filter { $0.hasPrefix("event") })")
            // A Bool, so that a failure prints the first difference rather than both stores.
            let same = shuffled == inOrder
            #expect(
                same,
                "\(app): \(zip(shuffled, inOrder).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "\(shuffled.count) vs \(inOrder.count) lines")"
            )
            let points = try await Self.snapshot(store, device: "\(app)-shuffled").filter { $0.first!.isNumber }
            #expect(points.count == 200, "\(app): every point once, \(points.count) stored")
        }
    }
}
