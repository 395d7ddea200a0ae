/// Why the store cannot be used. Each description is one sentence that says what to do.
public enum StoreError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file or its folder cannot be created or written.
    case cannotOpen(path: String, reason: String)
    /// The store was written by a newer Trailbook (it has migrations this build does not know).
    case newerSchema(path: String, unknown: [String])
    /// There is no store at the path (and the caller only reads, so none is made).
    case noStore(path: String)
    /// The file is not a Trailbook store (not SQLite, or another application's database).
    case notAStore(path: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            return "Cannot open the store \(path): \(reason); check that its folder is writable."
        case .newerSchema(let path, let unknown):
            return "The store \(path) was written by a newer Trailbook (schema \(unknown.joined(separator: ", "))); "
                + "upgrade Trailbook to read it."
        case .noStore(let path): return "There is no store at \(path)."
        case .notAStore(let path, let reason):
            return "\(path) is not a Trailbook store (\(reason)); give the path of a Trailbook store."
        }
    }
}
