/// Why output could not be written: to standard output or to a file named by the caller.
public enum OutputError: ServiceFailure, Equatable {
    /// A write to the output failed (a full disk, a closed pipe).
    case writeFailed(reason: String)
    /// The output path names a folder; `suffix` is the file type, for the example name.
    case isAFolder(path: String, suffix: String)
    /// The file (its temporary name) could not be created.
    case cannotCreate(path: String, reason: String)
    /// The file could not be synced or renamed into place.
    case cannotFinish(path: String, reason: String)

    public var kind: FailureKind { .cannotWrite }

    public var description: String {
        switch self {
        case .writeFailed(let reason): "Writing the output failed: \(reason)."
        case .isAFolder(let path, let suffix):
            "\(path) is a folder; give a file name, for example \(path)/trailbook.\(suffix)."
        case .cannotCreate(let path, let reason):
            "Cannot create \(path): \(reason); check that its folder exists and is writable."
        case .cannotFinish(let path, let reason): "Cannot write \(path): \(reason)."
        }
    }
}
