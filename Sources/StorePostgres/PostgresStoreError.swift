import Foundation
import PostgresNIO

/// Why a PostgreSQL store cannot be used. Each description is one sentence that says what to do.
public enum PostgresStoreError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The URL is not one the store can use.
    case badURL(url: String, reason: String)
    /// The server does not answer (not running, wrong host or port, gone away).
    case unreachable(location: String, reason: String)
    /// The server refused the user or password.
    case refused(location: String, reason: String)
    /// The database does not exist.
    case noDatabase(location: String)
    /// The database holds no Trailbook store yet (and the caller only reads, so none is made).
    case noStore(location: String)
    /// The database holds tables of another application.
    case notAStore(location: String, reason: String)
    /// The store was written by a newer Trailbook.
    case newerSchema(location: String, unknown: [String])
    /// The store was closed.
    case closed

    public var description: String {
        switch self {
        case .badURL(let url, let reason): return "The store URL \(url) cannot be used: \(reason)."
        case .unreachable(let location, let reason):
            return
                "The PostgreSQL server of \(location) does not answer (\(reason)); check that it runs and the host and port."
        case .refused(let location, let reason):
            return "The PostgreSQL server refused the login to \(location) (\(reason)); check the user and password "
                + "(in the URL or $PGPASSWORD)."
        case .noDatabase(let location):
            return "The database of \(location) does not exist; create it (createdb) and try again."
        case .noStore(let location):
            return "There is no Trailbook store in \(location) yet; import or record something into it first."
        case .notAStore(let location, let reason):
            return "\(location) is not a Trailbook store (\(reason)); give an empty database or a Trailbook one."
        case .newerSchema(let location, let unknown):
            return
                "The store \(location) was written by a newer Trailbook (schema \(unknown.joined(separator: ", "))); "
                + "upgrade Trailbook to read it."
        case .closed: return "The store was closed."
        }
    }

    /// Whether the failure is the database being away for now (a request can be tried again).
    public var isUnavailable: Bool {
        if case .unreachable = self { return true }
        return false
    }

    /// The error a failed connection attempt or query stands for, as one of these when it is
    /// one of them (else the error itself).
    static func from(_ error: any Error, location: PostgresLocation) -> any Error {
        if let error = error as? PostgresStoreError { return error }
        guard let psql = error as? PSQLError else {
            // PostgresNIO's pool gives up after a minute of failed connection attempts.
            if String(reflecting: type(of: error)).hasSuffix("ConnectionPoolError") {
                return PostgresStoreError.unreachable(
                    location: location.description, reason: "no connection could be made for a minute")
            }
            if Connections.isConnectionFailure(error) || error is IOError {
                return PostgresStoreError.unreachable(location: location.description, reason: reason("\(error)", error))
            }
            return error
        }
        let state = psql.serverInfo?[.sqlState] ?? ""
        let message = psql.serverInfo?[.message] ?? ""
        switch psql.code {
        case .poolClosed: return PostgresStoreError.closed
        case .server where state == "28P01" || state == "28000":
            return PostgresStoreError.refused(location: location.description, reason: message)
        case .server where state == "3D000": return PostgresStoreError.noDatabase(location: location.description)
        case .authMechanismRequiresPassword, .unsupportedAuthMechanism, .saslError:
            return PostgresStoreError.refused(location: location.description, reason: "\(psql.code)")
        default:
            if Connections.isConnectionFailure(psql) {
                return PostgresStoreError.unreachable(
                    location: location.description, reason: reason(psql.underlying.map { "\($0)" } ?? message, psql))
            }
            return error
        }
    }

    /// The system's words for a connection failure, from the long description NIO gives.
    static func reason(_ text: String, _ error: any Error) -> String {
        for known in [
            "Connection refused", "Connection reset", "timed out", "No route to host", "Network is unreachable",
            "Name or service not known", "No such file or directory",
        ] where text.localizedCaseInsensitiveContains(known) {
            return known.lowercased()
        }
        if let psql = error as? PSQLError { return psql.serverInfo?[.message] ?? "\(psql.code)" }
        return text
    }
}
