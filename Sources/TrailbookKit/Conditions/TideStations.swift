import Foundation
import GPSCore
import Tides

/// Finding a tide station to configure.
public enum TideStations {
    /// The water-level stations of the database, nearest `near` first (with their distance in
    /// km), at most `limit`; without `near`, by name.
    public static func list(near: Coordinate?, limit: Int, path: String = TideDatabase.defaultPath) throws
        -> [(station: TideStationSummary, km: Double?)]
    {
        // A station listed twice under one id (its reference record and a subordinate copy) once.
        var all: [TideStationSummary] = []
        var seen: [String: Int] = [:]
        for s in try TideDatabase.stations(path: path) {
            if let i = seen[s.id] {
                if all[i].subordinate && !s.subordinate { all[i] = s }
                continue
            }
            seen[s.id] = all.count
            all.append(s)
        }
        guard let near else {
            return all.sorted { $0.name < $1.name }.prefix(limit).map { ($0, nil) }
        }
        return all.map { s -> (TideStationSummary, Double?) in
            (s, Geodesy.haversineDistance(near, Coordinate(latitude: s.latitude, longitude: s.longitude)) / 1000)
        }.sorted { ($0.1 ?? 0, $0.0.name) < ($1.1 ?? 0, $1.0.name) }.prefix(limit).map { $0 }
    }
}
