import Foundation

/// One square of a base map: zoom, column, row (XYZ, as slippy-map URLs number them).
public struct TileKey: Hashable, Sendable, CustomStringConvertible {
    public var z: Int
    public var x: Int
    public var y: Int

    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    public var description: String { "\(z)/\(x)/\(y)" }
}

/// A tile's bytes and their media type.
public struct TileImage: Sendable, Equatable {
    public var data: Data
    public var mime: String

    public init(data: Data, mime: String) {
        self.data = data
        self.mime = mime
    }

    /// The media type of PNG, JPEG or WebP bytes; nil for anything else.
    public static func mime(of data: Data) -> String? {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return "image/png" }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
        if bytes.count >= 12, bytes.starts(with: [0x52, 0x49, 0x46, 0x46]),
            Array(bytes[8..<12]) == [0x57, 0x45, 0x42, 0x50]
        {
            return "image/webp"
        }
        return nil
    }
}

/// Where a report's base map comes from: it is asked once per map for the tiles the map shows,
/// at report time, and the page embeds what it gives (a tile it lacks stays blank).
public protocol TileFetching: Sendable {
    /// Shown on the map, as the tile provider asks.
    var attribution: String { get }
    func images(_ keys: [TileKey]) -> [TileKey: TileImage]
}

extension MapProjection {
    /// The zoom whose tiles show at most 256 pixels wide in the frame (so they are never blown up).
    func baseZoom(maxZoom: Int = 19) -> Int {
        let world = 2 * Double.pi * scale  // the whole Mercator square, in frame pixels
        return max(0, min(maxZoom, Int((log2(world / 256)).rounded(.up))))
    }

    /// The tiles that cover the frame at the zoom whose tiles show at most 256 pixels wide (so
    /// they are never blown up), each with its place in the frame.
    public func tiles(maxZoom: Int = 19) -> [(key: TileKey, x: Double, y: Double, size: Double)] {
        let grid = TileGrid(self, zoom: baseZoom(maxZoom: maxZoom))
        guard let columns = grid.range(grid.left, width), let rows = grid.range(grid.top, height) else { return [] }
        return rows.flatMap { row in columns.map { column in grid.place(column, row) } }
    }

    /// The tiles of `zoom` that the lines (frame pixels) pass through, with those `ring` tiles
    /// around each, inside the frame, by row then column: the sharper tiles a zoomed-in page shows
    /// along a route.
    public func tiles(zoom: Int, along lines: [[(x: Double, y: Double)]], ring: Int = 1) -> [(
        key: TileKey, x: Double, y: Double, size: Double
    )] {
        let grid = TileGrid(self, zoom: zoom)
        guard let columns = grid.range(grid.left, width), let rows = grid.range(grid.top, height) else { return [] }
        var passed = Set<Int>()  // row * count + column
        func add(_ x: Double, _ y: Double) {
            let column = Int(floor((x - grid.left) / grid.size))
            let row = Int(floor((y - grid.top) / grid.size))
            guard (0..<grid.count).contains(column), (0..<grid.count).contains(row) else { return }
            passed.insert(row * grid.count + column)
        }
        for line in lines {
            guard var previous = line.first else { continue }
            add(previous.x, previous.y)
            for p in line.dropFirst() {
                // Samples half a tile apart, so a long straight step crosses no tile unseen.
                let steps = Int((hypot(p.x - previous.x, p.y - previous.y) / (grid.size / 2)).rounded(.up))
                if steps > 1 {
                    for i in 1..<steps {
                        let f = Double(i) / Double(steps)
                        add(previous.x + (p.x - previous.x) * f, previous.y + (p.y - previous.y) * f)
                    }
                }
                add(p.x, p.y)
                previous = p
            }
        }
        var near = Set<Int>()
        for cell in passed {
            let row = cell / grid.count
            let column = cell % grid.count
            for r in (row - ring)...(row + ring) where rows.contains(r) {
                for c in (column - ring)...(column + ring) where columns.contains(c) { near.insert(r * grid.count + c) }
            }
        }
        return near.sorted().map { grid.place($0 % grid.count, $0 / grid.count) }
    }
}

/// The tiles of one zoom laid over a projection's frame.
private struct TileGrid {
    let zoom: Int
    let count: Int
    /// A tile's width in frame pixels.
    let size: Double
    /// The world square's corner in the frame.
    let left: Double
    let top: Double

    init(_ projection: MapProjection, zoom: Int) {
        let world = 2 * Double.pi * projection.scale
        self.zoom = zoom
        count = 1 << zoom
        size = world / Double(count)
        left = projection.offsetX - Double.pi * projection.scale
        top = projection.offsetY - Double.pi * projection.scale
    }

    /// The columns (or rows) from the world's `origin` that fall in a frame `extent` long.
    func range(_ origin: Double, _ extent: Double) -> ClosedRange<Int>? {
        let first = max(0, Int(floor((0 - origin) / size)))
        let last = min(count - 1, Int(floor((extent - origin) / size)))
        return first <= last ? first...last : nil
    }

    func place(_ column: Int, _ row: Int) -> (key: TileKey, x: Double, y: Double, size: Double) {
        (TileKey(z: zoom, x: column, y: row), left + Double(column) * size, top + Double(row) * size, size)
    }
}

enum MapTiles {
    /// At most this many tiles of the deeper levels a map (all levels together).
    static let detailBudget = 200

    /// The base map under a map drawn with `projection`, level by level (empty without tiles):
    /// level 0 covers the frame at the zoom drawn at most 256 px; level k (up to `levels`) is
    /// zoom + k along the `lines` (frame pixels), for when the page is zoomed in k times. A
    /// level that would pass ``detailBudget`` with the ones before it is left out, and the
    /// deeper ones with it. With `link` (a path such as `/tiles/`), the tiles are not fetched:
    /// each links `link` + `z/x/y`, for a served page whose browser asks the server for them.
    static func layers(
        _ projection: MapProjection, along lines: [[(x: Double, y: Double)]], fetcher: (any TileFetching)?,
        levels: Int, link: String? = nil
    ) -> [Level] {
        guard fetcher != nil || link != nil else { return [] }
        let base = projection.tiles()
        guard let zoom = base.first?.key.z else { return [] }
        var wanted = [base]
        var budget = detailBudget
        for level in stride(from: 1, through: levels, by: 1) where zoom + level <= 19 {
            let detail = projection.tiles(zoom: zoom + level, along: lines, ring: level == 1 ? 1 : 0)
            guard detail.count <= budget else { break }
            budget -= detail.count
            wanted.append(detail)
        }
        let images = link == nil ? fetcher?.images(wanted.flatMap { $0.map(\.key) }) ?? [:] : [:]
        return wanted.enumerated().map { level, tiles in
            Level(
                level: level,
                tiles: tiles.compactMap { tile -> Level.Tile? in
                    let href: String
                    if let link {
                        href = link + tile.key.description
                    } else if let image = images[tile.key] {
                        href = "data:\(image.mime);base64,\(image.data.base64EncodedString())"
                    } else {
                        return nil
                    }
                    // A quarter pixel more each way (as the level is drawn), so neighbouring tiles leave no
                    // hairline between them; a decimal more a level, as the page magnifies it.
                    let overlap = 0.25 / Double(1 << level)
                    return Level.Tile(
                        href: href, x: HTML.number(tile.x - overlap, decimals: 1 + level),
                        y: HTML.number(tile.y - overlap, decimals: 1 + level),
                        size: HTML.number(tile.size + 2 * overlap, decimals: 1 + level), key: tile.key.description)
                })
        }
    }

    /// One level of a map's base map, as the `tiles` partial reads it: its tiles placed in the
    /// map's frame.
    struct Level: Encodable {
        struct Tile: Encodable {
            var href: String
            var x: String
            var y: String
            var size: String
            var key: String
        }
        var level: Int
        var tiles: [Tile]
    }
}
