import Foundation
import GPSDevices
import StorePostgres
import TrackStore
import TrailbookKit

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
        case .noStore(let path):
            let fallback = StoreOptions.defaultPath
            let hint =
                fallback != path && FileManager.default.fileExists(atPath: fallback)
                ? " The default store is \(fallback) (leave out --store to use it)."
                : " Check --store, or record or import something first (trailbook import FILE)."
            return CommandFailure(message: description + hint, code: .noInput)
        }
    }
}

extension PostgresStoreError {
    /// The failure as the command reports it: the server away or the database missing 69, the
    /// login refused 77, a URL that cannot be used 64.
    var commandFailure: CommandFailure {
        switch self {
        case .badURL: return CommandFailure(message: description, code: .usage)
        case .unreachable, .noDatabase, .closed: return CommandFailure(message: description, code: .unavailable)
        case .refused: return CommandFailure(message: description, code: .noPermission)
        case .noStore: return CommandFailure(message: description + " (--store URL)", code: .noInput)
        case .notAStore: return CommandFailure(message: description + " (--store URL)", code: .cannotCreate)
        case .newerSchema: return CommandFailure(message: description, code: .failure)
        }
    }
}

/// A service failure as the command reports it: the documented exit code for its kind, and the
/// command that helps, where there is one.
func commandFailure(_ failure: any ServiceFailure) -> CommandFailure {
    var hint = ""
    switch failure {
    case let failure as DiaryError:
        switch failure {
        case .noRecord: hint = " (trailbook records lists them.)"
        case .noNote: hint = " (trailbook records shows notes with their ids.)"
        case .noFixNear: hint = " (--lat and --lon give the place; --within widens the search.)"
        case .noRecentFix: hint = " (--lat and --lon give the place, --at a past time.)"
        case .noRecordNear: hint = " (--within widens the search; trailbook mark adds a record.)"
        case .emptyNewText(let note): hint = " (trailbook note rm \(note))"
        default: break
        }
    case let failure as QueryError:
        switch failure {
        case .noRide, .noRides: hint = " (trailbook rides lists what is stored.)"
        }
    case let failure as UploadError:
        switch failure {
        case .severalDevices: hint = " (--device-name NAME)"
        case .noDevice: hint = " (trailbook rides --json shows each ride's device.)"
        default: break
        }
    case let failure as OutputError:
        if case .isAFolder = failure { hint = " (-o names the file.)" }
    case let failure as PhotoError:
        switch failure {
        case .noneFound: hint = " (Give .jpg files or folders holding them.)"
        default: break
        }
    default: break
    }
    return CommandFailure(message: failure.description + hint, code: ExitStatus(failure.kind))
}
