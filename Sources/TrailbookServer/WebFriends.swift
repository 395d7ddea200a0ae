import Foundation
import GPSCore
import Hummingbird
import Pipeline
import TrackModel
import TrailbookKit

/// `/friends`: who lets the signed-in account see them and what each shares (live, motion, place
/// events, the track of the last hours, until when), their devices live on the map (as the home
/// page's, kept up to date by `/live.js`) and the shared tracks, each device named.
struct WebFriends {
    let store: any TrackStoring
    let login: Login
    let tiles: TileFetcher?
    let rules: EventRules
    let zone: TimeZone

    /// What a grant's scopes mean, as the page says them.
    static let scopeWords = [
        "live": "where they are", "motion": "whether they move", "events": "arrivals and departures",
        "history": "their track",
    ]

    func add(to router: Router<ServerContext>) {
        router.get("/friends") { request, _ -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let user = session.user
            let sharing = SharingService(store: store)
            let (friends, grants) = try await sharing.shared(with: user, movingWithin: rules.movingWithin)
            let shared = try await WebPages.sharedHistory(
                Set(grants.map(\.owner)), viewer: user, sharing: sharing, hours: 24 * 366)
            let zone = await login.local(user, zone: zone).zone
            let owners = Set(grants.map(\.owner))
            let page = FriendsPage(
                user: user, csrf: session.csrf, today: LocalTime.today(in: zone).description,
                mapLabel: "Where your friends are and the tracks they share", track: "[]", shared: shared,
                movingWithin: Int(rules.movingWithin), offlineAfter: Int(rules.offlineAfter),
                friends: WebPages.friendRows(friends, rules: rules, zone: zone), hasFriends: !friends.isEmpty,
                hasGrants: !grants.isEmpty,
                grants: grants.sorted { $0.owner < $1.owner }.map { g in
                    let devices = friends.filter { $0.user == g.owner }
                    return FriendsPage.Grant(
                        owner: g.owner, scopes: Self.scopes(g),
                        until: g.paused
                            ? "paused"
                            : g.expiresMilliseconds.map { LocalTime.format($0, zone: zone) } ?? "until revoked",
                        devices: devices.isEmpty
                            ? "—"
                            : devices.map { "\($0.device) (\(WebPages.ago($0.ageSeconds)))" }.joined(separator: ", "))
                },
                sharedNote: owners.isEmpty
                    ? "When a friend gives you a code, they appear here."
                    : "\(owners.count == 1 ? "1 friend shares" : "\(owners.count) friends share") with you.",
                tiles: tiles != nil, attribution: WebPages.attribution(tiles))
            return WebPages.html(WebTemplates.pages.render("friends", model: page))
        }
    }

    /// What the friends page shows: who shares with the account, their phones on the live map
    /// and their shared tracks.
    struct FriendsPage: Encodable {
        struct Grant: Encodable {
            let owner: String
            let scopes: String
            let until: String
            /// Its phones and when each was last heard.
            let devices: String
        }
        let user: String
        let csrf: String
        let today: String
        let mapLabel: String
        /// The account's own track (none here): a JSON array for the map.
        let track: String
        /// The friends' shared tracks, JSON (``WebPages/sharedHistory(_:viewer:sharing:hours:)``).
        let shared: String
        let movingWithin: Int
        let offlineAfter: Int
        let friends: [WebPages.FriendRow]
        let hasFriends: Bool
        let hasGrants: Bool
        let grants: [Grant]
        let sharedNote: String
        /// Whether the map has a base map (`/tiles/`), and the credit it shows.
        let tiles: Bool
        let attribution: String?
    }

    /// "where they are, whether they move, their track of the last 24 h".
    static func scopes(_ grant: Grant) -> String {
        grant.scopes.compactMap { scope -> String? in
            guard let words = scopeWords[scope] else { return nil }
            return scope == "history" ? "\(words) of the last \(grant.historyHours) h" : words
        }.joined(separator: ", ")
    }
}
