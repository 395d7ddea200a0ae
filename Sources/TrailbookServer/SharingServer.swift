import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import TrackModel

/// `trailbook serve`: the HTTP server the phone apps and browsers talk to. A swift-service-
/// lifecycle service: the caller runs it under a ServiceGroup, whose SIGINT/SIGTERM stop it
/// gracefully (requests in flight finish).
public struct SharingServer: Service, CustomStringConvertible {
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        public init(host: String = "127.0.0.1", port: Int = 8750) {
            self.host = host
            self.port = port
        }
    }

    let configuration: Configuration
    let store: any TrackStoring
    let logger: Logger
    /// Called with the port once the server listens (the given one, or the one the system
    /// chose for port 0).
    let onListening: @Sendable (Int) async -> Void

    public init(
        configuration: Configuration, store: any TrackStoring, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.store = store
        self.logger = logger
        self.onListening = onListening
    }

    public var description: String { "SharingServer(\(configuration.host):\(configuration.port))" }

    /// The routes.
    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: RequestLogMiddleware())
        router.get("/api/health") { _, _ -> Response in
            Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: "{\"status\":\"ok\"}\n")))
        }
        return router
    }

    public func run() async throws {
        let logger = self.logger
        let onListening = self.onListening
        let host = configuration.host
        let app = Application(
            router: router(),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                logger.info("listening on http://\(host):\(port)")
                await onListening(port)
            },
            logger: logger)
        // Under the caller's ServiceGroup: its SIGINT/SIGTERM reach the application as a
        // graceful shutdown (no second set of signal handlers).
        try await app.run()
        logger.info("stopped")
    }
}

/// One line per request at debug level: method, path, status.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            let response = try await next(request, context)
            context.logger.debug("\(request.method) \(request.uri.path) \(response.status.code)")
            return response
        } catch let error as any HTTPResponseError {
            context.logger.debug("\(request.method) \(request.uri.path) \(error.status.code)")
            throw error
        }
    }
}
