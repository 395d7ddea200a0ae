import Foundation
import GPSCore
import TrackModel

/// Why an events request is refused.
public enum EventError: ServiceFailure, Equatable {
    case unknownType(String)
    case noAccount(String)

    public var kind: FailureKind {
        switch self {
        case .unknownType: return .badRequest
        case .noAccount: return .missingInput
        }
    }

    public var description: String {
        switch self {
        case .unknownType(let name):
            return
                "'\(name)' is not an event type; use \(TrailEventType.allCases.map(\.rawValue).joined(separator: ", "))."
        case .noAccount(let name): return "There is no account \(name)."
        }
    }
}

/// The stored events, as `trailbook events` (and `import --events`) show them.
public struct EventService: Sendable {
    public let store: any TrackStoring

    public init(store: any TrackStoring) { self.store = store }

    /// The types named in `names` (each may hold several, comma-separated); nil (all types) when none.
    public static func types(_ names: [String]) throws(EventError) -> Set<TrailEventType>? {
        var types = Set<TrailEventType>()
        for name in names.flatMap({ $0.split(separator: ",") }) {
            guard let type = TrailEventType(rawValue: String(name)) else { throw .unknownType(String(name)) }
            types.insert(type)
        }
        return types.isEmpty ? nil : types
    }

    /// The events of `account` (the store's own when nil) in `[from, to)`, of `types` when given.
    public func events(
        fromMilliseconds from: Int64, toMilliseconds to: Int64, types: Set<TrailEventType>?, account: String?
    )
        async throws -> [StoredEvent]
    {
        try await store.read { tx in
            if let account, try tx.devices(of: account) == nil { throw EventError.noAccount(account) }
            return try tx.events(fromMilliseconds: from, toMilliseconds: to, types: types, account: account)
        }
    }

    /// One line per event: local time, type, place, text, the device in brackets, the details.
    public static func line(_ stored: StoredEvent, zone: TimeZone) -> String {
        let e = stored.event
        var parts = [LocalTime.format(e.milliseconds, zone: zone), e.type.rawValue]
        if let place = e.place { parts.append(place) }
        if let text = e.text { parts.append("\"\(text)\"") }
        parts.append("(\(stored.device))")
        let details = e.details.keys.sorted().map { "\($0) \(EventColumns.number(e.details[$0]!))" }
        if !details.isEmpty { parts.append(details.joined(separator: ", ")) }
        return parts.joined(separator: "  ")
    }
}
