import Foundation
import GPSCore
import TrackModel

/// Why a sharing request is refused.
public enum SharingError: ServiceFailure, Equatable {
    case badScopes(String)
    /// A wrong, expired or used code (which of them is not said).
    case unknownCode
    case throttled
    case ownCode
    case noGrant(String)
    /// The viewer may not see that owner's history (no grant, paused, expired, or no `history`).
    case noHistory(String)

    public var kind: FailureKind {
        switch self {
        case .badScopes: return .badRequest
        case .unknownCode, .ownCode, .throttled: return .badData
        case .noGrant, .noHistory: return .missingInput
        }
    }

    public var description: String {
        switch self {
        case .badScopes(let s):
            return "'\(s)' is not a scope; scopes are \(SharingService.scopes.sorted().joined(separator: ", "))."
        case .unknownCode: return "That code is not valid: it may be mistyped, used or expired; ask for a new one."
        case .throttled: return "Too many wrong codes lately; wait a quarter of an hour."
        case .ownCode: return "That code is your own; give it to the person who should see you."
        case .noGrant(let user): return "\(user) cannot see you: there is no grant to change."
        case .noHistory(let user):
            return "You cannot see \(user)'s track: ask them for a code with the history scope."
        }
    }
}

/// Pairing by one-time code, the grants it makes, and what a viewer sees of the owners who
/// granted it: codes are 8 characters of Crockford base32 (40 bits) shown as XXXX-XXXX, valid
/// 15 minutes, one use, stored hashed; a viewer gets 5 wrong codes per 15 minutes.
public struct SharingService: Sendable {
    public let store: any TrackStoring
    public static let codeLifetime: Int64 = 15 * 60_000
    public static let failureWindow: Int64 = 15 * 60_000
    public static let maxFailures = 5
    public static let scopes: Set<String> = ["live", "motion", "history", "events"]
    /// The most hours of history a code can give (a leap year).
    public static let longestHistory = 8784

    public init(store: any TrackStoring) { self.store = store }

    /// A new code for `owner`; returns it (shown once) and when it expires.
    public func createCode(owner: String, scopes: [String], historyHours: Int, now: Int64 = UTCTimestamp.now())
        async throws -> (code: String, expires: Int64)
    {
        try await store.write { tx in
            try Self.createCode(tx, owner: owner, scopes: scopes, historyHours: historyHours, now: now)
        }
    }

    static func createCode(_ store: any StoreWriting, owner: String, scopes: [String], historyHours: Int, now: Int64)
        throws -> (code: String, expires: Int64)
    {
        if let bad = scopes.first(where: { !Self.scopes.contains($0) }) { throw SharingError.badScopes(bad) }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<5).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let raw = AccountService.base32(bytes).uppercased()
        let code = raw.prefix(4) + "-" + raw.dropFirst(4).prefix(4)
        let expires = now + Self.codeLifetime
        guard
            try store.addShareCode(
                owner: owner, codeHash: Self.hash(String(code)), scopes: scopes.isEmpty ? ["live"] : scopes,
                historyHours: min(max(0, historyHours), Self.longestHistory), expiresMilliseconds: expires)
        else { throw AccountError.noAccount(owner) }
        return (String(code), expires)
    }

    /// Redeems a code typed by `viewer` (case, spaces and the dash do not matter; I, L, O read
    /// as 1, 1, 0 as Crockford says).
    ///
    /// A wrong code counts against `viewer`: the unit commits that, and the refusal is thrown
    /// afterwards (thrown inside, it would roll the count back).
    public func redeem(_ code: String, viewer: String, now: Int64 = UTCTimestamp.now()) async throws -> Grant {
        let outcome = try await store.write { tx in
            try tx.redeemShareCode(
                codeHash: Self.hash(code), viewer: viewer, now: now, maxFailures: Self.maxFailures,
                window: Self.failureWindow)
        }
        switch outcome {
        case .granted(let grant): return grant
        case .unknown: throw SharingError.unknownCode
        case .throttled: throw SharingError.throttled
        case .own: throw SharingError.ownCode
        }
    }

    /// The code's canonical form, hashed.
    static func hash(_ code: String) -> String {
        var canonical = ""
        for c in code.uppercased() where c != "-" && c != " " {
            switch c {
            case "I", "L": canonical.append("1")
            case "O": canonical.append("0")
            default: canonical.append(c)
            }
        }
        return ContentDigest.hexDigest(of: Array(canonical.utf8))
    }

    public func grants(owner: String) async throws -> [Grant] {
        try await store.read { tx in try tx.grants(owner: owner) }
    }

    public func revoke(owner: String, viewer: String) async throws {
        try await store.write { tx in
            guard try tx.revokeGrant(owner: owner, viewer: viewer) else { throw SharingError.noGrant(viewer) }
        }
    }

    /// Pauses or resumes `viewer`'s grant, and sets or clears when it ends (`expires`: nil
    /// leaves it, `.some(nil)` clears it); returns the grant as it is now. One unit of work: the
    /// grant read is the one changed.
    public func update(owner: String, viewer: String, paused: Bool?, expires: Int64??) async throws -> Grant {
        try await store.write { tx in
            guard let grant = try tx.grants(owner: owner).first(where: { $0.viewer == viewer }) else {
                throw SharingError.noGrant(viewer)
            }
            var changed = grant
            if let paused { changed.paused = paused }
            if let expires { changed.expiresMilliseconds = expires }
            guard
                try tx.updateGrant(
                    owner: owner, viewer: viewer, paused: changed.paused,
                    expiresMilliseconds: changed.expiresMilliseconds)
            else { throw SharingError.noGrant(viewer) }
            return changed
        }
    }

    /// The grant `owner` gave `viewer`, when it is in force at `now`.
    static func activeGrant(_ store: any StoreReading, owner: String, viewer: String, now: Int64) throws -> Grant? {
        try store.grants(viewer: viewer).first { $0.owner == owner && $0.isActive(at: now) }
    }

    /// A friend's device as a viewer sees it.
    public struct Friend: Sendable, Equatable {
        public var user: String
        public var device: String
        public var fix: Fix
        /// From the recent fixes, not one speed value; nil without the `motion` scope.
        public var moving: Bool?
        public var ageSeconds: Double
        /// Percent, as the phone sent it.
        public var battery: Double?
        /// Metres.
        public var accuracy: Double?
    }

    /// What `viewer`'s friends page shows, from one state of the store: the friends they see
    /// live, and the grants in force at `now` that others gave them.
    public func shared(with viewer: String, now: Int64 = UTCTimestamp.now(), movingWithin: Double = 120)
        async throws -> (friends: [Friend], grants: [Grant])
    {
        try await store.read { tx in
            (
                try Self.friends(tx, of: viewer, now: now, movingWithin: movingWithin),
                try tx.grants(viewer: viewer).filter { $0.isActive(at: now) }
            )
        }
    }

    /// The newest position of each device that posts live (``liveDevices(_:of:)``) of every owner
    /// who lets `viewer` see them live now; moving only from fixes of the last `movingWithin` seconds (`events.moving_within`).
    public func friends(of viewer: String, now: Int64 = UTCTimestamp.now(), movingWithin: Double = 120)
        async throws -> [Friend]
    {
        try await store.read { tx in try Self.friends(tx, of: viewer, now: now, movingWithin: movingWithin) }
    }

    /// What `viewer`'s page shows, from one state of the store: the friends they see, and the
    /// grants they gave.
    public func overview(of viewer: String, now: Int64 = UTCTimestamp.now(), movingWithin: Double = 120)
        async throws -> (friends: [Friend], grants: [Grant])
    {
        try await store.read { tx in
            (try Self.friends(tx, of: viewer, now: now, movingWithin: movingWithin), try tx.grants(owner: viewer))
        }
    }

    static func friends(_ store: any StoreReading, of viewer: String, now: Int64, movingWithin: Double) throws
        -> [Friend]
    {
        try store.grants(viewer: viewer).filter { $0.scopes.contains("live") && $0.isActive(at: now) }.flatMap {
            grant in
            let live = try Self.liveDevices(store, of: grant.owner)
            return try store.recentPoints(account: grant.owner, limit: Self.recentFixes).filter {
                live.contains($0.device)
            }.map { Self.friend($0, as: grant, now: now, movingWithin: movingWithin) }
        }
    }

    /// The devices of `owner` that post live (``AccountDevice/postsLive``): an import's device is
    /// never somewhere now, however new its points.
    static func liveDevices(_ store: any StoreReading, of owner: String) throws -> Set<String> {
        Set((try store.devices(of: owner) ?? []).filter(\.postsLive).map(\.name))
    }

    /// How many of a device's newest fixes tell whether it moves.
    static let recentFixes = 10

    /// A device's newest fixes as the grant's viewer sees them: not moving when the newest is
    /// older than `movingWithin` seconds (a phone that died on the way is not on the move).
    static func friend(_ recent: RecentDevice, as grant: Grant, now: Int64, movingWithin: Double = 120) -> Friend {
        let last = recent.fixes.last!
        let age = Double(now - last.unixMilliseconds!) / 1000
        return Friend(
            user: grant.owner, device: recent.device, fix: last,
            moving: grant.scopes.contains("motion") ? age <= movingWithin && moving(recent.fixes) : nil,
            ageSeconds: age, battery: recent.battery, accuracy: recent.accuracy)
    }

    /// `owner`'s points of the last `hours` (at most the grant's history hours), as `viewer`
    /// may see them: needs a grant in force with the `history` scope.
    public func track(of owner: String, viewer: String, hours: Double, now: Int64 = UTCTimestamp.now())
        async throws -> (from: Int64, points: [(device: String, fix: Fix)])
    {
        try await store.read { tx in
            guard let grant = try Self.activeGrant(tx, owner: owner, viewer: viewer, now: now),
                grant.scopes.contains("history"), grant.historyHours > 0
            else { throw SharingError.noHistory(owner) }
            let from = now - Int64((min(max(hours, 0), Double(grant.historyHours)) * 3_600_000).rounded())
            // Up to any time: a phone's clock may run a little ahead of the server's.
            return (from, try tx.points(account: owner, fromMilliseconds: from, toMilliseconds: .max))
        }
    }

    /// The owner's shared track of the last `hours` (no more than the grant gives) as lines to
    /// draw, read a day at a time (``TrackLines``): what the web pages show, whatever the length.
    public func trackLines(of owner: String, viewer: String, hours: Double, now: Int64 = UTCTimestamp.now())
        async throws -> [(device: String, line: [Coordinate])]
    {
        try await store.read { tx in
            guard let grant = try Self.activeGrant(tx, owner: owner, viewer: viewer, now: now),
                grant.scopes.contains("history"), grant.historyHours > 0
            else { throw SharingError.noHistory(owner) }
            var start = now - Int64((min(max(hours, 0), Double(grant.historyHours)) * 3_600_000).rounded())
            // Up to a day ahead: a phone's clock may run a little ahead of the server's.
            let stop = now + 86_400_000
            var lines = TrackLines()
            while start < stop {
                let end = min(start + 86_400_000, stop)
                for p in try tx.points(account: owner, fromMilliseconds: start, toMilliseconds: end) {
                    lines.add(device: p.device, p.fix)
                }
                start = end
            }
            return lines.finish()
        }
    }

    /// Moving: over the fixes of the last two minutes before the newest, more than 1 km/h
    /// from the first to the last place, or a median speed over 1 m/s.
    public static func moving(_ fixes: [Fix]) -> Bool {
        guard let last = fixes.last, let t = last.unixMilliseconds else { return false }
        let recent = fixes.filter { t - $0.unixMilliseconds! <= 120_000 }
        let speeds = recent.compactMap(\.speed).sorted()
        if !speeds.isEmpty && speeds[speeds.count / 2] > 1 { return true }
        guard let first = recent.first, let a = first.coordinate, let b = last.coordinate,
            t > first.unixMilliseconds!
        else { return false }
        return Geodesy.haversineDistance(a, b) / (Double(t - first.unixMilliseconds!) / 1000) > 1 / 3.6
    }
}
