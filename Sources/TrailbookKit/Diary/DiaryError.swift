import Foundation

/// Why a diary request cannot be done. Times in the sentences are local, already formatted.
public enum DiaryError: ServiceFailure, Equatable {
    case noRecord(Int64, store: String)
    case noNote(Int64, store: String)
    case noField(record: Int64, key: String)
    /// No stored fix within `seconds` of the local time.
    case noFixNear(String, seconds: Int)
    /// No fix stored in the last `seconds`.
    case noRecentFix(seconds: Int)
    /// No record or stored point within `seconds` of the local time.
    case noRecordNear(String, seconds: Int)
    case emptyNote
    case emptyNewText(note: Int64)
    /// A field written without `KEY=VALUE`.
    case notAField(String)
    case badFieldName(String)
    /// A time range whose end is not after its start.
    case emptyRange
    /// No record kind of that name in the config.
    case noKind(String, known: [String])
    /// The fields do not fit their kind: the sentence says which field and rule.
    case badRecord(String)
    /// The store has no account of that name.
    case noAccount(String)

    public var kind: FailureKind {
        switch self {
        case .noRecord, .noNote, .noField, .noAccount: return .missingInput
        case .noFixNear, .noRecentFix, .noRecordNear, .emptyNote, .emptyNewText: return .badData
        case .notAField, .badFieldName, .emptyRange, .noKind: return .badRequest
        case .badRecord: return .badData
        }
    }

    public var description: String {
        switch self {
        case .noRecord(let id, let store): return "There is no record \(id) in \(store)."
        case .noAccount(let name): return "There is no account \(name); trailbook user list shows them."
        case .noKind(let name, let known):
            return known.isEmpty
                ? "There is no record kind \(name): declare it as [kinds.\(name)] in the config file (docs/CONFIG.md)."
                : "There is no record kind \(name); the config declares \(known.joined(separator: ", "))."
        case .badRecord(let sentence): return sentence + " Nothing was stored."
        case .noNote(let id, let store): return "There is no note \(id) in \(store)."
        case .noField(let record, let key): return "Record \(record) has no field \(key); nothing removed."
        case .noFixNear(let time, let seconds):
            return
                "No stored fix lies within \(seconds) s of \(time); give the place, or allow a wider distance in time."
        case .noRecentFix(let seconds):
            return "There is no recent fix (none stored in the last \(seconds) s); give the place, or a past time."
        case .noRecordNear(let time, let seconds):
            return "No record or stored point lies within \(seconds) s of \(time); give a record id, "
                + "a wider distance in time, or mark the place first."
        case .emptyNote: return "The note is empty; nothing added."
        case .emptyNewText(let note): return "The new text of note \(note) is empty; delete the note instead."
        case .notAField(let text):
            return "'\(text)' has no KEY=VALUE form; write for example weather=sunny or weight_kg=12.5."
        case .badFieldName(let key): return "Field name '\(key)' may hold only letters, digits, '_', '-' and '.'."
        case .emptyRange: return "The end of the time range must be after its start."
        }
    }
}
