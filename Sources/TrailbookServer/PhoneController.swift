import Foundation
import GPSCore
import Hummingbird
import Logging
import TrackModel
import TrailbookKit

/// The phone apps' protocols, as the apps send them unchanged: OsmAnd and Traccar Client
/// (`/osmand`), Overland (`/overland`), OwnTracks' HTTP mode (`/pub`) and GPSLogger
/// (`/gpslogger`). Each reads its request (``PhoneProtocols``: the query, a form, or a JSON body
/// read with `JSONDecoder` into ``PhoneJSON``), finds the device by its token (one prepared
/// statement, kept), and stores what it says in one unit of work (``PhoneIngest``); friends
/// watching live get the newest position. A request the app cannot have sent right is refused
/// with the status its app understands (`ServerErrors.swift`).
struct PhoneController {
    let store: any TrackStoring
    let ingest: PhoneIngest
    let feed: LiveFeed
    let sharing: SharingService
    let logger: Logger
    /// Keeps the timeline of the time the points came in.
    let upkeep: TimelineUpkeep?

    init(store: any TrackStoring, ingest: PhoneIngest, feed: LiveFeed, logger: Logger, upkeep: TimelineUpkeep? = nil) {
        (self.store, self.ingest, self.feed, self.logger, self.upkeep) = (store, ingest, feed, logger, upkeep)
        sharing = SharingService(store: store)
    }

    func add(to router: Router<ServerContext>) {
        router.get("/osmand", use: osmand)
        router.post("/osmand", use: osmand)
        router.post("/overland", use: overland)
        router.post("/pub", use: ownTracks)
        router.get("/gpslogger", use: gpslogger)
        router.post("/gpslogger", use: gpslogger)
    }

    /// OsmAnd and Traccar Client: the token is `id`, the values in the query (or a form body);
    /// Traccar Client 9 posts JSON, its token `device_id` (or `id` in the query).
    @Sendable func osmand(_ request: Request, context: ServerContext) async throws -> Response {
        if request.method == .post, request.headers[.contentType]?.contains("json") == true {
            let body = Data(try await request.body.collect(upTo: SharingServer.maximumBody).readableBytesView)
            let parsed = Result { try PhoneProtocols.traccarJSON(body) }
            // The token even when the location is malformed: 401 before 400, as elsewhere.
            let token = PhoneProtocols.traccarDeviceID(body)
            guard let token = token ?? SharingServer.parameters(request.uri.query ?? "")["id"],
                let device = try await device(token: token)
            else { throw Refusal.unknownDevice }
            try await keep({ try parsed.get() }, device: device)
            return Response(status: .ok)
        }
        let query = try await Self.query(request)
        guard let token = query["id"], let device = try await device(token: token) else {
            throw Refusal.unknownDevice
        }
        try await keep(
            { Self.single(try PhoneProtocols.osmand(query, now: UTCTimestamp.now()), query) }, device: device)
        return Response(status: .ok)
    }

    /// Overland: a bearer token and a GeoJSON batch; the reply must be exactly {"result":"ok"}.
    @Sendable func overland(_ request: Request, context: ServerContext) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            let device = try await device(token: String(header.dropFirst(7)))
        else { throw Refusal.unknownDevice }
        let body = try await request.body.collect(upTo: SharingServer.maximumBody)
        let report = try PhoneProtocols.overland(Data(body.readableBytesView))
        try await keep({ report }, device: device)
        // Still ok (Overland resends anything else for ever), with what could not be stored:
        // `trailbook push` reads it and stops there.
        let unreadable = report.kept.compactMap(\.reason)
        guard let first = unreadable.first else { return SharingServer.json("{\"result\":\"ok\"}") }
        return try SharingServer.json(OverlandReply(unreadable: unreadable.count, reason: first))
    }

    /// OwnTracks HTTP mode: the reply is an array of a card and the latest location of each
    /// friend who shares with this account (live), each with a `tid`. Transitions, waypoints and
    /// the last will are kept as they came; waypoints (the phone's regions) also become places
    /// of the account.
    @Sendable func ownTracks(_ request: Request, context: ServerContext) async throws -> Response {
        let device = try await basicDevice(request)
        let body = try await request.body.collect(upTo: SharingServer.maximumBody)
        let data = Data(body.readableBytesView)
        let message = try PhoneProtocols.owntracks(data)
        try await keep(
            { PhoneProtocols.Report(fixes: message.fix.map { [$0] } ?? [], battery: message.battery) },
            readings: message.pressure.map { [$0] } ?? [], device: device)
        if let type = message.keptType {
            // The message and the places it names in one unit of work.
            let places = message.places
            try await store.write { unit in
                _ = try unit.addDeviceMessage(
                    device.device, type: type, receivedMilliseconds: UTCTimestamp.now(),
                    body: String(decoding: data, as: UTF8.self))
                for place in places { _ = try unit.savePlace(place, account: device.account) }
            }
            if !places.isEmpty { ingest.placesChanged() }
        }
        let friends = try await sharing.friends(of: device.account, movingWithin: ingest.rules.movingWithin)
        return try SharingServer.json(friends.flatMap(OwnTracksMessage.card(andLocationOf:)))
    }

    /// GPSLogger for Android: a custom URL with Basic `USER:TOKEN`, the values in the query (or a
    /// form body).
    @Sendable func gpslogger(_ request: Request, context: ServerContext) async throws -> Response {
        let device = try await basicDevice(request)
        let query = try await Self.query(request)
        try await keep(
            { Self.single(try PhoneProtocols.gpslogger(query, now: UTCTimestamp.now()), query) }, device: device)
        return Response(status: .ok)
    }

    /// The device of a token (one prepared statement, then kept).
    func device(token: String) async throws -> PhoneDevice? {
        try await store.readPhoneDevice(tokenHash: AccountService.tokenHash(token))
    }

    /// The device of a Basic `USER:DEVICE_TOKEN` header, when the token is USER's.
    func basicDevice(_ request: Request) async throws -> PhoneDevice {
        guard let (user, token) = PhoneProtocols.basic(request.headers[.authorization]),
            let device = try await device(token: token), device.account == user
        else { throw Refusal.unknownDevice }
        return device
    }

    /// Stores a device's points (and keeps what is no position as its messages), or refuses
    /// them with the status that says why; friends watching live get the newest.
    func keep(
        _ read: () throws -> PhoneProtocols.Report, readings: [WeatherReading] = [], device: PhoneDevice
    ) async throws {
        let report = try read()
        // The request's messages, points and what they say in one unit of work.
        let stored = try await ingest.ingest(
            report.fixes, device: device.device, deviceName: device.name, account: device.account,
            battery: report.battery, readings: readings, alarms: report.alarms,
            messages: report.kept.map { ($0.type, $0.body) })
        logger.debug("points of \(device.account)/\(device.name): \(report.fixes.count) received, \(stored) new")
        // Friends watching live get the newest position (read after the reply, with the other
        // devices' that posted meanwhile).
        if stored > 0 { await feed.announced(owner: device.account, device: device.name) }
        let times = report.fixes.compactMap(\.unixMilliseconds)
        if stored > 0, let first = times.min(), let last = times.max() {
            upkeep?.touched(account: device.account, from: first, to: last + 1)
        }
    }

    /// The query's values, and a form body's where the query has none.
    static func query(_ request: Request) async throws -> [String: String] {
        var query = SharingServer.parameters(request.uri.query ?? "")
        if request.method == .post {
            let body = try await request.body.collect(upTo: SharingServer.maximumBody)
            for (k, v) in SharingServer.parameters(String(buffer: body)) where query[k] == nil { query[k] = v }
        }
        return query
    }

    /// One fix of a query request, with the alarm it raises (`alarm=sos`) and the battery.
    static func single(_ fix: Fix, _ query: [String: String]) -> PhoneProtocols.Report {
        PhoneProtocols.Report(
            fixes: [fix], battery: PhoneProtocols.battery(query), alarms: PhoneProtocols.alarm(query["alarm"], at: fix))
    }
}
