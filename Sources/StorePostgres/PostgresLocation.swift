import Foundation
import GPSCore
import PostgresNIO

/// Where a PostgreSQL store is: `postgresql://USER[:PASSWORD]@HOST[:PORT]/DATABASE` (also
/// `postgres://`), as libpq and `psql` read it. The password may come from `$PGPASSWORD`
/// instead; `?host=/run/postgresql` connects through a Unix socket folder.
public struct PostgresLocation: Equatable, Sendable, CustomStringConvertible {
    public var user: String
    public var password: String?
    public var host: String
    public var port: Int
    public var database: String
    /// The folder of the server's Unix socket, when connecting through one.
    public var socketFolder: String?

    /// Whether `text` names a PostgreSQL store rather than a file.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Reads a URL; nil with the reason when it is not one this store can use.
    public static func parse(_ text: String, environment: [String: String] = Console.current.environment)
        -> Result<PostgresLocation, PostgresStoreError>
    {
        func bad(_ why: String) -> Result<PostgresLocation, PostgresStoreError> {
            .failure(.badURL(url: redacted(text), reason: why))
        }
        guard isURL(text), let components = URLComponents(string: text) else {
            return bad("write it as postgresql://USER@HOST:PORT/DATABASE")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else { return bad("it names no database after the host") }
        var location = PostgresLocation(
            user: components.user?.removingPercentEncoding ?? environment["PGUSER"] ?? environment["USER"]
                ?? "postgres",
            password: components.password?.removingPercentEncoding ?? environment["PGPASSWORD"],
            host: components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1",
            port: components.port ?? 5432, database: database.removingPercentEncoding ?? database)
        for item in components.queryItems ?? [] {
            switch item.name {
            case "host" where item.value?.hasPrefix("/") == true: location.socketFolder = item.value
            case "sslmode" where item.value == "disable": break
            default: return bad("the option \(item.name) is not known (host=/SOCKET/FOLDER and sslmode=disable are)")
            }
        }
        return .success(location)
    }

    /// The URL without its password, for sentences and logs.
    public var description: String {
        "postgresql://\(user)@\(socketFolder == nil ? "\(host):\(port)" : "")/\(database)"
            + (socketFolder.map { "?host=\($0)" } ?? "")
    }

    /// `text` with any password in it replaced by `***`.
    public static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text), components.password != nil else { return text }
        components.password = "***"
        return components.string ?? text
    }

    var configuration: PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socketFolder {
            configuration = .init(
                unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password,
                database: database)
        } else {
            configuration = .init(
                host: host, port: port, username: user, password: password, database: database, tls: .disable)
        }
        configuration.options.connectTimeout = .seconds(10)
        return configuration
    }

    /// The settings of a pool of at most `maximum` connections, each started with `parameters`.
    func clientConfiguration(maximum: Int, parameters: [(String, String)]) -> PostgresClient.Configuration {
        var pooled: PostgresClient.Configuration =
            if let socketFolder {
                .init(
                    unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password,
                    database: database)
            } else {
                .init(host: host, port: port, username: user, password: password, database: database, tls: .disable)
            }
        pooled.options.connectTimeout = .seconds(10)
        pooled.options.maximumConnections = maximum
        pooled.options.additionalStartupParameters = parameters
        return pooled
    }
}
