import Foundation
import GPSCore

/// A person with an account on the store (the local `me` included).
public struct StoredAccount: Equatable, Sendable {
    public var name: String
    public var createdMilliseconds: Int64
    /// Whether a password is set (the local `me` has none: it cannot log in to a server).
    public var hasPassword: Bool

    public init(name: String, createdMilliseconds: Int64, hasPassword: Bool) {
        self.name = name
        self.createdMilliseconds = createdMilliseconds
        self.hasPassword = hasPassword
    }
}

/// A device of an account, with whether it has a token and whether that was revoked.
public struct AccountDevice: Equatable, Sendable {
    public var id: DeviceID
    public var name: String
    public var createdMilliseconds: Int64
    public var hasToken: Bool
    public var revokedMilliseconds: Int64?

    /// Whether it posts live: it was given a token (a phone app, `record --server`), revoked or
    /// not. An import's device never is: its newest point says nothing of now.
    public var postsLive: Bool { hasToken || revokedMilliseconds != nil }

    public init(id: DeviceID, name: String, createdMilliseconds: Int64, hasToken: Bool, revokedMilliseconds: Int64?) {
        self.id = id
        self.name = name
        self.createdMilliseconds = createdMilliseconds
        self.hasToken = hasToken
        self.revokedMilliseconds = revokedMilliseconds
    }
}

/// Accounts and device tokens: what the sharing server authenticates with. Hashes only: the
/// store never sees a password or a token.
public protocol AccountReading {
    func accounts() throws -> [StoredAccount]
    /// The account's password hash (nil: no such account, or no password).
    func passwordHash(of name: String) throws -> String?
    /// The messages of `account`'s devices, oldest first.
    func deviceMessages(account: String) throws -> [DeviceMessage]
    /// The account's devices, by name; nil when there is no such account.
    func devices(of account: String) throws -> [AccountDevice]?
    /// The account and device a token (its hash) belongs to, unless revoked.
    func device(tokenHash: String) throws -> (account: String, device: DeviceID, name: String)?
}

/// What a write unit changes of accounts and device tokens (``AccountReading`` is what any unit reads).
public protocol AccountStoring: AccountReading {
    /// Adds an account; false when the name is taken.
    func addAccount(name: String, passwordHash: String) throws -> Bool
    /// False when there is no such account.
    func setPasswordHash(_ hash: String, of name: String) throws -> Bool
    /// Removes the account with its devices, their points, rides and records; false when there
    /// is no such account.
    func removeAccount(_ name: String) throws -> Bool
    /// Adds a device with a token (its hash) to an account; nil when the account does not exist
    /// or already has a device of that name.
    func addDevice(named name: String, account: String, tokenHash: String) throws -> DeviceID?
    /// Keeps a message of `device` that is not a position; the same type and body again (a batch
    /// the phone sent twice) is kept once. Whether it was new.
    @discardableResult
    func addDeviceMessage(_ device: DeviceID, type: String, receivedMilliseconds: Int64, body: String) throws -> Bool
    /// Revokes a device's token at `milliseconds`; false when there is no such device with a
    /// live token.
    func revokeDevice(named name: String, account: String, at milliseconds: Int64) throws -> Bool
}

/// What a grant lets a viewer see of its owner.
public struct Grant: Equatable, Sendable {
    public var owner: String
    public var viewer: String
    /// `live`, `motion`, `history`.
    public var scopes: [String]
    public var historyHours: Int
    public var createdMilliseconds: Int64
    /// The viewer sees nothing while paused.
    public var paused: Bool
    /// The grant ends then (nil: when revoked).
    public var expiresMilliseconds: Int64?

    public init(
        owner: String, viewer: String, scopes: [String], historyHours: Int, createdMilliseconds: Int64,
        paused: Bool = false, expiresMilliseconds: Int64? = nil
    ) {
        self.owner = owner
        self.viewer = viewer
        self.scopes = scopes
        self.historyHours = historyHours
        self.createdMilliseconds = createdMilliseconds
        self.paused = paused
        self.expiresMilliseconds = expiresMilliseconds
    }

    /// In force at `now`: not paused, not expired.
    public func isActive(at now: Int64) -> Bool { !paused && (expiresMilliseconds.map { now < $0 } ?? true) }
}

/// What the live viewers of a device are shown: the grants they hold, the device's newest
/// points (``SharingReading/liveView(owner:device:viewers:limit:)``).
public struct LiveView: Sendable {
    /// By viewer.
    public var grants: [Grant]
    /// Nil without a grant, or when the device has no point.
    public var recent: RecentDevice?

    public init(grants: [Grant], recent: RecentDevice?) {
        self.grants = grants
        self.recent = recent
    }
}

/// A device's newest points and what it said of itself with them.
public struct RecentDevice: Sendable {
    public var device: String
    /// Oldest first.
    public var fixes: [Fix]
    /// Percent, as the phone sent it.
    public var battery: Double?
    /// The accuracy radius of the newest point, metres.
    public var accuracy: Double?

    public init(device: String, fixes: [Fix], battery: Double? = nil, accuracy: Double? = nil) {
        self.device = device
        self.fixes = fixes
        self.battery = battery
        self.accuracy = accuracy
    }
}

/// A message a phone app sent that is not a position (OwnTracks' `transition`, `waypoint`,
/// `waypoints`, `lwt`), kept as it came.
public struct DeviceMessage: Equatable, Sendable {
    public var device: String
    /// When the server received it (ms since 1970).
    public var receivedMilliseconds: Int64
    /// The app's message type, e.g. `transition`.
    public var type: String
    /// The message, as the app sent it (JSON).
    public var body: String

    public init(device: String, receivedMilliseconds: Int64, type: String, body: String) {
        self.device = device
        self.receivedMilliseconds = receivedMilliseconds
        self.type = type
        self.body = body
    }
}

/// What redeeming a code did.
public enum Redemption: Equatable, Sendable {
    case granted(Grant)
    /// No live code has that hash (wrong, expired or used).
    case unknown
    /// The viewer failed too often lately: nothing was checked.
    case throttled
    /// The code is the viewer's own.
    case own
}

/// Pairing by one-time codes and the grants they make.
public protocol SharingReading {
    /// Grants `owner` gave (who sees them), by viewer.
    func grants(owner: String) throws -> [Grant]
    /// Grants `viewer` holds (whom they see), by owner.
    func grants(viewer: String) throws -> [Grant]
    /// The newest `limit` points of each of `account`'s devices that has any (of the device
    /// named `device` alone, when given), oldest first, with the device's name and its last
    /// state, by device name.
    func recentPoints(account: String, device: String?, limit: Int) throws -> [RecentDevice]
    /// What the live viewers of one device need, read together: the grants `owner` gave to any
    /// of `viewers` (by viewer), and when there is one, `device`'s newest `limit` points and
    /// state as ``recentPoints(account:device:limit:)`` gives them (nil when it has none).
    func liveView(owner: String, device: String, viewers: Set<String>, limit: Int) throws -> LiveView
    /// The points of all of `account`'s devices in [from, to), in time order, with their
    /// device's name.
    func points(account: String, fromMilliseconds: Int64, toMilliseconds: Int64) throws -> [(device: String, fix: Fix)]
    /// How many of `account`'s points lie in each cell of a grid of `cellDegrees` on a side (of
    /// latitude and of longitude), counted in the store: the cells that have any, each by its
    /// south-west corner's row and column (`floor((lat + 90) / cellDegrees)`, `floor((lon +
    /// 180) / cellDegrees)`), in row then column order; of the points in `[from, to)` ms.
    func pointCells(account: String, cellDegrees: Double, fromMilliseconds from: Int64, toMilliseconds to: Int64)
        throws -> [PointCell]
}

/// What a write unit changes of pairing and grants (``SharingReading`` is what any unit reads).
public protocol SharingStoring: SharingReading {
    /// Stores a code's hash for `owner`; false when there is no such account.
    func addShareCode(
        owner: String, codeHash: String, scopes: [String], historyHours: Int, expiresMilliseconds: Int64
    ) throws -> Bool
    /// Redeems a code for `viewer` at `now`, once: a grant from its owner to the viewer (one
    /// grant per pair: a new one replaces the old). A failure counts against the viewer: after
    /// `maxFailures` in the last `window` ms nothing more is checked.
    func redeemShareCode(codeHash: String, viewer: String, now: Int64, maxFailures: Int, window: Int64) throws
        -> Redemption
    /// Ends a grant at once; false when there was none.
    func revokeGrant(owner: String, viewer: String) throws -> Bool
    /// Pauses or resumes a grant and sets when it ends (nil: never); false when there is none.
    func updateGrant(owner: String, viewer: String, paused: Bool, expiresMilliseconds: Int64?) throws -> Bool
    /// What a phone said of itself with its newest point: its accuracy, and its battery — a
    /// nil battery keeps the last known level. Only moves forward: a state at or before the
    /// stored one's time (a resent or late batch) changes nothing.
    func setDeviceState(_ device: DeviceID, atMilliseconds: Int64, battery: Double?, accuracy: Double?) throws
}

extension SharingReading {
    /// The cells of all the account's points.
    public func pointCells(account: String, cellDegrees: Double) throws -> [PointCell] {
        try pointCells(account: account, cellDegrees: cellDegrees, fromMilliseconds: .min, toMilliseconds: .max)
    }

    /// The newest `limit` points of each of `account`'s devices.
    public func recentPoints(account: String, limit: Int) throws -> [RecentDevice] {
        try recentPoints(account: account, device: nil, limit: limit)
    }

    /// Two reads: the grants, then the points when a grant is there.
    public func liveView(owner: String, device: String, viewers: Set<String>, limit: Int) throws -> LiveView {
        let grants = try grants(owner: owner).filter { viewers.contains($0.viewer) }
        guard !grants.isEmpty else { return LiveView(grants: [], recent: nil) }
        return LiveView(grants: grants, recent: try recentPoints(account: owner, device: device, limit: limit).first)
    }
}

/// Signed-in browsers and failed logins, kept in the store so that every server process on it
/// sees the same (several `serve` processes on one PostgreSQL database), and a restart signs
/// nobody out. A session is known by its token's SHA-256, never the token.
public protocol SessionReading {
    /// The account and CSRF token of a session in force at `now`; nil when unknown or expired
    /// (and once its account is removed).
    func session(tokenHash: String, now: Int64) throws -> (account: String, csrf: String)?
    /// The account's own time zone and units (nil where the account chose none: the server's).
    func preferences(account: String) throws -> AccountPreferences
    /// How many failed logins each key has since `since` (keys without any are left out).
    func loginFailures(keys: [String], since: Int64) throws -> [String: Int]
}

/// What a write unit changes of sessions and failed logins (``SessionReading`` is what any unit reads).
public protocol SessionStoring: SessionReading {
    /// Starts a session of `account` (false when there is no such account); sessions past their
    /// time are forgotten meanwhile.
    func addSession(tokenHash: String, account: String, csrf: String, expiresMilliseconds: Int64, now: Int64) throws
        -> Bool
    func endSession(tokenHash: String) throws
    /// Ends every session of `account` but the one of `tokenHash` (nil: all of them); how many.
    func endSessions(account: String, except tokenHash: String?) throws -> Int
    /// Sets them (nil fields: back to the server's); false when there is no such account.
    func setPreferences(account: String, _ preferences: AccountPreferences) throws -> Bool
    /// Counts one failed login against each key (an account, a client address); failures
    /// older than `window` ms are forgotten meanwhile.
    func addLoginFailure(keys: [String], at: Int64, window: Int64) throws
}

/// A cell of ``SharingReading/pointCells(account:cellDegrees:)``: its row (from the south pole)
/// and column (from the antimeridian), and the points in it.
public struct PointCell: Equatable, Sendable {
    public var row: Int
    public var column: Int
    public var count: Int

    public init(row: Int, column: Int, count: Int) {
        self.row = row
        self.column = column
        self.count = count
    }
}

/// What an account chose for itself over the server's configuration: the time zone its days and
/// times are in (an IANA name) and its units ("metric" or "imperial").
public struct AccountPreferences: Equatable, Sendable {
    public var timeZone: String?
    public var units: String?

    public init(timeZone: String? = nil, units: String? = nil) {
        self.timeZone = timeZone
        self.units = units
    }
}
