import Foundation
import GPSCore

/// What outlives one analysis of the points: the places found before, by their ids, and what
/// the user said. Places found in one reading are numbered 1, 2, ... (``PlaceClusters``); these
/// functions give them the ids they were remembered by, and apply the user's corrections, so
/// "place 7" is place 7 in every listing and a trip the user called a train stays one.
public enum Remembered {
    /// A place found before: its id, where it is, and the name the user gave it.
    public struct Known: Equatable, Sendable {
        public var id: Int
        public var center: Coordinate
        public var name: String?

        public init(id: Int, center: Coordinate, name: String? = nil) {
            self.id = id
            self.center = center
            self.name = name
        }
    }

    /// What the user said about one moment.
    public enum Correction: Equatable, Sendable {
        /// The trip at that moment went by this mode.
        case mode(at: Int64, TravelMode)
        /// The visit at that moment was at the place with this id.
        case place(at: Int64, Int)
    }

    /// The remembered id of each place found (by its number within the reading): the nearest
    /// known place within `radius`. The places missing from the answer are new.
    public static func match(_ places: [VisitPlace], known: [Known], radius: Double) -> [Int: Int] {
        var ids: [Int: Int] = [:]
        for p in places {
            var best: (id: Int, distance: Double)?
            for k in known {
                let d = Geodesy.haversineDistance(k.center, p.center)
                if d <= radius, d < best?.distance ?? .infinity { best = (k.id, d) }
            }
            if let best { ids[p.id] = best.id }
        }
        return ids
    }

    /// Gives `visits` the remembered ids (`ids` holds every place found), then the corrections
    /// (a trip or visit that holds the moment; one the moment misses is left as found), and
    /// returns the places of the visits again: at the remembered centre, the user's name for it
    /// first, then their own place's (``PlaceClusters/name(_:visits:userPlaces:zone:)``), home
    /// and work suggested anew.
    public static func apply(
        _ corrections: [Correction], visits: inout [Visit], trips: inout [Trip], ids: [Int: Int], known: [Known],
        userPlaces: [Place], zone: TimeZone
    ) -> [VisitPlace] {
        for i in visits.indices { visits[i].place = visits[i].place.flatMap { ids[$0] } }
        let byID = Dictionary(known.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for correction in corrections {
            switch correction {
            case .mode(let at, let mode):
                if let i = trips.firstIndex(where: { $0.start <= at && at <= $0.end }), trips[i].mode != mode {
                    trips[i].mode = mode
                    trips[i].modeFrom = .you
                }
            case .place(let at, let id):
                if byID[id] != nil, let i = visits.firstIndex(where: { $0.start <= at && at <= $0.end }),
                    visits[i].place != id
                {
                    visits[i].place = id
                    visits[i].placeCorrected = true
                }
            }
        }
        var places: [Int: VisitPlace] = [:]
        var order: [Int] = []
        for v in visits {
            guard let id = v.place, let k = byID[id] else { continue }
            if places[id] == nil {
                order.append(id)
                places[id] = VisitPlace(id: id, center: k.center, visits: 0, seconds: 0)
            }
            places[id]!.visits += 1
            places[id]!.seconds += Swift.max(v.seconds, 1)
        }
        var out = order.map { places[$0]! }
        PlaceClusters.name(&out, visits: visits, userPlaces: userPlaces, zone: zone)
        for j in out.indices { out[j].name = byID[out[j].id]?.name ?? out[j].name }
        return out
    }
}
