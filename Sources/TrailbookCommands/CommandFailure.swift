import TrailbookKit

/// A failure that ends a command: one sentence for the user and a `sysexits.h` exit code.
struct CommandFailure: Error, CustomStringConvertible {
    var message: String
    var code: ExitStatus

    var description: String { message }
}

/// The exit codes Trailbook documents (BSD `sysexits.h`).
enum ExitStatus: Int32 {
    case ok = 0
    case failure = 1
    /// Bad usage: unknown option, wrong argument.
    case usage = 64
    /// Input data is not what it should be (not NMEA, broken GPX).
    case dataError = 65
    /// Input file missing or unreadable.
    case noInput = 66
    /// Device or gpsd unavailable.
    case unavailable = 69
    /// Cannot create or write the output or the store.
    case cannotCreate = 73
    /// Permission denied.
    case noPermission = 77
    /// Bad configuration.
    case config = 78
    /// Stopped by Ctrl-C (128 + SIGINT, as shells report it).
    case interrupted = 130
}

extension ExitStatus {
    /// The documented exit code for a kind of service failure: the one place that maps them.
    init(_ kind: FailureKind) {
        switch kind {
        case .badRequest: self = .usage
        case .badData: self = .dataError
        case .missingInput: self = .noInput
        case .permission: self = .noPermission
        case .cannotWrite: self = .cannotCreate
        case .unavailable: self = .unavailable
        case .other: self = .failure
        }
    }
}
