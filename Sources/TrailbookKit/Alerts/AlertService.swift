import Foundation
import GPSCore
import Logging
import Pipeline
import ServiceLifecycle
import TrackModel

/// Alerts (`alert add|list|rm|test`): which events go to which channel.
public struct AlertService: Sendable {
    public let store: any TrackStoring
    public let account: String?

    public init(store: any TrackStoring, account: String? = nil) {
        self.store = store
        self.account = account
    }

    /// The channel the options name; exactly one must be given.
    public static func channel(webhook: String?, secret: String?, ntfy: String?, desktop: Bool, mqtt: String?)
        throws(ScheduleError) -> AlertChannel
    {
        let given = [webhook != nil, ntfy != nil, desktop, mqtt != nil].filter { $0 }.count
        guard given == 1 else {
            throw .badChannel(
                "Give one channel: a webhook URL, an ntfy URL/TOPIC, the desktop, or an MQTT mqtt://HOST:PORT/TOPIC.")
        }
        if secret != nil && webhook == nil { throw .badChannel("A secret goes with a webhook only.") }
        if let text = webhook ?? ntfy {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https",
                url.host != nil
            else { throw .badChannel("'\(text)' is not an http:// or https:// URL.") }
            if ntfy != nil {
                guard url.path.count > 1 else {
                    throw .badChannel(
                        "'\(text)' names no topic; give the server and topic, e.g. https://ntfy.sh/my-trailbook.")
                }
                return .ntfy(url)
            }
            return .webhook(url, secret: secret)
        }
        if let mqtt {
            guard let parts = URLComponents(string: mqtt), parts.scheme?.lowercased() == "mqtt", let host = parts.host,
                !host.isEmpty, parts.path.count > 1, (parts.port ?? 1883) > 0
            else { throw .badChannel("'\(mqtt)' is not mqtt://HOST[:PORT]/TOPIC.") }
            return .mqtt(host: host, port: parts.port ?? 1883, topic: String(parts.path.dropFirst()))
        }
        return .desktop
    }

    public func add(
        types: Set<TrailEventType>?, place: String?, device: String?, quiet: String?, cooldown: Double,
        channel: AlertChannel
    ) async throws -> Alert {
        guard let types, !types.isEmpty else { throw ScheduleError.noTypes }
        if let quiet, QuietHours(quiet) == nil { throw ScheduleError.badQuiet(quiet) }
        guard cooldown >= 0, cooldown.isFinite else { throw ScheduleError.badCooldown(cooldown) }
        var alert = Alert(
            types: TrailEventType.allCases.filter(types.contains), place: place, device: device, quiet: quiet,
            cooldown: cooldown, channel: channel)
        let account = account
        // One unit of work: the place looked for is still there when the alert naming it goes in.
        alert.id = try await store.write { [alert] unit in
            if let place, try !unit.places(account: account).contains(where: { $0.name == place }) {
                throw ScheduleError.noPlace(place)
            }
            guard let id = try unit.addAlert(alert, account: account) else {
                throw ScheduleError.noAccount(account ?? "me")
            }
            return id
        }
        return alert
    }

    public func list() async throws -> [Alert] { try await store.read { try $0.alerts(account: account) } }

    /// The newest `limit` deliveries of the account's alerts, newest first.
    public func log(limit: Int) async throws -> [StoredDelivery] {
        try await store.read { try $0.deliveries(account: account, limit: limit) }
    }

    /// What `account`'s `alerts` would have sent for `events`, each of its device, had they
    /// happened live (a replay: the cooldowns start afresh): for each event, the alerts that take it.
    public static func wouldSend(
        _ events: [(event: TrailEvent, device: String)], alerts: [Alert], account: String?, zone: TimeZone
    ) -> [[Alert]] {
        let alerts = alerts.map { alert -> Alert in
            var fresh = alert
            fresh.lastMilliseconds = nil
            return fresh
        }
        let byID = Dictionary(uniqueKeysWithValues: alerts.map { ($0.id, $0) })
        var byKey: [String: [Alert]] = [:]
        for d in AlertMatcher(zone: zone).deliveries(for: events, account: account ?? "me", alerts: alerts) {
            byKey[d.key, default: []].append(byID[d.alert]!)
        }
        return events.map {
            byKey[AlertMessage(event: $0.event, device: $0.device, account: account ?? "me", alert: 0, zone: zone).key]
                ?? []
        }
    }

    public func remove(_ id: Int64) async throws {
        guard try await store.write({ try $0.removeScheduled(.alert, id: id, account: account) }) else {
            throw ScheduleError.missing(.alert, id)
        }
    }

    /// Sends a test message (marked `"test": true`, the alert's first type, now, at the
    /// newest stored point) straight to the alert's channel, not through the outbox.
    public func test(_ id: Int64, sender: AlertSender, zone: TimeZone = .current) async throws -> AlertMessage {
        let account = self.account
        let (found, latest) = try await store.read { tx in
            (
                try tx.alerts(account: account).first(where: { $0.id == id }),
                try tx.latestPoint(devices: DeviceFilter(account: account))
            )
        }
        guard let alert = found else { throw ScheduleError.missing(.alert, id) }
        let event = TrailEvent(
            milliseconds: UTCTimestamp.now(), type: alert.types.first ?? .cue, place: alert.place,
            coordinate: latest?.coordinate, text: "a test of alert \(id)")
        let message = AlertMessage(
            event: event, device: alert.device ?? "test", account: account ?? "me", alert: id, zone: zone, test: true)
        do throws(AlertSendError) {
            try await sender.send(message, over: alert.channel)
        } catch {
            throw AlertTestError(alert: id, channel: alert.channel, reason: error.description)
        }
        return message
    }
}

/// A test message that did not reach its receiver.
public struct AlertTestError: ServiceFailure {
    public let alert: Int64
    public let channel: AlertChannel
    public let reason: String
    public var kind: FailureKind { .unavailable }
    public var description: String {
        let target = channel.target.isEmpty ? channel.kind : "\(channel.kind) \(channel.target)"
        return "The test of alert \(alert) did not reach \(target): \(reason); check the receiver and try again."
    }
}

/// Delivers the outbox (and fires due tasks) while `record` or `serve` runs: every second it
/// takes the deliveries that are due, sends each, and notes the outcome — a failure is tried
/// again after 1, 2, 4 ... s up to `[alerts] retry_max`, and dropped (logged, with its last
/// error) once `[alerts] give_up_after` has passed since its event was put in the outbox.
public struct Notifier: Sendable {
    let store: any TrackStoring
    let settings: AlertSettings
    let sender: AlertSender
    let logger: Logger

    /// `sender` defaults to one with the settings' timeout and the process's environment.
    public init(store: any TrackStoring, settings: AlertSettings, logger: Logger, sender: AlertSender? = nil) {
        self.store = store
        self.settings = settings
        self.sender = sender ?? AlertSender(timeout: settings.timeout)
        self.logger = logger
    }

    /// Sends what is due; returns how many were delivered. With `until`, what is not tried by
    /// then is left for the next run (due at once), so a stopping process does not linger.
    @discardableResult
    public func deliverDue(now: Int64 = UTCTimestamp.now(), until: ContinuousClock.Instant? = nil) async throws -> Int {
        let lease = Int64((settings.timeout + 30) * 1000)
        let store = self.store
        // Each claim and outcome a unit of work of its own, on the store's threads: a send waits
        // for nothing of the store's.
        func settle(_ id: Int64, _ outcome: DeliveryOutcome) async throws {
            try await store.write { try $0.settleDelivery(id, outcome) }
        }
        // Asked every second: a read when nothing is due, no write transaction.
        guard try await store.read({ try $0.hasDueDeliveries(nowMilliseconds: now) }) else { return 0 }
        let due = try await store.write { try $0.claimDeliveries(nowMilliseconds: now, lease: lease, limit: 20) }
        var delivered = 0
        for (i, d) in due.enumerated() {
            if let until, ContinuousClock.now >= until {
                for left in due[i...] {
                    try await settle(
                        left.id, .retry(atMilliseconds: now, error: "not tried: the process stopped"))
                }
                break
            }
            let meta: Logger.Metadata = ["alert": "\(d.alert)", "channel": "\(d.channel.kind)", "event": "\(d.key)"]
            guard let message = try? JSONDecoder().decode(AlertMessage.self, from: Data(d.payload.utf8)) else {
                try await settle(d.id, .dropped(reason: "its message is unreadable"))
                logger.warning("alert dropped: its message is unreadable", metadata: meta)
                continue
            }
            do throws(AlertSendError) {
                try await sender.send(message, over: d.channel)
            } catch {
                let after = UTCTimestamp.now()
                if Double(after - d.createdMilliseconds) >= settings.giveUpAfter * 1000 {
                    let reason =
                        "not delivered within \(Int(settings.giveUpAfter)) s (\(d.attempts + 1) tries); last: \(error)"
                    try await settle(d.id, .dropped(reason: reason))
                    logger.warning("alert dropped: \(reason)", metadata: meta)
                } else {
                    let wait = settings.retryDelay(afterAttempts: d.attempts + 1)
                    try await settle(
                        d.id, .retry(atMilliseconds: after + Int64(wait * 1000), error: error.description))
                    logger.info("alert not delivered (\(error)); tried again in \(Int(wait)) s", metadata: meta)
                }
                continue
            }
            try await settle(d.id, .delivered(atMilliseconds: UTCTimestamp.now()))
            delivered += 1
            logger.info("alert sent", metadata: meta)
        }
        return delivered
    }
}

/// The notifier as a swift-service-lifecycle service, run beside `record` and `serve`: once a
/// second it fires the due tasks (when it has a device to fire them as: `record`'s) and
/// delivers the outbox; a graceful shutdown gets one last delivery round.
public struct NotifierService: Service {
    let notifier: Notifier
    let tasks: (service: TaskService, outlet: EventOutlet, device: DeviceID, name: String)?
    let every: Duration

    public init(
        notifier: Notifier, tasks: (service: TaskService, outlet: EventOutlet, device: DeviceID, name: String)?,
        every: Duration = .seconds(1)
    ) {
        self.notifier = notifier
        self.tasks = tasks
        self.every = every
    }

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            await round()
            try? await Task.sleep(for: every)
        }
        // One last round for what the last commit put in the outbox, a few seconds at most.
        _ = try? await notifier.deliverDue(until: .now + .seconds(3))
    }

    private func round() async {
        if let tasks {
            do {
                for event in try await tasks.service.fireDue(
                    now: UTCTimestamp.now(), outlet: tasks.outlet, device: tasks.device, deviceName: tasks.name)
                {
                    notifier.logger.info("event", metadata: ["type": "task.due", "text": "\(event.text ?? "")"])
                }
            } catch {
                notifier.logger.warning("cannot fire the due tasks now: \(error)")
            }
        }
        do {
            try await notifier.deliverDue()
        } catch {
            notifier.logger.debug("cannot read the outbox now: \(error)")
        }
    }
}
