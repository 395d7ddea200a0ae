import CPosix
import Foundation

/// A throwaway PostgreSQL cluster for the tests: `initdb` in a temporary folder, a free port on
/// 127.0.0.1, trust authentication for the user `trailbook`, run as `nobody` when the tests run
/// as root (PostgreSQL refuses to run as root). One per test process, started on first use and
/// stopped and removed when the process exits. Without Debian's `postgresql` the tests that need
/// it fail with a sentence saying what to install.
public final class PostgresCluster: Sendable {
    public let port: Int
    /// The data folder (also holds the server's log and its Unix socket).
    public let directory: String
    let binaries: String
    let runAs: String?
    /// Whether a commit is on disk before it returns (PostgreSQL's defaults). The shared cluster
    /// trades that for speed; a test that crashes the server needs it.
    let durable: Bool

    private static let lock = NSLock()
    nonisolated(unsafe) private static var started: PostgresCluster?
    /// Clusters of single tests (``ownCluster()``), removed at exit too.
    nonisolated(unsafe) private static var own: [PostgresCluster] = []
    nonisolated(unsafe) private static var failure: (any Error)?
    private static let databases = Locked(0)

    /// The cluster of this test process, started on first use.
    public static func shared() throws -> PostgresCluster {
        lock.lock()
        defer { lock.unlock() }
        if let started { return started }
        if let failure { throw failure }
        do {
            let cluster = try PostgresCluster()
            started = cluster
            atexit { PostgresCluster.removeShared() }
            return cluster
        } catch {
            failure = error
            throw error
        }
    }

    private static func removeShared() {
        lock.lock()
        defer { lock.unlock() }
        started?.remove()
        started = nil
        for cluster in own { cluster.remove() }
        own = []
    }

    /// A cluster of the caller's own, for a test that stops and starts it (the shared one
    /// serves tests running at the same time); removed when the process exits.
    public static func ownCluster() throws -> PostgresCluster {
        _ = try? shared()  // registers the removal at exit
        let cluster = try PostgresCluster(durable: true)
        lock.lock()
        own.append(cluster)
        lock.unlock()
        return cluster
    }

    /// The folder of `initdb`, `pg_ctl` and `postgres` (Debian keeps them per major version).
    static func findBinaries() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .filter { Int($0) != nil }.sorted { Int($0)! > Int($1)! }
        for version in versions where access("\(root)/\(version)/bin/initdb", X_OK) == 0 {
            return "\(root)/\(version)/bin"
        }
        throw SupportError(
            "PostgreSQL's server is not installed (no \(root)/*/bin/initdb): run `make deps-test` "
                + "or `apt-get install postgresql`.")
    }

    init(durable: Bool = false) throws {
        self.durable = durable
        binaries = try Self.findBinaries()
        runAs = getuid() == 0 ? "nobody" : nil
        var template = Array("/tmp/trailbook-pg-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw SupportError("Cannot make a folder for the PostgreSQL cluster: \(String(cString: strerror(errno))).")
        }
        directory = String(cString: made)
        if let runAs {
            guard let user = getpwnam(runAs) else { throw SupportError("There is no user \(runAs) to run PostgreSQL.") }
            guard chown(directory, user.pointee.pw_uid, user.pointee.pw_gid) == 0 else {
                throw SupportError("Cannot give \(directory) to \(runAs): \(String(cString: strerror(errno))).")
            }
        }
        port = try GPSFake.freePort()
        try run(
            "\(binaries)/initdb",
            ["-D", directory + "/data", "-U", "trailbook", "--auth=trust", "-E", "UTF8", "--no-sync"],
            asServer: true)
        try start()
    }

    /// Runs a program, failing with its output when it fails. `asServer`: as the cluster's user.
    /// Spawned and waited for here (not with Foundation's Process, which on Linux can miss the
    /// exit of `runuser` and wait for ever).
    @discardableResult
    func run(_ program: String, _ arguments: [String], asServer: Bool = false) throws -> String {
        let argv =
            asServer && runAs != nil
            ? ["/usr/sbin/runuser", "-u", runAs!, "--", program] + arguments : [program] + arguments
        let output = directory + "/command-\(UUID().uuidString).out"
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The server pg_ctl starts lives on: it must not hold another test's pipe (that test's
        // read would never end).
        tb_spawn_close_from(&actions, 3)
        var pointers = argv.map { strdup($0) }
        defer { for pointer in pointers { free(pointer) } }
        pointers.append(nil)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, pointers, environ)
        guard spawned == 0 else {
            throw SupportError("Cannot run \(argv[0]): \(String(cString: strerror(spawned))).")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        // Exited normally with status 0 (WIFEXITED and WEXITSTATUS, which Swift does not import).
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw SupportError("\((program as NSString).lastPathComponent) failed: \(text)")
        }
        return text
    }

    /// Starts the server (again, after ``stop()``), waiting until it accepts connections.
    public func start() throws {
        let options =
            "-p \(port) -c listen_addresses=127.0.0.1 -k \(directory) -c max_connections=300"
            + (durable ? "" : " -c fsync=off -c synchronous_commit=off -c full_page_writes=off")
        try run(
            "\(binaries)/pg_ctl",
            ["-D", directory + "/data", "-l", directory + "/server.log", "-o", options, "-w", "start"],
            asServer: true)
    }

    /// Stops the server at once (connections are cut, as when a database host goes away).
    public func stop() throws {
        try run("\(binaries)/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"], asServer: true)
    }

    /// Stops the server and removes its folder.
    func remove() {
        _ = try? stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The URL of `database` for the user `trailbook`.
    public func url(database: String) -> String { "postgresql://trailbook@127.0.0.1:\(port)/\(database)" }

    /// Makes a new, empty database and returns its URL.
    public func newDatabase() throws -> String {
        let n = Self.databases.withLock { n in
            n += 1
            return n
        }
        let name = "t\(getpid())_\(n)"
        try run(
            "/usr/bin/psql",
            [
                "-X", "-q", "-h", "127.0.0.1", "-p", String(port), "-U", "trailbook", "-d", "postgres", "-c",
                "CREATE DATABASE \(name)",
            ])
        return url(database: name)
    }

    /// Runs the SQL file at `path` (a `pg_dump`, say) on the database of `url`, stopping at the
    /// first error.
    public func restore(_ path: String, into url: String) throws {
        let database = String(url.split(separator: "/").last ?? "")
        try run(
            "/usr/bin/psql",
            [
                "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(port), "-U", "trailbook", "-d",
                database, "-f", path,
            ])
    }

    /// Runs SQL with psql on `database` and returns what it printed (unaligned, tuples only,
    /// values joined by `separator`).
    public func psql(_ sql: String, database: String, separator: String = "|") throws -> String {
        try run(
            "/usr/bin/psql",
            [
                "-F", separator,
                "-X", "-q", "-A", "-t", "-h", "127.0.0.1", "-p", String(port), "-U", "trailbook", "-d", database, "-c",
                sql,
            ])
    }
}
