/// How many fixes were dropped for each reason.
public struct DropCounts: Equatable, Sendable {
    public private(set) var byReason: [DropReason: Int] = [:]

    public init() {}

    public mutating func add(_ reason: DropReason, count: Int = 1) { byReason[reason, default: 0] += count }

    public var total: Int { byReason.values.reduce(0, +) }

    public subscript(reason: DropReason) -> Int { byReason[reason] ?? 0 }
}

extension DropCounts {
    /// Drops per ride and reason added between two snapshots of ``Pipeline/drops`` (which are
    /// cumulative), keyed by reason name: what a store must add after one batch.
    public static func added(since before: [Int: DropCounts], to after: [Int: DropCounts]) -> [Int: [String: Int]] {
        var result: [Int: [String: Int]] = [:]
        for (ride, counts) in after {
            for (reason, n) in counts.byReason {
                let added = n - (before[ride]?[reason] ?? 0)
                if added > 0 { result[ride, default: [:]][reason.rawValue] = added }
            }
        }
        return result
    }
}
