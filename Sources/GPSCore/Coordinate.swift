/// A position on the WGS-84 ellipsoid.
public struct Coordinate: Hashable, Sendable {
    /// Latitude in decimal degrees, WGS-84, positive north, -90...90.
    public var latitude: Double
    /// Longitude in decimal degrees, WGS-84, positive east, -180...180.
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both values are finite and in range, and the point is not exactly 0/0
    /// (the "null island" that broken receivers report).
    public var isPlausible: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
            && !(latitude == 0 && longitude == 0)
    }
}
