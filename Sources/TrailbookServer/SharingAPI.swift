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
    let store: any TrackStoring

    static func limit(_ key: String) -> Int { key.hasPrefix("address:") ? addressLimit : accountLimit }

    func allowed(_ keys: [String], now: Int64 = UTCTimestamp.now()) async throws -> Bool {
        let counts = try await store.read { try $0.loginFailures(keys: keys, since: now - Self.window) }
        return keys.allSatisfy { (counts[$0] ?? 0) < Self.limit($0) }
    }

    func failed(_ keys: [String], now: Int64 = UTCTimestamp.now()) async throws {
        try await store.write { try $0.addLoginFailure(keys: keys, at: now, window: Self.window) }
    }
}

/// The JSON API of pairing, grants and friends; authenticated with Basic `USER:PASSWORD` or a
/// browser's session cookie (``Login``). Its requests and answers are the `Codable` types of
/// `SharingAPI+Documents.swift`; what it refuses renders itself (`ServerErrors.swift`). The
/// service's units of work run on the store's own threads (GRDB's queues; `Blocking.units` on PostgreSQL),
/// never on the few that answer requests.
struct SharingController {
    let sharing: SharingService
    let feed: LiveFeed
    let login: Login
    let movingWithin: Double

    init(store: any TrackStoring, feed: LiveFeed, login: Login, movingWithin: Double = 120) {
        sharing = SharingService(store: store)
        (self.feed, self.login, self.movingWithin) = (feed, login, movingWithin)
    }

    func add(to router: Router<ServerContext>) {
        router.post("/api/share-codes", use: createCode)
        router.post("/api/share-codes/redeem", use: redeem)
        router.get("/api/grants", use: grants)
        router.delete("/api/grants/:user", use: revoke)
        router.patch("/api/grants/:user", use: update)
        router.get("/api/friends", use: friends)
        router.get("/api/friends/:user/track", use: track)
        router.get("/api/live", use: live)
    }

    @Sendable func createCode(_ request: Request, context: ServerContext) async throws -> EditedResponse<ShareCode> {
        let owner = try await login.user(request, context)
        let asked = try await Self.decode(ShareCodeRequest.self, request)
        let (code, expires) = try await sharing.createCode(
            owner: owner, scopes: asked.scopes, historyHours: asked.historyHours)
        return EditedResponse(status: .created, response: ShareCode(code: code, expiresAt: LocalTime.utc(expires)))
    }

    @Sendable func redeem(_ request: Request, context: ServerContext) async throws -> Redeemed {
        let viewer = try await login.user(request, context)
        let code = try await Self.decode(RedeemRequest.self, request).code
        let grant = try await sharing.redeem(code, viewer: viewer)
        return Redeemed(owner: grant.owner, scopes: grant.scopes, historyHours: grant.historyHours)
    }

    @Sendable func grants(_ request: Request, context: ServerContext) async throws -> GrantList {
        let owner = try await login.user(request, context)
        return GrantList(grants: try await sharing.grants(owner: owner).map(GrantDocument.init))
    }

    @Sendable func revoke(_ request: Request, context: ServerContext) async throws -> HTTPResponse.Status {
        let owner = try await login.user(request, context)
        let viewer = try context.parameters.require("user")
        try await sharing.revoke(owner: owner, viewer: viewer)
        // Their live streams end now; when they reconnect they see what they still may.
        await feed.close(viewer: viewer)
        return .noContent
    }

    @Sendable func update(_ request: Request, context: ServerContext) async throws -> GrantDocument {
        let owner = try await login.user(request, context)
        let viewer = try context.parameters.require("user")
        let change = try await Self.decode(GrantChange.self, request)
        let grant = try await sharing.update(
            owner: owner, viewer: viewer, paused: change.paused, expires: change.expires)
        if !grant.isActive(at: UTCTimestamp.now()) { await feed.close(viewer: viewer) }
        return GrantDocument(grant)
    }

    @Sendable func friends(_ request: Request, context: ServerContext) async throws -> FriendList {
        let viewer = try await login.user(request, context)
        let friends = try await sharing.friends(of: viewer, movingWithin: movingWithin)
        return FriendList(friends: friends.map(FriendDocument.init))
    }

    @Sendable func track(_ request: Request, context: ServerContext) async throws -> TrackDocument {
        let viewer = try await login.user(request, context)
        let owner = try context.parameters.require("user")
        let hoursText = request.uri.queryParameters.get("hours") ?? "24"
        guard let hours = Double(hoursText), hours.isFinite, hours > 0 else {
            throw Refusal(.badRequest, "hours is a positive number (default 24).")
        }
        let (from, points) = try await sharing.track(of: owner, viewer: viewer, hours: hours)
        return TrackDocument(
            user: owner, from: LocalTime.utc(from),
            points: points.map { TrackDocument.Point(device: $0.device, $0.fix) })
    }

    /// Server-sent events: the friends' positions now, then one event per new position.
    @Sendable func live(_ request: Request, context: ServerContext) async throws -> Response {
        let viewer = try await login.user(request, context)
        let stream = await feed.subscribe(viewer: viewer)
        let now = try await sharing.friends(of: viewer, movingWithin: movingWithin)
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

    /// One server-sent event `position` carrying a friend's document.
    static func event(_ f: SharingService.Friend) throws -> String {
        let data = try ServerContext.encoder.encode(FriendDocument(f))
        return "event: position\ndata: " + String(decoding: data, as: UTF8.self) + "\n\n"
    }

    /// The request's body as `T` (at most 64 KiB); a body that is not a JSON object, or not one
    /// `T` reads, is refused with `T`'s own sentence or ``Refusal/notAnObject``.
    static func decode<T: Decodable>(_ type: T.Type, _ request: Request) async throws -> T {
        let buffer = try await request.body.collect(upTo: 64 << 10)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw Refusal.notAnObject
        }
    }
}
