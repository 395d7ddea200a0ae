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
    /// The tiles that cover the frame at the zoom whose tiles show at most 256 pixels wide (so
    /// they are never blown up), each with its place in the frame.
    public func tiles(maxZoom: Int = 19) -> [(key: TileKey, x: Double, y: Double, size: Double)] {
        let world = 2 * Double.pi * scale  // the whole Mercator square, in frame pixels
        let zoom = max(0, min(maxZoom, Int((log2(world / 256)).rounded(.up))))
        let count = 1 << zoom
        let size = world / Double(count)
        let left = offsetX - Double.pi * scale  // the world square's corner in the frame
        let top = offsetY - Double.pi * scale
        func range(_ origin: Double, _ extent: Double) -> ClosedRange<Int>? {
            let first = max(0, Int(floor((0 - origin) / size)))
            let last = min(count - 1, Int(floor((extent - origin) / size)))
            return first <= last ? first...last : nil
        }
        guard let columns = range(left, width), let rows = range(top, height) else { return [] }
        return rows.flatMap { row in
            columns.map { column in
                (TileKey(z: zoom, x: column, y: row), left + Double(column) * size, top + Double(row) * size, size)
            }
        }
    }
}

enum MapTiles {
    /// The `<image>`s of the base map under a map drawn with `projection`; empty without tiles.
    static func layer(_ projection: MapProjection, fetcher: (any TileFetching)?) -> [[String: Any]] {
        guard let fetcher else { return [] }
        let placed = projection.tiles()
        let images = fetcher.images(placed.map(\.key))
        return placed.compactMap { tile in
            guard let image = images[tile.key] else { return nil }
            // Half a pixel more each way, so neighbouring tiles leave no hairline between them.
            return [
                "href": "data:\(image.mime);base64,\(image.data.base64EncodedString())",
                "x": HTML.number(tile.x - 0.25), "y": HTML.number(tile.y - 0.25),
                "size": HTML.number(tile.size + 0.5), "key": tile.key.description,
            ]
        }
    }
}
