import ArgumentParser
import Foundation
import GPSCore
import Logging
import ServiceLifecycle
import StorePostgres
import TrackStore
import TrailbookKit
import TrailbookServer

/// `trailbook serve`: the sharing server.
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the sharing server (HTTP, for a TLS reverse proxy in front of it).",
        discussion: """
            Listens on --listen HOST:PORT (default 127.0.0.1:8750; port 0 picks a free one and logs it). \
            GET /api/health answers 200 {"status":"ok"} (503 while the store does not answer). Logs a \
            line at start and stop (info) and one per request (debug). SIGTERM or SIGINT stops it \
            gracefully: requests in flight finish. Put it behind a TLS reverse proxy (README). The \
            JSON API and the phone endpoints are described by the OpenAPI document at \
            GET /api/openapi.json (--openapi prints it).

            With --store postgresql://USER@HOST:PORT/DATABASE, several serve processes can share one \
            database: live positions, pauses, sessions and login limits reach every process. While \
            the database is away, requests that need it get 503 with Retry-After (the phone apps \
            send again); the outage is logged once as it starts and once as it ends.
            """)

    @Option(help: ArgumentHelp("Where to listen.", valueName: "host:port"))
    var listen = "127.0.0.1:8750"

    @Flag(
        help: """
            Behind a reverse proxy that sets X-Forwarded-For (README): take the client's address from it for the login limits. Without this flag the header is ignored.
            """)
    var trustProxy = false

    @Option(help: "Log detail on standard error: trace, debug, info, notice, warning, error or critical.")
    var logLevel: GlobalOptions.LogLevel = .info

    @Flag(help: "Print the OpenAPI document of the API (as GET /api/openapi.json serves it) and exit.")
    var openapi = false

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var configOptions: ConfigOptions

    func validate() throws {
        guard Self.address(listen) != nil else {
            throw ValidationError("--listen takes HOST:PORT with a port from 0 to 65535, e.g. 127.0.0.1:8750.")
        }
    }

    /// `127.0.0.1:8750`, `[::1]:8750`, `localhost:0`.
    static func address(_ text: String) -> (host: String, port: Int)? {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (0...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.isEmpty ? nil : (host, port)
    }

    func run() async throws {
        if openapi { return print(SharingServer.openAPIDocument) }
        let logger = Logger.console(label: "trailbook.serve", level: logLevel.level)
        // Opening (and migrating) the store blocks: on a thread of its own, not a cooperative one.
        let storeOptions = self.storeOptions
        let store = try await storeOptions.openedOrCreated()
        let (host, port) = Self.address(listen)!
        let config = try configOptions.load()
        let rules = config.pipeline
        // Unset: OpenStreetMap's standard layer, fetched and cached by this server ("none": none).
        let tiles: TileFetcher?
        do {
            tiles = try TileFetcher.configured(
                config.mapTiles ?? "osm", attribution: config.mapAttribution, cacheMegabytes: config.mapCacheMegabytes)
        } catch {
            throw CommandFailure(message: "maps.tiles in the config: \(error).", code: .config)
        }
        // The overlay's and the heat map's work outlives the server in the cache folder; a cache
        // that cannot be opened costs only time.
        let cachePath = ViewCache.path(store: storeOptions.path)
        var views = KeptViews()
        do {
            views = KeptViews(cache: try ViewCache(path: cachePath))
        } catch {
            logger.warning("the view cache \(cachePath) cannot be opened (\(error)): views are kept in memory only")
        }
        let server = SharingServer(
            configuration: .init(
                host: host, port: port, trustProxy: trustProxy, viewsEvery: .seconds(config.mapViewsEvery)),
            store: store, rules: rules,
            logger: logger, tiles: tiles, archiveStore: { try TrackStore(path: $0) }, views: views)
        // The accounts' alerts go out while the server runs; it stops after the server.
        let notifier = NotifierService(
            notifier: Notifier(store: store, settings: rules.alerts, logger: logger), tasks: nil)
        // The store is the group's first service, so the last stopped: a PostgreSQL store's
        // connections close once the server and the notifier have finished.
        var services: [any Service] = [notifier, server]
        if let store = store as? PostgresStore { services.insert(store.service, at: 0) }
        try await ServiceRunner.run(services, logger: logger)
    }
}
