import Foundation

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
public protocol AccountStoring: Sendable {
    func accounts() throws -> [StoredAccount]
    /// Adds an account; false when the name is taken.
    func addAccount(name: String, passwordHash: String) throws -> Bool
    /// The account's password hash (nil: no such account, or no password).
    func passwordHash(of name: String) throws -> String?
    /// False when there is no such account.
    func setPasswordHash(_ hash: String, of name: String) throws -> Bool
    /// Removes the account with its devices, their points, rides and records; false when there
    /// is no such account.
    func removeAccount(_ name: String) throws -> Bool
    /// Adds a device with a token (its hash) to an account; nil when the account does not exist
    /// or already has a device of that name.
    func addDevice(named name: String, account: String, tokenHash: String) throws -> DeviceID?
    /// The account's devices, by name; nil when there is no such account.
    func devices(of account: String) throws -> [AccountDevice]?
    /// Revokes a device's token at `milliseconds`; false when there is no such device with a
    /// live token.
    func revokeDevice(named name: String, account: String, at milliseconds: Int64) throws -> Bool
    /// The account and device a token (its hash) belongs to, unless revoked.
    func device(tokenHash: String) throws -> (account: String, device: DeviceID, name: String)?
}
