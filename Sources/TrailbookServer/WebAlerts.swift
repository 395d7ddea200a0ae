import Foundation
import GPSCore
import Hummingbird
import Pipeline
import TrackModel
import TrailbookKit

/// `/alerts`: the signed-in account's alerts (which events go to which channel: a webhook, ntfy
/// or an MQTT broker), each with "send a test" and its deliveries; added with a form, deleted
/// after a page that says what goes. They go out while the server runs (the notifier).
struct WebAlerts {
    let store: any TrackStoring
    let login: Login
    let zone: TimeZone
    let settings: AlertSettings

    static let saved = ["added": "The alert is added.", "deleted": "The alert is deleted."]

    /// The event types a person picks from, with what they mean.
    static let types: [(TrailEventType, String)] = [
        (.placeArrive, "arriving at a place"), (.placeDepart, "leaving a place"),
        (.friendArrive, "a friend arriving at your place"), (.friendDepart, "a friend leaving your place"),
        (.deviceAlarm, "an SOS from a phone"), (.batteryLow, "a phone’s battery low"),
        (.deviceOffline, "a device going silent"), (.motionMoving, "starting to move"),
        (.motionStopped, "stopping"), (.fixLost, "GPS fix lost"), (.fixRegained, "GPS fix back"),
        (.deviceConnected, "a receiver plugged in"), (.deviceDisconnected, "a receiver unplugged"),
        (.cue, "a cue"), (.taskDue, "a task due"),
    ]

    /// The newest deliveries listed.
    static let logLength = 20

    func add(to router: Router<ServerContext>) {
        router.get("/alerts") { request, _ -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let message = request.uri.queryParameters.get("saved").flatMap { Self.saved[String($0)] }
            return try await page(session.user, session.csrf, message: message)
        }
        router.post("/alerts") { request, _ -> Response in
            let (user, csrf, fields) = try await WebPages.form(request, login: login)
            let service = AlertService(store: store, account: user)
            let value = { (name: String) -> String? in
                let text = (fields[name] ?? "").trimmingCharacters(in: .whitespaces)
                return text.isEmpty ? nil : text
            }
            let types = Set(Self.types.map(\.0).filter { fields["on-" + $0.rawValue] != nil })
            let (place, device, quiet, address, secret) = (
                value("place"), value("device"), value("quiet"), value("address"), value("secret")
            )
            let kind = value("channel") ?? "webhook"
            do {
                guard let cooldown = Double(value("cooldown") ?? "0") else {
                    throw ScheduleError.badChannel("The cooldown must be a number of seconds, 0 or more.")
                }
                let channel = try AlertService.channel(
                    webhook: kind == "webhook" ? address ?? "" : nil, secret: kind == "webhook" ? secret : nil,
                    ntfy: kind == "ntfy" ? address ?? "" : nil, desktop: false,
                    mqtt: kind == "mqtt" ? address ?? "" : nil)
                _ = try await service.add(
                    types: types, place: place, device: device, quiet: quiet, cooldown: cooldown, channel: channel)
            } catch let error as ScheduleError {
                let said = error == .noTypes ? "Tick the events the alert sends: one at least." : error.description
                return try await page(user, csrf, refused: said, typed: fields, status: .unprocessableContent)
            }
            return WebPages.redirect("/alerts?saved=added")
        }
        router.post("/alerts/:id/test") { request, context -> Response in
            let (user, csrf, _) = try await WebPages.form(request, login: login)
            let id = try Self.id(context)
            let service = AlertService(store: store, account: user)
            let sender = AlertSender(timeout: settings.timeout)
            do {
                let message = try await service.test(id, sender: sender, zone: zone)
                let alert = try await service.list().first { $0.id == id }
                let target = alert.map { Self.channel($0.channel) } ?? "its channel"
                return try await page(
                    user, csrf, message: "The test of alert \(id) reached \(target): “\(message.title)”.")
            } catch let error as ScheduleError {
                return try await page(user, csrf, message: error.description, status: .notFound)
            } catch let error as AlertTestError {
                return try await page(user, csrf, message: error.description, status: .badGateway)
            }
        }
        router.get("/alerts/:id/delete") { request, context -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let id = try Self.id(context)
            let service = AlertService(store: store, account: session.user)
            guard let alert = try await service.list().first(where: { $0.id == id }) else {
                return try await page(
                    session.user, session.csrf, message: ScheduleError.missing(.alert, id).description,
                    status: .notFound)
            }
            return WebPages.confirm(
                user: session.user, csrf: session.csrf, what: "alert \(id)",
                lines: [
                    "alert \(id): \(Self.events(alert)) to \(Self.channel(alert.channel))",
                    "its deliveries not yet made (\(alert.counts.waiting)); those made stay in their receiver",
                ], action: "/alerts/\(id)/delete", back: "/alerts")
        }
        router.post("/alerts/:id/delete") { request, context -> Response in
            let (user, csrf, _) = try await WebPages.form(request, login: login)
            let id = try Self.id(context)
            let service = AlertService(store: store, account: user)
            do {
                try await service.remove(id)
            } catch let error as ScheduleError {
                return try await page(user, csrf, message: error.description, status: .notFound)
            }
            return WebPages.redirect("/alerts?saved=deleted")
        }
    }

    static func id(_ context: ServerContext) throws -> Int64 {
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else {
            throw Refusal(.notFound, "There is no such alert; /alerts lists yours.")
        }
        return id
    }

    static func events(_ alert: Alert) -> String {
        var text = alert.types.map(\.rawValue).joined(separator: ", ")
        if let place = alert.place { text += " at \(place)" }
        if let device = alert.device { text += " of \(device)" }
        return text
    }

    static func channel(_ channel: AlertChannel) -> String {
        channel.target.isEmpty ? channel.kind : "\(channel.kind) \(channel.target)"
    }

    /// The page; `refused`: why the new alert was not added, said by the form, which keeps what
    /// was `typed`.
    func page(
        _ user: String, _ csrf: String, message: String? = nil, refused: String? = nil, typed: [String: String] = [:],
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        // One snapshot for the page.
        let (alerts, log, places, devices) = try await store.read { tx in
            (
                try tx.alerts(account: user), try tx.deliveries(account: user, limit: Self.logLength),
                try tx.places(account: user), (try tx.devices(of: user) ?? []).map(\.name)
            )
        }
        let zone = await login.local(user, zone: zone).zone
        let chosen = typed.isEmpty ? ["place.arrive", "place.depart", "device.alarm"] : nil
        let kind = typed["channel"] ?? "webhook"
        let model = AlertsPage(
            user: user, csrf: csrf, today: LocalTime.today(in: zone).description, hasAlerts: !alerts.isEmpty,
            alerts: alerts.map { a in
                AlertsPage.Alert(
                    id: a.id, events: Self.events(a), channel: Self.channel(a.channel),
                    rules: [
                        a.quiet.map { "quiet \($0)" }, a.cooldown > 0 ? "cooldown \(Int(a.cooldown)) s" : nil,
                        a.channel.secret != nil ? "signed" : nil,
                    ].compactMap { $0 }.joined(separator: ", "),
                    counts: "\(a.counts.delivered) delivered, \(a.counts.waiting) waiting, \(a.counts.dropped) dropped")
            },
            hasLog: !log.isEmpty,
            log: log.map { d in
                AlertsPage.Delivery(
                    alert: d.alert, when: LocalTime.format(d.createdMilliseconds, zone: zone),
                    title: Self.title(d.payload),
                    state: d.deliveredMilliseconds.map { "delivered " + LocalTime.clock($0, zone: zone) }
                        ?? d.dropped.map { "dropped: \($0)" }
                        ?? "waiting (\(d.attempts) tries\(d.lastError.map { ", last: \($0)" } ?? ""))")
            },
            types: Self.types.map { type, label in
                AlertsPage.Choice(
                    value: type.rawValue, label: label,
                    checked: chosen?.contains(type.rawValue) ?? (typed["on-" + type.rawValue] != nil))
            },
            places: places.map { AlertsPage.Option(name: $0.name, selected: typed["place"] == $0.name) },
            devices: devices.map { AlertsPage.Option(name: $0, selected: typed["device"] == $0) },
            channels: [("webhook", "a webhook (POST of JSON)"), ("ntfy", "ntfy"), ("mqtt", "an MQTT broker")].map {
                AlertsPage.Channel(value: $0.0, label: $0.1, selected: kind == $0.0)
            },
            address: typed["address"] ?? "", secret: typed["secret"] ?? "", quiet: typed["quiet"] ?? "",
            cooldown: typed["cooldown"] ?? "0", message: message, formMessage: refused)
        return WebPages.html(WebTemplates.pages.render("alerts", model: model), status: status)
    }

    /// What the alerts page shows: the account's alerts, their last deliveries, and the form
    /// (as it was sent, when it was refused).
    struct AlertsPage: Encodable {
        struct Alert: Encodable {
            let id: Int64
            let events: String
            let channel: String
            let rules: String
            let counts: String
        }
        struct Delivery: Encodable {
            let alert: Int64
            let when: String
            let title: String
            let state: String
        }
        struct Choice: Encodable {
            let value: String
            let label: String
            let checked: Bool
        }
        struct Option: Encodable {
            let name: String
            let selected: Bool
        }
        struct Channel: Encodable {
            let value: String
            let label: String
            let selected: Bool
        }
        let user: String
        let csrf: String
        let today: String
        let hasAlerts: Bool
        let alerts: [Alert]
        let hasLog: Bool
        let log: [Delivery]
        let types: [Choice]
        let places: [Option]
        let devices: [Option]
        let channels: [Channel]
        let address: String
        let secret: String
        let quiet: String
        let cooldown: String
        let message: String?
        let formMessage: String?
    }

    /// A delivery's title, from its payload.
    static func title(_ payload: String) -> String {
        struct Titled: Decodable { let title: String? }
        return (try? JSONDecoder().decode(Titled.self, from: Data(payload.utf8)))?.title ?? ""
    }
}
