import Foundation
import TrackModel

/// A delivery of an alert as `alert log --json` prints it: which alert, the message's title and
/// the event's time, when it was put in the outbox, and its state (`delivered`, `waiting`,
/// `dropped`) with the reason for a dropped one ("late, not sent: ...").
public struct DeliveryJSON: Encodable, Equatable, Sendable {
    public var id: Int64
    public var alert: Int64
    public var title: String
    public var eventTime: String?
    public var queued: String
    public var state: String
    public var delivered: String?
    public var attempts: Int
    public var reason: String?

    enum CodingKeys: String, CodingKey {
        case id, alert, title
        case eventTime = "event_time"
        case queued, state, delivered, attempts, reason
    }

    public init(_ d: StoredDelivery) {
        id = d.id
        alert = d.alert
        let message = try? JSONDecoder().decode(AlertMessage.self, from: Data(d.payload.utf8))
        title = message?.title ?? ""
        eventTime = message?.event.time
        queued = LocalTime.utc(d.createdMilliseconds)
        delivered = d.deliveredMilliseconds.map(LocalTime.utc)
        attempts = d.attempts
        if let dropped = d.dropped {
            state = "dropped"
            reason = dropped
        } else if d.deliveredMilliseconds != nil {
            state = "delivered"
        } else {
            state = "waiting"
            reason = d.lastError
        }
    }

    /// One line: "2026-11-25T14:02:00Z alert 3 · ana arrived at home · late, not sent: ...".
    public var line: String {
        var parts = ["\(eventTime ?? queued) alert \(alert)", title.isEmpty ? "(no title)" : title]
        switch state {
        case "delivered": parts.append("delivered \(delivered ?? "")")
        case "dropped": parts.append(reason ?? "dropped")
        default: parts.append("waiting" + (attempts > 0 ? " (\(attempts) tries; \(reason ?? ""))" : ""))
        }
        return parts.joined(separator: " · ")
    }
}
