import CPosix
import Foundation
import GPSCore
import Hummingbird
import Logging
import Pipeline
import ServiceLifecycle
import Synchronization
import TrackModel
import TrailbookKit

/// A phone's device: its account, id and name.
typealias PhoneDevice = (account: String, device: DeviceID, name: String)

/// `trailbook serve`: the HTTP server the phone apps and browsers talk to. A swift-service-
/// lifecycle service: the caller runs it under a ServiceGroup, whose SIGINT/SIGTERM stop it
/// gracefully (requests in flight finish).
public struct SharingServer: Service, CustomStringConvertible {
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        /// Behind a reverse proxy that sets them: `X-Forwarded-For` gives the client's address
        /// (for the login limits). Without it those headers are ignored.
        public var trustProxy: Bool
        /// How often the view cache is filled with the rides that changed (`maps.views_every`).
        public var viewsEvery: Duration
        public init(
            host: String = "127.0.0.1", port: Int = 8750, trustProxy: Bool = false, viewsEvery: Duration = .seconds(60)
        ) {
            self.host = host
            self.port = port
            self.trustProxy = trustProxy
            self.viewsEvery = viewsEvery
        }
    }

    let configuration: Configuration
    let store: any TrackStoring
    let logger: Logger
    let ingest: PhoneIngest
    /// Friends' new positions to the viewers' live streams.
    let feed: LiveFeed
    /// Passwords checked lately: an API client signing in on every request costs one bcrypt
    /// every few minutes.
    let verified = VerifiedPasswords()
    /// Whether the store is away, so that an outage is logged once when it starts and once when
    /// it ends.
    let outage = StoreOutage()
    /// Called with the port once the server listens (the given one, or the one the system
    /// chose for port 0).
    let onListening: @Sendable (Int) async -> Void

    /// The live map's base map (served to signed-in pages at `/tiles/{z}/{x}/{y}`); nil: plain.
    let tiles: TileFetcher?
    /// Makes the new SQLite store at a path that an account's archive (`/export/archive`) is
    /// copied into; nil: no archives.
    let archiveStore: (@Sendable (String) throws -> any StoreCopying)?
    /// The overlay's and the heat map's kept work, for every account.
    let views: KeptViews
    /// The kept timeline after the phones' batches.
    let upkeep: TimelineUpkeep

    /// `rules`: the collection rules the phones' points go through, as a receiver's do; `tiles`:
    /// the live map's base map.
    public init(
        configuration: Configuration, store: any TrackStoring, rules: PipelineConfiguration, logger: Logger,
        tiles: TileFetcher? = nil, archiveStore: (@Sendable (String) throws -> any StoreCopying)? = nil,
        views: KeptViews = KeptViews(), onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.views = views
        self.tiles = tiles
        self.archiveStore = archiveStore
        self.store = store
        self.logger = logger
        self.onListening = onListening
        ingest = PhoneIngest(store: store, configuration: rules, logger: logger)
        upkeep = TimelineUpkeep(store: store, rules: rules.visits, logger: logger)
        feed = LiveFeed(store: store, movingWithin: rules.events.movingWithin) { error in
            logger.warning("cannot read the newest positions for the live viewers: \(error)")
        }
    }

    /// The largest body read (a day of an app's backlog fits easily).
    static let maximumBody = 8 << 20

    /// The OpenAPI document of the JSON API and the phone endpoints.
    public static var openAPIDocument: String { OpenAPIDocument.json }

    /// The routes, as `METHOD /path/{parameter}`: what the OpenAPI document must describe.
    public var routes: [String] {
        router(allowing: []).routes.map { route in
            let path = route.path.description.split(separator: "/").map { part in
                part.hasPrefix(":") ? "{\(part.dropFirst())}" : String(part)
            }
            return "\(route.method) /" + path.joined(separator: "/")
        }
    }

    public var description: String { "SharingServer(\(configuration.host):\(configuration.port))" }

    /// The routes.
    func router() -> Router<ServerContext> {
        // The routes first, so that a known path asked with another method is 405, not 404.
        let known = router(allowing: []).routes.map { ($0.method.rawValue, $0.path.description) }
        return router(allowing: known)
    }

    /// The routes; `known` (method, path pattern) answers a path with the wrong method.
    func router(allowing known: [(String, String)]) -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: StoreOutageMiddleware(store: store, outage: outage))
        router.add(middleware: MethodNotAllowedMiddleware(routes: known))
        // Healthy when the store answers (a load balancer takes a process whose database is away
        // out of rotation: 503).
        let store = self.store
        router.get("/api/health") { _, _ -> Response in
            _ = try await store.read { try $0.pausedUntil() }
            return Self.json("{\"status\":\"ok\"}\n")
        }
        router.get("/api/openapi.json") { _, _ -> Response in
            Self.json(Self.openAPIDocument + "\n")
        }
        let accounts = AccountService(store: store, verified: verified)
        PhoneController(store: store, ingest: ingest, feed: feed, logger: logger, upkeep: upkeep).add(to: router)
        let login = Login(accounts: accounts, sessions: store, trustProxy: configuration.trustProxy)
        SharingController(store: store, feed: feed, login: login, movingWithin: ingest.rules.movingWithin).add(
            to: router)
        WebPages.add(
            to: router, store: store, login: login, tiles: tiles, rules: ingest.rules,
            zone: ingest.zone, pipeline: ingest.configuration, views: views)
        if let archiveStore, let source = store as? any StoreCopying {
            WebArchive(store: source, login: login, zone: ingest.zone, makeStore: archiveStore).add(
                to: router)
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
        // graceful shutdown (no second set of signal handlers). Live streams never end by
        // themselves, so they are ended first, or the requests in flight would never finish.
        let feed = self.feed
        // Positions and grant changes other server processes on the same database commit reach
        // this one's live viewers too (PostgreSQL's LISTEN/NOTIFY).
        let relay = (store as? any AnnouncingStore).map { announcing in
            Task {
                for await announcement in announcing.announcements() {
                    switch announcement {
                    case .positions(let account, let device): await feed.announced(owner: account, device: device)
                    case .grant(let viewer): await feed.close(viewer: viewer)
                    }
                }
            }
        }
        defer { relay?.cancel() }
        // Phones gone silent: device.offline, checked every 30 s (more often for a shorter rule).
        let ingest = self.ingest
        let every = max(0.25, min(30, ingest.offlineAfter / 4))
        let silence = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(Int(every * 1000)))
                do {
                    _ = try await ingest.findSilent()
                } catch {
                    logger.debug("cannot note silent devices now: \(error)")
                }
            }
        }
        defer { silence.cancel() }
        let warming = warm()
        defer { warming.cancel() }
        // The kept timeline a second after a phone's batch (docs/TIMELINE.md).
        let upkeep = self.upkeep
        let upkeeping = Task(executorPreference: Blocking.units, priority: .utility) { await upkeep.run() }
        defer { upkeeping.cancel() }
        try await withGracefulShutdownHandler {
            try await app.run()
        } onGracefulShutdown: {
            relay?.cancel()
            silence.cancel()
            warming.cancel()
            upkeeping.cancel()
            Task { await feed.closeAll() }
        }
        logger.info("stopped")
    }

    /// Files in the view cache what is not there yet of every account (``KeptViews/fill``, its
    /// reads in units of the store), in a background task, once the server runs and then every
    /// `viewsEvery` (the rides phones add to, `/import`, another process's `trailbook import`):
    /// on a store the cache has seen, a look at what is kept; the first time, every point read once. The first round is
    /// logged at info, later rounds' work at debug. Cancelled, it stops between rides.
    func warm() -> Task<Void, Never> {
        let (views, store, zone, logger) = (self.views, self.store, ingest.zone, self.logger)
        let rules = ingest.configuration.visits
        let every = configuration.viewsEvery
        // Its work between units (the overlay's lines simplified, the counts summed) on the offload
        // helper's threads, not on the few cooperative ones that answer requests.
        return Task(executorPreference: Blocking.units, priority: .background) {
            guard let cache = views.cache else { return }
            let stopped = Atomic(false)
            await withTaskCancellationHandler {
                var (first, failing) = (true, false)
                while !Task.isCancelled {
                    let started = ContinuousClock.now
                    do {
                        let done = try await views.fill(store: store, zone: zone, rules: rules) {
                            stopped.load(ordering: .relaxed)
                        }
                        let took = String(format: "%.1f", (ContinuousClock.now - started) / .seconds(1))
                        let (rides, parts) = (counted(done.rides, "ride"), counted(done.parts, "overlay part"))
                        if done.rides + done.parts + done.days > 0 {
                            let worked = "\(parts) and the figures of \(counted(done.days, "day"))"
                            logger.log(
                                level: first ? .info : .debug,
                                "view cache \(cache.path): \(rides) counted, \(worked) worked out in \(took) s")
                        } else if first {
                            logger.info("view cache \(cache.path): nothing new, the round took \(took) s")
                        }
                        failing = false
                    } catch {
                        // Said once while it lasts (a database that is away is said elsewhere too).
                        if !failing { logger.warning("the view cache \(cache.path) is not filled: \(error)") }
                        failing = true
                    }
                    first = false
                    // What the round read and freed on the store's and the helper's threads stays
                    // in their malloc arenas otherwise: a first round of a year at 1 Hz left the
                    // server 160 MB larger (docs/BENCHMARKS.md).
                    _ = tb_malloc_trim()
                    try? await Task.sleep(for: every)
                }
            } onCancel: {
                stopped.store(true, ordering: .relaxed)
            }
        }
    }
}

extension SharingServer {
    /// `value` as the server writes JSON (``ServerContext/encoder``).
    static func json(_ value: some Encodable) throws -> Response {
        json(String(decoding: try ServerContext.encoder.encode(value), as: UTF8.self))
    }

    static func json(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// `a=1&b=x%20y` as a dictionary, percent- and plus-decoded; the first of repeated keys.
    static func parameters(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decode(parts[0])
            if result[key] == nil { result[key] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return result
    }

    /// A form field's name or value: `+` is a space and `%XX` a byte of UTF-8; one that is not
    /// well formed (a stray `%`, bytes that are no UTF-8) is kept as it came. Foundation's
    /// `removingPercentEncoding` took 3 % of the server's time at 50 phones.
    static func decode(_ text: Substring) -> String {
        let utf8 = text.utf8
        guard utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else { return String(text) }
        func hex(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var i = utf8.startIndex
        while i != utf8.endIndex {
            let c = utf8[i]
            if c == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if c == UInt8(ascii: "%") {
                let h = utf8.index(after: i)
                guard h != utf8.endIndex, let high = hex(utf8[h]) else { return String(text) }
                let l = utf8.index(after: h)
                guard l != utf8.endIndex, let low = hex(utf8[l]) else { return String(text) }
                bytes.append(high << 4 | low)
                i = l
            } else {
                bytes.append(c)
            }
            i = utf8.index(after: i)
        }
        return String(validating: bytes, as: UTF8.self) ?? String(text)
    }
}

/// A path the server has, asked with a method it does not take: 405 with `Allow`, not 404.
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Method and path pattern (`/api/grants/:user`) of each route.
    let routes: [(method: String, path: [Substring])]

    init(routes: [(String, String)]) {
        self.routes = routes.map { ($0.0, $0.1.split(separator: "/")) }
    }

    /// The methods the routes whose pattern matches `path` take.
    func methods(for path: String) -> [String] {
        let parts = path.split(separator: "/")
        return routes.filter { route in
            route.path.count == parts.count
                && zip(route.path, parts).allSatisfy { pattern, part in pattern.hasPrefix(":") || pattern == part }
        }.map(\.method)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = methods(for: request.uri.path)
            if allowed.isEmpty && error.body == nil {
                throw Refusal.noSuchPath(request.uri.path)
            }
            guard !allowed.isEmpty, !allowed.contains(request.method.rawValue) else { throw error }
            throw Refusal.methodNotAllowed(request.uri.path, allowed: allowed)
        }
    }
}

/// The store's state as the requests find it: away (the database does not answer) or not.
final class StoreOutage: Sendable {
    private let down = Mutex(false)

    /// Records what a request found; returns whether that is a change.
    func found(away: Bool) -> Bool {
        down.withLock { down in
            defer { down = away }
            return down != away
        }
    }
}

/// A request the store could not serve because the database is away (or busy past the wait)
/// is answered 503 with Retry-After, which the phone apps take as "send it again later"; nothing
/// of it was acknowledged, so nothing is lost. The outage is logged once as it starts and once
/// as it ends.
struct StoreOutageMiddleware<Context: RequestContext>: RouterMiddleware {
    let store: any TrackStoring
    let outage: StoreOutage

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            let response = try await next(request, context)
            // Only answers that needed the store say it is back (not the OpenAPI document).
            if response.status.code < 300, request.uri.path != "/api/openapi.json", outage.found(away: false) {
                context.logger.info("the store answers again")
            }
            return response
        } catch let error where store.isUnavailable(error) || store.isBusy(error) {
            if outage.found(away: true) {
                context.logger.error("the store does not answer; requests get 503 until it does: \(error)")
            }
            throw Refusal.storeAway
        }
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
