import Foundation
import GPSCore
import Logging
import TrackModel

/// Where detected events go, the same for `record`, `serve` and the task clock: the cues they
/// fire join them, all are stored, and (when `alerting`) the alerts they match go into the
/// outbox. `import` stores without alerting: alerts are for what happens now.
public struct EventOutlet: Sendable {
    let store: any TrackStoring
    /// The account (the store's own user when nil).
    let account: String?
    let alerting: Bool
    let matcher: AlertMatcher
    /// Events older than this when they arrive are not sent, ms (`alerts.max_delay`, for the
    /// phones of `serve`); nil: no limit (a receiver's events are as old as its fixes).
    let maxDelay: Int64?

    public init(
        store: any TrackStoring, account: String?, alerting: Bool, zone: TimeZone = .current, maxDelay: Double? = nil
    ) {
        self.store = store
        self.account = account
        self.alerting = alerting
        matcher = AlertMatcher(zone: zone)
        self.maxDelay = maxDelay.map { Int64(($0 * 1000).rounded()) }
    }

    /// Stores `events` of `device` (named `deviceName`) with the cues they fire; returns them
    /// all (the cues after their place events). Friends whose active grant has the `events`
    /// scope get `friend.arrive` / `friend.depart` for the place events, in their own lists
    /// (with the position when the grant has `live` too), and their alerts take those.
    @discardableResult
    public func take(_ events: [TrailEvent], device: DeviceID, deviceName: String) async throws -> [TrailEvent] {
        try await store.write { try take(events, device: device, deviceName: deviceName, in: $0) }
    }

    /// ``take(_:device:deviceName:)`` inside a unit of work.
    @discardableResult
    public func take(_ events: [TrailEvent], device: DeviceID, deviceName: String, in store: any StoreWriting) throws
        -> [TrailEvent]
    {
        guard !events.isEmpty else { return [] }
        let cues = try store.cues(account: account)
        let fired = CueService.fire(cues, for: events)
        let all = events + fired.map(\.event)
        try store.addEvents(all, device: device)
        for (cue, event) in fired where cue.once { try store.markCueFired(cue.id, atMilliseconds: event.milliseconds) }
        try alert(all, account: account, deviceName: deviceName, in: store)
        let placeEvents = events.filter { $0.type == .placeArrive || $0.type == .placeDepart }
        guard !placeEvents.isEmpty, let owner = account else { return all }
        let now = UTCTimestamp.now()
        for grant in try store.grants(owner: owner) where grant.scopes.contains("events") && grant.isActive(at: now) {
            let told = placeEvents.map { e in
                TrailEvent(
                    milliseconds: e.milliseconds, type: e.type == .placeArrive ? .friendArrive : .friendDepart,
                    place: e.place, coordinate: grant.scopes.contains("live") ? e.coordinate : nil, text: owner,
                    details: e.details)
            }
            try store.addEvents(told, device: device, viewer: grant.viewer)
            try alert(told, account: grant.viewer, deviceName: deviceName, in: store)
        }
        return all
    }

    /// Puts what `account`'s alerts take of `events` in the outbox (when alerting).
    private func alert(_ events: [TrailEvent], account: String?, deviceName: String, in store: any StoreWriting) throws
    {
        guard alerting else { return }
        let alerts = try store.alerts(account: account)
        guard !alerts.isEmpty else { return }
        let now = UTCTimestamp.now()
        let deliveries = matcher.deliveries(for: events, device: deviceName, account: account ?? "me", alerts: alerts)
            .map { d -> NewDelivery in
                // Too late to be news (a backlog): listed, not sent; an alarm goes out however late.
                let late = now - d.eventMilliseconds
                guard let maxDelay, late > maxDelay, !d.key.contains("|\(TrailEventType.deviceAlarm.rawValue)|") else {
                    return d
                }
                var d = d
                d.dropped =
                    "late, not sent: the event reached the store \(late / 60_000) min after it happened "
                    + "(alerts.max_delay \(maxDelay / 1000) s)"
                return d
            }
        try store.enqueue(deliveries, nowMilliseconds: now)
    }
}
