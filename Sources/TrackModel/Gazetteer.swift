import Foundation

/// A populated place of the gazetteer the user loaded (GeoNames' dumps): what visits are named
/// after, and whose time zone a day away from home is told in.
public struct GazetteerEntry: Equatable, Sendable {
    /// GeoNames' id.
    public var id: Int64
    public var name: String
    public var latitude: Double
    public var longitude: Double
    /// ISO 3166-1 alpha-2 country code ("CH").
    public var country: String
    /// The first-level division's name ("Zurich"), or its code when no names were loaded.
    public var admin1: String
    public var population: Int64
    /// IANA time zone ("Europe/Zurich"); "" when the dump gave none.
    public var zone: String

    public init(
        id: Int64, name: String, latitude: Double, longitude: Double, country: String, admin1: String = "",
        population: Int64 = 0, zone: String = ""
    ) {
        self.id = id
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.country = country
        self.admin1 = admin1
        self.population = population
        self.zone = zone
    }

    /// Cells of a quarter degree, so the places near a point are those of a few cells:
    /// `row * 1440 + column` counted from 90° S and 180° W.
    public static func cell(latitude: Double, longitude: Double) -> Int64 {
        let row = Int64(Swift.min(719, Swift.max(0, ((latitude + 90) * 4).rounded(.down))))
        let column = Int64(((longitude + 180) * 4).rounded(.down)).quotientAndRemainder(dividingBy: 1440).remainder
        return row * 1440 + (column + 1440) % 1440
    }

    public var cell: Int64 { Self.cell(latitude: latitude, longitude: longitude) }

    /// The cells within `rings` cells of the point's (3×3 for 1), wrapping at the antimeridian.
    public static func cells(aroundLatitude latitude: Double, longitude: Double, rings: Int) -> [Int64] {
        let centre = cell(latitude: latitude, longitude: longitude)
        let (row, column) = (centre / 1440, centre % 1440)
        var out: [Int64] = []
        for dr in -rings...rings where (0...719).contains(row + Int64(dr)) {
            for dc in -rings...rings { out.append((row + Int64(dr)) * 1440 + (column + Int64(dc) + 1440) % 1440) }
        }
        return out
    }
}

/// The gazetteer: replaced whole by `trailbook geocoder import`, shared by every account.
public protocol GazetteerReading {
    /// Whether the gazetteer holds any entry (asked on every day view: it never counts them).
    func hasGazetteer() throws -> Bool
    /// The entries of `cells` (``GazetteerEntry/cells(aroundLatitude:longitude:rings:)``).
    func gazetteer(cells: [Int64]) throws -> [GazetteerEntry]
}

/// What a write unit changes of the gazetteer (``GazetteerReading`` is what any unit reads).
public protocol GazetteerStoring: GazetteerReading {
    /// Replaces the gazetteer, in one unit of work, with the entries `fill` hands to the sink it
    /// is given, a batch at a time (a file read as it goes): a failure, `fill`'s too, leaves the
    /// one before. Returns how many are stored.
    func replaceGazetteer(_ fill: (_ sink: ([GazetteerEntry]) throws -> Void) throws -> Void) throws -> Int
}
