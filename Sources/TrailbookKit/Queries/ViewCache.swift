import Foundation
import GPSCore
import GRDB
import TrackModel

/// What the web app's heaviest views work out once per ride (the overlay's lines of a ride's
/// part in a day, ``OverlayShapes``; the heat map's counts, ``HeatCells``), kept in a SQLite
/// file in the cache folder, so that a server started again does not read every point again.
/// One file per store (``path(store:environment:)``). Each entry carries the state of the ride
/// it was worked out from (its point count, first and last time): an entry of another state is
/// never used, and goes when the ride's new state is kept. It is a cache: a file of another
/// version is emptied, and nothing in it is needed (the store has everything).
public final class ViewCache: Sendable {
    /// A ride's state: what changes when points are added to it or taken from it.
    public struct RideState: Hashable, Sendable {
        var points: Int
        var start: Int64
        var end: Int64

        init(_ ride: StoredRide) {
            (points, start, end) = (ride.pointCount, ride.startMilliseconds, ride.endMilliseconds)
        }

        init(points: Int, start: Int64, end: Int64) { (self.points, self.start, self.end) = (points, start, end) }
    }

    /// Raised when the layout of what is kept changes: a file of another version is emptied.
    static let version = 1

    let pool: DatabasePool
    public let path: String

    public init(path: String) throws {
        self.path = path
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        pool = try DatabasePool(path: path, configuration: configuration)
        try pool.write { db in
            if try Int.fetchOne(db, sql: "PRAGMA user_version") != Self.version {
                try db.execute(sql: "DROP TABLE IF EXISTS part; DROP TABLE IF EXISTS heat")
                try db.execute(sql: "PRAGMA user_version = \(Self.version)")
            }
            try db.execute(
                sql: """
                    CREATE TABLE IF NOT EXISTS part (
                        ride INTEGER NOT NULL, from_ms INTEGER NOT NULL, to_ms INTEGER NOT NULL,
                        points INTEGER NOT NULL, start_ms INTEGER NOT NULL, end_ms INTEGER NOT NULL,
                        shape BLOB NOT NULL, PRIMARY KEY (ride, from_ms, to_ms));
                    CREATE TABLE IF NOT EXISTS heat (
                        ride INTEGER PRIMARY KEY, points INTEGER NOT NULL, start_ms INTEGER NOT NULL,
                        end_ms INTEGER NOT NULL, cells BLOB NOT NULL);
                    CREATE TABLE IF NOT EXISTS day (
                        account TEXT NOT NULL, zone TEXT NOT NULL, day TEXT NOT NULL, signature INTEGER NOT NULL,
                        distance REAL, moving REAL, PRIMARY KEY (account, zone, day));
                    """)
        }
    }

    /// The cache file of the store at `store` (a SQLite file's path, made absolute, or a
    /// PostgreSQL URL): `$XDG_CACHE_HOME/trailbook/views/` and a hash of it.
    public static func path(store: String, environment: [String: String] = Console.current.environment)
        -> String
    {
        var location = store
        if !store.contains("://") {
            location = URL(fileURLWithPath: store).standardizedFileURL.path
        }
        // FNV-1a: a name, not a secret (a URL's password never leaves the hash).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in location.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return UserDirectories.cache(environment) + "/trailbook/views/" + String(hash, radix: 16) + ".sqlite"
    }

    /// Ride ids by the chunk SQLite takes in one `IN (...)`.
    private static func chunks(_ rides: [Int64]) -> [[Int64]] {
        stride(from: 0, to: rides.count, by: 500).map { Array(rides[$0..<min($0 + 500, rides.count)]) }
    }

    // MARK: the overlay's parts

    /// The kept parts of `rides` (any state), by ride and `[from, to)`, with their state.
    func parts(of rides: [Int64]) async throws -> [OverlayShapes.Part: (RideState, OverlayShapes.Shape)] {
        try await pool.read { db in
            var out: [OverlayShapes.Part: (RideState, OverlayShapes.Shape)] = [:]
            for chunk in Self.chunks(rides) {
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT ride, from_ms, to_ms, points, start_ms, end_ms, shape FROM part
                        WHERE ride IN (\(chunk.map(String.init).joined(separator: ",")))
                        """)
                while let row = try rows.next() {
                    var reader = PackedReader(row["shape"] as Data)
                    guard let shape = try? OverlayShapes.Shape(packed: &reader) else { continue }
                    out[OverlayShapes.Part(ride: row["ride"], from: row["from_ms"], to: row["to_ms"])] = (
                        RideState(points: row["points"], start: row["start_ms"], end: row["end_ms"]), shape
                    )
                }
            }
            return out
        }
    }

    /// Which parts of `rides` are kept, with their state (without reading the lines).
    func partStates(of rides: [Int64]) async throws -> [OverlayShapes.Part: RideState] {
        try await pool.read { db in
            var out: [OverlayShapes.Part: RideState] = [:]
            for chunk in Self.chunks(rides) {
                for row in try Row.fetchAll(
                    db,
                    sql: """
                        SELECT ride, from_ms, to_ms, points, start_ms, end_ms FROM part
                        WHERE ride IN (\(chunk.map(String.init).joined(separator: ",")))
                        """)
                {
                    out[OverlayShapes.Part(ride: row["ride"], from: row["from_ms"], to: row["to_ms"])] = RideState(
                        points: row["points"], start: row["start_ms"], end: row["end_ms"])
                }
            }
            return out
        }
    }

    /// Keeps `parts`; what was kept of another state of their rides goes.
    func keep(parts: [OverlayShapes.Part: (RideState, OverlayShapes.Shape)]) async throws {
        guard !parts.isEmpty else { return }
        try await pool.write { db in
            var states: [Int64: RideState] = [:]
            for (part, (state, _)) in parts { states[part.ride] = state }
            for (ride, state) in states {
                try db.execute(
                    sql: "DELETE FROM part WHERE ride = ? AND NOT (points = ? AND start_ms = ? AND end_ms = ?)",
                    arguments: [ride, state.points, state.start, state.end])
            }
            let insert = try db.makeStatement(
                sql: """
                    INSERT OR REPLACE INTO part (ride, from_ms, to_ms, points, start_ms, end_ms, shape)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
            for (part, (state, shape)) in parts {
                var writer = PackedWriter()
                shape.pack(into: &writer)
                try insert.execute(arguments: [
                    part.ride, part.from, part.to, state.points, state.start, state.end, Data(writer.bytes),
                ])
            }
        }
    }

    /// Takes away `parts`.
    func forget(parts: Set<OverlayShapes.Part>) async throws {
        guard !parts.isEmpty else { return }
        try await pool.write { db in
            for part in parts {
                try db.execute(
                    sql: "DELETE FROM part WHERE ride = ? AND from_ms = ? AND to_ms = ?",
                    arguments: [part.ride, part.from, part.to])
            }
        }
    }

    // MARK: the overlay's day figures

    /// The kept figures of `account`'s `days` (in the zone named `zone`), by day.
    func days(account: String, zone: String, _ days: [CivilDate]) async throws -> [CivilDate: OverlayShapes.DayFigures]
    {
        guard let first = days.min(), let last = days.max() else { return [:] }
        return try await pool.read { db in
            var out: [CivilDate: OverlayShapes.DayFigures] = [:]
            for row in try Row.fetchAll(
                db,
                sql: """
                    SELECT day, signature, distance, moving FROM day
                    WHERE account = ? AND zone = ? AND day BETWEEN ? AND ?
                    """, arguments: [account, zone, first.description, last.description])
            {
                guard let day = CivilDate(iso: row["day"]) else { continue }
                let (distance, moving): (Double?, Double?) = (row["distance"], row["moving"])
                out[day] = OverlayShapes.DayFigures(
                    signature: UInt64(bitPattern: row["signature"]),
                    figures: distance.flatMap { d in moving.map { (d, $0) } })
            }
            return out
        }
    }

    /// Keeps the figures of `account`'s days (in the zone named `zone`), in place of those kept.
    func keep(account: String, zone: String, days: [CivilDate: OverlayShapes.DayFigures]) async throws {
        guard !days.isEmpty else { return }
        try await pool.write { db in
            let insert = try db.makeStatement(
                sql: """
                    INSERT OR REPLACE INTO day (account, zone, day, signature, distance, moving)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """)
            for (day, f) in days {
                try insert.execute(arguments: [
                    account, zone, day.description, Int64(bitPattern: f.signature), f.figures?.distance,
                    f.figures?.moving,
                ])
            }
        }
    }

    // MARK: the heat map's counts

    /// The kept counts of `rides` (any state), by ride.
    func heat(of rides: [Int64]) async throws -> [Int64: (RideState, [Int64: Int])] {
        try await pool.read { db in
            var out: [Int64: (RideState, [Int64: Int])] = [:]
            for chunk in Self.chunks(rides) {
                let rows = try Row.fetchCursor(
                    db,
                    sql: """
                        SELECT ride, points, start_ms, end_ms, cells FROM heat
                        WHERE ride IN (\(chunk.map(String.init).joined(separator: ",")))
                        """)
                while let row = try rows.next() {
                    var reader = PackedReader(row["cells"] as Data)
                    guard let cells = try? Self.unpackCells(&reader) else { continue }
                    out[row["ride"]] = (
                        RideState(points: row["points"], start: row["start_ms"], end: row["end_ms"]), cells
                    )
                }
            }
            return out
        }
    }

    /// The state of each of `rides` whose counts are kept (without reading the counts).
    func heatStates(of rides: [Int64]) async throws -> [Int64: RideState] {
        try await pool.read { db in
            var out: [Int64: RideState] = [:]
            for chunk in Self.chunks(rides) {
                for row in try Row.fetchAll(
                    db,
                    sql: """
                        SELECT ride, points, start_ms, end_ms FROM heat
                        WHERE ride IN (\(chunk.map(String.init).joined(separator: ",")))
                        """)
                {
                    out[row["ride"]] = RideState(points: row["points"], start: row["start_ms"], end: row["end_ms"])
                }
            }
            return out
        }
    }

    /// Keeps `counts` by ride, in place of what was kept of them.
    func keep(heat counts: [Int64: (RideState, [Int64: Int])]) async throws {
        guard !counts.isEmpty else { return }
        try await pool.write { db in
            let insert = try db.makeStatement(
                sql: "INSERT OR REPLACE INTO heat (ride, points, start_ms, end_ms, cells) VALUES (?, ?, ?, ?, ?)")
            for (ride, (state, cells)) in counts {
                var writer = PackedWriter()
                let keys = cells.keys.sorted()
                writer.int(Int64(keys.count))
                var previous: Int64 = 0
                for key in keys {
                    writer.int(key - previous)
                    writer.int(Int64(cells[key]!))
                    previous = key
                }
                try insert.execute(arguments: [ride, state.points, state.start, state.end, Data(writer.bytes)])
            }
        }
    }

    static func unpackCells(_ reader: inout PackedReader) throws -> [Int64: Int] {
        let count = try reader.count()
        var cells: [Int64: Int] = [:]
        cells.reserveCapacity(count)
        var key: Int64 = 0
        for _ in 0..<count {
            key += try reader.int()
            cells[key] = Int(try reader.int())
        }
        return cells
    }

    /// Takes away what is kept of rides not among `rides` (removed from the store).
    func forget(allBut rides: Set<Int64>) async throws {
        try await pool.write { db in
            for table in ["part", "heat"] {
                let kept = try Int64.fetchAll(db, sql: "SELECT DISTINCT ride FROM \(table)")
                for ride in kept where !rides.contains(ride) {
                    try db.execute(sql: "DELETE FROM \(table) WHERE ride = ?", arguments: [ride])
                }
            }
        }
    }
}

/// Whole numbers written in as few bytes as they need (zigzag, then 7 bits a byte), for the
/// cache's lines and counts, which are mostly small steps.
struct PackedWriter {
    var bytes: [UInt8] = []

    mutating func int(_ value: Int64) {
        var v = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while v >= 0x80 {
            bytes.append(UInt8(v & 0x7F) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func double(_ value: Double) { int(Int64(bitPattern: value.bitPattern)) }
}

/// Reads what ``PackedWriter`` wrote; throws at a truncated or foreign blob.
struct PackedReader {
    struct Truncated: Error {}

    let bytes: [UInt8]
    var at = 0

    init(_ data: Data) { bytes = [UInt8](data) }

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next `n` bytes as they are.
    mutating func bytes(_ n: Int) throws -> [UInt8] {
        guard n <= bytes.count - at else { throw Truncated() }
        defer { at += n }
        return Array(bytes[at..<at + n])
    }

    mutating func int() throws -> Int64 {
        var v: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard at < bytes.count, shift < 64 else { throw Truncated() }
            let byte = bytes[at]
            at += 1
            v |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1)
    }

    /// A count, which is never negative nor more than the bytes left could hold.
    mutating func count() throws -> Int {
        let n = try int()
        guard n >= 0, n <= bytes.count else { throw Truncated() }
        return Int(n)
    }

    mutating func double() throws -> Double { Double(bitPattern: UInt64(bitPattern: try int())) }
}
