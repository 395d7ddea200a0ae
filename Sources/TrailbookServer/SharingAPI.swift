import Foundation
import GPSCore
import Hummingbird
import TrackModel
import TrailbookKit

/// Failed logins per account and per client address: after ``accountLimit`` failures of an
/// account, or ``addressLimit`` from one address, in ``window`` seconds, those logins are refused
/// (429) until the window has passed, whatever the password. An address gets more than an
/// account: several people may share one (a household behind one router).
struct LoginThrottle: Sendable {
    static let accountLimit = 10
    static let addressLimit = 30
    static let window: Int64 = 15 * 60_000
    /// The failures are kept in the store: every server process on it counts the same ones.
    let store: any SessionStoring & Sendable

    static func limit(_ key: String) -> Int { key.hasPrefix("address:") ? addressLimit : accountLimit }

    func allowed(_ keys: [String], now: Int64 = UTCTimestamp.now()) throws -> Bool {
        let counts = try store.loginFailures(keys: keys, since: now - Self.window)
        return keys.allSatisfy { (counts[$0] ?? 0) < Self.limit($0) }
    }

    func failed(_ keys: [String], now: Int64 = UTCTimestamp.now()) throws {
        try store.addLoginFailure(keys: keys, at: now, window: Self.window)
    }
}

/// The JSON API of pairing, grants and friends; authenticated with Basic `USER:PASSWORD` or a
/// browser's session cookie (``Login``).
enum SharingAPI {
    static func add(
        to router: Router<ServerContext>, store: any TrackStoring, feed: LiveFeed, login: Login,
        movingWithin: Double = 120
    ) {
        let sharing = SharingService(store: store)
        // The store's reads and writes run on the server's thread pool, not on the few threads
        // that answer requests.
        let threads = login.threads
        @Sendable func user(_ request: Request, _ context: ServerContext) async throws -> String {
            try await login.user(request, context)
        }
        router.post("/api/share-codes") { request, context -> Response in
            let owner = try await user(request, context)
            let doc = try await Self.body(request)
            guard doc["scopes"] == nil || doc["scopes"] is [String] else {
                throw HTTPError(.badRequest, message: "scopes is a list of live, motion, history and events.")
            }
            let scopes = doc["scopes"] as? [String] ?? ["live"]
            let hoursValue = doc["history_hours"].map { $0 as? NSNumber }
            guard let hours = hoursValue.map({ $0.flatMap(Self.wholeNumber) }) ?? 0,
                (0...SharingService.longestHistory).contains(hours)
            else {
                throw HTTPError(
                    .badRequest,
                    message: "history_hours is a whole number of hours from 0 to \(SharingService.longestHistory).")
            }
            do {
                let (code, expires) = try await threads.runIfActive {
                    try sharing.createCode(owner: owner, scopes: scopes, historyHours: hours)
                }
                return try Self.json(["code": code, "expires_at": LocalTime.utc(expires)], status: .created)
            } catch let error as SharingError {
                throw Self.refused(error)
            }
        }
        router.post("/api/share-codes/redeem") { request, context -> Response in
            let viewer = try await user(request, context)
            guard let code = try await Self.body(request)["code"] as? String else {
                throw HTTPError(.badRequest, message: "Give {\"code\": \"XXXX-XXXX\"}.")
            }
            do {
                let grant = try await threads.runIfActive { try sharing.redeem(code, viewer: viewer) }
                return try Self.json([
                    "owner": grant.owner, "scopes": grant.scopes, "history_hours": grant.historyHours,
                ])
            } catch let error as SharingError {
                throw Self.refused(error)
            }
        }
        router.get("/api/grants") { request, context -> Response in
            let owner = try await user(request, context)
            let grants = try await threads.runIfActive { try sharing.grants(owner: owner) }
            return try Self.json(["grants": grants.map(Self.document)])
        }
        router.delete("/api/grants/:user") { request, context -> Response in
            let owner = try await user(request, context)
            let viewer = try context.parameters.require("user")
            do {
                try await threads.runIfActive { try sharing.revoke(owner: owner, viewer: viewer) }
            } catch let error as SharingError {
                throw Self.refused(error)
            }
            // Their live streams end now; when they reconnect they see what they still may.
            await feed.close(viewer: viewer)
            return Response(status: .noContent)
        }
        router.patch("/api/grants/:user") { request, context -> Response in
            let owner = try await user(request, context)
            let viewer = try context.parameters.require("user")
            let doc = try await Self.body(request)
            let paused = isBoolean(doc["paused"]) ? doc["paused"] as? Bool : nil
            var expires: Int64?? = nil
            if doc.keys.contains("expires_at") {
                if doc["expires_at"] is NSNull {
                    expires = .some(nil)
                } else if let text = doc["expires_at"] as? String, let ms = UTCTimestamp.milliseconds(Substring(text)) {
                    expires = .some(ms)
                } else {
                    throw HTTPError(.badRequest, message: "expires_at is an ISO 8601 time or null.")
                }
            }
            if doc["paused"] != nil && paused == nil {
                throw HTTPError(.badRequest, message: "paused is true or false.")
            }
            do {
                let grant = try await threads.runIfActive { [expires] in
                    try sharing.update(owner: owner, viewer: viewer, paused: paused, expires: expires)
                }
                if !grant.isActive(at: UTCTimestamp.now()) { await feed.close(viewer: viewer) }
                return try Self.json(Self.document(grant))
            } catch let error as SharingError {
                throw Self.refused(error)
            }
        }
        router.get("/api/friends") { request, context -> Response in
            let viewer = try await user(request, context)
            let friends = try await threads.runIfActive { try sharing.friends(of: viewer, movingWithin: movingWithin) }
            return try Self.json(["friends": friends.map(Self.document)])
        }
        router.get("/api/friends/:user/track") { request, context -> Response in
            let viewer = try await user(request, context)
            let owner = try context.parameters.require("user")
            let hoursText = request.uri.queryParameters.get("hours") ?? "24"
            guard let hours = Double(hoursText), hours.isFinite, hours > 0 else {
                throw HTTPError(.badRequest, message: "hours is a positive number (default 24).")
            }
            do {
                let (from, points) = try await threads.runIfActive {
                    try sharing.track(of: owner, viewer: viewer, hours: hours)
                }
                return try Self.json([
                    "user": owner, "from": LocalTime.utc(from),
                    "points": points.map { p -> [String: Any] in
                        var point: [String: Any] = [
                            "device": p.device, "time": LocalTime.utc(p.fix.unixMilliseconds!),
                            "lat": p.fix.coordinate!.latitude, "lon": p.fix.coordinate!.longitude,
                        ]
                        if let v = p.fix.altitudeMSL { point["alt"] = v }
                        if let v = p.fix.speed { point["speed"] = v }
                        if let v = p.fix.track { point["course"] = v }
                        return point
                    },
                ])
            } catch let error as SharingError {
                throw Self.refused(error)
            }
        }
        // Server-sent events: the friends' positions now, then one event per new position.
        router.get("/api/live") { request, context -> Response in
            let viewer = try await user(request, context)
            let stream = await feed.subscribe(viewer: viewer)
            let now = try await threads.runIfActive { try sharing.friends(of: viewer, movingWithin: movingWithin) }
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream", .cacheControl: "no-store"],
                body: ResponseBody { writer in
                    try await writer.write(ByteBuffer(string: "retry: 3000\n\n"))
                    for friend in now { try await writer.write(ByteBuffer(string: try Self.event(friend))) }
                    for await event in stream {
                        switch event {
                        case .position(let friend): try await writer.write(ByteBuffer(string: try Self.event(friend)))
                        case .heartbeat: try await writer.write(ByteBuffer(string: ": heartbeat\n\n"))
                        }
                    }
                    try await writer.finish(nil)
                })
        }
    }

    /// A grant as the API shows it.
    static func document(_ grant: Grant) -> [String: Any] {
        var doc: [String: Any] = [
            "viewer": grant.viewer, "scopes": grant.scopes, "history_hours": grant.historyHours,
            "created": LocalTime.utc(grant.createdMilliseconds), "paused": grant.paused,
        ]
        doc["expires_at"] = grant.expiresMilliseconds.map { LocalTime.utc($0) } ?? NSNull()
        return doc
    }

    /// A friend's device as the API shows it.
    static func document(_ f: SharingService.Friend) -> [String: Any] {
        var entry: [String: Any] = [
            "user": f.user, "device": f.device, "time": LocalTime.utc(f.fix.unixMilliseconds!),
            "lat": f.fix.coordinate!.latitude, "lon": f.fix.coordinate!.longitude,
            "age_s": (f.ageSeconds * 10).rounded() / 10,
        ]
        if let v = f.fix.speed { entry["speed"] = v }
        if let c = f.fix.track { entry["course"] = c }
        if let moving = f.moving { entry["moving"] = moving }
        if let a = f.accuracy { entry["accuracy"] = (a * 10).rounded() / 10 }
        if let b = f.battery { entry["battery"] = b }
        return entry
    }

    /// One server-sent event `position` carrying a friend's document.
    static func event(_ f: SharingService.Friend) throws -> String {
        let data = try JSONSerialization.data(
            withJSONObject: document(f), options: [.sortedKeys, .withoutEscapingSlashes])
        return "event: position\ndata: " + String(decoding: data, as: UTF8.self) + "\n\n"
    }

    /// Whether a JSON value is true or false (Foundation reads them as numbers, and 0 and 1 as
    /// Bool; only the type code tells them apart).
    static func isBoolean(_ value: Any?) -> Bool {
        guard let n = value as? NSNumber else { return false }
        return String(cString: n.objCType) == "c"
    }

    /// A JSON number that is a whole number (not true or false).
    static func wholeNumber(_ n: NSNumber) -> Int? {
        guard !isBoolean(n), let value = Int(exactly: n.doubleValue) else { return nil }
        return value
    }

    static func body(_ request: Request) async throws -> [String: Any] {
        let buffer = try await request.body.collect(upTo: 64 << 10)
        guard let doc = try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any]
        else { throw HTTPError(.badRequest, message: "The body is not a JSON object.") }
        return doc
    }
    static func json(_ value: Any, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes])
        return Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
    static func refused(_ error: SharingError) -> HTTPError {
        switch error {
        case .throttled: return HTTPError(.tooManyRequests, message: error.description)
        case .noGrant, .noHistory: return HTTPError(.notFound, message: error.description)
        case .badScopes: return HTTPError(.badRequest, message: error.description)
        case .unknownCode, .ownCode: return HTTPError(.unprocessableContent, message: error.description)
        }
    }
}
