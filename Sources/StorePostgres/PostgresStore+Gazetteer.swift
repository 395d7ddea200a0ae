import Foundation
import PostgresNIO
import TrackModel

extension PostgresStoring {
    public func replaceGazetteer(_ fill: (_ sink: ([GazetteerEntry]) throws -> Void) throws -> Void) throws -> Int {
        try write { session in
            _ = try session.execute("DELETE FROM gazetteer")
            try fill { batch in
                // A statement's parameters are bounded: a few thousand rows at a time, as arrays.
                for start in stride(from: 0, to: batch.count, by: 5000) {
                    let chunk = batch[start..<min(start + 5000, batch.count)]
                    _ = try session.execute(
                        """
                        INSERT INTO gazetteer (id, name, lat, lon, cell, country, admin1, population, zone)
                        SELECT * FROM unnest(\(chunk.map(\.id))::bigint[], \(chunk.map(\.name))::text[],
                            \(chunk.map(\.latitude))::double precision[], \(chunk.map(\.longitude))::double precision[],
                            \(chunk.map(\.cell))::bigint[], \(chunk.map(\.country))::text[],
                            \(chunk.map(\.admin1))::text[], \(chunk.map(\.population))::bigint[],
                            \(chunk.map(\.zone))::text[])
                        ON CONFLICT (id) DO UPDATE SET name = excluded.name, lat = excluded.lat, lon = excluded.lon,
                            cell = excluded.cell, country = excluded.country, admin1 = excluded.admin1,
                            population = excluded.population, zone = excluded.zone
                        """)
                }
            }
            return Int(try session.value("SELECT count(*) FROM gazetteer", as: Int64.self) ?? 0)
        }
    }

    public func hasGazetteer() throws -> Bool {
        try read { session in try session.value("SELECT EXISTS (SELECT 1 FROM gazetteer)", as: Bool.self) ?? false }
    }

    public func gazetteer(cells: [Int64]) throws -> [GazetteerEntry] {
        guard !cells.isEmpty else { return [] }
        return try read { session in
            try session.query("SELECT * FROM gazetteer WHERE cell = ANY(\(cells)::bigint[]) ORDER BY id").map { r in
                GazetteerEntry(
                    id: try r.get("id"), name: try r.get("name"), latitude: try r.get("lat"),
                    longitude: try r.get("lon"), country: try r.get("country"), admin1: try r.get("admin1"),
                    population: try r.get("population"), zone: try r.get("zone"))
            }
        }
    }
}
