import Foundation
import GPSCore
import Hummingbird
import TrackModel
import TrailbookKit

// The requests and answers of the sharing API (``SharingController``), as openapi.json
// describes them: snake_case keys, times ISO 8601 UTC, metres, m/s and degrees. A value a
// request gets wrong is refused with the sentence that says what it takes.

extension ServerContext {
    /// How the server writes JSON: keys sorted (the same bytes for the same answer), `/` as is.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// `POST /api/share-codes`: what the code will let its redeemer see.
struct ShareCodeRequest: Decodable {
    var scopes = ["live"]
    var historyHours = 0

    enum CodingKeys: String, CodingKey {
        case scopes
        case historyHours = "history_hours"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.scopes) {
            guard let scopes = try? c.decode([String].self, forKey: .scopes) else {
                throw Refusal(.badRequest, "scopes is a list of live, motion, history and events.")
            }
            self.scopes = scopes
        }
        if c.contains(.historyHours) {
            // A whole number (2.0 is one; true is not: JSON's booleans are no numbers here).
            guard let value = try? c.decode(Double.self, forKey: .historyHours), let hours = Int(exactly: value),
                (0...SharingService.longestHistory).contains(hours)
            else {
                throw Refusal(
                    .badRequest,
                    "history_hours is a whole number of hours from 0 to \(SharingService.longestHistory).")
            }
            historyHours = hours
        }
    }
}

/// A new share code and when it expires.
struct ShareCode: ResponseEncodable {
    let code: String
    let expiresAt: String

    enum CodingKeys: String, CodingKey {
        case code
        case expiresAt = "expires_at"
    }
}

/// `POST /api/share-codes/redeem`.
struct RedeemRequest: Decodable {
    let code: String

    enum CodingKeys: String, CodingKey { case code }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        guard let code = try? c.decode(String.self, forKey: .code) else {
            throw Refusal(.badRequest, #"Give {"code": "XXXX-XXXX"}."#)
        }
        self.code = code
    }
}

/// The grant a redeemed code made: whose, and what it lets the redeemer see.
struct Redeemed: ResponseEncodable {
    let owner: String
    let scopes: [String]
    let historyHours: Int

    enum CodingKeys: String, CodingKey {
        case owner, scopes
        case historyHours = "history_hours"
    }
}

/// A grant as its owner sees it; `expires_at` is null for a grant that lasts until revoked.
struct GrantDocument: ResponseEncodable {
    let viewer: String
    let scopes: [String]
    let historyHours: Int
    let created: String
    let paused: Bool
    let expiresAt: String?

    init(_ grant: Grant) {
        (viewer, scopes, historyHours, paused) = (grant.viewer, grant.scopes, grant.historyHours, grant.paused)
        created = LocalTime.utc(grant.createdMilliseconds)
        expiresAt = grant.expiresMilliseconds.map { LocalTime.utc($0) }
    }

    enum CodingKeys: String, CodingKey {
        case viewer, scopes, created, paused
        case historyHours = "history_hours"
        case expiresAt = "expires_at"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(viewer, forKey: .viewer)
        try c.encode(scopes, forKey: .scopes)
        try c.encode(historyHours, forKey: .historyHours)
        try c.encode(created, forKey: .created)
        try c.encode(paused, forKey: .paused)
        try c.encode(expiresAt, forKey: .expiresAt)  // null, not left out
    }
}

struct GrantList: ResponseEncodable {
    let grants: [GrantDocument]
}

/// `PATCH /api/grants/USER`: pause or resume, and a new end (null: none). A key left out
/// changes nothing.
struct GrantChange: Decodable {
    var paused: Bool?
    /// nil: unchanged; .some(nil): no end.
    var expires: Int64??

    enum CodingKeys: String, CodingKey {
        case paused
        case expiresAt = "expires_at"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.expiresAt) {
            if try c.decodeNil(forKey: .expiresAt) {
                expires = .some(nil)
            } else if let text = try? c.decode(String.self, forKey: .expiresAt),
                let ms = UTCTimestamp.milliseconds(Substring(text))
            {
                expires = .some(ms)
            } else {
                throw Refusal(.badRequest, "expires_at is an ISO 8601 time or null.")
            }
        }
        if c.contains(.paused) {
            guard let paused = try? c.decode(Bool.self, forKey: .paused) else {
                throw Refusal(.badRequest, "paused is true or false.")
            }
            self.paused = paused
        }
    }
}

/// A friend's device where it was last: its fix, how old it is, and (with the `motion` scope)
/// whether it moves. Values the phone did not send are left out.
struct FriendDocument: Encodable {
    let user: String
    let device: String
    let time: String
    let lat: Double
    let lon: Double
    let ageS: Double
    let speed: Double?
    let course: Double?
    let moving: Bool?
    let accuracy: Double?
    let battery: Double?

    init(_ f: SharingService.Friend) {
        (user, device, time) = (f.user, f.device, LocalTime.utc(f.fix.unixMilliseconds!))
        (lat, lon) = (f.fix.coordinate!.latitude, f.fix.coordinate!.longitude)
        ageS = (f.ageSeconds * 10).rounded() / 10
        (speed, course, moving, battery) = (f.fix.speed, f.fix.track, f.moving, f.battery)
        accuracy = f.accuracy.map { ($0 * 10).rounded() / 10 }
    }

    enum CodingKeys: String, CodingKey {
        case user, device, time, lat, lon, speed, course, moving, accuracy, battery
        case ageS = "age_s"
    }
}

struct FriendList: ResponseEncodable {
    let friends: [FriendDocument]
}

/// A friend's track since `from` (the `history` scope, as far back as the grant allows).
struct TrackDocument: ResponseEncodable {
    struct Point: Encodable {
        let device: String
        let time: String
        let lat: Double
        let lon: Double
        let alt: Double?
        let speed: Double?
        let course: Double?

        init(device: String, _ fix: Fix) {
            (self.device, time) = (device, LocalTime.utc(fix.unixMilliseconds!))
            (lat, lon) = (fix.coordinate!.latitude, fix.coordinate!.longitude)
            (alt, speed, course) = (fix.altitudeMSL, fix.speed, fix.track)
        }
    }

    let user: String
    let from: String
    let points: [Point]
}
