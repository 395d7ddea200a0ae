import Foundation
import GPSCore
import GRDB
import Testing
import TrailbookTestSupport

@testable import TrackStore

/// A new store is made from ``SchemaSnapshot`` in one transaction; these tests hold it to the
/// migrations it stands for.
@Suite struct SchemaSnapshotTests {
    /// Everything of a store's schema and contents that two ways of making it must agree on:
    /// every schema entry's SQL, the rows of every table (a user's creation time aside), the
    /// AUTOINCREMENT counters and the applied migrations.
    static func describe(_ store: TrackStore) throws -> [String] {
        try store.databasePool.read { db in
            var lines = try Row.fetchAll(
                db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
            ).map {
                "\($0["type"] as String) \($0["name"] as String) on \($0["tbl_name"] as String): \(($0["sql"] as String?) ?? "-")"
            }
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            for table in tables {
                // In any order: SQLite's counters, for one, sit in the order the tables got them.
                lines += try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\"").map { row in
                    let values = row.columnNames.filter { $0 != "created_ms" }.map {
                        "\($0)=\(row[$0] as DatabaseValue)"
                    }
                    return "row of \(table): \(values.joined(separator: " "))"
                }.sorted()
            }
            return lines
        }
    }

    /// The snapshot's source text as the migrations make it: their schema in creation order
    /// (tables, then indexes, then the rest; SQLite's own entries left out) and the counters.
    static func snapshotSource(of store: TrackStore, migrations: [String]) throws -> String {
        let (statements, sequences) = try store.databasePool.read { db in
            let statements = try String.fetchAll(
                db,
                sql: """
                    SELECT sql FROM sqlite_master
                    WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
                    ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, rowid
                    """)
            let sequences = try Row.fetchAll(db, sql: "SELECT name, seq FROM sqlite_sequence ORDER BY name").map {
                ($0["name"] as String, $0["seq"] as Int64)
            }
            return (statements, sequences)
        }
        func literal(_ s: String) -> String {
            let lines = s.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.isEmpty ? "" : "        \($0)"
            }
            return "        #\"\"\"\n" + lines.joined(separator: "\n") + "\n        \"\"\"#"
        }
        return """
            // The store's schema after `migrations`, as SQLite keeps it: `SchemaSnapshotTests` made this
            // file from a store that ran those migrations, and checks it still matches them. Do not edit by
            // hand; when a migration is added, that test fails and writes the new file to copy here.
            enum SchemaSnapshot {
                static let migrations: [String] = [
            \(migrations.map { "        \"\($0)\",\n" }.joined())    ]
                static let statements: [String] = [
            \(statements.map { literal($0) + ",\n" }.joined())    ]
                static let sequences: [(table: String, seq: Int64)] = [
            \(sequences.map { "        (\"\($0.0)\", \($0.1)),\n" }.joined())    ]
            }

            """
    }

    /// Where a test that finds the snapshot out of date writes the one to copy in.
    /// Written where the test's temporary folders are not (they go when the process exits), so
    /// that the file is there to copy.
    static func writeNewSnapshot(_ source: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trailbook-SchemaSnapshot.swift").path
        try source.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aNewStoreFromTheSnapshotIsTheMigratedStore() throws {
        let last = try #require(SchemaSnapshot.migrations.last, "SchemaSnapshot.swift lists no migrations")
        let directory = try Samples.temporaryDirectory()
        let migrated = try TrackStore(path: directory + "/migrated.sqlite", migratingUpTo: last)
        let source = try Self.snapshotSource(of: migrated, migrations: SchemaSnapshot.migrations)
        let fromSnapshot = try TrackStore(path: directory + "/snapshot.sqlite")
        #expect(try fromSnapshot.appliedMigrations() == Schema.migrator().migrations)
        // Made in one go from the snapshot: its schema entries are numbered without the gaps the
        // migrations' dropped tables and indexes leave.
        let gapless = "SELECT max(rowid) = count(*) FROM sqlite_master"
        #expect(try fromSnapshot.databasePool.read { db in try Bool.fetchOne(db, sql: gapless) } == true)
        #expect(try migrated.databasePool.read { db in try Bool.fetchOne(db, sql: gapless) } == false)
        let (want, got) = (try Self.describe(migrated), try Self.describe(fromSnapshot))
        // The committed file is the one the migrations make, to the byte.
        let committed = try String(
            contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Sources/TrackStore/SchemaSnapshot.swift").path,
            encoding: .utf8)
        if want != got || committed != source {
            let path = try Self.writeNewSnapshot(source)
            Issue.record(
                """
                A new store made from Sources/TrackStore/SchemaSnapshot.swift differs from one the migrations \
                up to \(last) make; the file made from the migrations is at \(path): copy it there.
                Only in the migrated store: \(want.filter { !got.contains($0) })
                Only in the snapshot's: \(got.filter { !want.contains($0) })
                """)
        }
    }

    @Test func theSnapshotCoversEveryMigration() throws {
        let all = Schema.migrator().migrations
        guard SchemaSnapshot.migrations != all else { return }
        let directory = try Samples.temporaryDirectory()
        let migrated = try TrackStore(path: directory + "/migrated.sqlite", migratingUpTo: all.last!)
        let path = try Self.writeNewSnapshot(Self.snapshotSource(of: migrated, migrations: all))
        Issue.record(
            """
            Sources/TrackStore/SchemaSnapshot.swift stands for \(SchemaSnapshot.migrations.count) of the \
            \(all.count) migrations (new stores then run the others one by one); the file for all of them \
            is at \(path): copy it there.
            """)
    }

    /// Opening a store that is in use takes no write lock: it opens while another connection
    /// holds one (before the emptiness check read first, it waited out the busy timeout and
    /// failed). In use: a store nobody has open has no write-ahead log, and GRDB writes one.
    @Test func openingAStoreInUseDoesNotWaitForAWriter() throws {
        let path = try Samples.temporaryDirectory() + "/store.sqlite"
        let first = try TrackStore(path: path)
        defer { withExtendedLifetime(first) {} }
        var holding = Configuration()
        holding.allowsUnsafeTransactions = true  // the write lock stays held between the two calls
        let other = try DatabaseQueue(path: path, configuration: holding)
        try other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        let reader = try TrackStore(existingAt: path)
        #expect(try reader.appliedMigrations() == Schema.migrator().migrations)
        try other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
    }

    /// A file that already has tables is never touched by the snapshot (its CREATE statements
    /// would fail there): the migrations decide.
    @Test func aStoreWithTablesIsMigratedNotSnapshotted() throws {
        let path = try Samples.temporaryDirectory() + "/old.sqlite"
        _ = try TrackStore(path: path, migratingUpTo: "v4-import-provenance")
        let store = try TrackStore(path: path)
        #expect(try store.appliedMigrations() == Schema.migrator().migrations)
    }

    /// A store of the release before numbers its found places per account on upgrade, and a
    /// correction that named a place by its id names it by its number.
    @Test func foundPlacesAreNumberedPerAccountOnUpgrade() throws {
        let path = try Samples.temporaryDirectory() + "/v21.sqlite"
        let old = try TrackStore(path: path, migratingUpTo: "v21-found-places")
        try old.databasePool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO user (id, name, created_ms) VALUES (7, 'ana', 0), (8, 'ben', 0);
                    INSERT INTO found_place (id, user_id, lat, lon, created_ms, name) VALUES
                        (3, 7, 47.1, 8.1, 0, 'Flat'), (4, 8, 47.2, 8.2, 0, NULL), (6, 7, 47.3, 8.3, 0, 'Lab'),
                        (9, 8, 47.4, 8.4, 0, 'Barn');
                    INSERT INTO movement_correction (user_id, at_ms, kind, value, created_ms) VALUES
                        (7, 1, 'place', '6', 0), (8, 2, 'place', '9', 0), (8, 3, 'place', '6', 0),
                        (7, 4, 'mode', 'train', 0);
                    """)
        }
        let store = try TrackStore(path: path)
        #expect(
            try store.readNow { try $0.foundPlaces(account: "ana") }.map { "\($0.id) \($0.name ?? "-")" } == [
                "1 Flat", "2 Lab",
            ])
        #expect(
            try store.readNow { try $0.foundPlaces(account: "ben") }.map { "\($0.id) \($0.name ?? "-")" } == [
                "1 -", "2 Barn",
            ])
        #expect(try store.readNow { try $0.corrections(account: "ana") }.map(\.value) == ["2", "train"])
        #expect(
            try store.readNow { try $0.corrections(account: "ben") }.map(\.value) == ["2", "0"],
            "ana's place 6 is none of ben's")
        #expect(
            try store.writeNow {
                try $0.rememberPlaces([Coordinate(latitude: 1, longitude: 2)], milliseconds: 0, account: "ben")
            }
            .map(\.id) == [3])
    }

    @Test func aPointsSensorsMoveIntoItsRowOnUpgrade() throws {
        let path = try Samples.temporaryDirectory() + "/v22.sqlite"
        let old = try TrackStore(path: path, migratingUpTo: "v22-found-place-numbers")
        let device = try old.writeNow { try $0.device(named: "phone") }.rawValue
        let (a, b) = (
            PointKey.key(device: device, milliseconds: 1_000), PointKey.key(device: device, milliseconds: 2_000)
        )
        let accuracy = Sensors(accuracy: 12).packed
        try old.databasePool.write { db in
            try db.execute(
                sql: """
                    INSERT INTO point (key, lat, lon, mode_sats) VALUES (?, 473769000, 85417000, 0), (?, 1, 2, 0);
                    INSERT INTO point_sensors (key, sensors) VALUES (?, ?);
                    """, arguments: [a, b, a, accuracy])
        }
        let store = try TrackStore(path: path)
        let points = try store.readNow { try $0.points(fromMilliseconds: 0, toMilliseconds: 3_000) }
        #expect(points.map(\.sensors) == [Sensors(accuracy: 12), nil])
        let tables = try store.databasePool.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master")
        }
        #expect(!tables.contains("point_sensors"))
    }
}
