/// How many fixes were dropped for each reason.
public struct DropCounts: Equatable, Sendable {
    public private(set) var byReason: [DropReason: Int] = [:]

    public init() {}

    public mutating func add(_ reason: DropReason, count: Int = 1) { byReason[reason, default: 0] += count }

    public var total: Int { byReason.values.reduce(0, +) }

    public subscript(reason: DropReason) -> Int { byReason[reason] ?? 0 }
}
