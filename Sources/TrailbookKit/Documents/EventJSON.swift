import GPSCore
import TrackModel

/// An event as `events --json`, the webhook and the other alert channels send it.
public struct EventJSON: Codable, Equatable, Sendable {
    public var id: Int64?
    /// UTC, ISO 8601 with milliseconds.
    public var time: String
    public var type: String
    public var device: String
    public var place: String?
    public var lat: Double?
    public var lon: Double?
    public var text: String?
    public var details: [String: Double]

    public init(_ event: TrailEvent, device: String, id: Int64? = nil) {
        self.id = id
        time = LocalTime.utc(event.milliseconds)
        type = event.type.rawValue
        self.device = device
        place = event.place
        lat = event.coordinate?.latitude
        lon = event.coordinate?.longitude
        text = event.text
        details = event.details
    }

    public init(_ stored: StoredEvent) { self.init(stored.event, device: stored.device, id: stored.id) }
}
