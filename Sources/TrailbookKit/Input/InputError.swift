import SystemPackage

/// Why an input file cannot be read.
public enum InputError: ServiceFailure, Equatable {
    case cannotOpen(String, Errno)
    case isDirectory(String)
    case readFailed(String, Errno)
    /// A gzip stream that is broken or cut short; the reason is a clause.
    case brokenGzip(String, reason: String)
    /// A zip archive, or an entry of one, that cannot be read (truncated, a zip bomb, encrypted).
    case brokenZip(String, reason: String)

    public var kind: FailureKind {
        switch self {
        case .cannotOpen, .isDirectory, .readFailed: return .missingInput
        case .brokenGzip, .brokenZip: return .badData
        }
    }

    public var description: String {
        switch self {
        case .cannotOpen(let path, let error):
            return "Cannot open \(path): \(error); "
                + (error == .permissionDenied ? "check its permissions." : "check the path.")
        case .isDirectory(let path): return "\(path) is a directory; give a log file."
        case .readFailed(let path, let error): return "Reading \(path) failed: \(error)."
        case .brokenGzip(let path, let reason):
            return "Cannot read \(path): \(reason); check it with gzip -t or give the uncompressed log."
        case .brokenZip(let path, let reason):
            return "Cannot read \(path): \(reason); check it with unzip -t or give the files it holds."
        }
    }
}
