/// Whether a fix has a position, and of how many dimensions (gpsd's `mode` numbering).
public enum FixMode: Int, Sendable, Comparable, CaseIterable {
    /// Nothing known yet.
    case unknown = 0
    /// The receiver reports no position.
    case noFix = 1
    /// Latitude and longitude, no altitude.
    case twoD = 2
    /// Latitude, longitude and altitude.
    case threeD = 3

    public static func < (a: FixMode, b: FixMode) -> Bool { a.rawValue < b.rawValue }
}
