import Foundation

/// A named area: a circle (centre and radius) or a polygon from a GeoJSON file. Events say
/// when a device arrived at one and left it.
public struct Place: Equatable, Sendable {
    public var name: String
    /// The circle's centre; for a polygon, the mean of its corners (where a map shows it).
    public var center: Coordinate
    /// The circle's radius in metres; for a polygon, the distance from the centre to its
    /// farthest corner.
    public var radius: Double
    /// The polygon's outer ring (corners in order, not repeated at the end); nil for a circle.
    public var polygon: [Coordinate]?
    /// Where it came from: "cli" (`place add`) or "owntracks" (a waypoint a phone posted).
    public var source: String

    public init(name: String, center: Coordinate, radius: Double, source: String = "cli") {
        self.name = name
        self.center = center
        self.radius = radius
        polygon = nil
        self.source = source
    }

    /// A polygon place; nil when the ring has fewer than 3 corners.
    public init?(name: String, polygon ring: [Coordinate], source: String = "cli") {
        var corners = ring
        if corners.count > 1, corners.first == corners.last { corners.removeLast() }
        guard corners.count >= 3 else { return nil }
        let lat = corners.map(\.latitude).reduce(0, +) / Double(corners.count)
        let lon = corners.map(\.longitude).reduce(0, +) / Double(corners.count)
        let center = Coordinate(latitude: lat, longitude: lon)
        self.name = name
        self.center = center
        radius = corners.map { Geodesy.haversineDistance(center, $0) }.max() ?? 0
        polygon = corners
        self.source = source
    }

    /// How far `point` is outside the place, metres: negative inside (how deep in), positive
    /// outside (how far from its edge).
    public func excess(_ point: Coordinate) -> Double {
        guard let ring = polygon else { return Geodesy.haversineDistance(center, point) - radius }
        // On a local plane around the point (places are small), metres east and north.
        let metresPerDegree = Geodesy.meanEarthRadius * .pi / 180
        let east = cos(point.latitude * .pi / 180) * metresPerDegree
        let corners = ring.map { c in
            ((c.longitude - point.longitude) * east, (c.latitude - point.latitude) * metresPerDegree)
        }
        var inside = false
        var nearest = Double.infinity
        for i in corners.indices {
            let a = corners[i]
            let b = corners[(i + 1) % corners.count]
            if (a.1 > 0) != (b.1 > 0), 0 < a.0 + (0 - a.1) * (b.0 - a.0) / (b.1 - a.1) { inside.toggle() }
            nearest = Swift.min(nearest, Self.distanceToOrigin(from: a, to: b))
        }
        return inside ? -nearest : nearest
    }

    /// Distance from (0, 0) to the segment a-b on the plane.
    private static func distanceToOrigin(from a: (Double, Double), to b: (Double, Double)) -> Double {
        let dx = b.0 - a.0
        let dy = b.1 - a.1
        let length2 = dx * dx + dy * dy
        let t = length2 == 0 ? 0 : Swift.max(0, Swift.min(1, -(a.0 * dx + a.1 * dy) / length2))
        let x = a.0 + t * dx
        let y = a.1 + t * dy
        return (x * x + y * y).squareRoot()
    }
}
