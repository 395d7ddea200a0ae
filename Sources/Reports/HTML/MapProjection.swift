import Foundation
import GPSCore

/// Web Mercator, fitted to a bounding box inside a width × height frame with a margin, north up.
public struct MapProjection: Sendable {
    public let width: Double
    public let height: Double
    let scale: Double
    let offsetX: Double
    let offsetY: Double
    /// Metres per pixel at the centre latitude (for the scale bar).
    public let metresPerPixel: Double

    static func mercator(_ c: Coordinate) -> (x: Double, y: Double) {
        let lat = max(-85.05, min(85.05, c.latitude)) * .pi / 180
        return (c.longitude * .pi / 180, log(tan(.pi / 4 + lat / 2)))
    }

    public init(fitting coordinates: [Coordinate], width: Double, height: Double, margin: Double = 30) {
        self.width = width
        self.height = height
        let projected = coordinates.map(Self.mercator)
        let minX = projected.map(\.x).min() ?? 0
        let maxX = projected.map(\.x).max() ?? 0
        let minY = projected.map(\.y).min() ?? 0
        let maxY = projected.map(\.y).max() ?? 0
        // At least ~200 m across, so a single point or a short walk is not blown up.
        let minimumSpan = 200 / Geodesy.wgs84A
        let spanX = max(maxX - minX, minimumSpan)
        let spanY = max(maxY - minY, minimumSpan)
        scale = min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY)
        offsetX = width / 2 - (minX + maxX) / 2 * scale
        offsetY = height / 2 + (minY + maxY) / 2 * scale
        let centreLatitude = atan(sinh((minY + maxY) / 2))
        metresPerPixel = Geodesy.wgs84A * cos(centreLatitude) / scale
    }

    /// `offsetX scale offsetY`, for a page script that turns a place on the map back into a
    /// coordinate: longitude = (x − offsetX) / scale, latitude = atan(sinh((offsetY − y) / scale)),
    /// both in radians.
    var parameters: String {
        [offsetX, scale, offsetY].map { String(format: "%.9g", $0) }.joined(separator: " ")
    }

    /// The coordinate at frame pixel `x`, `y` (the inverse of ``point(_:)``).
    public func coordinate(x: Double, y: Double) -> Coordinate {
        Coordinate(
            latitude: atan(sinh((offsetY - y) / scale)) * 180 / .pi, longitude: (x - offsetX) / scale * 180 / .pi)
    }

    public func point(_ c: Coordinate) -> (x: Double, y: Double) {
        let m = Self.mercator(c)
        return (offsetX + m.x * scale, offsetY - m.y * scale)
    }

    /// A round length for a scale bar at most `maxPixels` long: metres and pixels.
    public func scaleBar(maxPixels: Double = 150) -> (metres: Double, pixels: Double) {
        let limit = maxPixels * metresPerPixel
        let power = pow(10, floor(log10(max(limit, 1))))
        let nice = [5.0, 2, 1].map { $0 * power }.first { $0 <= limit } ?? power
        return (nice, nice / metresPerPixel)
    }
}

/// Douglas-Peucker simplification in screen space: drops points closer than `tolerance` pixels
/// to the line their neighbours make, so a long track draws with the points that show.
public enum Simplify {
    public static func indices(_ points: [(x: Double, y: Double)], tolerance: Double) -> [Int] {
        guard points.count > 2 else { return Array(points.indices) }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        let t2 = tolerance * tolerance
        while let (first, last) = stack.popLast() {
            guard last > first + 1 else { continue }
            let a = points[first]
            let b = points[last]
            let dx = b.x - a.x
            let dy = b.y - a.y
            let length2 = dx * dx + dy * dy
            var worst = -1.0
            var index = first
            for i in (first + 1)..<last {
                let p = points[i]
                var d2: Double
                if length2 == 0 {
                    d2 = (p.x - a.x) * (p.x - a.x) + (p.y - a.y) * (p.y - a.y)
                } else {
                    let cross = dx * (p.y - a.y) - dy * (p.x - a.x)
                    d2 = cross * cross / length2
                }
                if d2 > worst {
                    worst = d2
                    index = i
                }
            }
            if worst > t2 {
                keep[index] = true
                stack.append((first, index))
                stack.append((index, last))
            }
        }
        return keep.indices.filter { keep[$0] }
    }
}

/// Text for HTML: escaped for element content and attribute values.
/// Numbers as the pages' SVG coordinates: one decimal.
enum HTML {
    static func number(_ v: Double) -> String { String(format: "%.1f", v) }
    /// A JSON string literal of `s`, quotes included.
    static func json(_ s: String) -> String {
        let data = try? JSONSerialization.data(withJSONObject: [s], options: [])
        return data.map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) } ?? "\"\""
    }
    /// With more decimals, for what a zoomed-in page magnifies.
    static func number(_ v: Double, decimals: Int) -> String { String(format: "%.\(decimals)f", v) }
}

/// Ride colours: a default palette and Okabe-Ito's colour-blind-safe one.
public enum Palette: String, Sendable, CaseIterable {
    case `default`, colorblind

    public var colours: [String] {
        switch self {
        case .default: return ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2"]
        case .colorblind:
            return ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000"]
        }
    }

    public func colour(_ i: Int) -> String { colours[i % colours.count] }
}
