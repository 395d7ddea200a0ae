import Foundation
import GPSCore

/// A place as `place list --json` and `place add --json` print it.
public struct PlaceJSON: Encodable, Sendable {
    public var name: String
    public var lat: Double
    public var lon: Double
    public var radiusMetres: Double
    /// [[lon, lat], ...] for a polygon.
    public var polygon: [[Double]]?
    public var source: String

    public init(_ p: Place) {
        name = p.name
        lat = p.center.latitude
        lon = p.center.longitude
        radiusMetres = (p.radius * 10).rounded() / 10
        polygon = p.polygon?.map { [$0.longitude, $0.latitude] }
        source = p.source
    }

    enum CodingKeys: String, CodingKey {
        case name, lat, lon, polygon, source
        case radiusMetres = "radius_m"
    }

    /// The line printed for a place.
    public static func describe(_ p: Place) -> String {
        let at = String(format: "%.6f, %.6f", p.center.latitude, p.center.longitude)
        let shape =
            p.polygon.map { "a polygon of \($0.count) corners around \(at)" }
            ?? "\(Int(p.radius.rounded())) m around \(at)"
        return "\(p.name): \(shape)" + (p.source == "cli" ? "" : " (from \(p.source))")
    }
}
