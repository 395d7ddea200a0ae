/// What kind of failure a service reports: the front end turns it into its own terms (an exit
/// code for the command line, a status for the server).
public enum FailureKind: Sendable {
    /// The request itself is wrong (a value that is not a time, a field without `=`).
    case badRequest
    /// Input data is not what it should be (not NMEA, a broken GPX file).
    case badData
    /// An input file is missing or unreadable.
    case missingInput
    /// Permission denied.
    case permission
    /// The store or an output cannot be written.
    case cannotWrite
    /// A service it needs (a server) does not answer now; trying later may work.
    case unavailable
    /// Another failure.
    case other
}

/// An error of a service: its description is one sentence that says what failed and what to do,
/// in the service's own words (no command-line flags).
public protocol ServiceFailure: Error, CustomStringConvertible {
    var kind: FailureKind { get }
}
