import Foundation
import GPSCore
import Hummingbird
import TrackModel
import TrailbookKit

/// Failed logins per account: after ``limit`` in ``window`` the account's logins are refused
/// (429) until the window has passed, whatever the password. (Per address comes with the
/// request context that carries it.)
actor LoginThrottle {
    static let limit = 10
    static let window: Double = 15 * 60
    private var failures: [String: [Double]] = [:]

    func allowed(_ keys: [String], now: Double = Date().timeIntervalSince1970) -> Bool {
        keys.allSatisfy { key in (failures[key] ?? []).filter { now - $0 < Self.window }.count < Self.limit }
    }

    func failed(_ keys: [String], now: Double = Date().timeIntervalSince1970) {
        for key in keys { failures[key, default: []] = (failures[key] ?? []).filter { now - $0 < Self.window } + [now] }
    }
}

/// The JSON API of pairing, grants and friends; authenticated with Basic `USER:PASSWORD`.
enum SharingAPI {
    static func add(to router: Router<BasicRequestContext>, store: any TrackStoring) {
        let accounts = AccountService(store: store)
        let sharing = SharingService(store: store)
        let throttle = LoginThrottle()

        @Sendable func user(_ request: Request, _ context: BasicRequestContext) async throws -> String {
            guard let (name, password) = PhoneProtocols.basic(request.headers[.authorization]) else {
                throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"trailbook\""])
            }
            let keys = ["user:" + name]
            guard await throttle.allowed(keys) else {
                throw HTTPError(.tooManyRequests, message: "Too many failed logins; wait a quarter of an hour.")
            }
            guard try accounts.authenticate(name, password: password) else {
                await throttle.failed(keys)
                throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Basic realm=\"trailbook\""])
            }
            return name
        }
        router.post("/api/share-codes") { request, context -> Response in
            let owner = try await user(request, context)
            let doc = try await Self.body(request)
            let scopes = doc["scopes"] as? [String] ?? ["live"]
            let hours = (doc["history_hours"] as? NSNumber)?.intValue ?? 0
            do {
                let (code, expires) = try sharing.createCode(owner: owner, scopes: scopes, historyHours: hours)
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
                let grant = try sharing.redeem(code, viewer: viewer)
                return try Self.json([
                    "owner": grant.owner, "scopes": grant.scopes, "history_hours": grant.historyHours,
                ])
            } catch let error as SharingError {
                throw Self.refused(error)
            }
        }
        router.get("/api/grants") { request, context -> Response in
            let owner = try await user(request, context)
            return try Self.json([
                "grants": try sharing.grants(owner: owner).map {
                    [
                        "viewer": $0.viewer, "scopes": $0.scopes, "history_hours": $0.historyHours,
                        "created": LocalTime.utc($0.createdMilliseconds),
                    ] as [String: Any]
                }
            ])
        }
        router.delete("/api/grants/:user") { request, context -> Response in
            let owner = try await user(request, context)
            let viewer = try context.parameters.require("user")
            do {
                try sharing.revoke(owner: owner, viewer: viewer)
            } catch let error as SharingError {
                throw Self.refused(error)
            }
            return Response(status: .noContent)
        }
        router.get("/api/friends") { request, context -> Response in
            let viewer = try await user(request, context)
            let friends = try sharing.friends(of: viewer).map { f -> [String: Any] in
                var entry: [String: Any] = [
                    "user": f.user, "device": f.device, "time": LocalTime.utc(f.fix.unixMilliseconds!),
                    "lat": f.fix.coordinate!.latitude, "lon": f.fix.coordinate!.longitude,
                    "age_s": (f.ageSeconds * 10).rounded() / 10,
                ]
                if let v = f.fix.speed { entry["speed"] = v }
                if let c = f.fix.track { entry["course"] = c }
                if let moving = f.moving { entry["moving"] = moving }
                return entry
            }
            return try Self.json(["friends": friends])
        }
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
        case .noGrant: return HTTPError(.notFound, message: error.description)
        case .badScopes: return HTTPError(.badRequest, message: error.description)
        case .unknownCode, .ownCode: return HTTPError(.unprocessableContent, message: error.description)
        }
    }
}
