import GPSDevices
import TrackStore

/// The command line's words for library failures: the exit code, and where the sentence of a
/// library can point at an option, the hint that names it. The one place that adds CLI hints.
extension DeviceError {
    /// The failure as the command reports it: the sentence and the documented exit code.
    var commandFailure: CommandFailure {
        let code: ExitStatus
        switch kind {
        case .unavailable: code = .unavailable
        case .permission: code = .noPermission
        case .usage: code = .usage
        case .noInput: code = .noInput
        case .dataError: code = .dataError
        }
        return CommandFailure(message: description + hint, code: code)
    }

    /// The options that do what the sentence says.
    private var hint: String {
        switch self {
        case .missing: return " (--device PATH names the receiver.)"
        case .noNMEA(_, let bauds, _) where bauds.count == 1: return " (--baud auto probes the rates.)"
        case .gpsdUnavailable: return " (--device PATH reads it directly.)"
        default: return ""
        }
    }
}

extension StoreError {
    /// The failure as the command reports it, with the option that chooses another store.
    var commandFailure: CommandFailure {
        switch self {
        case .cannotOpen(_, let reason):
            let denied = reason.localizedCaseInsensitiveContains("permission")
            return CommandFailure(
                message: description + " Or choose another store with --store.",
                code: denied ? .noPermission : .cannotCreate)
        case .notAStore: return CommandFailure(message: description + " (--store PATH)", code: .cannotCreate)
        case .newerSchema: return CommandFailure(message: description, code: .failure)
        }
    }
}
