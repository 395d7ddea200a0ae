import Foundation
import GPSCore
import TrackModel

/// Why a place request is refused.
public enum PlaceError: ServiceFailure, Equatable {
    case badName(String)
    case exists(String)
    case missing(String)
    case badCoordinate
    case badRadius(Double)
    case nowhere
    case unreadable(String)
    case notAPolygon(String, why: String)
    case noAccount(String)

    public var kind: FailureKind {
        switch self {
        case .badName, .exists, .badCoordinate, .badRadius: return .badRequest
        case .missing, .nowhere, .unreadable, .noAccount: return .missingInput
        case .notAPolygon: return .badData
        }
    }

    public var description: String {
        switch self {
        case .badName(let name):
            return "'\(name)' cannot be a place's name: use 1 to 64 characters, no control characters."
        case .exists(let name): return "There is already a place named \(name); remove it first or choose another name."
        case .missing(let name): return "There is no place named \(name); place list shows them."
        case .badCoordinate: return "The latitude must be from -90 to 90 and the longitude from -180 to 180."
        case .badRadius(let r): return "A radius of \(r) m will not do; give 1 to 100000 metres."
        case .nowhere: return "There is no stored point to take as here; record or import first, or give the position."
        case .unreadable(let path): return "Cannot read \(path); check the path."
        case .noAccount(let name): return "There is no account \(name); trailbook user list shows them."
        case .notAPolygon(let path, let why):
            return "\(path) is not a GeoJSON polygon (\(why)); give a Polygon or a Feature with one."
        }
    }
}

/// Places of the store's own user (`place add|list|rm`) or of an account (`--user`, OwnTracks
/// waypoints): every phone of that account gets arrivals and departures at them.
public struct PlaceService: Sendable {
    public let store: any TrackStoring
    /// The account whose places these are; nil: the store's own user.
    public let account: String?

    public init(store: any TrackStoring, account: String? = nil) {
        self.store = store
        self.account = account
    }

    /// Refuses an account the store does not have.
    private func checkAccount(in tx: any StoreReading) throws {
        if let account, try tx.devices(of: account) == nil { throw PlaceError.noAccount(account) }
    }

    /// The radius a place gets when none is given, metres.
    public static let defaultRadius = 100.0

    public func add(name: String, at center: Coordinate, radius: Double) async throws -> Place {
        guard center.isPlausible else { throw PlaceError.badCoordinate }
        try check(radius)
        return try await add(Place(name: try checked(name), center: center, radius: radius))
    }

    /// A place around the newest stored point; also returns that point's time.
    public func addHere(name: String, radius: Double) async throws -> (place: Place, at: Int64) {
        let account = account
        return try await store.write { tx in
            try checkAccount(in: tx)
            let name = try checked(name)
            // A name taken is the first thing wrong, whether or not there is a point.
            if try tx.places(account: account).contains(where: { $0.name == name }) { throw PlaceError.exists(name) }
            guard let latest = try tx.latestPoint(devices: DeviceFilter(account: account)),
                let c = latest.coordinate, let t = latest.unixMilliseconds
            else {
                throw PlaceError.nowhere
            }
            guard c.isPlausible else { throw PlaceError.badCoordinate }
            try check(radius)
            return (try add(Place(name: name, center: c, radius: radius), in: tx), t)
        }
    }

    /// A polygon place from a GeoJSON file: a Polygon, MultiPolygon (its first), a Feature or
    /// the first polygon feature of a FeatureCollection; the outer ring is used.
    public func addPolygon(name: String, file path: String) async throws -> Place {
        guard let data = await Blocking.run({ FileManager.default.contents(atPath: path) }) else {
            throw PlaceError.unreadable(path)
        }
        guard let json = try? JSONSerialization.jsonObject(with: data) else {
            throw PlaceError.notAPolygon(path, why: "not JSON")
        }
        let ring = try Self.outerRing(json, path: path)
        guard ring.allSatisfy(\.isPlausible), let place = Place(name: try checked(name), polygon: ring) else {
            throw PlaceError.notAPolygon(path, why: "its ring needs 3 corners or more, longitude then latitude")
        }
        return try await add(place)
    }

    public func list() async throws -> [Place] {
        try await store.read { tx in
            try checkAccount(in: tx)
            return try tx.places(account: account)
        }
    }

    public func remove(name: String) async throws {
        try await store.write { tx in
            try checkAccount(in: tx)
            guard try tx.removePlace(named: name, account: account) else { throw PlaceError.missing(name) }
        }
    }

    /// Gives the place `name` the name `new`, in one unit of work (its events keep the name
    /// they were made with).
    public func rename(_ name: String, to new: String) async throws -> Place {
        let renamed = try checked(new)
        let account = self.account
        return try await store.write { tx in
            try checkAccount(in: tx)
            guard var place = try tx.places(account: account).first(where: { $0.name == name }) else {
                throw PlaceError.missing(name)
            }
            guard renamed != name else { return place }
            place.name = renamed
            guard try tx.addPlace(place, account: account) else { throw PlaceError.exists(renamed) }
            _ = try tx.removePlace(named: name, account: account)
            return place
        }
    }

    private func add(_ place: Place) async throws -> Place {
        try await store.write { try add(place, in: $0) }
    }

    private func add(_ place: Place, in tx: any StoreWriting) throws -> Place {
        try checkAccount(in: tx)
        guard try tx.addPlace(place, account: account) else { throw PlaceError.exists(place.name) }
        return place
    }

    private func checked(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard (1...64).contains(trimmed.count),
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw PlaceError.badName(name) }
        return trimmed
    }

    private func check(_ radius: Double) throws {
        guard radius.isFinite, (1...100_000).contains(radius) else { throw PlaceError.badRadius(radius) }
    }

    static func outerRing(_ json: Any, path: String) throws -> [Coordinate] {
        guard let object = json as? [String: Any], let type = object["type"] as? String else {
            throw PlaceError.notAPolygon(path, why: "no \"type\"")
        }
        func ring(_ coordinates: Any?) throws -> [Coordinate] {
            guard let rings = coordinates as? [[[Double]]], let outer = rings.first else {
                throw PlaceError.notAPolygon(path, why: "its coordinates are not a list of rings")
            }
            return outer.compactMap { $0.count >= 2 ? Coordinate(latitude: $0[1], longitude: $0[0]) : nil }
        }
        switch type {
        case "Polygon": return try ring(object["coordinates"])
        case "MultiPolygon":
            guard let polygons = object["coordinates"] as? [Any], let first = polygons.first else {
                throw PlaceError.notAPolygon(path, why: "an empty MultiPolygon")
            }
            return try ring(first)
        case "Feature":
            guard let geometry = object["geometry"] else {
                throw PlaceError.notAPolygon(path, why: "a Feature without geometry")
            }
            return try outerRing(geometry, path: path)
        case "FeatureCollection":
            for feature in object["features"] as? [Any] ?? [] {
                if let ring = try? outerRing(feature, path: path) { return ring }
            }
            throw PlaceError.notAPolygon(path, why: "no feature is a polygon")
        default: throw PlaceError.notAPolygon(path, why: "a \(type)")
        }
    }
}
