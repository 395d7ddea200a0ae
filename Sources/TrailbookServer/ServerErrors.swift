import Hummingbird
import TrackModel
import TrailbookKit

// What the server answers when a request fails, in one place: the server's counterpart to the
// commands' `Failure+Exit.swift`. Every refusal is an error that renders itself
// (`HTTPResponseError`) as `{"error": {"message": SENTENCE}}` with its status and headers, so a
// route only throws; the services' own errors say here which status they are.

/// A request refused with a status, a sentence saying what to do, and headers.
struct Refusal: HTTPResponseError {
    let status: HTTPResponse.Status
    let message: String
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        (self.status, self.message, self.headers) = (status, message, headers)
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try HTTPError(status, headers: headers, message: message).response(from: request, context: context)
    }

    /// A device token that is not known (wrong, revoked, or another account's): which part was
    /// wrong is not said.
    static let unknownDevice = Refusal(.unauthorized, "Wrong or revoked device token.")
    /// A body that is not JSON, or not the object the route takes.
    static let notAnObject = Refusal(.badRequest, "The body is not a JSON object.")
    /// Too many failed sign-ins of the account, or from the address (``LoginThrottle``).
    static let tooManyLogins = Refusal(.tooManyRequests, "Too many failed logins; wait a quarter of an hour.")
    /// A wrong user name or password; `challenge` asks an API client for Basic credentials.
    static func wrongPassword(challenge: Bool) -> Refusal {
        Refusal(.unauthorized, "Wrong user name or password.", headers: challenge ? basicChallenge : [:])
    }
    /// An API request that is not signed in.
    static let signIn = Refusal(
        .unauthorized, "Sign in: Basic USER:PASSWORD, or the session cookie of the web page.", headers: basicChallenge)
    static let basicChallenge: HTTPFields = [.wwwAuthenticate: "Basic realm=\"trailbook\""]
    /// A page's request whose session has ended (signed out, expired, or the account removed).
    static let sessionEnded = Refusal(.unauthorized, "The session has ended; sign in again.")
    /// A map tile outside the world, or one the tile source does not have.
    static let noTile = Refusal(.notFound, "There is no such tile.")
    /// A change sent with the session cookie but without the page's CSRF token.
    static let missingCSRF = Refusal(.forbidden, "Send the page's CSRF token in X-CSRF-Token.")
    /// A page's form whose CSRF token is not the session's.
    static let staleForm = Refusal(.forbidden, "The form is out of date; reload the page and try again.")
    /// A path the server does not have: a JSON error like every other, not an empty body.
    static func noSuchPath(_ path: String) -> Refusal {
        Refusal(.notFound, "There is no \(path) here; GET /api/openapi.json describes the server's paths.")
    }
    /// A path asked with a method it does not take.
    static func methodNotAllowed(_ path: String, allowed: [String]) -> Refusal {
        let methods = allowed.joined(separator: ", ")
        return Refusal(.methodNotAllowed, "\(path) takes \(methods).", headers: [.allow: methods])
    }
    /// The store's database away, or busy past the wait: the phones send it again later.
    static let storeAway = Refusal(
        .serviceUnavailable, "The store does not answer for now; send it again later.", headers: [.retryAfter: "5"])
}

extension SharingError: HTTPResponseError {
    public var status: HTTPResponse.Status {
        switch self {
        case .throttled: .tooManyRequests
        case .noGrant, .noHistory: .notFound
        case .badScopes: .badRequest
        case .unknownCode, .ownCode: .unprocessableContent
        }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try Refusal(status, description).response(from: request, context: context)
    }
}

/// A phone's batch for a device revoked since its token was read (through another `serve`
/// process, say): the answer to a revoked token.
extension DeviceRevoked: HTTPResponseError {
    public var status: HTTPResponse.Status { Refusal.unknownDevice.status }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try Refusal.unknownDevice.response(from: request, context: context)
    }
}

/// Points a phone sent that the rules refuse as a whole (a device's clock far off, say).
extension IngestError: HTTPResponseError {
    public var status: HTTPResponse.Status { .unprocessableContent }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        try Refusal(status, description).response(from: request, context: context)
    }
}

/// A phone's request that does not hold what its app sends.
extension PhoneProtocols.Malformed: HTTPResponseError {
    var status: HTTPResponse.Status { .badRequest }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try Refusal(status, description).response(from: request, context: context)
    }
}
