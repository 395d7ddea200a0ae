import Foundation
import GPSCore

/// A device's id in the store (a receiver, gpsd, a phone, the files imported under one name).
public struct DeviceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static func < (a: DeviceID, b: DeviceID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { String(rawValue) }
}

/// A device by name: its account's and its own (a server's devices, as live viewers see them).
public struct OwnedDevice: Hashable, Sendable {
    public var owner: String
    public var device: String

    public init(owner: String, device: String) {
        self.owner = owner
        self.device = device
    }
}

/// A device of the store's user.
public struct StoredDevice: Equatable, Sendable {
    public var id: DeviceID
    public var name: String

    public init(id: DeviceID, name: String) {
        self.id = id
        self.name = name
    }
}

/// Which devices a query covers: all of the store's own user's, or one by name; or those of
/// another account of the store (a server's user), all or one by name.
public enum DeviceFilter: Equatable, Sendable {
    case all
    case named(String)
    case account(String, device: String?)

    /// The account whose devices these are; nil for the store's own user.
    public var account: String? {
        if case .account(let name, _) = self { return name }
        return nil
    }

    /// Every device of `account`; of the store's own user for nil.
    public init(account: String?) {
        self = account.map { .account($0, device: nil) } ?? .all
    }
}
