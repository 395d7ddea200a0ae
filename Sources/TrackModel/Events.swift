import Foundation
import GPSCore

/// An event as stored: its id, and the device (by name) it happened to.
public struct StoredEvent: Equatable, Sendable {
    public var id: Int64
    public var device: String
    public var event: TrailEvent

    public init(id: Int64, device: String, event: TrailEvent) {
        self.id = id
        self.device = device
        self.event = event
    }
}

/// Places and the events detected at them. `account` nil is the store's own user (`me`).
public protocol EventReading {
    /// The account's places, by name.
    func places(account: String?) throws -> [Place]
    /// The account's events in `[from, to)`, in time order (then type), of `types` when given.
    func events(fromMilliseconds from: Int64, toMilliseconds to: Int64, types: Set<TrailEventType>?, account: String?)
        throws -> [StoredEvent]
}

/// What a write unit changes of places and events (``EventReading`` is what any unit reads).
public protocol EventStoring: EventReading {
    /// Adds a place; false (and nothing changed) when the account has one of that name.
    func addPlace(_ place: Place, account: String?) throws -> Bool
    /// Adds the place or replaces the one of that name (a phone sends its waypoints again);
    /// false when there is no such account.
    @discardableResult
    func savePlace(_ place: Place, account: String) throws -> Bool
    /// Whether the place was there.
    func removePlace(named name: String, account: String?) throws -> Bool
    /// Stores `device`'s events, in the list of its account, or of `viewer` when given (a
    /// friend's arrival); one that is there already (same time, type, place and tag) is left as
    /// it is, so a log imported again adds nothing. Returns how many were new.
    @discardableResult
    func addEvents(_ events: [TrailEvent], device: DeviceID, viewer: String?) throws -> Int
    /// Moves the account's event `id` to `milliseconds` (and `coordinate`, when given): late
    /// points showed it earlier. When its device has the same event at that time already, the
    /// moved one goes. False when the account has no such event.
    @discardableResult
    func moveEvent(_ id: Int64, toMilliseconds milliseconds: Int64, coordinate: Coordinate?, account: String?) throws
        -> Bool
}

extension EventStoring {
    /// Stores `device`'s events in its account's list.
    @discardableResult
    public func addEvents(_ events: [TrailEvent], device: DeviceID) throws -> Int {
        try addEvents(events, device: device, viewer: nil)
    }
}

/// How places and events are kept in a row: a polygon as GeoJSON positions, details as a
/// JSON object (keys sorted), the same in both stores.
public enum EventColumns {
    public static func polygon(_ ring: [Coordinate]?) -> String? {
        guard let ring else { return nil }
        return "[" + ring.map { "[\($0.longitude),\($0.latitude)]" }.joined(separator: ",") + "]"
    }

    public static func polygon(_ text: String?) -> [Coordinate]? {
        guard let text, let data = text.data(using: .utf8),
            let pairs = try? JSONSerialization.jsonObject(with: data) as? [[Double]]
        else { return nil }
        return pairs.compactMap { $0.count >= 2 ? Coordinate(latitude: $0[1], longitude: $0[0]) : nil }
    }

    public static func details(_ details: [String: Double]) -> String {
        "{" + details.keys.sorted().map { "\"\($0)\":\(number(details[$0]!))" }.joined(separator: ",") + "}"
    }

    public static func details(_ text: String) -> [String: Double] {
        guard let data = text.data(using: .utf8),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return [:] }
        return object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }

    /// A place as a row stores it (`polygon` nil for a circle).
    public static func place(
        name: String, latitude: Double, longitude: Double, radius: Double, polygon text: String?, source: String
    ) -> Place {
        if let ring = polygon(text), let place = Place(name: name, polygon: ring, source: source) { return place }
        return Place(
            name: name, center: Coordinate(latitude: latitude, longitude: longitude), radius: radius, source: source)
    }

    /// An event from its columns (an unknown type, from a newer Trailbook, is nil).
    public static func event(
        milliseconds: Int64, type: String, place: String, latitude: Double?, longitude: Double?, text: String?,
        details: String
    ) -> TrailEvent? {
        guard let type = TrailEventType(rawValue: type) else { return nil }
        var coordinate: Coordinate?
        if let latitude, let longitude { coordinate = Coordinate(latitude: latitude, longitude: longitude) }
        return TrailEvent(
            milliseconds: milliseconds, type: type, place: place.isEmpty ? nil : place, coordinate: coordinate,
            text: text, details: Self.details(details))
    }

    /// What tells apart two events of one device, time, type and place: the cue's id for cues.
    public static func tag(_ event: TrailEvent) -> String {
        guard event.type == .cue, let id = event.details["cue"] else { return "" }
        return "cue \(number(id))"
    }

    /// A number as JSON and the event lines write it: whole numbers without a fraction.
    public static func number(_ x: Double) -> String {
        guard x.isFinite else { return "null" }
        return x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
    }
}
