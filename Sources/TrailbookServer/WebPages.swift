import Foundation
import GPSCore
import Hummingbird
import PageTemplates
import Pipeline
import Reports
import TrackModel
import TrailbookKit

/// The browser pages of `trailbook serve`: sign in, the friends list with a live map, making and
/// redeeming codes, and who sees you. Every page is a Mustache template (`WebTemplates`), which
/// escapes what it inserts; nothing a user typed is put into HTML by hand. Forms that change
/// something carry the session's CSRF token; signing in carries a token from a cookie set with
/// the form (double submit).
enum WebPages {
    static func add(
        to router: Router<ServerContext>, store: any TrackStoring, login: Login, tiles: TileFetcher?,
        rules: EventRules = EventRules(), zone: TimeZone = .current,
        pipeline: PipelineConfiguration = .ride, views: KeptViews = KeptViews()
    ) {
        let sharing = SharingService(store: store)
        let templates = WebTemplates.pages

        @Sendable func loginPage(
            _ request: Request, message: String? = nil, user: String = "", status: HTTPResponse.Status = .ok
        )
            -> Response
        {
            let token = WebSessions.random()
            // Absent when empty: an empty text still opens a section.
            let model = LoginPage(csrf: token, user: user.isEmpty ? nil : user, message: message)
            return html(
                templates.render("login", model: model),
                cookies: [login.cookie(Login.loginCookie, token, request, maxAge: 3600)], status: status)
        }
        /// The home page of a signed-in user; `code`: a code just made, shown once.
        @Sendable func home(_ user: String, _ csrf: String, code: (String, Int64)? = nil, message: String? = nil)
            async throws -> Response
        {
            let (friendList, grantList) = try await sharing.overview(of: user, movingWithin: rules.movingWithin)
            let zone = await login.local(user, zone: zone).zone
            let now = UTCTimestamp.now()
            let today = try await TodayMap.load(account: user, store: store, zone: zone, now: now)
            // Friends' shared tracks of the last day (the home map is today's); /friends draws
            // all that each grant shares.
            let shared = try await sharedHistory(
                Set(friendList.map(\.user)), viewer: user, sharing: sharing, hours: 24)
            // Every device is listed; on the map, only those seen today (an old position would
            // pull the map away from today's track).
            let startOfToday = LocalDay.start(LocalDay.of(now, in: zone), in: zone)
            // An import's device is listed as one, never drawn as where it is now.
            let own = today.positions.map { p in
                let recent = p.live && p.fix.unixMilliseconds! >= startOfToday
                return HomePage.Own(
                    user: user, device: p.device, time: LocalTime.utc(p.fix.unixMilliseconds!),
                    // Only for an import's device (an empty text still opens a section).
                    kind: p.live ? nil : "imported, not live",
                    lat: recent ? "\(p.fix.coordinate!.latitude)" : "",
                    lon: recent ? "\(p.fix.coordinate!.longitude)" : "",
                    seen: Self.ago(Double(now - p.fix.unixMilliseconds!) / 1000),
                    speed: p.fix.speed.map { String(format: "%.0f km/h", $0 * 3.6) } ?? "",
                    course: p.fix.track.map { String(format: "%.0f°", $0) } ?? "")
            }
            let friends = Self.friendRows(friendList, rules: rules, zone: zone)
            let grants = grantList.map { g in
                HomePage.Grant(
                    viewer: g.viewer, scopes: g.scopes.joined(separator: ", "),
                    state: g.paused ? "paused" : (g.isActive(at: UTCTimestamp.now()) ? "sees you" : "expired"))
            }
            let model = HomePage(
                movingWithin: Int(rules.movingWithin), offlineAfter: Int(rules.offlineAfter),
                user: user, csrf: csrf, friends: friends, grants: grants, hasFriends: !friends.isEmpty,
                bodyClass: "mapfirst-page", title: "Today",
                mapLabel: "Your track today and where your friends are",
                hasGrants: !grants.isEmpty, today: LocalTime.today(in: zone).description, own: own,
                track: today.linesJSON, shared: shared,
                todayNote: today.points > 0
                    ? "Your track today: \(counted(today.points, "point")), the line on the map."
                    : "Nothing recorded today yet; the calendar has your other days.",
                tiles: tiles != nil, attribution: WebPages.attribution(tiles),
                code: code.map { HomePage.Code(code: $0.0, expires: LocalTime.format($0.1, zone: zone)) },
                message: message)
            return html(templates.render("home", model: model))
        }
        @Sendable func form(_ request: Request) async throws -> (user: String, csrf: String, fields: [String: String]) {
            try await Self.form(request, login: login)
        }

        router.get("/") { request, _ -> Response in
            guard let (_, session) = await login.session(request) else { return loginPage(request) }
            return try await home(session.user, session.csrf)
        }
        router.post("/login") { request, context -> Response in
            let body = try await request.body.collect(upTo: 64 << 10)
            let fields = SharingServer.parameters(String(buffer: body))
            guard let token = Login.cookies(request)[Login.loginCookie], fields["csrf"] == token else {
                return loginPage(request, message: "The form is out of date; try again.", status: .forbidden)
            }
            let name = fields["user"] ?? ""
            do {
                try await login.check(name, fields["password"] ?? "", request, context, challenge: false)
            } catch let refusal as Refusal where refusal.status == .unauthorized {
                return loginPage(
                    request, message: "Wrong user name or password.", user: name, status: .unauthorized)
            } catch let refusal as Refusal where refusal.status == .tooManyRequests {
                return loginPage(
                    request, message: "Too many failed logins; wait a quarter of an hour.", user: name,
                    status: .tooManyRequests)
            }
            let (session, _) = try await login.sessions.create(user: name)
            return Self.redirect(
                "/",
                cookies: [
                    login.cookie(Login.sessionCookie, session, request, maxAge: Int(WebSessions.lifetime / 1000)),
                    login.cookie(Login.loginCookie, "", request, maxAge: 0),
                ])
        }
        router.post("/logout") { request, _ -> Response in
            _ = try await form(request)
            if let (token, _) = await login.session(request) {
                try await login.sessions.end(token)
            }
            return Self.redirect("/", cookies: [login.cookie(Login.sessionCookie, "", request, maxAge: 0)])
        }
        router.post("/codes") { request, _ -> Response in
            let (user, csrf, fields) = try await form(request)
            let scopes = ["live"] + ["motion", "history", "events"].filter { fields[$0] == "on" }
            let hours = Int(fields["history_hours"] ?? "") ?? 24
            let (code, expires) = try await sharing.createCode(
                owner: user, scopes: scopes, historyHours: scopes.contains("history") ? max(1, min(hours, 24 * 365)) : 0
            )
            return try await home(user, csrf, code: (code, expires))
        }
        router.post("/redeem") { request, _ -> Response in
            let (user, csrf, fields) = try await form(request)
            do {
                let grant = try await sharing.redeem(fields["code"] ?? "", viewer: user)
                return try await home(user, csrf, message: "You now see \(grant.owner).")
            } catch let error as SharingError {
                return try await home(user, csrf, message: error.description)
            }
        }
        router.post("/revoke") { request, _ -> Response in
            let (user, csrf, fields) = try await form(request)
            let viewer = fields["viewer"] ?? ""
            do {
                try await sharing.revoke(owner: user, viewer: viewer)
                return try await home(user, csrf, message: "\(viewer) no longer sees you.")
            } catch let error as SharingError {
                return try await home(user, csrf, message: error.description)
            }
        }
        // The live map's tiles, for signed-in pages: from the server's cache or MBTiles file, so a
        // browser never asks a tile server itself (and never tells it where friends are).
        router.get("/tiles/:z/:x/:y") { request, context -> Response in
            guard await login.session(request) != nil else { throw Refusal.sessionEnded }
            guard let tiles, let z = context.parameters.get("z", as: Int.self), (0...19).contains(z),
                let x = context.parameters.get("x", as: Int.self), let y = context.parameters.get("y", as: Int.self),
                (0..<(1 << z)).contains(x), (0..<(1 << z)).contains(y)
            else { throw Refusal.noTile }
            let key = TileKey(z: z, x: x, y: y)
            // A tile the source lacks is drawn from the nearest lower zoom it has, scaled (those
            // the MBTiles file or the tile cache holds: a tile server is asked once, for this one).
            let keys = (1...max(1, min(z, Self.tileFallbackLevels))).map { k in
                TileKey(z: z - k, x: x >> k, y: y >> k)
            }
            let found = await Blocking.run { () -> (Int, TileImage)? in
                if let image = tiles.images([key])[key] { return (0, image) }
                guard z > 0 else { return nil }
                let lower = tiles.stored(keys)
                for (k, parent) in keys.enumerated() {
                    if let image = lower[parent] { return (k + 1, image) }
                }
                return nil
            }
            guard let (levels, image) = found else { return Self.missingTile }
            if levels > 0 { return Self.scaledTile(image, levels: levels, x: x, y: y) }
            return Response(
                status: .ok,
                headers: [.contentType: image.mime, .cacheControl: "private, max-age=86400"],
                body: .init(byteBuffer: ByteBuffer(bytes: image.data)))
        }
        WebAssets.add(to: router)
        router.get("/map.js") { _, _ -> Response in script(WebMapScripts.map) }
        router.get("/live.js") { _, _ -> Response in script(WebMapScripts.live) }
        WebDiary(
            store: store, login: login, tiles: tiles, zone: zone, visitRules: pipeline.visits,
            shapes: views.shapes, years: views.years
        ).add(to: router)
        WebImport(store: store, login: login, zone: zone, pipeline: pipeline).add(to: router)
        WebSettings(accounts: login.accounts, login: login, zone: zone).add(to: router)
        WebPlaces(store: store, login: login, tiles: tiles, zone: zone, visitRules: pipeline.visits)
            .add(to: router)
        WebHeatmap(store: store, login: login, tiles: tiles, zone: zone, heat: views.heat)
            .add(to: router)
        WebFriends(store: store, login: login, tiles: tiles, rules: rules, zone: zone).add(to: router)
        WebAlerts(store: store, login: login, zone: zone, settings: pipeline.alerts).add(to: router)
    }

    /// A page: HTML that is never cached, under a policy that lets it load only from this server
    /// and run no inline script.
    static func html(_ text: String, cookies: [String] = [], status: HTTPResponse.Status = .ok) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
            .contentSecurityPolicy:
                "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'",
        ]
        for c in cookies { headers.append(.init(name: .setCookie, value: c)) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A form's answer: see `to` (303), setting `cookies`.
    static func redirect(_ to: String, cookies: [String] = []) -> Response {
        var headers: HTTPFields = [.location: to]
        for c in cookies { headers.append(.init(name: .setCookie, value: c)) }
        return Response(status: .seeOther, headers: headers)
    }

    /// A row of the live table: a friend's device at its newest position as the viewer sees it.
    struct FriendRow: Encodable {
        let user: String
        let device: String
        /// UTC, ISO 8601.
        let time: String
        let lat: Double
        let lon: Double
        let seen: String
        let offline: Bool
        /// "moving", "still", or empty without the motion scope.
        let motion: String
        /// The motion, or how long the phone has been silent when that is longer than it counts.
        let moving: String
        let speed: String
        let course: String
    }

    /// What the sign-in page shows: the form's token, the name tried and why it was refused.
    struct LoginPage: Encodable {
        let csrf: String
        var bodyClass = "login"
        let user: String?
        let message: String?

        init(csrf: String, user: String?, message: String?) {
            (self.csrf, self.user, self.message) = (csrf, user, message)
        }
    }

    /// What the home page shows: today's track and the account's devices on the map, friends
    /// live, who sees the account, a share code just made.
    struct HomePage: Encodable {
        /// One of the account's devices at its newest point (on the map when seen today).
        struct Own: Encodable {
            let user: String
            let device: String
            let time: String
            /// Nil for a live phone; what an import's device is.
            let kind: String?
            let lat: String
            let lon: String
            let seen: String
            let speed: String
            let course: String
        }
        struct Grant: Encodable {
            let viewer: String
            let scopes: String
            let state: String
        }
        struct Code: Encodable {
            let code: String
            let expires: String
        }
        let movingWithin: Int
        let offlineAfter: Int
        let user: String
        let csrf: String
        let friends: [FriendRow]
        let grants: [Grant]
        let hasFriends: Bool
        let bodyClass: String
        let title: String
        let mapLabel: String
        let hasGrants: Bool
        let today: String
        let own: [Own]
        let track: String
        let shared: String
        let todayNote: String
        let tiles: Bool
        let attribution: String?
        let code: Code?
        let message: String?
    }

    /// The rows of the live table for `friends` (their newest positions as the viewer sees them).
    static func friendRows(_ friends: [SharingService.Friend], rules: EventRules, zone: TimeZone) -> [FriendRow] {
        friends.map { f in
            let motion = f.moving.map { $0 ? "moving" : "still" } ?? ""
            return FriendRow(
                user: f.user, device: f.device, time: LocalTime.utc(f.fix.unixMilliseconds!),
                lat: f.fix.coordinate!.latitude, lon: f.fix.coordinate!.longitude, seen: Self.ago(f.ageSeconds),
                offline: f.ageSeconds > rules.offlineAfter, motion: motion,
                moving: f.moving != nil && f.ageSeconds > rules.movingWithin
                    ? "silent since " + LocalTime.since(f.fix.unixMilliseconds!, zone: zone, now: UTCTimestamp.now())
                    : motion,
                speed: f.fix.speed.map { String(format: "%.0f km/h", $0 * 3.6) } ?? "",
                course: f.fix.track.map { String(format: "%.0f°", $0) } ?? "")
        }
    }

    /// The shared history of each of `friends` who lets `viewer` see it (the last `hours`, no
    /// further back than the grant says; streamed and simplified, ``TrackLines``), for a live
    /// map's `data-shared`: `[{"user", "lines": [[[lon,lat],...],...], "devices":
    /// [the device of each line]}]`.
    static func sharedHistory(_ friends: Set<String>, viewer: String, sharing: SharingService, hours: Double)
        async throws -> String
    {
        var shared: [String] = []
        for friend in friends.sorted() {
            guard let lines = try? await sharing.trackLines(of: friend, viewer: viewer, hours: hours), !lines.isEmpty
            else { continue }
            let name = String(decoding: try JSONEncoder().encode(friend), as: UTF8.self)
            let devices = String(decoding: try JSONEncoder().encode(lines.map(\.device)), as: UTF8.self)
            shared.append(
                "{\"user\":\(name),\"lines\":\(TodayMap.json(lines.map(\.line))),\"devices\":\(devices)}")
        }
        return "[" + shared.joined(separator: ",") + "]"
    }

    /// The credit a live map's base map shows (nil without tiles or without a credit).
    static func attribution(_ tiles: TileFetcher?) -> String? {
        tiles.map(\.attribution).flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The page before a deletion: what goes for good (`lines`), the form that deletes (`action`,
    /// with the session's CSRF token) and the way back.
    static func confirm(
        user: String, csrf: String, what: String, lines: [String], action: String, back: String, note: String? = nil
    ) -> Response {
        let page = ConfirmPage(
            user: user, csrf: csrf, what: what, lines: lines, action: action, back: back, note: note)
        return html(WebTemplates.pages.render("confirm", model: page))
    }

    /// What the page before a deletion shows.
    struct ConfirmPage: Encodable {
        let user: String
        let csrf: String
        let what: String
        let lines: [String]
        let action: String
        let back: String
        let note: String?
    }

    /// A signed-in form post (at most 64 KiB): its fields, after the session and its CSRF token are
    /// checked.
    static func form(_ request: Request, login: Login) async throws -> (
        user: String, csrf: String, fields: [String: String]
    ) {
        guard let (_, session) = await login.session(request) else { throw Refusal.sessionEnded }
        let body = try await request.body.collect(upTo: 64 << 10)
        let fields = SharingServer.parameters(String(buffer: body))
        guard fields["csrf"] == session.csrf else {
            throw Refusal.staleForm
        }
        return (session.user, session.csrf, fields)
    }

    /// What a map shows where the tile source has no tile (not in the MBTiles file, or the tile
    /// server did not give it): a hatched square that says so, never a silent grey one. Not cached,
    /// so the tile is asked for again next time; `X-Trailbook-Tile: missing` tells scripts.
    static var missingTile: Response {
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">            <defs><pattern id="h" width="16" height="16" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">            <line x1="0" y1="0" x2="0" y2="16" stroke="#c9ced4" stroke-width="3"/></pattern></defs>            <rect width="256" height="256" fill="#eef1f4"/><rect width="256" height="256" fill="url(#h)"/>            <rect x="58" y="112" width="140" height="32" rx="6" fill="#fff" opacity=".9"/>            <text x="128" y="133" font-family="sans-serif" font-size="15" text-anchor="middle" fill="#555">            no map here</text></svg>
            """
        return Response(
            status: .ok,
            headers: [
                .contentType: "image/svg+xml", .cacheControl: "no-store",
                .init("X-Trailbook-Tile")!: "missing",
            ],
            body: .init(byteBuffer: ByteBuffer(string: svg)))
    }

    /// How many zoom levels up a missing tile is looked for (a tile 2⁶ = 64 times enlarged is
    /// still a map of the place, if a coarse one).
    static let tileFallbackLevels = 6

    /// Tile `x`, `y` drawn from `image`, the tile `levels` zooms up that covers it: an SVG that
    /// shows the image's part over this tile, enlarged (it carries the image, so it loads nothing).
    static func scaledTile(_ image: TileImage, levels: Int, x: Int, y: Int) -> Response {
        let size = 256.0 / Double(1 << levels)
        let mask = (1 << levels) - 1
        let (left, top) = (Double(x & mask) * size, Double(y & mask) * size)
        let svg = """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="256" \
            height="256" viewBox="\(left) \(top) \(size) \(size)" preserveAspectRatio="none">\
            <image width="256" height="256" xlink:href="data:\(image.mime);base64,\(image.data.base64EncodedString())"/></svg>
            """
        return Response(
            status: .ok,
            headers: [
                .contentType: "image/svg+xml", .cacheControl: "private, max-age=3600",
                .init("X-Trailbook-Tile")!: "scaled from \(levels) zoom level\(levels == 1 ? "" : "s") up",
            ],
            body: .init(byteBuffer: ByteBuffer(string: svg)))
    }

    /// Scripts the pages load from this server (their policy runs no inline script).
    static func script(_ text: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// "12 s ago", "3 min ago", "2 h ago", "5 days ago" (a time a little ahead: "0 s ago").
    static func ago(_ seconds: Double) -> String {
        switch max(0, seconds) {
        case ..<60: return "\(Int(max(0, seconds))) s ago"
        case ..<3600: return "\(Int(seconds / 60)) min ago"
        case ..<172_800: return "\(Int(seconds / 3600)) h ago"
        default: return "\(Int(seconds / 86_400)) days ago"
        }
    }
}
