import Foundation
import GPSCore
import TrackModel

/// What an alert sends for an event: the JSON body (the webhook's, MQTT's), a title and a line
/// for people (ntfy, the desktop), and the key that makes it one delivery per alert.
public struct AlertMessage: Codable, Equatable, Sendable {
    /// Names the event: device, time, type, place.
    public var key: String
    public var alert: Int64
    /// The account the event belongs to.
    public var account: String
    public var title: String
    public var message: String
    public var event: EventJSON
    /// A test sent by `alert test`, not an event that happened.
    public var test: Bool

    public init(event: TrailEvent, device: String, account: String, alert: Int64, zone: TimeZone, test: Bool = false) {
        key = "\(device)|\(event.milliseconds)|\(event.type.rawValue)|\(event.place ?? "")"
        self.alert = alert
        self.account = account
        title = Self.title(event, device: device)
        var parts = [LocalTime.format(event.milliseconds, zone: zone), title]
        if let c = event.coordinate {
            parts.append(String(format: "%.5f, %.5f", c.latitude, c.longitude))
        }
        message = parts.joined(separator: " · ")
        self.event = EventJSON(event, device: device)
        self.test = test
    }

    /// The event in a few words: "bike arrived at home", "Reminder: buy bread".
    public static func title(_ e: TrailEvent, device: String) -> String {
        let place = e.place ?? "a place"
        switch e.type {
        case .placeArrive: return "\(device) arrived at \(place)"
        case .placeDepart: return "\(device) left \(place)"
        case .motionMoving: return "\(device) is moving"
        case .motionStopped: return "\(device) stopped"
        case .fixLost: return "\(device) lost its fix"
        case .fixRegained: return "\(device) has a fix again"
        case .deviceConnected: return "\(device) connected"
        case .deviceDisconnected: return "\(device) disconnected"
        case .deviceOffline: return "\(device) is offline"
        case .batteryLow:
            let level = e.details["battery_pct"].map { " (\(EventColumns.number($0)) %)" } ?? ""
            return "\(device)'s battery is low\(level)"
        case .deviceAlarm: return "SOS from \(device)" + (e.text.map { $0 == "sos" ? "" : " (\($0))" } ?? "")
        case .friendArrive: return "\(e.text ?? device) arrived at \(place)"
        case .friendDepart: return "\(e.text ?? device) left \(place)"
        case .cue: return "Reminder: \(e.text ?? "")"
        case .taskDue: return "Task due: \(e.text ?? "")"
        }
    }

    /// The body as sent: JSON, keys sorted.
    public var body: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }
}

/// Which alerts take which events: the type, place and device they name; not in their quiet
/// hours (local time in `zone`); not within their cooldown of the last event they took.
public struct AlertMatcher: Sendable {
    public let zone: TimeZone

    public init(zone: TimeZone) { self.zone = zone }

    /// The deliveries `events` of `device` (of `account`) make for `alerts`, in event order.
    public func deliveries(for events: [TrailEvent], device: String, account: String, alerts: [Alert]) -> [NewDelivery]
    {
        deliveries(for: events.map { ($0, device) }, account: account, alerts: alerts)
    }

    /// The deliveries `events`, each of its own device, make for `alerts`, in event order: a
    /// cooldown counts every device's events, as it does live.
    public func deliveries(for events: [(event: TrailEvent, device: String)], account: String, alerts: [Alert])
        -> [NewDelivery]
    {
        var last = Dictionary(uniqueKeysWithValues: alerts.map { ($0.id, $0.lastMilliseconds) })
        var out: [NewDelivery] = []
        for (event, device) in events.sorted(by: { $0.event.milliseconds < $1.event.milliseconds }) {
            for alert in alerts where takes(alert, event, device: device) {
                if event.type != .deviceAlarm, let previous = last[alert.id] ?? nil, alert.cooldown > 0,
                    event.milliseconds >= previous, Double(event.milliseconds - previous) < alert.cooldown * 1000
                {
                    continue
                }
                last[alert.id] = event.milliseconds
                let message = AlertMessage(event: event, device: device, account: account, alert: alert.id, zone: zone)
                out.append(
                    NewDelivery(
                        alert: alert.id, key: message.key, payload: message.body, eventMilliseconds: event.milliseconds)
                )
            }
        }
        return out
    }

    /// Whether `alert` sends `event`: its types, place, device and quiet hours allow it. A
    /// phone's alarm (`device.alarm`, an SOS) goes out on every alert of the account at once,
    /// whatever they filter.
    func takes(_ alert: Alert, _ event: TrailEvent, device: String) -> Bool {
        if event.type == .deviceAlarm { return true }
        guard alert.types.contains(event.type) else { return false }
        if let place = alert.place, place != event.place { return false }
        if let name = alert.device, name != device { return false }
        if let quiet = alert.quiet, let hours = QuietHours(quiet), hours.contains(event.milliseconds, zone: zone) {
            return false
        }
        return true
    }
}

/// `HH:MM-HH:MM` local time; a range that ends before it starts runs over midnight.
public struct QuietHours: Equatable, Sendable {
    public var start: Int
    public var end: Int

    /// Minutes after midnight; nil when the text is not two `HH:MM` times.
    public init?(_ text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 2, let a = Self.minutes(parts[0]), let b = Self.minutes(parts[1]), a != b else {
            return nil
        }
        start = a
        end = b
    }

    static func minutes(_ text: Substring) -> Int? {
        let hm = text.trimmingCharacters(in: .whitespaces).split(separator: ":")
        guard hm.count == 2, hm.allSatisfy({ $0.count == 2 }), let h = Int(hm[0]), let m = Int(hm[1]), h < 24, m < 60
        else { return nil }
        return h * 60 + m
    }

    public func contains(_ milliseconds: Int64, zone: TimeZone) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents(
            [.hour, .minute], from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        let m = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
        return start < end ? (m >= start && m < end) : (m >= start || m < end)
    }
}
