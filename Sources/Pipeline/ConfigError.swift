/// A configuration that cannot be used: one sentence naming the file, line and key, and what
/// is accepted.
public struct ConfigError: Error, Equatable, CustomStringConvertible, Sendable {
    public var file: String
    public var line: Int?
    public var key: String?
    public var problem: String

    public init(file: String, line: Int? = nil, key: String? = nil, problem: String) {
        self.file = file
        self.line = line
        self.key = key
        self.problem = problem
    }

    public var description: String {
        var place = file
        if let line { place += ", line \(line)" }
        if let key { place += ", key \(key)" }
        return "Bad configuration in \(place): \(problem)"
    }
}
