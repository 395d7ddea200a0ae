import Foundation
import GPSCore
import Synchronization
import TrackModel

/// Why points could not be sent to a server. None of them loses a point: what was not
/// acknowledged stays in the store, to send later.
public enum UploadError: ServiceFailure, Equatable {
    /// The server address is not an http(s) URL.
    case badServer(String)
    /// The server did not answer (no network, down, a timeout): the reason.
    case unreachable(server: String, reason: String)
    /// The server refused the token (401, 403).
    case refusedToken(server: String, status: Int)
    /// The server refused a batch (400, 413, 422): its status, its words and the batch's first time.
    case refusedPoints(server: String, status: Int, message: String, from: Int64)
    /// An answer that is not an Overland acknowledgement: the status and the start of the body.
    case badReply(server: String, status: Int, body: String)
    /// No device of that name: the name, the store, the names it has.
    case noDevice(String, store: String, known: [String])
    /// Several devices have points to send and none was named.
    case severalDevices([String])

    public var kind: FailureKind {
        switch self {
        case .badServer: return .badRequest
        case .unreachable: return .unavailable
        case .refusedToken: return .permission
        case .refusedPoints: return .badData
        case .badReply: return .other
        case .noDevice: return .missingInput
        case .severalDevices: return .badRequest
        }
    }

    /// A failure that may pass by itself (a server that is down, restarting or overloaded).
    public var isTransient: Bool {
        switch self {
        case .unreachable: return true
        case .badReply(_, let status, _): return status == 408 || status == 429 || status >= 500
        default: return false
        }
    }

    public var description: String {
        switch self {
        case .badServer(let text):
            return
                "\(text) is not a server address; give an http:// or https:// URL, e.g. https://trailbook.example.org."
        case .unreachable(let server, let reason):
            return
                "The server \(server) does not answer (\(reason)); the points stay in the store and are sent when it does."
        case .refusedToken(let server, let status):
            return
                "The server \(server) refused the token (HTTP \(status)); use a device token the server made (trailbook device add on the server)."
        case .refusedPoints(let server, let status, let message, let from):
            let why = message.isEmpty ? "" : ": \(message)"
            return
                "The server \(server) refused the points from \(LocalTime.utc(from)) on (HTTP \(status)\(why)); they stay in the store."
        case .badReply(let server, let status, let body):
            return
                "The server \(server) answered HTTP \(status) \"\(body)\" instead of {\"result\":\"ok\"}; is the address an Overland endpoint?"
        case .noDevice(let name, let store, let known):
            let has = known.isEmpty ? "it has none yet" : "it has " + known.joined(separator: ", ")
            return "There is no device \(name) in \(store) (\(has))."
        case .severalDevices(let names):
            return
                "Several devices have points to send (\(names.joined(separator: ", "))); name one, each with its own device token on the server."
        }
    }
}

/// Where points go: a Trailbook server's `/overland`, or any server that takes Overland batches
/// (Dawarich, ...), with a bearer token.
public struct UploadTarget: Sendable, CustomStringConvertible {
    /// The URL batches are posted to.
    public let endpoint: URL
    public let token: String?
    /// The name the store keeps the upload cursor under: the endpoint without its query, and a
    /// digest of what identifies the account (the query and the token), so another account on
    /// the same server starts from the first point.
    public let cursorName: String

    /// `server`: a Trailbook server's base URL (`/overland` is added when it has no path) or a
    /// full Overland endpoint URL.
    public init(server: String, token: String?) throws(UploadError) {
        guard var parts = URLComponents(string: server), let scheme = parts.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = parts.host, !host.isEmpty
        else { throw .badServer(server) }
        if parts.path.isEmpty || parts.path == "/" { parts.path = "/overland" }
        guard let endpoint = parts.url else { throw .badServer(server) }
        self.endpoint = endpoint
        self.token = token.flatMap { $0.isEmpty ? nil : $0 }
        let account = ContentDigest.hexDigest(of: Array(((parts.query ?? "") + "\n" + (token ?? "")).utf8))
        parts.query = nil
        cursorName = (parts.string ?? server) + "#" + account.prefix(16)
    }

    /// The endpoint as shown in sentences: without its query, which may hold a key.
    public var description: String {
        var parts = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)
        parts?.query = nil
        return parts?.string ?? endpoint.absoluteString
    }
}

/// Sends a device's stored points to a server as Overland batches, store-and-forward: the store
/// keeps, per device and server, the newest point the server acknowledged; each call sends what
/// comes after it, oldest first, and moves it on after each acknowledged batch. A batch whose
/// reply was lost is sent again; servers that ignore a point they have (Trailbook does) keep it
/// once.
public struct OverlandUpload: Sendable {
    public let target: UploadTarget
    let store: any TrackStoring
    /// Whose devices are sent (nil: the store's own user's).
    let account: String?
    let batchSize: Int
    let timeout: TimeInterval

    public init(
        target: UploadTarget, store: any TrackStoring, account: String? = nil, batchSize: Int = 500,
        timeout: TimeInterval = 30
    ) {
        self.target = target
        self.store = store
        self.account = account
        self.batchSize = batchSize
        self.timeout = timeout
    }

    /// The device of the account to send: the one named, else the one with points to send (nil:
    /// none has).
    public func device(named name: String?, from: Int64? = nil) async throws -> StoredDevice? {
        let (account, cursor) = (self.account, target.cursorName)
        // The devices and their points to send on one state of the store.
        let devices = try await store.read { tx in
            let devices =
                try account.map { try (tx.devices(of: $0) ?? []).map { StoredDevice(id: $0.id, name: $0.name) } }
                ?? tx.devices()
            return try devices.map {
                ($0, name == nil ? try Self.pendingCount(tx, device: $0.id, cursor: cursor, from: from) : 0)
            }
        }
        if let name {
            guard let device = devices.first(where: { $0.0.name == name }) else {
                throw UploadError.noDevice(name, store: store.path, known: devices.map(\.0.name))
            }
            return device.0
        }
        let pending = devices.filter { $0.1 > 0 }.map(\.0)
        if pending.count > 1 { throw UploadError.severalDevices(pending.map(\.name)) }
        return pending.first
    }

    /// How many points of `device` (from `from` on, when given) the server has not acknowledged.
    public func pendingCount(device: DeviceID, from: Int64? = nil) async throws -> Int {
        let cursor = target.cursorName
        return try await store.read { tx in try Self.pendingCount(tx, device: device, cursor: cursor, from: from) }
    }

    static func pendingCount(_ tx: any StoreReading, device: DeviceID, cursor: String, from: Int64?) throws -> Int {
        try tx.pointCount(device: device, after: try start(tx, device: device, cursor: cursor, from: from))
    }

    /// Sends `device`'s points the server has not acknowledged (from `from` on, when given),
    /// batch by batch; `progress` gets the running total after each batch. Returns how many
    /// were sent. The store is read and the cursor written in units of work, on the store's
    /// threads.
    @discardableResult
    public func sendPending(
        device: DeviceID, deviceName: String, from: Int64? = nil, progress: (Int) -> Void = { _ in }
    ) async throws -> Int {
        let (cursor, batchSize) = (target.cursorName, self.batchSize)
        var sent = 0
        while true {
            let batch = try await store.read { tx in
                try tx.points(
                    device: device, after: try Self.start(tx, device: device, cursor: cursor, from: from),
                    limit: batchSize)
            }
            guard let last = batch.last?.unixMilliseconds else { return sent }
            try await post(batch, deviceName: deviceName)
            try await store.write { try $0.setUploadCursor(device: device, server: cursor, milliseconds: last) }
            sent += batch.count
            progress(sent)
        }
    }

    /// The time after which points are still to send: the cursor, or just before `from`.
    private static func start(_ tx: any StoreReading, device: DeviceID, cursor: String, from: Int64?) throws -> Int64? {
        let stored = try tx.uploadCursor(device: device, server: cursor)
        guard let from else { return stored }
        return max(stored ?? .min, from - 1)
    }

    /// Posts one batch; returns when the server acknowledged it.
    func post(_ fixes: [Fix], deviceName: String) async throws(UploadError) {
        var headers = [("Content-Type", "application/json")]
        if let token = target.token { headers.append(("Authorization", "Bearer \(token)")) }
        let exchange = HTTPExchange(
            "POST", target.endpoint, headers: headers, body: Self.batch(fixes, deviceName: deviceName), timeout: timeout
        )
        let server = target.description
        let answer: HTTPExchange.Answer
        do {
            answer = try await exchange.send()
        } catch {
            throw .unreachable(server: server, reason: error.description)
        }
        let (status, data) = (answer.status, answer.body)
        let text = String(decoding: data.prefix(200), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        switch status {
        case 200..<300:
            let reply = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            guard reply?["result"] as? String == "ok" else {
                throw .badReply(server: server, status: status, body: text)
            }
            // Trailbook's server takes the batch but says which points it could not store.
            if let unreadable = reply?["unreadable"] as? Int, unreadable > 0 {
                throw .refusedPoints(
                    server: server, status: status, message: reply?["reason"] as? String ?? "",
                    from: fixes.first?.unixMilliseconds ?? 0)
            }
        case 401, 403:
            throw .refusedToken(server: server, status: status)
        case 400, 413, 422:
            throw .refusedPoints(
                server: server, status: status, message: Self.message(data) ?? text,
                from: fixes.first?.unixMilliseconds ?? 0)
        default:
            throw .badReply(server: server, status: status, body: text)
        }
    }

    /// The sentence of an error body such as Hummingbird's `{"error": {"message": ...}}`.
    static func message(_ data: Data) -> String? {
        guard let doc = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        let error = doc["error"]
        return (error as? [String: Any])?["message"] as? String ?? error as? String ?? doc["message"] as? String
    }

    /// An Overland batch: `{"locations": [GeoJSON Point features]}` with the properties Overland
    /// sends (timestamp ISO 8601, altitude m, speed m/s, course degrees, horizontal_accuracy m,
    /// device_id).
    static func batch(_ fixes: [Fix], deviceName: String) -> Data {
        let locations: [[String: Any]] = fixes.compactMap { fix in
            guard let c = fix.coordinate, let ms = fix.unixMilliseconds else { return nil }
            var properties: [String: Any] = ["timestamp": LocalTime.utc(ms), "device_id": deviceName]
            if let v = fix.altitudeMSL { properties["altitude"] = v }
            if let v = fix.speed { properties["speed"] = v }
            if let v = fix.track { properties["course"] = v }
            if let v = fix.horizontalError { properties["horizontal_accuracy"] = (v * 10).rounded() / 10 }
            return [
                "type": "Feature", "geometry": ["type": "Point", "coordinates": [c.longitude, c.latitude]],
                "properties": properties,
            ]
        }
        return (try? JSONSerialization.data(withJSONObject: ["locations": locations])) ?? Data()
    }
}
