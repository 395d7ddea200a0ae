import Foundation
internal import GRDB
import TrackModel

extension SQLiteStoring {
    public func replaceGazetteer(_ fill: (_ sink: ([GazetteerEntry]) throws -> Void) throws -> Void) throws -> Int {
        let count = try pool.write { db in
            try db.execute(sql: "DELETE FROM gazetteer")
            let insert = try db.cachedStatement(
                sql: """
                    INSERT OR REPLACE INTO gazetteer (id, name, lat, lon, cell, country, admin1, population, zone)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
            try fill { batch in
                for e in batch {
                    try insert.execute(arguments: [
                        e.id, e.name, e.latitude, e.longitude, e.cell, e.country, e.admin1, e.population, e.zone,
                    ])
                }
            }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM gazetteer") ?? 0
        }
        try checkpoint()
        return count
    }

    public func hasGazetteer() throws -> Bool {
        try pool.read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM gazetteer)") ?? false }
    }

    public func gazetteer(cells: [Int64]) throws -> [GazetteerEntry] {
        guard !cells.isEmpty else { return [] }
        return try pool.read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT * FROM gazetteer WHERE cell IN (\(cells.map { _ in "?" }.joined(separator: ","))) ORDER BY id",
                arguments: StatementArguments(cells)
            ).map { r in
                GazetteerEntry(
                    id: r["id"], name: r["name"], latitude: r["lat"], longitude: r["lon"], country: r["country"],
                    admin1: r["admin1"], population: r["population"], zone: r["zone"])
            }
        }
    }
}
