import Foundation
import GPSCore
import Hummingbird
import TrackModel
import TrailbookKit

/// Signed-in browsers: a random session token in a cookie (its SHA-256 is what the store keeps)
/// and the session's CSRF token, which every state-changing form and cookie-authenticated API
/// call must carry. Kept in the store: every server process on it knows the session, and a
/// restart signs nobody out.
struct WebSessions: Sendable {
    struct Session: Sendable {
        let user: String
        let csrf: String
    }

    static let lifetime: Int64 = 14 * 86_400_000
    let store: any TrackStoring

    /// A new session for `user`: the cookie's token and the CSRF token.
    func create(user: String, now: Int64 = UTCTimestamp.now()) async throws -> (token: String, csrf: String) {
        let token = Self.random()
        let csrf = Self.random()
        _ = try await store.write {
            try $0.addSession(
                tokenHash: Self.key(token), account: user, csrf: csrf, expiresMilliseconds: now + Self.lifetime,
                now: now)
        }
        return (token, csrf)
    }

    func session(_ token: String, now: Int64 = UTCTimestamp.now()) async throws -> Session? {
        try await store.read { try $0.session(tokenHash: Self.key(token), now: now) }.map {
            Session(user: $0.account, csrf: $0.csrf)
        }
    }

    func end(_ token: String) async throws { try await store.write { try $0.endSession(tokenHash: Self.key(token)) } }

    /// Ends every session of `user` but the one of `token` (nil: all); how many ended.
    func endAll(of user: String, except token: String?) async throws -> Int {
        try await store.write { try $0.endSessions(account: user, except: token.map(Self.key)) }
    }

    static func key(_ token: String) -> String { ContentDigest.hexDigest(of: Array(token.utf8)) }

    /// 256 random bits, base64url.
    static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }
}

/// Who a request is: Basic `USER:PASSWORD` or the session cookie, with the login limits.
struct Login: Sendable {
    static let sessionCookie = "trailbook_session"
    static let loginCookie = "trailbook_login"

    let accounts: AccountService
    let throttle: LoginThrottle
    let sessions: WebSessions
    let trustProxy: Bool

    init(accounts: AccountService, sessions store: any TrackStoring, trustProxy: Bool) {
        self.accounts = accounts
        self.trustProxy = trustProxy
        throttle = LoginThrottle(store: store)
        sessions = WebSessions(store: store)
    }

    /// Checks a password under the limits: 429 while the account or the address is shut out,
    /// 401 (with `challenge`) for a wrong one.
    func check(_ name: String, _ password: String, _ request: Request, _ context: ServerContext, challenge: Bool)
        async throws
    {
        let keys = ["user:" + name, "address:" + context.client(request, trustProxy: trustProxy)]
        guard try await throttle.allowed(keys) else { throw Refusal.tooManyLogins }
        guard try await accounts.authenticate(name, password: password) else {
            try await throttle.failed(keys)
            throw Refusal.wrongPassword(challenge: challenge)
        }
    }

    /// Where and how `user`'s pages write times and distances: the account's own time zone and
    /// units where it chose them (on the settings page), else the server's `zone` and metric.
    func local(_ user: String, zone: TimeZone) async -> (zone: TimeZone, imperial: Bool) {
        let store = sessions.store
        let chosen = (try? await store.read { try $0.preferences(account: user) }) ?? AccountPreferences()
        return (chosen.timeZone.flatMap(TimeZone.init(identifier:)) ?? zone, chosen.units == "imperial")
    }

    /// The signed-in user's session, from the cookie; none once the account has been removed
    /// (`trailbook user rm` runs in another process).
    func session(_ request: Request) async -> (token: String, session: WebSessions.Session)? {
        // A session goes with its account (`trailbook user rm` runs in another process).
        guard let token = Self.cookies(request)[Self.sessionCookie], let s = try? await sessions.session(token)
        else { return nil }
        return (token, s)
    }

    /// The user of an API request: Basic, or the session cookie — which, for anything but GET,
    /// needs the session's CSRF token in `X-CSRF-Token` too (403 without it).
    func user(_ request: Request, _ context: ServerContext) async throws -> String {
        if let (name, password) = PhoneProtocols.basic(request.headers[.authorization]) {
            try await check(name, password, request, context, challenge: true)
            return name
        }
        if let (_, session) = await session(request) {
            if request.method != .get && request.method != .head {
                guard request.headers.first(where: { $0.name.canonicalName == "x-csrf-token" })?.value == session.csrf
                else { throw Refusal.missingCSRF }
            }
            return session.user
        }
        throw Refusal.signIn
    }

    /// Whether the request reached the proxy over TLS (`X-Forwarded-Proto: https`, trusted only
    /// with --trust-proxy): cookies are then marked Secure.
    func overTLS(_ request: Request) -> Bool {
        trustProxy
            && request.headers.last(where: { $0.name.canonicalName == "x-forwarded-proto" })?.value.lowercased()
                == "https"
    }

    /// A `Set-Cookie` value: HttpOnly, SameSite=Strict, Path=/, Secure over TLS.
    func cookie(_ name: String, _ value: String, _ request: Request, maxAge: Int) -> String {
        "\(name)=\(value); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Strict" + (overTLS(request) ? "; Secure" : "")
    }

    static func cookies(_ request: Request) -> [String: String] {
        var result: [String: String] = [:]
        for field in request.headers where field.name.canonicalName == "cookie" {
            for pair in field.value.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { continue }
                result[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return result
    }
}
