import Foundation
import GPSCore
import Hummingbird
import HummingbirdTesting
import Testing
import TrailbookKit

@testable import TrackStore
@testable import TrailbookServer

/// The phones' routes run in this process (Hummingbird's router test) on a temporary store: each
/// app's request, in the shape the app sends it (see `PhoneProtocols`), stores its point, and
/// what is no position is kept as the device's messages.
@Suite struct PhoneRoutesTests {
    typealias API = SharingAPITests

    /// The points of ana's devices, oldest first.
    static func points(_ store: TrackStore) throws -> [Fix] {
        try store.readNow {
            try $0.points(fromMilliseconds: .min, toMilliseconds: .max, devices: .account("ana", device: nil))
        }
    }

    /// Their times, s.
    static func seconds(_ store: TrackStore) throws -> [Int64] { try points(store).map { $0.unixMilliseconds! / 1000 } }

    /// `Authorization: Basic USER:TOKEN`, as OwnTracks and GPSLogger send it.
    static func basic(_ user: String, _ token: String) -> HTTPFields {
        [.authorization: "Basic " + Data("\(user):\(token)".utf8).base64EncodedString()]
    }

    static func iso(_ seconds: Int) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(seconds)))
    }

    @Test func osmAndAndTraccarClientStoreTheirPointsEachWayTheySendThem() async throws {
        try await API.withServer { client, token, store in
            let t = Int(Date().timeIntervalSince1970) - 600
            // OsmAnd (and Traccar Client before 9): the values in the query, speed in knots.
            let query = try await API.send(
                client, .get, "/osmand?id=\(token)&timestamp=\(t)&lat=47.37&lon=8.54&speed=2&altitude=410")
            #expect(query.status == .ok, "\(query.text)")
            // The same as a form body.
            let form = try await client.execute(
                uri: "/osmand", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "id=\(token)&timestamp=\(t + 10)&lat=47.3701&lon=8.5401")
            ) { $0.status }
            #expect(form == .ok)
            // Traccar Client 9: a JSON body naming the device, speed in m/s.
            let json = try await API.send(
                client, .post, "/osmand",
                body: #"{"device_id":"\#(token)","location":{"timestamp":"\#(Self.iso(t + 20))","#
                    + #""coords":{"latitude":47.3702,"longitude":8.5402,"accuracy":7,"speed":3}}}"#)
            #expect(json.status == .ok, "\(json.text)")
            #expect(try Self.seconds(store).map { $0 - Int64(t) } == [0, 10, 20])
            let points = try Self.points(store)
            try #require(points.count == 3)
            #expect(abs((points[0].speed ?? 0) - 2 * 1852 / 3600) < 0.01, "knots: \(points[0])")
            #expect(points[0].altitudeMSL == 410 && points[0].mode == .threeD)
            #expect(abs((points[2].speed ?? 0) - 3) < 0.01 && abs(points[2].coordinate!.latitude - 47.3702) < 1e-7)
            // A token the store does not know: 401, nothing stored.
            let stranger = try await API.send(client, .get, "/osmand?id=nobody&lat=47&lon=8")
            #expect(stranger.status == .unauthorized && API.message(stranger.json) == "Wrong or revoked device token.")
            let broken = try await API.send(client, .get, "/osmand?id=\(token)&lat=north&lon=8")
            #expect(broken.status == .badRequest && API.message(broken.json)?.contains("lat=north") == true)
            #expect(try Self.seconds(store).count == 3)
        }
    }

    @Test func ownTracksLocationsArePointsAndItsOtherMessagesAreKeptWithTheirPlaces() async throws {
        try await API.withServer { client, token, store in
            let basic = Self.basic("ana", token)
            let t = Int(Date().timeIntervalSince1970) - 300
            let location = try await API.send(
                client, .post, "/pub", headers: basic,
                body: #"{"_type":"location","lat":47.37,"lon":8.54,"tst":\#(t),"acc":12,"vel":18,"batt":64,"tid":"an"}"#
            )
            #expect(
                location.status == .ok && location.text.hasPrefix("["), "a list of friends' cards: \(location.text)")
            let points = try Self.points(store)
            #expect(points.count == 1 && abs((points.first?.speed ?? 0) - 5) < 0.01, "18 km/h")
            // A region (waypoint) is a message of the device and a place of the account; a
            // transition is a message alone.
            let waypoint = try await API.send(
                client, .post, "/pub", headers: basic,
                body: #"{"_type":"waypoint","desc":"Bakery","lat":47.371,"lon":8.541,"rad":80,"tst":\#(t)}"#)
            #expect(waypoint.status == .ok, "\(waypoint.text)")
            let transition = try await API.send(
                client, .post, "/pub", headers: basic,
                body: #"{"_type":"transition","event":"enter","desc":"Bakery","lat":47.371,"lon":8.541,"tst":\#(t)}"#)
            #expect(transition.status == .ok, "\(transition.text)")
            let messages = try store.readNow { try $0.deviceMessages(account: "ana") }
            #expect(messages.map(\.type) == ["waypoint", "transition"], "\(messages)")
            #expect(messages.allSatisfy { $0.device == "overland" } && messages[0].body.contains("Bakery"))
            let bakery = try #require(try store.readNow { try $0.places(account: "ana") }.first { $0.name == "Bakery" })
            #expect(abs(bakery.center.latitude - 47.371) < 1e-9 && bakery.radius == 80)
            #expect(try Self.seconds(store) == [Int64(t)], "no point from the messages")
            // Another account's name with this token: 401.
            let wrong = Self.basic("bob", token)
            let refused = try await API.send(
                client, .post, "/pub", headers: wrong,
                body: #"{"_type":"location","lat":47,"lon":8,"tst":\#(t + 5)}"#)
            #expect(refused.status == .unauthorized)
        }
    }

    @Test func gpsLoggerAndOverlandStoreTheirPointsAndKeepWhatIsNoPosition() async throws {
        try await API.withServer { client, token, store in
            let basic = Self.basic("ana", token)
            let t = Int(Date().timeIntervalSince1970) - 900
            // GPSLogger for Android's custom URL: its own names (`time` ISO, `spd` m/s, `acc`).
            let logger = try await API.send(
                client, .get, "/gpslogger?lat=47.37&longitude=8.54&time=\(Self.iso(t))&spd=4.5&acc=9",
                headers: basic)
            #expect(logger.status == .ok, "\(logger.text)")
            // Overland: a batch with a location, a trip summary and an entry it cannot read.
            let overland = try await API.send(
                client, .post, "/overland", headers: [.authorization: "Bearer \(token)"],
                body: #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[8.55,47.38]},"#
                    + #""properties":{"timestamp":"\#(Self.iso(t + 60))","speed":1.2}},"#
                    + #"{"type":"Feature","properties":{"type":"trip","mode":"bicycle","distance":1200}},"#
                    + #"7]}"#)
            #expect(overland.status == .ok, "\(overland.text)")
            #expect(overland.json?["result"] as? String == "ok", "still ok: \(overland.text)")
            #expect(try Self.seconds(store).map { $0 - Int64(t) } == [0, 60])
            let points = try Self.points(store)
            try #require(points.count == 2)
            #expect(abs((points[0].speed ?? 0) - 4.5) < 0.01 && abs((points[1].speed ?? 0) - 1.2) < 0.01)
            let kept = try store.readNow { try $0.deviceMessages(account: "ana") }.map(\.type)
            #expect(kept == ["overland.trip", "overland.unreadable"], "\(kept)")
        }
    }

    @Test func aRevokedTokenOrAnotherAccountsNameStoresNothingOnAnyProtocol() async throws {
        try await API.withServer { client, token, store in
            let t = Int(Date().timeIntervalSince1970) - 600
            let location = #"{"_type":"location","lat":47.37,"lon":8.54,"tst":\#(t)}"#
            // ana's token under bob's name: refused on both Basic protocols.
            #expect(
                try await API.send(client, .post, "/pub", headers: Self.basic("bob", token), body: location).status
                    == .unauthorized)
            #expect(
                try await API.send(client, .get, "/gpslogger?lat=47&lon=8", headers: Self.basic("bob", token)).status
                    == .unauthorized)
            #expect(try await API.send(client, .get, "/osmand?id=\(token)&timestamp=\(t)&lat=47&lon=8").status == .ok)
            _ = try store.writeNow { try $0.revokeDevice(named: "overland", account: "ana", at: UTCTimestamp.now()) }
            let overland =
                #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[8.55,47.38]},"#
                + #""properties":{"timestamp":"\#(Self.iso(t + 60))"}}]}"#
            let answers = [
                try await API.send(client, .get, "/osmand?id=\(token)&timestamp=\(t + 5)&lat=47&lon=8"),
                try await API.send(
                    client, .post, "/overland", headers: [.authorization: "Bearer \(token)"], body: overland),
                try await API.send(client, .post, "/pub", headers: Self.basic("ana", token), body: location),
                try await API.send(client, .get, "/gpslogger?lat=47&lon=8", headers: Self.basic("ana", token)),
            ]
            for answer in answers {
                #expect(answer.status == .unauthorized, "\(answer.status) \(answer.text)")
                #expect(API.message(answer.json) == "Wrong or revoked device token.", "\(answer.text)")
            }
            #expect(try Self.seconds(store) == [Int64(t)], "the point from before the revocation alone")
            #expect(try store.readNow { try $0.deviceMessages(account: "ana") }.isEmpty)
        }
    }

    @Test func latePointsAndBatchesOutOfOrderAreOneRideInTimeOrder() async throws {
        try await API.withServer { client, token, store in
            let t = Int(Date().timeIntervalSince1970) - 3600
            func feature(_ s: Int, _ lat: Double) -> String {
                #"{"type":"Feature","geometry":{"type":"Point","coordinates":[8.54,\#(lat)]},"#
                    + #""properties":{"timestamp":"\#(Self.iso(t + s))"}}"#
            }
            let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
            let first = try await API.send(
                client, .post, "/overland", headers: bearer,
                body: #"{"locations":["#
                    + [feature(20, 47.372), feature(0, 47.370), feature(10, 47.371)].joined(
                        separator: ",") + "]}")
            #expect(first.status == .ok, "\(first.text)")
            // A late point between them, then the same batch again: placed once, in its place.
            let late = try await API.send(
                client, .post, "/overland", headers: bearer, body: #"{"locations":["# + feature(5, 47.3705) + "]}")
            #expect(late.status == .ok)
            _ = try await API.send(
                client, .post, "/overland", headers: bearer, body: #"{"locations":["# + feature(5, 47.3705) + "]}")
            #expect(try Self.seconds(store).map { $0 - Int64(t) } == [0, 5, 10, 20])
            let rides = try store.readNow {
                try $0.rides(fromMilliseconds: .min, toMilliseconds: .max, devices: .account("ana", device: nil))
            }
            #expect(rides.count == 1 && rides.first?.pointCount == 4, "\(rides)")
            #expect(
                rides.first?.startMilliseconds == Int64(t) * 1000
                    && rides.first?.endMilliseconds == Int64(t + 20) * 1000)
        }
    }

    @Test func ownTracksRepliesWithTheCardAndLatestLocationOfEachFriendSharingLive() async throws {
        try await API.withServer { client, token, store in
            let pixel = try await AccountService(store: store).addDevice("pixel", account: "bob")
            let t = Int(Date().timeIntervalSince1970) - 120
            let bobs = try await API.send(
                client, .post, "/pub", headers: Self.basic("bob", pixel),
                body: #"{"_type":"location","lat":46.95,"lon":7.44,"tst":\#(t),"vel":36,"batt":80}"#)
            #expect(bobs.status == .ok && bobs.text == "[]", "nobody shares with bob: \(bobs.text)")
            let ana = Self.basic("ana", token)
            let mine = #"{"_type":"location","lat":47.37,"lon":8.54,"tst":\#(t + 5)}"#
            #expect(try await API.send(client, .post, "/pub", headers: ana, body: mine).text == "[]")
            // bob shares live with ana: her phone's next post gets his card and position.
            let code = try await API.send(client, .post, "/api/share-codes", as: "bob", body: #"{"scopes":["live"]}"#)
            let text = try #require(code.json?["code"] as? String, "\(code.text)")
            let redeemed = try await API.send(
                client, .post, "/api/share-codes/redeem", as: "ana", body: #"{"code":"\#(text)"}"#)
            #expect(redeemed.status == .ok, "\(redeemed.text)")
            let reply = try await API.send(client, .post, "/pub", headers: ana, body: mine)
            let messages = try #require(
                try JSONSerialization.jsonObject(with: Data(reply.text.utf8)) as? [[String: Any]], "\(reply.text)")
            #expect(messages.map { $0["_type"] as? String } == ["card", "location"], "\(reply.text)")
            #expect(messages[0]["name"] as? String == "bob (pixel)" && messages[0]["tid"] as? String == "BO")
            let location = messages[1]
            #expect(location["lat"] as? Double == 46.95 && location["lon"] as? Double == 7.44, "\(location)")
            #expect(location["tst"] as? Int == t && location["vel"] as? Int == 36 && location["batt"] as? Int == 80)
            #expect(location["topic"] as? String == "owntracks/bob/pixel")
            // bob sees nothing of ana: the grant goes one way.
            let his = try await API.send(
                client, .post, "/pub", headers: Self.basic("bob", pixel),
                body: #"{"_type":"location","lat":46.95,"lon":7.44,"tst":\#(t + 10)}"#)
            #expect(his.text == "[]", "\(his.text)")
        }
    }

    @Test func anSOSFromTraccarClientAndArrivingAtAPlaceAreEventsOfTheDevice() async throws {
        try await API.withServer { client, token, store in
            _ = try store.writeNow {
                try $0.addPlace(
                    Place(name: "Office", center: Coordinate(latitude: 47.39, longitude: 8.56), radius: 120),
                    account: "ana")
            }
            let middle = try await WebFormsTests.postTwoStaysAndATrip(client, token: token)
            let t = Int(middle / 1000) + 3600
            let sos = try await API.send(
                client, .get, "/osmand?id=\(token)&timestamp=\(t)&lat=47.39&lon=8.56&alarm=sos&batt=41")
            #expect(sos.status == .ok, "\(sos.text)")
            let events = try store.readNow {
                try $0.events(fromMilliseconds: .min, toMilliseconds: .max, types: nil, account: "ana")
            }
            // Moving off at the trip's first point, stopped and arrived at the Office at its last,
            // then the SOS with its time and place: each the phone's, none for bob.
            #expect(
                events.map(\.event.type) == [.motionMoving, .motionStopped, .placeArrive, .deviceAlarm], "\(events)")
            let arrival = try #require(events.first { $0.event.type == .placeArrive })
            #expect(arrival.event.place == "Office" && arrival.device == "overland")
            #expect(arrival.event.milliseconds == (middle / 1000 + 300) * 1000, "at 08:40, the trip's last point")
            let alarm = try #require(events.last)
            #expect(alarm.event.text == "sos" && alarm.event.milliseconds == Int64(t) * 1000)
            #expect(abs((alarm.event.coordinate?.latitude ?? 0) - 47.39) < 1e-9)
            #expect(
                try store.readNow {
                    try $0.events(fromMilliseconds: .min, toMilliseconds: .max, types: nil, account: "bob")
                }.isEmpty)
        }
    }

    @Test func gpsLoggersFormBodyIsAPointAndItsBatteryWhatAFriendSeesOfThePhone() async throws {
        try await API.withServer { client, token, store in
            let code = try await API.send(client, .post, "/api/share-codes", as: "ana", body: #"{"scopes":["live"]}"#)
            let text = try #require(code.json?["code"] as? String, "\(code.text)")
            _ = try await API.send(client, .post, "/api/share-codes/redeem", as: "bob", body: #"{"code":"\#(text)"}"#)
            let t = Int(Date().timeIntervalSince1970) - 30
            // GPSLogger's POST: the values in a form body, the query's taking precedence.
            var headers = Self.basic("ana", token)
            headers[.contentType] = "application/x-www-form-urlencoded"
            let posted = try await client.execute(
                uri: "/gpslogger?acc=5", method: .post, headers: headers,
                body: ByteBuffer(string: "lat=47.3801&lon=8.5402&time=\(Self.iso(t))&spd=2.5&acc=99&batt=57")
            ) { ($0.status, String(buffer: $0.body)) }
            #expect(posted.0 == .ok, "\(posted.1)")
            let points = try Self.points(store)
            try #require(points.count == 1)
            #expect(points[0].unixMilliseconds == Int64(t) * 1000 && abs((points[0].speed ?? 0) - 2.5) < 0.01)
            let friends = try await API.send(client, .get, "/api/friends", as: "bob")
            let friend = try #require((friends.json?["friends"] as? [[String: Any]])?.first, "\(friends.text)")
            #expect(friend["lat"] as? Double == 47.3801 && friend["battery"] as? Double == 57, "\(friend)")
            #expect(friend["accuracy"] as? Double == 5, "the query's accuracy, not the body's: \(friend)")
            // A body without a position: 400 with what is missing, nothing stored.
            let missing = try await client.execute(
                uri: "/gpslogger", method: .post, headers: headers, body: ByteBuffer(string: "batt=50")
            ) { ($0.status, String(buffer: $0.body)) }
            #expect(missing.0 == .badRequest && missing.1.contains("lat"), "\(missing)")
            #expect(try Self.points(store).count == 1)
        }
    }

    @Test func aBatchOverTheBodyLimitIsRefusedBeforeItIsRead() async throws {
        try await API.withServer { client, token, store in
            let huge = String(repeating: " ", count: 9 << 20)
            let big = try await API.send(
                client, .post, "/overland", headers: [.authorization: "Bearer \(token)"],
                body: #"{"locations":[]}"# + huge)
            #expect(big.status == .contentTooLarge, "\(big.status)")
            #expect(try Self.points(store).isEmpty)
            // Within the limit, the same batch is read.
            let t = Int(Date().timeIntervalSince1970) - 5
            let small = try await API.send(
                client, .post, "/overland", headers: [.authorization: "Bearer \(token)"],
                body: #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[8,47]},"#
                    + #""properties":{"timestamp":"\#(Self.iso(t))"}}]}"# + String(repeating: " ", count: 1 << 20))
            #expect(small.status == .ok && small.json?["result"] as? String == "ok", "\(small.text)")
            #expect(try Self.seconds(store) == [Int64(t)])
        }
    }
}
