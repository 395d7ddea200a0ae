import Foundation
import GPSCore
import Logging
import PostgresNIO
import ServiceLifecycle
import Synchronization
@_exported import TrackModel

/// The track store in a PostgreSQL database: the same protocol and contract as the SQLite store,
/// for servers that outgrow one file (several `serve` processes on one database).
///
/// Migrations run by whoever opens the database first, under an advisory lock the others wait
/// for; a store with migrations this build does not know was written by a newer Trailbook and is
/// refused. Writes of one device are serialised by an advisory lock on the device (the rides and
/// segments a batch continues are read and written in the same transaction); writes of different
/// devices run side by side.
public final class PostgresStore: TrackStoring, Sendable {
    /// The URL without its password.
    public let path: String
    public let location: PostgresLocation
    public let mediaDirectory: String
    let connections: Connections
    /// Phones' devices by their token's hash (``readPhoneDevice(tokenHash:)``).
    let phoneDevices = PhoneDeviceCache()
    /// Devices' newest segments (``SegmentHints``).
    let segmentHints = SegmentHints()
    /// The months (`year * 12 + month - 1`) that have a partition of `position`.
    let knownMonths = Mutex<Set<Int>>([])
    /// `lock_timeout` of write transactions, ms (0: wait as long as it takes).
    let writeWait = Atomic<Int>(defaultWriteWait)
    static let defaultWriteWait = 10_000

    /// The local store's one user.
    public static let localUser = "me"
    /// The channel changes are announced on (``announcements()``): a JSON object with `kind`
    /// (`positions`, `grant`), `from` (the announcing store's ``instance``) and the names.
    public static let channel = "trailbook_change"
    /// This store's id in its announcements, so that it does not hear its own.
    public let instance = String(UUID().uuidString.prefix(8))

    /// Opens the store at `url`. With `create`, an empty database becomes a store (migrated);
    /// without, a database with no store is ``PostgresStoreError/noStore(location:)``.
    /// `mediaDirectory`: where photo files are kept (the database holds their references).
    public init(url: String, mediaDirectory: String, create: Bool = true, maximumConnections: Int = 16) throws {
        location = try PostgresLocation.parse(url).get()
        path = location.description
        self.mediaDirectory = mediaDirectory
        connections = Connections(location: location, maximum: maximumConnections)
        do {
            // On a connection of its own: a database that is away or refuses the login says so
            // at once, and the pool does not keep trying it in the background.
            let connections = self.connections
            let connection = try Blocking.wait { try await connections.direct.connect() }
            defer { try? Blocking.wait { try await connection.close() } }
            let session = Session(connection: connection, logger: connections.direct.logger)
            try PostgresSchema.migrate(session, location: path, create: create)
            // There too: the pool runs once the server's service group runs it, or a first unit
            // of work starts it.
            let unit = PostgresUnit(session, store: self, writes: true)
            try unit.run { try unit.ensurePartitions(Self.monthsAhead()) }
            for action in unit.afterCommit { action() }
        } catch {
            connections.close()
            throw PostgresStoreError.from(error, location: location)
        }
    }

    deinit { connections.close() }

    /// Runs `body` on the connection of a read unit (one snapshot), turning a lost connection into
    /// ``PostgresStoreError``: the store's upkeep and copy, which are no operations of the contract.
    func session<T>(_ body: (Session) throws -> T) throws -> T {
        try readUnit { try body($0.session()) }
    }

    /// Runs `body` in a write unit's transaction (waiting at most the write wait for locks).
    @discardableResult
    func writeSession<T>(_ body: (Session) throws -> T) throws -> T {
        try writeUnit { try body($0.session()) }
    }

    /// `body`'s value, or its failure as a ``PostgresStoreError`` when it is one of those.
    func mapped<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch { throw PostgresStoreError.from(error, location: location) }
    }

    /// Whether writes wait for locks as long as the connections do (no ``limitWriteWait(to:)``).
    var waitsAsConnected: Bool { writeWait.load(ordering: .relaxed) == Self.defaultWriteWait }

    public func limitWriteWait(to seconds: TimeInterval) throws {
        writeWait.store(max(1, Int((seconds * 1000).rounded())), ordering: .relaxed)
    }

    /// Whether `error` is a write that gave up waiting for a lock (lock_not_available).
    public func isBusy(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "55P03"
    }

    /// Whether `error` is the database server not answering (stopped, restarting, unreachable).
    public func isUnavailable(_ error: any Error) -> Bool {
        (error as? PostgresStoreError)?.isUnavailable ?? Connections.isConnectionFailure(error)
    }

    /// Closes the connections; the store cannot be used after.
    public func close() { connections.close() }

    /// Names of the migrations applied, oldest first.
    public func appliedMigrations() throws -> [String] {
        try session {
            try $0.values("SELECT name FROM trailbook_migration ORDER BY applied_ms, name", as: String.self)
        }
    }

    // MARK: partitions

    /// The month partitions of `position` for the current month and the two after it, made
    /// ahead of time so that ingestion rarely makes one.
    public func ensurePartitionsAhead(now: Int64 = UTCTimestamp.now()) throws {
        try writeUnit { try $0.ensurePartitions(Self.monthsAhead(now: now)) }
    }

    /// The month of `now` and the two after it.
    static func monthsAhead(now: Int64 = UTCTimestamp.now()) -> Set<Int> {
        let month = Self.month(of: now)
        return [month, month + 1, month + 2]
    }

    /// Runs the store's pool in the server's service group: until the group shuts down, then
    /// the store closes (its connections after the server's and the notifier's last units,
    /// as it is the group's first service).
    public var service: some Service { StoreService(store: self) }

    /// `year * 12 + month - 1` of a time (ms since 1970, UTC).
    static func month(of ms: Int64) -> Int {
        let days = Int(ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000)
        let date = CivilDate(daysSinceEpoch: days)
        return date.year * 12 + date.month - 1
    }

    /// The first millisecond of a month.
    static func start(ofMonth month: Int) -> Int64 {
        let year = month >= 0 ? month / 12 : (month - 11) / 12
        return Int64(CivilDate(year: year, month: month - year * 12 + 1, day: 1)!.daysSinceEpoch) * 86_400_000
    }

    static func partitionName(_ month: Int) -> String {
        let year = month >= 0 ? month / 12 : (month - 11) / 12
        return String(format: "position_y%04dm%02d", year, month - year * 12 + 1)
    }
}

extension PostgresStoring {
    /// Makes the partitions of the months that lack one, in the unit's transaction, under an
    /// advisory lock (two processes do not make the same one).
    func ensurePartitions(_ wanted: Set<Int>) throws {
        let store = access.store
        let missing = store.knownMonths.withLock { wanted.subtracting($0) }
        guard !missing.isEmpty else { return }
        try write { session in
            try session.execute("SELECT pg_advisory_xact_lock(\(PostgresSchema.migrationLock + 1))")
            let existing = Set(
                try session.values(
                    """
                    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                    WHERE i.inhparent = 'position'::regclass
                    """, as: String.self))
            for month in missing.sorted() where !existing.contains(PostgresStore.partitionName(month)) {
                try session.execute(
                    PostgresQuery(
                        unsafeSQL: """
                            CREATE TABLE \(PostgresStore.partitionName(month)) PARTITION OF position
                            FOR VALUES FROM (\(PostgresStore.start(ofMonth: month))) TO (\(PostgresStore.start(ofMonth: month + 1)))
                            """))
            }
        }
        // They are known once the unit has committed.
        access.afterCommit { store.knownMonths.withLock { $0.formUnion(missing) } }
    }

}

extension PostgresStore {
    /// The columns of a position as ``fix(_:)`` reads them.
    static let positionColumns = "t, lat, lon, alt, speed, track, hdop, mode_sats, sensors"

    /// A fix read back from a position row.
    static func fix(_ row: PostgresRandomAccessRow) throws -> Fix {
        var fix = Fix()
        UTCTimestamp.set(try row.get("t", as: Int64.self), on: &fix)
        let lat = try row.get("lat", as: Int64.self)
        let lon = try row.get("lon", as: Int64.self)
        fix.coordinate = Coordinate(latitude: Double(lat) / 1e7, longitude: Double(lon) / 1e7)
        fix.altitudeMSL = try row.optional("alt", as: Int64.self).map { Double($0) / 100 }
        fix.speed = try row.optional("speed", as: Int64.self).map { Double($0) / 100 }
        fix.track = try row.optional("track", as: Int64.self).map { Double($0) / 100 }
        fix.hdop = try row.optional("hdop", as: Int64.self).map { Double($0) / 100 }
        let modeSats = try row.get("mode_sats", as: Int.self)
        fix.mode = FixMode(rawValue: modeSats % 4) ?? .unknown
        fix.satellitesUsed = modeSats / 4 == 0 ? nil : modeSats / 4
        fix.sensors = try row.optional("sensors", as: Int64.self).map(Sensors.init(packed:))
        return fix
    }

    /// The earliest and latest time stored (ms), as the SQLite store's keys hold them.
    static let earliest: Int64 = -(1 << 42)
    static let latest: Int64 = (1 << 42) - 1
}

/// ``PostgresStore/service``.
struct StoreService: Service {
    let store: PostgresStore

    func run() async throws {
        // A unit that came before the group started the pool in a task of the store's.
        if await !store.connections.runClient() { try? await gracefulShutdown() }
        store.close()
    }
}
