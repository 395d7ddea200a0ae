import Foundation
import GPSCore
import Hummingbird
import HummingbirdTesting
import Logging
import Pipeline
import Testing
import TrackModel
import TrackStore
import TrailbookKit
import TrailbookTestSupport

@testable import TrailbookServer

/// The sharing API run in this process on a temporary store (Hummingbird's router test: no
/// socket, no child process): its answers are the documented JSON, and what it refuses says why
/// with the documented status.
@Suite struct SharingAPITests {
    static let passwords = ["ana": "plum orchard breeze 41", "bob": "copper lantern drift 77"]

    /// A server on a new store with the accounts ana and bob (``passwords``) and ana's phone
    /// `overland`; `body` gets the router client and the phone's token.
    func withServer(_ body: @escaping @Sendable (any TestClientProtocol, String) async throws -> Void) async throws {
        try await Self.withServer { client, token, _ in try await body(client, token) }
    }

    /// The same, `body` getting the store too.
    /// `archives`: the account archive (`/export/archive`) is offered; `tiles`: the base map.
    static func withServer(
        archives: Bool = false, tiles: TileFetcher? = nil,
        _ body: @escaping @Sendable (any TestClientProtocol, String, TrackStore) async throws -> Void
    ) async throws {
        let store = try TrackStore(path: try Samples.temporaryDirectory() + "/s.sqlite")
        let accounts = AccountService(store: store)
        for (name, password) in Self.passwords { try await accounts.addAccount(name, password: password) }
        let token = try await accounts.addDevice("overland", account: "ana")
        let archive: @Sendable (String) throws -> any StoreCopying = { try TrackStore(path: $0) }
        let server = SharingServer(
            configuration: .init(), store: store, rules: PipelineConfiguration(), logger: Logger(label: "test"),
            tiles: tiles, archiveStore: archives ? archive : nil)
        let app = Application(router: server.router())
        try await app.test(.router) { client in try await body(client, token, store) }
    }

    static func basic(_ user: String) -> HTTPFields {
        [.authorization: "Basic " + Data("\(user):\(passwords[user]!)".utf8).base64EncodedString()]
    }

    /// Sends a request and gives the status and the body parsed as a JSON object (nil: none).
    @discardableResult
    static func send(
        _ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, as user: String? = nil,
        headers: HTTPFields = [:], body: String? = nil
    ) async throws -> (status: HTTPResponse.Status, json: [String: Any]?, text: String) {
        var fields = user.map(basic) ?? [:]
        fields.append(contentsOf: headers)
        if body != nil { fields[.contentType] = "application/json" }
        return try await client.execute(
            uri: uri, method: method, headers: fields, body: body.map { ByteBuffer(string: $0) }
        ) { response in
            let text = String(buffer: response.body)
            let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return (response.status, json, text)
        }
    }

    static func message(_ json: [String: Any]?) -> String? {
        (json?["error"] as? [String: Any])?["message"] as? String
    }

    @Test func pairingGrantsAndFriendsAnswerTheDocumentedJSON() async throws {
        try await withServer { client, token in
            let health = try await Self.send(client, .get, "/api/health")
            #expect(health.status == .ok && health.text == "{\"status\":\"ok\"}\n", "\(health.text)")

            let code = try await Self.send(
                client, .post, "/api/share-codes", as: "ana", body: #"{"scopes":["live","history"],"history_hours":24}"#
            )
            #expect(code.status == .created, "\(code.text)")
            let text = try #require(code.json?["code"] as? String)
            #expect(text.count == 9 && text.contains("-"), "\(text)")
            #expect((code.json?["expires_at"] as? String)?.hasSuffix("Z") == true, "\(code.text)")

            let own = try await Self.send(
                client, .post, "/api/share-codes/redeem", as: "ana", body: #"{"code":"\#(text)"}"#)
            #expect(own.status == .unprocessableContent && Self.message(own.json) != nil, "\(own.text)")
            let redeemed = try await Self.send(
                client, .post, "/api/share-codes/redeem", as: "bob", body: #"{"code":"\#(text)"}"#)
            #expect(redeemed.status == .ok, "\(redeemed.text)")
            #expect(redeemed.json?["owner"] as? String == "ana" && redeemed.json?["history_hours"] as? Int == 24)

            // A grant without an end says so with null (the key is there).
            let grants = try await Self.send(client, .get, "/api/grants", as: "ana")
            let grant = try #require((grants.json?["grants"] as? [[String: Any]])?.first, "\(grants.text)")
            #expect(grant["viewer"] as? String == "bob" && grant["paused"] as? Bool == false, "\(grant)")
            #expect(grant.keys.contains("expires_at") && grant["expires_at"] is NSNull, "\(grants.text)")
            #expect(grants.text.contains(#""expires_at":null"#), "\(grants.text)")

            // ana's phone posts; bob sees her there, with what the phone sent and nothing else.
            let now = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-30))
            let overland = try await Self.send(
                client, .post, "/overland", headers: [.authorization: "Bearer \(token)"],
                body: #"{"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[8.54,47.37]},"#
                    + #""properties":{"timestamp":"\#(now)","horizontal_accuracy":6,"battery_level":0.8}}]}"#)
            #expect(overland.status == .ok && overland.text == #"{"result":"ok"}"#, "\(overland.text)")
            let friends = try await Self.send(client, .get, "/api/friends", as: "bob")
            let friend = try #require((friends.json?["friends"] as? [[String: Any]])?.first, "\(friends.text)")
            #expect(friend["user"] as? String == "ana" && friend["device"] as? String == "overland", "\(friend)")
            #expect(friend["lat"] as? Double == 47.37 && friend["lon"] as? Double == 8.54, "\(friend)")
            #expect(friend["accuracy"] as? Double == 6 && friend["speed"] == nil, "\(friend)")
            let track = try await Self.send(client, .get, "/api/friends/ana/track?hours=1", as: "bob")
            #expect(
                (track.json?["points"] as? [Any])?.count == 1 && track.json?["user"] as? String == "ana",
                "\(track.text)")

            // Paused, bob sees nothing; revoked, the grant is gone.
            let paused = try await Self.send(client, .patch, "/api/grants/bob", as: "ana", body: #"{"paused":true}"#)
            #expect(paused.status == .ok && paused.json?["paused"] as? Bool == true, "\(paused.text)")
            let none = try await Self.send(client, .get, "/api/friends", as: "bob")
            #expect((none.json?["friends"] as? [Any])?.isEmpty == true, "\(none.text)")
            let revoked = try await Self.send(client, .delete, "/api/grants/bob", as: "ana")
            #expect(revoked.status == .noContent, "\(revoked.text)")
            let gone = try await Self.send(client, .get, "/api/grants", as: "ana")
            #expect(gone.text == #"{"grants":[]}"#, "\(gone.text)")
        }
    }

    /// Each value a request gets wrong is refused with 400 and the sentence that says what it
    /// takes; the other refusals carry their own status.
    @Test func wrongRequestsAreRefusedWithWhatToSend() async throws {
        try await withServer { client, _ in
            let cases: [(String, HTTPRequest.Method, String, String, HTTPResponse.Status, String)] = [
                ("ana", .post, "/api/share-codes", "[1]", .badRequest, "The body is not a JSON object."),
                ("ana", .post, "/api/share-codes", "not json", .badRequest, "The body is not a JSON object."),
                ("ana", .post, "/api/share-codes", #"{"scopes":"live"}"#, .badRequest, "scopes is a list of"),
                ("ana", .post, "/api/share-codes", #"{"history_hours":true}"#, .badRequest, "history_hours is a whole"),
                ("ana", .post, "/api/share-codes", #"{"history_hours":1.5}"#, .badRequest, "history_hours is a whole"),
                ("ana", .post, "/api/share-codes", #"{"scopes":["everything"]}"#, .badRequest, "is not a scope"),
                ("bob", .post, "/api/share-codes/redeem", #"{"kode":"x"}"#, .badRequest, #"Give {"code""#),
                (
                    "bob", .post, "/api/share-codes/redeem", #"{"code":"ZZZZ-ZZZZ"}"#, .unprocessableContent,
                    "That code is not valid"
                ),
                ("ana", .patch, "/api/grants/bob", #"{"paused":1}"#, .badRequest, "paused is true or false."),
                ("ana", .patch, "/api/grants/bob", #"{"expires_at":"soon"}"#, .badRequest, "expires_at is an ISO"),
                ("ana", .patch, "/api/grants/bob", #"{"paused":true}"#, .notFound, "there is no grant to change"),
                ("bob", .get, "/api/friends/ana/track?hours=-1", "", .badRequest, "hours is a positive number"),
                ("bob", .get, "/api/friends/ana/track", "", .notFound, "with the history scope"),
            ]
            for (user, method, uri, body, status, sentence) in cases {
                let answer = try await Self.send(client, method, uri, as: user, body: body.isEmpty ? nil : body)
                #expect(answer.status == status, "\(method) \(uri) \(body): \(answer.status) \(answer.text)")
                let message = Self.message(answer.json) ?? ""
                #expect(!message.isEmpty && message.contains(sentence), "\(method) \(uri) \(body): \(answer.text)")
            }
            let stranger = try await Self.send(
                client, .post, "/overland", headers: [.authorization: "Bearer nobody"], body: #"{"locations":[]}"#)
            #expect(stranger.status == .unauthorized && Self.message(stranger.json) == "Wrong or revoked device token.")
            // Not signed in, or with a wrong password: 401 with the Basic challenge; then the
            // paths the server does not have, or not with that method.
            let wrong: HTTPFields = [.authorization: "Basic " + Data("ana:not her password".utf8).base64EncodedString()]
            for (headers, sentence) in [([:], "Sign in: Basic USER:PASSWORD"), (wrong, "Wrong user name or password.")]
            {
                try await client.execute(uri: "/api/grants", method: .get, headers: headers) { response in
                    #expect(response.status == .unauthorized && response.headers[.wwwAuthenticate] != nil)
                    #expect(String(buffer: response.body).contains(sentence), "\(String(buffer: response.body))")
                }
            }
            try await client.execute(uri: "/api/grants", method: .put) { response in
                #expect(response.status == .methodNotAllowed && response.headers[.allow] == "GET")
                #expect(String(buffer: response.body) == #"{"error":{"message":"/api/grants takes GET."}}"#)
            }
            let nowhere = try await Self.send(client, .get, "/nope")
            #expect(
                nowhere.status == .notFound && Self.message(nowhere.json)?.hasPrefix("There is no /nope here") == true)
        }
    }

    @Test func aFriendsTrackGoesBackNoFurtherThanTheGrantsHoursAndNotWithoutHistory() async throws {
        try await Self.withServer { client, token, _ in
            let now = Int(Date().timeIntervalSince1970)
            // ana's phone: a point 5 hours ago, 90 minutes ago and a minute ago.
            for ago in [18_000, 5_400, 60] {
                _ = try await Self.send(client, .get, "/osmand?id=\(token)&timestamp=\(now - ago)&lat=47.37&lon=8.54")
            }
            let live = try await Self.send(client, .post, "/api/share-codes", as: "ana", body: #"{"scopes":["live"]}"#)
            let liveCode = try #require(live.json?["code"] as? String)
            _ = try await Self.send(
                client, .post, "/api/share-codes/redeem", as: "bob", body: #"{"code":"\#(liveCode)"}"#)
            let none = try await Self.send(client, .get, "/api/friends/ana/track", as: "bob")
            #expect(none.status.code >= 400 && Self.message(none.json) != nil, "no history scope: \(none.text)")
            // A grant with two hours of history replaces it.
            let code = try await Self.send(
                client, .post, "/api/share-codes", as: "ana", body: #"{"scopes":["live","history"],"history_hours":2}"#)
            let text = try #require(code.json?["code"] as? String)
            _ = try await Self.send(client, .post, "/api/share-codes/redeem", as: "bob", body: #"{"code":"\#(text)"}"#)
            let asked = try await Self.send(client, .get, "/api/friends/ana/track?hours=24", as: "bob")
            #expect((asked.json?["points"] as? [Any])?.count == 2, "two hours, not 24: \(asked.text)")
            let one = try await Self.send(client, .get, "/api/friends/ana/track?hours=0.5", as: "bob")
            #expect((one.json?["points"] as? [Any])?.count == 1, "\(one.text)")
            for bad in ["0", "-3", "soon", "nan"] {
                let refused = try await Self.send(client, .get, "/api/friends/ana/track?hours=\(bad)", as: "bob")
                #expect(
                    refused.status == .badRequest
                        && Self.message(refused.json) == "hours is a positive number (default 24).")
            }
            // ana sees nothing of bob's, who shares nothing.
            let theirs = try await Self.send(client, .get, "/api/friends/bob/track", as: "ana")
            #expect(theirs.status.code >= 400, "\(theirs.text)")
        }
    }
}
