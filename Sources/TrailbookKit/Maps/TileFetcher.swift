import Crypto
import Foundation
import GPSCore
import GRDB
import Reports
import Synchronization

/// Why a tile source cannot be used, as one sentence.
public enum TileSourceError: ServiceFailure, Equatable {
    case badTemplate(String)
    case noMBTiles(String, reason: String)

    public var kind: FailureKind {
        switch self {
        case .badTemplate: .badRequest
        case .noMBTiles: .missingInput
        }
    }

    public var description: String {
        switch self {
        case .badTemplate(let text):
            "\"\(text)\" is not a tile source: give an http(s) URL with {z}, {x} and {y} (and {s} for a, b, c), or mbtiles:FILE"
        case .noMBTiles(let path, let reason):
            "cannot read the MBTiles file \(path) (\(reason)): give an SQLite file with a tiles table"
        }
    }
}

/// Where tiles come from: a tile server's URL template, or an MBTiles file (offline).
public enum TileSource: Sendable, Equatable {
    case url(String)
    case mbtiles(String)

    /// OpenStreetMap's standard layer (`osm` in the config and `--tiles`), at the one URL its tile
    /// usage policy gives, https://operations.osmfoundation.org/policies/tiles/.
    public static let openStreetMap = TileSource.url("https://tile.openstreetmap.org/{z}/{x}/{y}.png")

    /// `text`: a URL template, `mbtiles:FILE`, or `osm`.
    public init(_ text: String) throws {
        if text == "osm" {
            self = Self.openStreetMap
            return
        }
        if text.hasPrefix("mbtiles:") {
            let path = String(text.dropFirst("mbtiles:".count))
            guard !path.isEmpty else { throw TileSourceError.badTemplate(text) }
            self = .mbtiles(path)
            return
        }
        guard
            let scheme = URL(
                string: text.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: ""))?.scheme,
            ["http", "https"].contains(scheme.lowercased()),
            ["{z}", "{x}", "{y}"].allSatisfy(text.contains)
        else { throw TileSourceError.badTemplate(text) }
        self = .url(text)
    }

    /// The URL of one tile; `{s}` takes a, b or c by the tile, so a map spreads over them.
    func url(_ key: TileKey) -> URL? {
        guard case .url(let template) = self else { return nil }
        let subdomain = ["a", "b", "c"][(key.x + key.y) % 3]
        return URL(
            string: template.replacingOccurrences(of: "{z}", with: "\(key.z)")
                .replacingOccurrences(of: "{x}", with: "\(key.x)").replacingOccurrences(of: "{y}", with: "\(key.y)")
                .replacingOccurrences(of: "{s}", with: subdomain))
    }
}

/// Gets a report's tiles: from an MBTiles file, or from a tile server through a disk cache that
/// keeps each tile as long as the server's `Cache-Control: max-age` or `Expires` says (a week
/// when it says nothing), asks again with the tile's `ETag` after that, sends a real
/// User-Agent, uses at most two connections and never more than ``maximumPerMap`` tiles for a map.
/// A tile it cannot get is left out (blank) and counted in ``failures``.
public final class TileFetcher: TileFetching, Sendable {
    public let source: TileSource
    public let attribution: String
    let cache: String
    let cacheLimit: Int
    let timeout: Double
    /// The credit OpenStreetMap's licence asks for under its maps.
    public static let openStreetMapCredit = "© OpenStreetMap contributors"
    public static let userAgent = "Trailbook/1.0 (self-hosted GPS diary; +https://github.com/trailbook)"
    /// A map shows at most this many tiles (120 covering it, 200 deeper along its routes): a
    /// bound on what one report asks of a server.
    public static let maximumPerMap = 320
    /// How long a tile is kept when the server does not say (seconds).
    static let defaultLifetime: Double = 7 * 86_400
    /// How long a tile is kept at least, whatever the server says (seconds): a week for
    /// OpenStreetMap's tiles, as its usage policy asked; 0 for the others.
    let minimumLifetime: Double

    /// How many requests to the tile server are under way: at most two at once.
    private let connections = Guarded(0)

    /// The tiles that could not be had, and the requests sent.
    private let tally = Mutex<(failed: [String], requested: Int)>(([], 0))

    /// `cache`: the folder (default `$XDG_CACHE_HOME/trailbook/tiles`); `cacheMegabytes`: its bound.
    public init(
        source: TileSource, attribution: String, cache: String? = nil, cacheMegabytes: Int = 256, timeout: Double = 10,
        environment: [String: String] = Console.current.environment
    ) throws {
        self.source = source
        self.attribution = attribution
        self.cache = cache ?? UserDirectories.cache(environment) + "/trailbook/tiles"
        cacheLimit = cacheMegabytes * 1_048_576
        self.timeout = timeout
        minimumLifetime = source == .openStreetMap ? Self.defaultLifetime : 0
        if case .mbtiles(let path) = source {
            do {
                _ = try Self.openMBTiles(path)
            } catch let error as TileSourceError {
                throw error
            } catch { throw TileSourceError.noMBTiles(path, reason: "\(error)") }
        }
    }

    /// The fetcher of a configured base map: `source` is a URL template, `mbtiles:FILE` or `osm`
    /// (OpenStreetMap, credited as its licence asks unless `attribution` says otherwise); nil or
    /// `none` is the plain map (nil).
    public static func configured(
        _ source: String?, attribution: String?, cacheMegabytes: Int
    ) throws(TileSourceError) -> TileFetcher? {
        guard let source, source != "none" else { return nil }
        do {
            let tiles = try TileSource(source)
            let credit = attribution ?? (tiles == .openStreetMap ? Self.openStreetMapCredit : "")
            return try TileFetcher(source: tiles, attribution: credit, cacheMegabytes: cacheMegabytes)
        } catch let error as TileSourceError {
            throw error
        } catch { throw TileSourceError.noMBTiles(source, reason: "\(error)") }
    }

    /// Tiles that could not be had, with why, one entry per tile (for the report's warning).
    public var failures: [String] { tally.withLock { $0.failed } }
    /// Requests sent to the tile server (cache hits and MBTiles reads are not requests).
    public var requests: Int { tally.withLock { $0.requested } }

    public func images(_ keys: [TileKey]) -> [TileKey: TileImage] {
        let wanted = Array(keys.prefix(Self.maximumPerMap))
        switch source {
        case .mbtiles(let path): return mbtiles(path, wanted)
        case .url: return fetch(wanted)
        }
    }

    /// The tiles of `keys` there are without asking a tile server: an MBTiles file's, or a tile
    /// server's kept in the cache (stale ones too). What a missing tile is drawn from.
    public func stored(_ keys: [TileKey]) -> [TileKey: TileImage] {
        switch source {
        case .mbtiles(let path): return mbtiles(path, keys)
        case .url:
            let folder = folder()
            var found: [TileKey: TileImage] = [:]
            for key in keys {
                guard let data = FileManager.default.contents(atPath: "\(folder)/\(key.z)/\(key.x)/\(key.y)"),
                    let mime = TileImage.mime(of: data)
                else { continue }
                found[key] = TileImage(data: data, mime: mime)
            }
            return found
        }
    }

    // MARK: MBTiles

    static func openMBTiles(_ path: String) throws -> DatabaseQueue {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw TileSourceError.noMBTiles(path, reason: "no such file")
        }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM tiles") }
        return queue
    }

    private func mbtiles(_ path: String, _ keys: [TileKey]) -> [TileKey: TileImage] {
        var found: [TileKey: TileImage] = [:]
        do {
            let queue = try Self.openMBTiles(path)
            try queue.read { db in
                for key in keys {
                    // MBTiles numbers rows from the south (TMS).
                    let row = (1 << key.z) - 1 - key.y
                    let data = try Data.fetchOne(
                        db,
                        sql: "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                        arguments: [key.z, key.x, row])
                    if let data, let mime = TileImage.mime(of: data) {
                        found[key] = TileImage(data: data, mime: mime)
                    } else {
                        note("\(key): not in \(path)")
                    }
                }
            }
        } catch {
            for key in keys where found[key] == nil { note("\(key): \(error)") }
        }
        return found
    }

    private func note(_ failure: String) { tally.withLock { $0.failed.append(failure) } }

    // MARK: a tile server, through the cache

    struct Meta: Codable {
        var expires: Double
        var etag: String?
        var lastModified: String?
    }

    func folder() -> String {
        guard case .url(let template) = source else { return cache }
        let digest = SHA256.hash(data: Data(template.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
        return cache + "/" + digest
    }

    private func fetch(_ keys: [TileKey]) -> [TileKey: TileImage] {
        let folder = folder()
        var found: [TileKey: TileImage] = [:]
        var queue: [(TileKey, Meta?, Data?)] = []
        let now = Date().timeIntervalSince1970
        for key in keys {
            let file = "\(folder)/\(key.z)/\(key.x)/\(key.y)"
            let data = FileManager.default.contents(atPath: file)
            let meta = FileManager.default.contents(atPath: file + ".json").flatMap {
                try? JSONDecoder().decode(Meta.self, from: $0)
            }
            if let data, let meta, meta.expires > now, let mime = TileImage.mime(of: data) {
                found[key] = TileImage(data: data, mime: mime)
                // Used now: the cache's bound drops the tiles used longest ago first.
                try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file)
            } else {
                queue.append((key, meta, data))
            }
        }
        guard !queue.isEmpty else { return found }
        let work = WorkList(queue)
        // Two workers, this thread and one more: at most two connections to the server.
        let drain: @Sendable () -> Void = {
            while let (key, meta, stale) = work.next() {
                if let image = self.get(key, meta: meta, stale: stale, folder: folder) { work.found(key, image) }
            }
        }
        let other = Guarded(false)
        if queue.count > 1 {
            Blocking.start("trailbook tiles") {
                drain()
                other.withLock { $0 = true }
            }
        } else {
            other.withLock { $0 = true }
        }
        drain()
        other.wait(until: { $0 }) { _ in }
        prune()
        return found.merging(work.results) { $1 }
    }

    /// The tiles still to ask for, handed out one at a time, and what came back.
    final class WorkList: Sendable {
        private let items: [(TileKey, Meta?, Data?)]
        private let state = Mutex<(index: Int, images: [TileKey: TileImage])>((0, [:]))

        init(_ items: [(TileKey, Meta?, Data?)]) { self.items = items }

        func next() -> (TileKey, Meta?, Data?)? {
            state.withLock { state in
                defer { state.index += 1 }
                return state.index < items.count ? items[state.index] : nil
            }
        }

        func found(_ key: TileKey, _ image: TileImage) { state.withLock { $0.images[key] = image } }

        var results: [TileKey: TileImage] { state.withLock { $0.images } }
    }

    /// One tile from the server (a 304 keeps the cached bytes), stored in the cache.
    private func get(_ key: TileKey, meta: Meta?, stale: Data?, folder: String) -> TileImage? {
        guard let url = source.url(key) else { return nil }
        var headers = [("User-Agent", Self.userAgent)]
        if stale != nil, let etag = meta?.etag { headers.append(("If-None-Match", etag)) }
        if stale != nil, let modified = meta?.lastModified { headers.append(("If-Modified-Since", modified)) }
        tally.withLock { $0.requested += 1 }
        let http: HTTPExchange.Answer
        // Two at a time for the whole fetcher, however many callers ask at once (the server's
        // map pages ask for a tile per request).
        connections.wait(until: { $0 < 2 }) { $0 += 1 }
        defer { connections.withLock { $0 -= 1 } }
        do {
            http = try HTTPExchange("GET", url, headers: headers, timeout: timeout).send()
        } catch {
            if error.kind == .timedOut {
                note("\(key): no answer from \(url.host ?? "the server") in \(Int(timeout)) s")
            } else {
                note("\(key): \(error)")
            }
            return nil
        }
        var bytes = http.body
        if http.status == 304, let stale {
            bytes = stale
        } else if http.status != 200 {
            note("\(key): HTTP \(http.status)")
            return nil
        }
        guard let mime = TileImage.mime(of: bytes) else {
            note("\(key): not an image")
            return nil
        }
        let file = "\(folder)/\(key.z)/\(key.x)/\(key.y)"
        func header(_ name: String) -> String? { http.header(name) }
        let meta = Meta(
            expires: max(
                Self.expiry(cacheControl: header("Cache-Control"), expires: header("Expires")),
                Date().timeIntervalSince1970 + minimumLifetime),
            etag: header("ETag") ?? meta?.etag, lastModified: header("Last-Modified") ?? meta?.lastModified)
        try? FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? bytes.write(to: URL(fileURLWithPath: file), options: .atomic)
        try? JSONEncoder().encode(meta).write(to: URL(fileURLWithPath: file + ".json"), options: .atomic)
        return TileImage(data: bytes, mime: mime)
    }

    /// When a tile fetched now goes stale: `max-age` first, then `Expires`, else a week;
    /// `no-cache` and `no-store`: at once (asked again, with its ETag, next time).
    static func expiry(cacheControl: String?, expires: String?, now: Double = Date().timeIntervalSince1970) -> Double {
        if let control = cacheControl?.lowercased() {
            if control.contains("no-store") || control.contains("no-cache") { return now }
            if let range = control.range(of: #"max-age=\d+"#, options: .regularExpression),
                let seconds = Double(control[range].dropFirst("max-age=".count))
            {
                return now + seconds
            }
        }
        if let expires {
            let format = DateFormatter()
            format.locale = Locale(identifier: "en_US_POSIX")
            format.timeZone = TimeZone(identifier: "GMT")
            format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
            if let date = format.date(from: expires) { return date.timeIntervalSince1970 }
        }
        return now + defaultLifetime
    }

    /// Keeps the cache under its bound: the tiles used longest ago go first.
    func prune() {
        guard let walker = FileManager.default.enumerator(atPath: cache) else { return }
        var files: [(path: String, size: Int, used: Date)] = []
        var total = 0
        while let name = walker.nextObject() as? String {
            let path = cache + "/" + name
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { continue }
            let size = (attributes[.size] as? Int) ?? 0
            total += size
            files.append((path, size, (attributes[.modificationDate] as? Date) ?? .distantPast))
        }
        guard total > cacheLimit else { return }
        for file in files.sorted(by: { $0.used < $1.used }) where total > cacheLimit {
            try? FileManager.default.removeItem(atPath: file.path)
            total -= file.size
        }
    }
}
