import Foundation
import Hummingbird

/// The request context of `trailbook serve`: Hummingbird's, plus the connecting peer's address.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The IP address of the peer (the reverse proxy's, behind one).
    let peer: String?

    /// Answers are written with ``encoder`` (sorted keys).
    var responseEncoder: JSONEncoder { Self.encoder }

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peer = source.channel.remoteAddress?.ipAddress
    }

    /// The client's address: the peer's, or — only when the proxy is trusted — the last
    /// address of `X-Forwarded-For` (the one the proxy itself added; earlier ones come from the
    /// client and prove nothing).
    func client(_ request: Request, trustProxy: Bool) -> String {
        if trustProxy,
            let forwarded = request.headers.last(where: { $0.name.canonicalName == "x-forwarded-for" })?.value,
            let last = forwarded.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !last.isEmpty
        {
            return last
        }
        return peer ?? "unknown"
    }
}
