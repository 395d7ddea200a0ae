import Foundation
import GPSCore

/// When a cue fires: arriving at its place or leaving it.
public enum CueMoment: String, CaseIterable, Sendable {
    case arrive, depart

    /// The place event that fires it.
    public var eventType: TrailEventType { self == .arrive ? .placeArrive : .placeDepart }
}

/// A reminder bound to a place: its text comes back as a `cue` event at that moment.
public struct Cue: Equatable, Sendable {
    public var id: Int64
    public var text: String
    public var place: String
    public var moment: CueMoment
    /// Fires the first time only.
    public var once: Bool
    /// When it last fired (event time, ms), if it did.
    public var firedMilliseconds: Int64?

    public init(
        id: Int64 = 0, text: String, place: String, moment: CueMoment, once: Bool, firedMilliseconds: Int64? = nil
    ) {
        self.id = id
        self.text = text
        self.place = place
        self.moment = moment
        self.once = once
        self.firedMilliseconds = firedMilliseconds
    }
}

/// A task due at a time, once or again and again (`rule`: empty, `daily`, `weekly` or an RFC
/// 5545 RRULE, in the task's time zone).
public struct ScheduledTask: Equatable, Sendable {
    public var id: Int64
    public var text: String
    /// The next time it is due (ms since 1970 UTC); nil when it has nothing more to fire.
    public var dueMilliseconds: Int64?
    public var rule: String
    public var timeZone: String
    /// When it last fired (the due time it fired for).
    public var firedMilliseconds: Int64?
    /// When it was marked done (it fires no more).
    public var doneMilliseconds: Int64?

    public init(
        id: Int64 = 0, text: String, dueMilliseconds: Int64?, rule: String, timeZone: String,
        firedMilliseconds: Int64? = nil, doneMilliseconds: Int64? = nil
    ) {
        self.id = id
        self.text = text
        self.dueMilliseconds = dueMilliseconds
        self.rule = rule
        self.timeZone = timeZone
        self.firedMilliseconds = firedMilliseconds
        self.doneMilliseconds = doneMilliseconds
    }
}

/// Where an alert goes.
public enum AlertChannel: Equatable, Sendable {
    /// An HTTP POST of the event as JSON, signed with HMAC-SHA256 when there is a secret.
    case webhook(URL, secret: String?)
    /// ntfy's HTTP publish to `URL/TOPIC`.
    case ntfy(URL)
    /// A desktop notification through `notify-send`.
    case desktop
    /// An MQTT 3.1.1 publish (QoS 1) to a broker.
    case mqtt(host: String, port: Int, topic: String)

    public var kind: String {
        switch self {
        case .webhook: return "webhook"
        case .ntfy: return "ntfy"
        case .desktop: return "desktop"
        case .mqtt: return "mqtt"
        }
    }

    /// The address as stored and shown (no secret).
    public var target: String {
        switch self {
        case .webhook(let url, _), .ntfy(let url): return url.absoluteString
        case .desktop: return ""
        case .mqtt(let host, let port, let topic): return "mqtt://\(host):\(port)/\(topic)"
        }
    }

    public var secret: String? {
        if case .webhook(_, let secret) = self { return secret }
        return nil
    }

    /// The channel from its stored columns (nil when they make no channel).
    public init?(kind: String, target: String, secret: String?) {
        switch kind {
        case "webhook":
            guard let url = URL(string: target) else { return nil }
            self = .webhook(url, secret: secret)
        case "ntfy":
            guard let url = URL(string: target) else { return nil }
            self = .ntfy(url)
        case "desktop": self = .desktop
        case "mqtt":
            guard let parts = URLComponents(string: target), let host = parts.host else { return nil }
            self = .mqtt(host: host, port: parts.port ?? 1883, topic: String(parts.path.dropFirst()))
        default: return nil
        }
    }
}

/// An alert: which events (types, and optionally a place and a device) go to which channel,
/// except in quiet hours (`HH:MM-HH:MM`, local time) and within `cooldown` seconds of the last.
public struct Alert: Equatable, Sendable {
    public var id: Int64
    public var types: [TrailEventType]
    public var place: String?
    public var device: String?
    public var quiet: String?
    public var cooldown: Double
    public var channel: AlertChannel
    /// The time of the last event it took (for the cooldown).
    public var lastMilliseconds: Int64?
    /// Its deliveries: waiting (or being retried), delivered, dropped.
    public var counts = DeliveryCounts()

    public init(
        id: Int64 = 0, types: [TrailEventType], place: String? = nil, device: String? = nil, quiet: String? = nil,
        cooldown: Double = 0, channel: AlertChannel, lastMilliseconds: Int64? = nil
    ) {
        self.id = id
        self.types = types
        self.place = place
        self.device = device
        self.quiet = quiet
        self.cooldown = cooldown
        self.channel = channel
        self.lastMilliseconds = lastMilliseconds
    }
}

public struct DeliveryCounts: Equatable, Sendable {
    public var waiting = 0
    public var delivered = 0
    public var dropped = 0

    public init(waiting: Int = 0, delivered: Int = 0, dropped: Int = 0) {
        self.waiting = waiting
        self.delivered = delivered
        self.dropped = dropped
    }
}

/// A message for an alert's channel, put in the outbox: `key` names the event, so the same
/// event goes to one alert once however often it is offered.
public struct NewDelivery: Equatable, Sendable {
    public var alert: Int64
    public var key: String
    public var payload: String
    public var eventMilliseconds: Int64
    /// Why it is not sent, when it goes into the outbox as dropped at once (an event that
    /// arrived later than `alerts.max_delay`): it is listed, not sent.
    public var dropped: String?

    public init(alert: Int64, key: String, payload: String, eventMilliseconds: Int64, dropped: String? = nil) {
        self.alert = alert
        self.key = key
        self.payload = payload
        self.eventMilliseconds = eventMilliseconds
        self.dropped = dropped
    }
}

/// A delivery of the outbox as `alert log` lists it.
public struct StoredDelivery: Equatable, Sendable {
    public var id: Int64
    public var alert: Int64
    /// The message as sent (JSON with `title`, `message` and the `event`).
    public var payload: String
    public var createdMilliseconds: Int64
    public var attempts: Int
    public var lastError: String?
    public var deliveredMilliseconds: Int64?
    public var dropped: String?

    public init(
        id: Int64, alert: Int64, payload: String, createdMilliseconds: Int64, attempts: Int, lastError: String?,
        deliveredMilliseconds: Int64?, dropped: String?
    ) {
        self.id = id
        self.alert = alert
        self.payload = payload
        self.createdMilliseconds = createdMilliseconds
        self.attempts = attempts
        self.lastError = lastError
        self.deliveredMilliseconds = deliveredMilliseconds
        self.dropped = dropped
    }
}

/// A delivery taken from the outbox to send.
public struct Delivery: Equatable, Sendable {
    public var id: Int64
    public var alert: Int64
    public var channel: AlertChannel
    public var key: String
    public var payload: String
    public var createdMilliseconds: Int64
    public var attempts: Int

    public init(
        id: Int64, alert: Int64, channel: AlertChannel, key: String, payload: String, createdMilliseconds: Int64,
        attempts: Int
    ) {
        self.id = id
        self.alert = alert
        self.channel = channel
        self.key = key
        self.payload = payload
        self.createdMilliseconds = createdMilliseconds
        self.attempts = attempts
    }
}

/// How a sending ended.
public enum DeliveryOutcome: Equatable, Sendable {
    case delivered(atMilliseconds: Int64)
    /// Failed: tried again at that time.
    case retry(atMilliseconds: Int64, error: String)
    /// Given up, with the reason.
    case dropped(reason: String)
}

/// What `remove` removes.
public enum ScheduleItem: String, Sendable {
    case cue, task, alert
}

/// Cues, tasks, alerts and the alerts' outbox. `account` nil is the store's own user (`me`);
/// an add for an account that is not there returns nil.
public protocol AlertReading {
    func cues(account: String?) throws -> [Cue]
    func tasks(account: String?) throws -> [ScheduledTask]
    /// The account's alerts with their delivery counts, by id.
    func alerts(account: String?) throws -> [Alert]
    /// Whether a delivery is due at `now` (a read: the notifier asks every second and claims
    /// only when there is one).
    func hasDueDeliveries(nowMilliseconds: Int64) throws -> Bool
    /// The newest `limit` deliveries of the account's alerts, newest first.
    func deliveries(account: String?, limit: Int) throws -> [StoredDelivery]
}

/// What a write unit changes of cues, tasks, alerts and deliveries (``AlertReading`` is what any unit reads).
public protocol AlertStoring: AlertReading {
    func addCue(_ cue: Cue, account: String?) throws -> Int64?
    func markCueFired(_ id: Int64, atMilliseconds: Int64) throws

    func addTask(_ task: ScheduledTask, account: String?) throws -> Int64?
    /// Moves the task due at `due` on to `next` (nil: nothing more to fire), noting it fired;
    /// false, and nothing changed, when it is not due at `due` any more (another process fired it).
    func advanceTask(_ id: Int64, from due: Int64, to next: Int64?) throws -> Bool
    /// Marks the account's task done; false when there is no such task.
    func completeTask(_ id: Int64, account: String?, atMilliseconds: Int64) throws -> Bool

    func addAlert(_ alert: Alert, account: String?) throws -> Int64?
    /// Removes the account's cue, task or alert (an alert's deliveries with it); whether it was there.
    func removeScheduled(_ item: ScheduleItem, id: Int64, account: String?) throws -> Bool

    /// Puts deliveries in the outbox, due now; one already there (same alert and key) is left
    /// as it is. Each alert's last time moves on to its newest event. Returns how many were new.
    @discardableResult
    func enqueue(_ deliveries: [NewDelivery], nowMilliseconds: Int64) throws -> Int
    /// Up to `limit` deliveries due at `now`, oldest first, each held back for `lease` ms so that
    /// another process does not send it too.
    func claimDeliveries(nowMilliseconds: Int64, lease: Int64, limit: Int) throws -> [Delivery]
    func settleDelivery(_ id: Int64, _ outcome: DeliveryOutcome) throws
}

/// How alerts are kept in a row, the same in both stores.
public enum AlertColumns {
    public static func types(_ types: [TrailEventType]) -> String { types.map(\.rawValue).joined(separator: ",") }

    /// The types (one from a newer Trailbook left out).
    public static func types(_ text: String) -> [TrailEventType] {
        text.split(separator: ",").compactMap { TrailEventType(rawValue: String($0)) }
    }

    /// An alert from its columns; nil when its channel is none this Trailbook knows.
    public static func alert(
        id: Int64, types: String, place: String?, device: String?, quiet: String?, cooldown: Double, channel: String,
        target: String, secret: String?, lastMilliseconds: Int64?, counts: DeliveryCounts
    ) -> Alert? {
        guard let channel = AlertChannel(kind: channel, target: target, secret: secret) else { return nil }
        var alert = Alert(
            id: id, types: Self.types(types), place: place, device: device, quiet: quiet, cooldown: cooldown,
            channel: channel, lastMilliseconds: lastMilliseconds)
        alert.counts = counts
        return alert
    }
}
