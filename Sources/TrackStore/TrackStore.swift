import Foundation
internal import GRDB
// The value types and the store protocol are the store's API: whoever imports the store sees them.
@_exported import TrackModel

/// The SQLite file that holds everything recorded, read and written through GRDB on the
/// system SQLite.
///
/// WAL mode (readers never block the writer, a power cut loses at most the last transaction),
/// a busy timeout for the moments two processes write, and migrations run by whoever opens the
/// file first, inside GRDB's migration lock. A store with migrations this build does not know
/// was written by a newer Trailbook and is refused.
public final class TrackStore: Sendable {
    public let path: String
    let databasePool: DatabasePool
    /// The async write units waiting for the writer, committed a group at a time.
    let writeGroups = WriteGroups()

    /// How long a writer waits for another one, seconds.
    public static let busyTimeout: TimeInterval = 10

    /// Whether `error` means another process was writing to the store (SQLite's SQLITE_BUSY).
    public static func isBusy(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_BUSY
    }

    /// Opens (creating when needed, folder 0700 and file 0600) and migrates the store at `path`.
    public convenience init(path: String) throws(StoreError) {
        try self.init(path: path, migratingUpTo: nil)
    }

    /// Opens and migrates the store at `path`, which must exist: for callers that only read, so a
    /// mistyped path makes nothing.
    public convenience init(existingAt path: String) throws(StoreError) {
        guard FileManager.default.fileExists(atPath: path) else { throw .noStore(path: path) }
        try self.init(path: path, migratingUpTo: nil)
    }

    /// Opens the store, applying migrations up to and including `last` (all when nil): tests
    /// use it to make stores as earlier versions left them.
    init(path: String, migratingUpTo last: String?) throws(StoreError) {
        self.path = path
        try Self.createPrivately(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.foreignKeysEnabled = true
        // Deleted content is overwritten with zeros in the file, not just unlinked: `trailbook rm`
        // removes for good.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA secure_delete = ON") }
        databasePool = try Self.openPool(path, configuration)
        let migrator = Schema.migrator()
        do {
            if last == nil { try Schema.createIfEmpty(databasePool) }
            let unknown = try databasePool.read { db in
                try migrator.appliedIdentifiers(db).subtracting(Set(migrator.migrations))
            }
            if !unknown.isEmpty { throw StoreError.newerSchema(path: path, unknown: unknown.sorted()) }
            // Each migration is a transaction, but which ones are due is read before them: two
            // processes opening a new store together can both start the same migration, and the
            // second fails (its transaction rolled back). Reading again then finds it applied.
            var attempt = 0
            while true {
                do {
                    if let last {
                        try migrator.migrate(databasePool, upTo: last)
                    } else {
                        try migrator.migrate(databasePool)
                    }
                    break
                } catch  where attempt < 4 {
                    attempt += 1
                }
            }
            // GRDB's WAL default is synchronous = NORMAL, which can lose the last commits in a
            // power cut; FULL syncs the log at every commit (once a second for `record`), so a
            // power cut loses at most the last commit interval. Set on the one writer connection.
            try databasePool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.notAStore(path: path, reason: Self.reason(error))
        }
    }

    /// Why a file is not a store, in words: not SQLite at all, or SQLite's message (not its SQL).
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DatabaseError else { return "\(error)" }
        if error.resultCode == .SQLITE_NOTADB { return "it is not an SQLite database" }
        return "SQLite: " + (error.message ?? "\(error.resultCode)")
    }

    /// Opens the pool. Switching a new file to WAL needs a moment alone with it, and SQLite does
    /// not wait for that: while another process is creating the same store, it is tried again
    /// (up to the busy timeout).
    private static func openPool(_ path: String, _ configuration: Configuration) throws(StoreError) -> DatabasePool {
        let deadline = ContinuousClock.now + .seconds(busyTimeout)
        while true {
            do {
                return try DatabasePool(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && ContinuousClock.now < deadline
            {
                Thread.sleep(forTimeInterval: 0.05)
            } catch {
                throw StoreError.notAStore(path: path, reason: Self.reason(error))
            }
        }
    }

    /// Creates the folders (0700) and the file (0600) that do not exist yet, failing with the
    /// system's reason.
    static func createPrivately(_ path: String) throws(StoreError) {
        var folder = path.hasPrefix("/") ? "" : "."
        for part in (path as NSString).deletingLastPathComponent.split(separator: "/") {
            folder += "/" + part
            if FileManager.default.fileExists(atPath: folder) { continue }
            if mkdir(folder, 0o700) != 0 && errno != EEXIST {
                throw .cannotOpen(path: path, reason: "cannot create \(folder): \(String(cString: strerror(errno)))")
            }
        }
        // Only a file this call creates is opened and closed here. Closing a descriptor of a file
        // drops every POSIX lock the process holds on it, SQLite's included: a store already open
        // in this process would lose its shared lock, and another process closing the store
        // would then take it for the last one and delete the write-ahead log under its writes.
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
        } else if errno != EEXIST || access(path, R_OK | W_OK) != 0 {
            throw .cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Names of the migrations applied, in the order they apply.
    public func appliedMigrations() throws -> [String] {
        let migrator = Schema.migrator()
        let applied = try databasePool.read { db in try migrator.appliedIdentifiers(db) }
        return migrator.migrations.filter(applied.contains)
    }
}

extension TrackStore: TrackStoring {
    public func limitWriteWait(to seconds: TimeInterval) throws {
        try databasePool.writeWithoutTransaction { db in try Self.limitWriteWait(db, to: seconds) }
    }

    public func isBusy(_ error: any Error) -> Bool { Self.isBusy(error) }

    /// A file is never away (a full or broken disk is not something to wait for).
    public func isUnavailable(_ error: any Error) -> Bool { false }

    static func limitWriteWait(_ db: Database, to seconds: TimeInterval) throws {
        try db.execute(sql: "PRAGMA busy_timeout = \(Int((seconds * 1000).rounded()))")
    }
}

extension SQLiteStoring {
    /// Makes this process's writes wait at most `seconds` for another process's write to end
    /// (instead of ``TrackStore/busyTimeout``), then fail with an error that ``isBusy(_:)``
    /// recognises. For `record`, which must not stop reading its receiver while another process
    /// holds the store.
    public func limitWriteWait(to seconds: TimeInterval) throws {
        try pool.writeWithoutTransaction { db in try TrackStore.limitWriteWait(db, to: seconds) }
    }

    public func makeWriter(device: DeviceID) -> any TrackWriting { TrackWriter(store: self, device: device) }

    public func isBusy(_ error: any Error) -> Bool { TrackStore.isBusy(error) }

    /// A file is never away (a full or broken disk is not something to wait for).
    public func isUnavailable(_ error: any Error) -> Bool { false }
}

extension TrackWriter: TrackWriting {}
