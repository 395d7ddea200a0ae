import Foundation
import GPSCore
import Hummingbird
import TrackModel
import TrailbookKit

/// `/settings`: the signed-in account's devices (add one and pair a phone app by scanning a QR
/// code; revoke one), its time zone and units, its password, and signing out of every session
/// (every browser). Every change is a form with the session's CSRF token; the
/// store and bcrypt run on the thread pool.
struct WebSettings {
    let accounts: AccountService
    let login: Login
    let zone: TimeZone

    func add(to router: Router<ServerContext>) {
        router.get("/settings") { request, _ -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            return try await page(session.user, session.csrf)
        }
        router.post("/devices") { request, context -> Response in
            let (user, csrf, fields) = try await WebPages.form(request, login: login)
            let name = (fields["name"] ?? "").trimmingCharacters(in: .whitespaces)
            let token: String
            do {
                token = try await accounts.addDevice(name, account: user)
            } catch let error as AccountError {
                return try await page(user, csrf, message: error.description, status: .unprocessableContent)
            }
            let base = (login.overTLS(request) ? "https://" : "http://") + (request.head.authority ?? "localhost")
            return WebPages.html(
                WebTemplates.pages.render(
                    "paired", model: Self.pairing(user: user, device: name, token: token, base: base)))
        }
        router.post("/devices/revoke") { request, _ -> Response in
            let (user, csrf, fields) = try await WebPages.form(request, login: login)
            let name = fields["name"] ?? ""
            do {
                try await accounts.revokeDevice(name, account: user)
            } catch let error as AccountError {
                return try await page(user, csrf, message: error.description, status: .unprocessableContent)
            }
            return try await page(
                user, csrf, message: "\(name)’s token is revoked: its points are refused from now on.")
        }
        router.post("/password") { request, context -> Response in
            let (user, csrf, fields) = try await WebPages.form(request, login: login)
            do {
                try await login.check(user, fields["current"] ?? "", request, context, challenge: false)
            } catch let refusal as Refusal {
                return try await page(
                    user, csrf,
                    message: refusal.status == .tooManyRequests ? refusal.message : "The current password is wrong.",
                    status: refusal.status)
            }
            let new = fields["new"] ?? ""
            guard new == fields["again"] else {
                return try await page(
                    user, csrf, message: "The new password and its repetition differ; nothing changed.",
                    status: .unprocessableContent)
            }
            do {
                try await accounts.changePassword(of: user, to: new)
            } catch let error as AccountError {
                return try await page(user, csrf, message: error.description, status: .unprocessableContent)
            }
            // Whoever signed in with the old password is signed out; this browser stays in.
            let current = await login.session(request)?.token
            let ended = try await login.sessions.endAll(of: user, except: current)
            return try await page(
                user, csrf,
                message: "The password is changed"
                    + (ended > 0 ? "; \(ended) other session\(ended == 1 ? " is" : "s are") signed out." : "."))
        }
        router.post("/preferences") { request, _ -> Response in
            let (user, csrf, fields) = try await WebPages.form(request, login: login)
            let zoneName = (fields["zone"] ?? "").trimmingCharacters(in: .whitespaces)
            let units = fields["units"] ?? ""
            guard zoneName.isEmpty || TimeZone(identifier: zoneName) != nil else {
                return try await page(
                    user, csrf,
                    message: "“\(zoneName.prefix(64))” is no time zone: give one such as Europe/Zurich or Asia/Tokyo.",
                    status: .unprocessableContent)
            }
            guard ["", "metric", "imperial"].contains(units) else {
                return try await page(
                    user, csrf, message: "Units are metric or imperial.", status: .unprocessableContent)
            }
            let chosen = AccountPreferences(
                timeZone: zoneName.isEmpty ? nil : zoneName, units: units.isEmpty ? nil : units)
            _ = try await login.sessions.store.write { try $0.setPreferences(account: user, chosen) }
            return try await page(user, csrf, message: "Your time zone and units are saved.")
        }
        router.post("/sessions/end") { request, _ -> Response in
            let (user, _, _) = try await WebPages.form(request, login: login)
            _ = try await login.sessions.endAll(of: user, except: nil)
            return WebPages.redirect("/", cookies: [login.cookie(Login.sessionCookie, "", request, maxAge: 0)])
        }
    }

    /// The settings page: the account's devices and the forms.
    func page(_ user: String, _ csrf: String, message: String? = nil, status: HTTPResponse.Status = .ok)
        async throws -> Response
    {
        // One snapshot for the page.
        let (devices, chosen) = try await login.sessions.store.read { tx in
            guard let devices = try tx.devices(of: user) else { throw AccountError.noAccount(user) }
            return (devices, try tx.preferences(account: user))
        }
        let zone = chosen.timeZone.flatMap(TimeZone.init(identifier:)) ?? zone
        let model = SettingsPage(
            user: user, csrf: csrf, today: LocalTime.today(in: zone).description,
            minimum: AccountService.minimumPasswordLength, zone: chosen.timeZone ?? "",
            serverZone: self.zone.identifier, zones: TimeZone.knownTimeZoneIdentifiers.sorted(),
            metric: chosen.units != "imperial", imperial: chosen.units == "imperial",
            devices: devices.map { d in
                SettingsPage.Device(
                    name: d.name, added: LocalTime.format(d.createdMilliseconds, zone: zone),
                    live: d.hasToken && d.revokedMilliseconds == nil,
                    state: d.revokedMilliseconds.map { "revoked " + LocalTime.format($0, zone: zone) }
                        ?? (d.hasToken ? "posts with its token" : "no token (imports)"))
            }, message: message)
        return WebPages.html(WebTemplates.pages.render("settings", model: model), status: status)
    }

    /// What the settings page shows: the account's devices, its time zone and units.
    struct SettingsPage: Encodable {
        struct Device: Encodable {
            let name: String
            let added: String
            /// Posts with a token in force.
            let live: Bool
            let state: String
        }
        let user: String
        let csrf: String
        let today: String
        /// The shortest password taken.
        let minimum: Int
        let zone: String
        let serverZone: String
        let zones: [String]
        let metric: Bool
        let imperial: Bool
        let devices: [Device]
        let message: String?
    }

    /// What the page after pairing shows: the token once, and each app's settings.
    struct PairedPage: Encodable {
        struct App: Encodable {
            let app: String
            let how: String
            let text: String
            let qr: QRCode.Drawing?
        }
        let user: String
        let device: String
        let token: String
        let apps: [App]
    }

    /// What pairs each phone app with the new device: its settings, and a QR code where the app
    /// takes one (OwnTracks' configuration link) or where a URL is long to type.
    static func pairing(user: String, device: String, token: String, base: String) -> PairedPage {
        // OwnTracks' remote configuration: HTTP mode (3) to /pub with Basic USER:TOKEN.
        struct OwnTracksConfiguration: Encodable {
            var type = "configuration"
            var mode = 3
            let url: String
            var auth = true
            let username: String
            let password: String
            let deviceId: String
            let tid: String

            enum CodingKeys: String, CodingKey {
                case type = "_type"
                case mode, url, auth, username, password, deviceId, tid
            }
        }
        let owntracks = OwnTracksConfiguration(
            url: base + "/pub", username: user, password: token, deviceId: device,
            tid: String(user.prefix(2)).uppercased())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(owntracks)) ?? Data()
        let owntracksLink = "owntracks:///config?inline=" + json.base64EncodedString()
        let osmand =
            base
            + "/osmand?id=\(token)&lat={0}&lon={1}&timestamp={2}&hdop={3}&altitude={4}&speed={5}&bearing={6}&batt={11}"
        let gpslogger = base + "/gpslogger?lat=%LAT&lon=%LON&time=%TIME&alt=%ALT&acc=%ACC&spd=%SPD&dir=%DIR&batt=%BATT"
        func app(_ name: String, _ how: String, _ text: String, _ label: String) -> PairedPage.App {
            PairedPage.App(app: name, how: how, text: text, qr: QRCode.drawing(text, label: label))
        }
        let apps = [
            app(
                "OwnTracks", "Scan the code with the phone's camera and open it in OwnTracks.", owntracksLink,
                "OwnTracks configuration"),
            app(
                "OsmAnd or Traccar Client", "Online tracking: the URL below (scan it to copy it).", osmand,
                "OsmAnd URL"),
            app(
                "Overland", "Receiver endpoint \(base)/overland; the access token is the device token at the top.",
                base + "/overland", "Overland endpoint"),
            app(
                "GPSLogger", "Custom URL below, HTTP Basic: user \(user), password the token.", gpslogger,
                "GPSLogger URL"),
        ]
        return PairedPage(user: user, device: device, token: token, apps: apps)
    }
}
