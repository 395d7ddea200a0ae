import Crypto
import Foundation
import Synchronization

/// Passwords checked lately, so that an API client sending its password with every request
/// (Basic authentication) costs one bcrypt per ``lifetime``, not one per request: on two cores,
/// two such clients otherwise keep both cores hashing and the phones wait.
///
/// An entry is an HMAC of the account's name and password under a key made at random when the
/// process starts (the password itself is not kept), with the stored hash it was checked
/// against. A request matches only while the store still holds that hash: a changed password
/// or a removed account ends it at once, in every process on the store. A failed check is
/// never remembered.
public final class VerifiedPasswords: Sendable {
    /// How long a check holds (ms).
    public static let lifetime: Int64 = 300_000
    /// At most this many entries; past it, the expired go, then all.
    static let capacity = 10_000

    struct Entry {
        var storedHash: String
        var until: Int64
    }

    private let key = SymmetricKey(size: .bits256)
    // The one lock of the server's sign-in path: a dictionary read or written in a few µs.
    private let entries = Mutex<[Data: Entry]>([:])

    public init() {}

    func tag(_ name: String, _ password: String) -> Data {
        var message = Data(name.utf8)
        message.append(0)
        message.append(contentsOf: password.utf8)
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: key))
    }

    /// Whether `name` checked `password` against `storedHash` within the lifetime.
    public func knows(_ name: String, _ password: String, storedHash: String, now: Int64) -> Bool {
        let tag = tag(name, password)
        return entries.withLock { entries in
            guard let entry = entries[tag] else { return false }
            return entry.storedHash == storedHash && now < entry.until
        }
    }

    /// Remembers a check that passed.
    public func remember(_ name: String, _ password: String, storedHash: String, now: Int64) {
        let tag = tag(name, password)
        entries.withLock { entries in
            if entries.count >= Self.capacity {
                entries = entries.filter { $0.value.until > now }
                if entries.count >= Self.capacity { entries.removeAll() }
            }
            entries[tag] = Entry(storedHash: storedHash, until: now + Self.lifetime)
        }
    }
}
