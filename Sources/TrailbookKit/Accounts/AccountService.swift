import Foundation
import GPSCore
import HummingbirdBcrypt
import TrackModel

/// Why an account or device request is refused.
public enum AccountError: ServiceFailure, Equatable {
    /// A password that breaks a rule; the rule as a clause.
    case weakPassword(String)
    case badName(String)
    case accountExists(String)
    case noAccount(String)
    case deviceExists(String, account: String)
    case noDevice(String, account: String)

    public var kind: FailureKind {
        switch self {
        case .weakPassword, .badName: return .badData
        case .accountExists, .deviceExists: return .badData
        case .noAccount, .noDevice: return .missingInput
        }
    }

    public var description: String {
        switch self {
        case .weakPassword(let rule): return "The password is refused: \(rule); choose another."
        case .badName(let name):
            return
                "'\(name)' cannot be a name: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit."
        case .accountExists(let name): return "There is already an account \(name)."
        case .noAccount(let name): return "There is no account \(name)."
        case .deviceExists(let name, let account): return "\(account) already has a device \(name)."
        case .noDevice(let name, let account): return "\(account) has no device \(name) with a live token."
        }
    }
}

/// Accounts and device tokens for the sharing server.
///
/// Passwords follow NIST SP 800-63B rev. 4: at least 15 characters, up to 256, any Unicode
/// (compared after NFKC normalisation), no composition rules and no expiry, refused when they
/// are on a short blocklist, are a common word padded with digits or symbols, are a run of
/// consecutive digits, or contain the account's name or "trailbook". Stored as
/// `v1$` + bcrypt (cost 12, ``passwordCost``) of the hex SHA-256 of the normalised password: bcrypt reads only 72
/// bytes, the pre-hash makes every character count; the prefix lets the scheme change later.
/// Device tokens are 32 random bytes (base32, 52 characters), shown once and stored as SHA-256.
public struct AccountService: Sendable {
    public let store: any TrackStoring
    /// Passwords checked lately (a server's); nil: every check is a bcrypt.
    public let verified: VerifiedPasswords?

    public init(store: any TrackStoring, verified: VerifiedPasswords? = nil) {
        self.store = store
        self.verified = verified
    }

    public static let minimumPasswordLength = 15
    public static let maximumPasswordLength = 256
    /// Passwords seen in breaches and the obvious ones, compared without case.
    static let blocklist: Set<String> = [
        "123456789012345", "1234567890123456", "qwertyuiopasdfgh", "passwordpassword", "password1234567",
        "iloveyouiloveyou", "aaaaaaaaaaaaaaa", "correcthorsebatterystaple", "letmeinletmein1",
        "trustno1trustno1",
    ]

    /// The words people pad to the minimum length with digits ("password12345678"), compared
    /// without case.
    static let commonWords: Set<String> = [
        "password", "passw0rd", "passwort", "motdepasse", "contraseña", "qwerty", "qwertz", "azerty", "asdf",
        "letmein", "iloveyou", "admin", "administrator", "welcome", "monkey", "dragon", "football", "baseball",
        "sunshine", "princess", "master", "login", "abc", "abcdef", "changeme", "secret", "hello", "shadow",
        "superman", "trustno", "test", "guest", "root", "user", "default", "summer", "winter", "spring", "autumn",
    ]

    /// Whether `lower` (lower case) is a common word or a repetition of one with only digits and
    /// symbols around it, or only a run of consecutive digits (up or down).
    static func isCommonPattern(_ lower: String) -> Bool {
        let core = lower.drop { !$0.isLetter }.reversed().drop { !$0.isLetter }.reversed()
        let word = String(core)
        if !word.isEmpty,
            commonWords.contains(where: { w in
                word.count % w.count == 0 && String(repeating: w, count: word.count / w.count) == word
            })
        {
            return true
        }
        let digits = lower.compactMap(\.wholeNumberValue)
        guard digits.count == lower.count, digits.count > 1 else { return false }
        let steps = Set(zip(digits.dropFirst(), digits).map { ($0 - $1 + 10) % 10 })
        return steps == [1] || steps == [9]
    }

    /// Checks a name for an account or a device.
    public static func checkName(_ name: String) throws(AccountError) {
        guard (1...64).contains(name.count), let first = name.unicodeScalars.first,
            CharacterSet.alphanumerics.contains(first),
            name.unicodeScalars.allSatisfy({
                CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)
            })
        else { throw .badName(name) }
    }

    /// The rule `password` breaks for `account`, if any.
    public static func check(password: String, account: String) throws(AccountError) {
        let p = password.precomposedStringWithCompatibilityMapping
        if p.count < minimumPasswordLength {
            throw .weakPassword("it has \(p.count) characters, at least \(minimumPasswordLength) are needed")
        }
        if p.count > maximumPasswordLength {
            throw .weakPassword("it has \(p.count) characters, at most \(maximumPasswordLength) are taken")
        }
        let lower = p.lowercased()
        if blocklist.contains(lower) || Set(lower).count == 1 {
            throw .weakPassword("it is on the list of common passwords")
        }
        if isCommonPattern(lower) {
            throw .weakPassword("it is a common password with digits or symbols around it, or a run of digits")
        }
        if lower.contains(account.lowercased()) { throw .weakPassword("it contains the account's name") }
        if lower.contains("trailbook") { throw .weakPassword("it contains \"trailbook\"") }
    }

    /// The stored form of a password.
    public static func hash(password: String, cost: Int = passwordCost) -> String {
        "v1$" + Bcrypt.hash(preHash(password), cost: UInt8(cost))
    }

    /// bcrypt's cost for new hashes (2^cost rounds): 12, or `$TRAILBOOK_PASSWORD_COST` when it is
    /// a whole number from 4 to 16. A check takes the cost its hash was made with.
    public static let passwordCost = passwordCost(environment: ProcessInfo.processInfo.environment)

    static let defaultPasswordCost = 12

    /// The cost `environment` asks for; the default when it asks for none or for one out of range.
    static func passwordCost(environment: [String: String]) -> Int {
        guard let text = environment["TRAILBOOK_PASSWORD_COST"] else { return defaultPasswordCost }
        guard let cost = Int(text.trimmingCharacters(in: .whitespaces)), (4...16).contains(cost) else {
            printError(
                "trailbook: TRAILBOOK_PASSWORD_COST=\(text) is not a whole number from 4 to 16: passwords are "
                    + "hashed at bcrypt cost \(defaultPasswordCost); unset it or give one in range.")
            return defaultPasswordCost
        }
        return cost
    }

    /// Whether `password` is the one `stored` was made from.
    public static func verify(password: String, stored: String) -> Bool {
        guard stored.hasPrefix("v1$") else { return false }
        return Bcrypt.verify(preHash(password), hash: String(stored.dropFirst(3)))
    }

    static func preHash(_ password: String) -> String {
        ContentDigest.hexDigest(of: Array(password.precomposedStringWithCompatibilityMapping.utf8))
    }

    public func accounts() async throws -> [StoredAccount] { try await store.read { try $0.accounts() } }

    /// Adds an account; its password's bcrypt is made before the unit of work, off the
    /// cooperative threads.
    public func addAccount(_ name: String, password: String) async throws {
        try Self.checkName(name)
        try Self.check(password: password, account: name)
        let hash = await Blocking.run { Self.hash(password: password) }
        guard try await store.write({ try $0.addAccount(name: name, passwordHash: hash) }) else {
            throw AccountError.accountExists(name)
        }
    }

    public func changePassword(of name: String, to password: String) async throws {
        try Self.check(password: password, account: name)
        let hash = await Blocking.run { Self.hash(password: password) }
        guard try await store.write({ try $0.setPasswordHash(hash, of: name) }) else {
            throw AccountError.noAccount(name)
        }
    }

    /// Whether `password` is `name`'s (false for an account without a password).
    /// A bcrypt (off the cooperative threads), unless ``verified`` knows the password for the hash
    /// the store holds now.
    public func authenticate(_ name: String, password: String, now: Int64 = UTCTimestamp.now()) async throws -> Bool {
        guard let stored = try await store.read({ try $0.passwordHash(of: name) }) else {
            // As slow as a wrong password, so the time does not tell which names exist.
            _ = await Blocking.run { Self.verify(password: password, stored: Self.decoy) }
            return false
        }
        if verified?.knows(name, password, storedHash: stored, now: now) == true { return true }
        guard await Blocking.run({ Self.verify(password: password, stored: stored) }) else { return false }
        verified?.remember(name, password, storedHash: stored, now: now)
        return true
    }

    /// A hash no password is checked against in earnest (made once, on first use).
    static let decoy = hash(password: "no account has this password, it only costs the time")

    public func removeAccount(_ name: String) async throws {
        guard try await store.write({ try $0.removeAccount(name) }) else { throw AccountError.noAccount(name) }
    }

    /// Adds a device to an account and returns its token, the only time it is seen.
    public func addDevice(_ name: String, account: String) async throws -> String {
        try Self.checkName(name)
        var bytes = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &generator) }
        let token = Self.base32(bytes)
        let hash = Self.tokenHash(token)
        let added = try await store.write { tx -> Bool in
            guard try tx.devices(of: account) != nil else { throw AccountError.noAccount(account) }
            return try tx.addDevice(named: name, account: account, tokenHash: hash) != nil
        }
        guard added else { throw AccountError.deviceExists(name, account: account) }
        return token
    }

    public func devices(of account: String) async throws -> [AccountDevice] {
        guard let devices = try await store.read({ try $0.devices(of: account) }) else {
            throw AccountError.noAccount(account)
        }
        return devices
    }

    /// What the account's phone apps sent that is not a position, oldest first.
    public func messages(of account: String) async throws -> [DeviceMessage] {
        try await store.read { tx in
            guard try tx.devices(of: account) != nil else { throw AccountError.noAccount(account) }
            return try tx.deviceMessages(account: account)
        }
    }

    public func revokeDevice(_ name: String, account: String, now: Int64 = UTCTimestamp.now()) async throws {
        guard try await store.write({ try $0.revokeDevice(named: name, account: account, at: now) }) else {
            throw AccountError.noDevice(name, account: account)
        }
    }

    /// How a device's token is kept and looked up (``TrackStoring/readPhoneDevice(tokenHash:)``):
    /// its SHA-256.
    public static func tokenHash(_ token: String) -> String { ContentDigest.hexDigest(of: Array(token.utf8)) }

    /// Crockford's base32, lower case.
    static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz")
        var out = ""
        var buffer = 0
        var bits = 0
        for b in bytes {
            buffer = buffer << 8 | Int(b)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return out
    }
}
