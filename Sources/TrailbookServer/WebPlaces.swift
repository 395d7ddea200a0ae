import Foundation
import GPSCore
import Hummingbird
import TrackModel
import TrailbookKit
import Visits

/// `/places`: the signed-in account's places on a map (tap to put a new one, drag its edge to
/// size it), each with its arrivals and departures of the last year; renamed, or deleted
/// after a page that says what goes. The account's phones get place events at them. Below
/// them, the places the visits found (`trailbook visits --places`), each to be named.
struct WebPlaces {
    let store: any TrackStoring
    let login: Login
    let tiles: TileFetcher?
    let zone: TimeZone
    let visitRules: VisitRules

    /// The sentences a redirect names in `?saved=`.
    static let saved = [
        "added": "The place is added: your phones’ arrivals and departures there are noted from now on.",
        "renamed": "The place is renamed (its earlier events keep the old name).", "deleted": "The place is deleted.",
        "named": "The found place has your name in every listing of your visits.",
        "unnamed": "The found place has its number again.",
    ]

    /// How far back a place's arrivals and departures are listed, and how many.
    static let eventDays = 366
    static let eventsShown = 5

    func add(to router: Router<ServerContext>) {
        router.get("/places") { request, _ -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let message = request.uri.queryParameters.get("saved").flatMap { Self.saved[String($0)] }
            return try await page(session.user, session.csrf, message: message)
        }
        router.get("/places.js") { _, _ -> Response in WebPages.script(WebMapScripts.places) }
        // A found place's history, as `trailbook place show N` gives it.
        router.get("/places/found/:id") { request, context -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            guard let id = context.parameters.get("id").flatMap({ Int($0) }) else {
                throw Refusal(.notFound, "A found place is named by its number, e.g. /places/found/3.")
            }
            let zone = await login.local(session.user, zone: zone).zone
            let history: PlaceHistory
            do {
                history = try await PlaceHistory.load(
                    String(id), store: store, devices: DeviceFilter(account: session.user), rules: visitRules,
                    zone: zone)
            } catch let error as VisitCorrectionError {
                throw Refusal(.notFound, error.description)
            }
            let page = HistoryPage(
                title: history.name, user: session.user, today: LocalTime.today(in: zone).description,
                name: history.name, summary: history.lines.dropFirst().first ?? "No visits there yet.",
                hasVisits: !history.visits.isEmpty,
                visits: history.visits.reversed().map {
                    .init(day: $0.day, hours: $0.hours, length: LocalTime.hoursAndMinutes(Double($0.seconds)))
                })
            return WebPages.html(WebTemplates.pages.render("placehistory", model: page))
        }
        router.post("/places") { request, _ -> Response in
            let (user, csrf, fields) = try await WebPages.form(request, login: login)
            let service = PlaceService(store: store, account: user)
            let text = { (name: String) in (fields[name] ?? "").trimmingCharacters(in: .whitespaces) }
            do {
                guard let latitude = Double(text("lat")), let longitude = Double(text("lon")) else {
                    throw PlaceError.badCoordinate
                }
                let radius = Double(text("radius")) ?? PlaceService.defaultRadius
                let name = text("name")
                _ = try await service.add(
                    name: name, at: Coordinate(latitude: latitude, longitude: longitude), radius: radius)
            } catch let error as PlaceError {
                return try await page(
                    user, csrf, refused: error.description, typed: fields, status: .unprocessableContent)
            }
            return WebPages.redirect("/places?saved=added")
        }
        router.post("/places/rename") { request, _ -> Response in
            let (user, csrf, fields) = try await WebPages.form(request, login: login)
            let service = PlaceService(store: store, account: user)
            do {
                _ = try await service.rename(fields["name"] ?? "", to: fields["new"] ?? "")
            } catch let error as PlaceError {
                return try await page(user, csrf, message: error.description, status: .unprocessableContent)
            }
            return WebPages.redirect("/places?saved=renamed")
        }
        // A name for a place the visits found (as `trailbook visit name N NAME`; empty: none).
        router.post("/places/found") { request, _ -> Response in
            let (user, csrf, fields) = try await WebPages.form(request, login: login)
            let corrections = VisitCorrections(
                store: store, devices: DeviceFilter(account: user), rules: visitRules, zone: zone)
            let name = (fields["name"] ?? "").trimmingCharacters(in: .whitespaces)
            do {
                guard let id = fields["id"].flatMap({ Int($0) }) else {
                    throw VisitCorrectionError.noPlace(fields["id"] ?? "")
                }
                try await corrections.name(place: id, as: name)
            } catch let error as VisitCorrectionError {
                return try await page(user, csrf, message: error.description, status: .notFound)
            }
            return WebPages.redirect("/places?saved=\(name.isEmpty ? "unnamed" : "named")#found")
        }
        router.get("/places/delete") { request, _ -> Response in
            guard let (_, session) = await login.session(request) else { return WebPages.redirect("/") }
            let name = request.uri.queryParameters.get("name").map { String($0) } ?? ""
            let service = PlaceService(store: store, account: session.user)
            let events = try await placeEvents(session.user)
            guard let place = try await service.list().first(where: { $0.name == name }) else {
                return try await page(
                    session.user, session.csrf, message: PlaceError.missing(name).description, status: .notFound)
            }
            let count = events[name]?.count ?? 0
            return WebPages.confirm(
                user: session.user, csrf: session.csrf, what: "the place \(name)",
                lines: [
                    "the place \(name), \(Self.size(place)) at \(Self.where(place))",
                    "no more arrivals and departures there; the \(count) already noted stay in the events",
                ], action: "/places/delete?name=\(Self.query(name))", back: "/places")
        }
        router.post("/places/delete") { request, _ -> Response in
            let (user, csrf, _) = try await WebPages.form(request, login: login)
            let name = request.uri.queryParameters.get("name").map { String($0) } ?? ""
            let service = PlaceService(store: store, account: user)
            do {
                try await service.remove(name: name)
            } catch let error as PlaceError {
                return try await page(user, csrf, message: error.description, status: .notFound)
            }
            return WebPages.redirect("/places?saved=deleted")
        }
    }

    /// The account's arrivals and departures of the last ``eventDays`` days, newest first, by place.
    func placeEvents(_ user: String) async throws -> [String: [StoredEvent]] {
        let now = UTCTimestamp.now()
        let events = try await EventService(store: store).events(
            fromMilliseconds: now - Int64(Self.eventDays) * 86_400_000, toMilliseconds: now + 1,
            types: [.placeArrive, .placeDepart], account: user)
        var byPlace: [String: [StoredEvent]] = [:]
        for stored in events.reversed() {
            if let place = stored.event.place { byPlace[place, default: []].append(stored) }
        }
        return byPlace
    }

    /// The page; `refused`: why the new place was not added, shown by the form, which keeps what
    /// was `typed`.
    func page(
        _ user: String, _ csrf: String, message: String? = nil, refused: String? = nil, typed: [String: String] = [:],
        status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        // One snapshot for the page (a signed-in account has its places).
        let (places, latest, found) = try await store.read { tx in
            (
                try tx.places(account: user), try tx.latestPoint(devices: DeviceFilter(account: user)),
                try Self.found(in: tx, account: user)
            )
        }
        let events = try await placeEvents(user)
        let zone = await login.local(user, zone: zone).zone
        let page = PlacesPage(
            user: user, csrf: csrf, today: LocalTime.today(in: zone).description, hasPlaces: !places.isEmpty,
            places: places.map { place in
                PlacesPage.Place(
                    name: place.name, query: Self.query(place.name), where: Self.where(place), size: Self.size(place),
                    events: (events[place.name] ?? []).prefix(Self.eventsShown).map { stored in
                        let e = stored.event
                        return (e.type == .placeArrive ? "arrived " : "left ")
                            + LocalTime.format(e.milliseconds, zone: zone) + " · " + stored.device
                    })
            },
            hasFound: !found.isEmpty,
            found: found.map { p, locality in
                PlacesPage.Found(
                    id: p.id, label: p.name ?? "place \(p.id)", name: p.name ?? "",
                    where: String(format: "%.5f, %.5f", p.center.latitude, p.center.longitude),
                    suggestion: p.suggestion, address: p.address.flatMap { $0.isEmpty ? nil : $0 }, locality: locality)
            },
            placesJSON: Self.json(places), name: typed["name"] ?? "", lat: typed["lat"] ?? "",
            lon: typed["lon"] ?? "", radius: typed["radius"] ?? "\(Int(PlaceService.defaultRadius))",
            here: latest?.coordinate.map { "[\($0.longitude),\($0.latitude)]" }, tiles: tiles != nil,
            attribution: WebPages.attribution(tiles), message: message,
            formMessage: refused)
        return WebPages.html(WebTemplates.pages.render("places", model: page), status: status)
    }

    /// A found place's history page: its visits, newest first.
    struct HistoryPage: Encodable {
        struct Visit: Encodable {
            let day: String
            let hours: String
            let length: String
        }
        let title: String
        let user: String
        let today: String
        let name: String
        let summary: String
        let hasVisits: Bool
        let visits: [Visit]
    }

    /// What the places page shows: the account's places with their last events, the places
    /// found in its days, the form (as typed when it was refused) and the map.
    struct PlacesPage: Encodable {
        struct Place: Encodable {
            let name: String
            let query: String
            let `where`: String
            let size: String
            let events: [String]
        }
        struct Found: Encodable {
            let id: Int64
            let label: String
            let name: String
            let `where`: String
            let suggestion: String?
            let address: String?
            let locality: String?
        }
        let user: String
        let csrf: String
        let today: String
        let hasPlaces: Bool
        let places: [Place]
        let hasFound: Bool
        let found: [Found]
        /// The places for the map (``json(_:)``).
        let placesJSON: String
        let name: String
        let lat: String
        let lon: String
        let radius: String
        /// The newest point, `[lon,lat]`, where the map opens without places.
        let here: String?
        let tiles: Bool
        let attribution: String?
        let message: String?
        let formMessage: String?
    }

    /// The account's found places, each with the gazetteer's nearest populated place ("Wiedikon,
    /// CH") when one is loaded.
    static func found(in tx: any StoreReading, account: String) throws -> [(FoundPlace, String?)] {
        let found = try tx.foundPlaces(account: account)
        guard !found.isEmpty, try tx.hasGazetteer() else { return found.map { ($0, nil) } }
        var lookup = GazetteerLookup(store: tx)
        return try found.map { p in
            (p, try lookup.nearest(p.center).map { "\($0.entry.name), \($0.entry.country)" })
        }
    }

    /// The places for the map: name, centre, radius, and a polygon's ring as [lon, lat] pairs.
    static func json(_ places: [Place]) -> String {
        struct MapPlace: Encodable {
            let name: String
            let lat: Double
            let lon: Double
            let radius: Double
            let ring: [[Double]]?
        }
        let objects = places.map { p in
            MapPlace(
                name: p.name, lat: p.center.latitude, lon: p.center.longitude, radius: p.radius,
                ring: p.polygon?.map { [$0.longitude, $0.latitude] })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: (try? encoder.encode(objects)) ?? Data("[]".utf8), as: UTF8.self)
    }

    static func `where`(_ place: Place) -> String {
        String(format: "%.5f, %.5f", place.center.latitude, place.center.longitude)
    }

    static func size(_ place: Place) -> String {
        if let ring = place.polygon { return "an area of \(ring.count) corners" }
        return "radius \(Int(place.radius.rounded())) m"
    }

    static func query(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
