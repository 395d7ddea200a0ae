import GPSCore
import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// The statements a phone's point runs, parsed and planned once per connection.
///
/// Under load, PostgreSQL spent most of its time planning them, not running them
/// (`pg_stat_statements` with `track_planning`, 50 phones saturating one server: 20 s of planning
/// for 7 s of execution). PostgresNIO prepares a statement under its type's name, with a fixed
/// text; these statements are built with ``PostgresQuery`` interpolation like the others, so each
/// has a key type, and its text is the text of its first use. A later use whose text differs
/// (no call site builds one) runs unprepared, as every other statement does.
///
/// A parameter that is NULL when the statement is prepared has the type its context gives it:
/// every optional value these statements take is cast in the text (`::bigint`, `::float8`) to
/// the type its Swift value has.
protocol PreparedKey: Sendable {}

/// The key types of the prepared statements.
enum Prepared {
    /// ``PostgresWriter/finish(_:device:segments:rides:announcing:store:)``.
    enum Finish: PreparedKey {}
    /// The insert of a batch's points (``PostgresWriter/insert(_:device:_:importID:locking:)``).
    enum Insert: PreparedKey {}
    /// A phone's insert with the segments around its first point, which may place that point too
    /// (``PostgresWriter/insertLocked(_:_:placing:)``).
    enum InsertLocked: PreparedKey {}
    /// A phone's one point placed by a statement that is a transaction of its own
    /// (``PostgresWriter/placeAlone(_:_:)``).
    enum PlaceAlone: PreparedKey {}
    /// The segments on either side of a point.
    enum Neighbours: PreparedKey {}
    /// A device by its token.
    enum DeviceByToken: PreparedKey {}
    /// The grants a viewer has.
    enum GrantsOfViewer: PreparedKey {}
    /// The grants an owner gave.
    enum GrantsOfOwner: PreparedKey {}
    /// An account's devices with their newest points.
    enum RecentPoints: PreparedKey {}
    /// A device's battery and accuracy.
    enum DeviceState: PreparedKey {}
    /// What a device's live viewers are shown.
    enum LiveView: PreparedKey {}

    /// The text of each key's statement, from its first use.
    private static let texts = Mutex<[ObjectIdentifier: String]>([:])

    /// Whether `sql` is the text of `key`'s statement (the first text given is).
    static func register<Key: PreparedKey>(_ key: Key.Type, _ sql: String) -> Bool {
        texts.withLock { texts in
            if let known = texts[ObjectIdentifier(key)] { return known == sql }
            texts[ObjectIdentifier(key)] = sql
            return true
        }
    }

    static func text<Key: PreparedKey>(_ key: Key.Type) -> String {
        texts.withLock { $0[ObjectIdentifier(key)] ?? "" }
    }
}

/// One use of `Key`'s statement, with its values.
struct PreparedUse<Key: PreparedKey>: PostgresPreparedStatement {
    typealias Row = PostgresRow
    static var sql: String { Prepared.text(Key.self) }
    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}

extension Session {
    /// The rows of `query`, run as `key`'s prepared statement.
    @discardableResult
    func query<Key: PreparedKey>(prepared key: Key.Type, _ query: PostgresQuery) throws -> [PostgresRandomAccessRow] {
        let registered = Prepared.register(key, query.sql)
        // A statement whose text varies had a value put in its text instead of bound: each use
        // would be parsed and planned again (tests run debug builds, where this stops them).
        assert(registered, "the text of \(key)'s statement changed: bind its values")
        guard prepares, registered else { return try self.query(query) }
        let (connection, logger) = (connection, logger)
        let promise = connection.eventLoop.makePromise(of: [PostgresRow].self)
        // PostgresNIO's prepared statements are async only: the task runs on the offload
        // helper's unit threads, not on a cooperative thread a synchronous caller may be holding.
        Task(executorPreference: Blocking.units) {
            do { promise.succeed(try await Self.rows(of: key, query, on: connection, logger: logger)) } catch {
                promise.fail(error)
            }
        }
        return try Connections.settled(promise.futureResult, on: connection).map { $0.makeRandomAccess() }
    }

    /// The rows of `query` run as `key`'s prepared statement on `connection`.
    static func rows<Key: PreparedKey>(
        of key: Key.Type, _ query: PostgresQuery, on connection: PostgresConnection, logger: Logger
    ) async throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        for try await row in try await connection.execute(PreparedUse<Key>(bindings: query.binds), logger: logger) {
            rows.append(row)
        }
        return rows
    }

    /// The first column of every row of `query`, run as `key`'s prepared statement.
    func values<Key: PreparedKey, T: PostgresDecodable>(
        prepared key: Key.Type, _ query: PostgresQuery, as type: T.Type = T.self
    ) throws -> [T] {
        try self.query(prepared: key, query).map { try $0[0].decode(T.self) }
    }
}
