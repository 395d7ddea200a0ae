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

    public init(store: any TrackStoring, account: String?, alerting: Bool, zone: TimeZone = .current) {
        self.store = store
        self.account = account
        self.alerting = alerting
        matcher = AlertMatcher(zone: zone)
    }

    /// Stores `events` of `device` (named `deviceName`) with the cues they fire; returns them
    /// all (the cues after their place events).
    @discardableResult
    public func take(_ events: [TrailEvent], device: DeviceID, deviceName: String) throws -> [TrailEvent] {
        guard !events.isEmpty else { return [] }
        let cues = try store.cues(account: account)
        let fired = CueService.fire(cues, for: events)
        let all = events + fired.map(\.event)
        try store.addEvents(all, device: device)
        for (cue, event) in fired where cue.once { try store.markCueFired(cue.id, atMilliseconds: event.milliseconds) }
        if alerting {
            let alerts = try store.alerts(account: account)
            if !alerts.isEmpty {
                let deliveries = matcher.deliveries(
                    for: all, device: deviceName, account: account ?? "me", alerts: alerts)
                try store.enqueue(deliveries, nowMilliseconds: UTCTimestamp.now())
            }
        }
        return all
    }
}
