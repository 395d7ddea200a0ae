import Foundation
import GPSCore
import Testing
import TrailbookTestSupport

@testable import TrackStore
@testable import TrailbookKit

/// Accounts and device tokens on a real store.
@Suite struct AccountServiceTests {
    func service() throws -> (AccountService, TrackStore) {
        let store = try TrackStore(path: try Samples.temporaryDirectory() + "/s.sqlite")
        return (AccountService(store: store), store)
    }

    @Test func passwordRulesFollowNIST() throws {
        func refused(_ password: String, _ account: String = "ana") -> String? {
            do {
                try AccountService.check(password: password, account: account)
                return nil
            } catch { return "\(error)" }
        }
        #expect(refused("fourteen chars") != nil, "14 characters")
        #expect(refused("fifteen chars!!") == nil, "15 characters, no composition rules")
        #expect(refused("ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏ") == nil, "full-width letters are 15 characters after NFKC")
        #expect(refused("ＡＮＡ rides far away") != nil, "the name, found after NFKC and without case")
        #expect(refused("my trailbook secret") != nil)
        #expect(refused("passwordpassword") != nil && refused("aaaaaaaaaaaaaaaaaaaa") != nil, "common ones")
        #expect(refused(String(repeating: "ab", count: 129)) != nil, "over 256")
        // A common word padded to the length with digits or symbols, and runs of digits.
        for common in [
            "password12345678", "Password!2026!!!", "2026qwerty202620", "123456789012345678", "987654321098765",
        ] {
            #expect(refused(common)?.contains("common password") == true, "\(common): \(refused(common) ?? "taken")")
        }
        #expect(refused("password is not my 2026 secret") == nil, "a phrase with a common word in it")
        #expect(refused("739215468203917") == nil, "digits that are not a run")
        #expect(refused("ünïcödé pässwörd ✓") == nil, "any Unicode")
    }

    /// A password checked once is known for a while, against the hash the store holds: a
    /// changed password or a removed account ends it at once; a wrong one is never remembered.
    @Test func aVerifiedPasswordHoldsOnlyWhileItsHashIsStored() async throws {
        let store = try TrackStore(path: try Samples.temporaryDirectory() + "/s.sqlite")
        let verified = VerifiedPasswords()
        let accounts = AccountService(store: store, verified: verified)
        let (old, new) = ("correct horse battery staple", "a different long passphrase")
        try await accounts.addAccount("ana", password: old)
        let now: Int64 = 1_781_418_600_000
        #expect(!(try await accounts.authenticate("ana", password: "wrong but long enough", now: now)))
        #expect(
            !verified.knows(
                "ana", "wrong but long enough",
                storedHash: try #require(try store.readNow { try $0.passwordHash(of: "ana") }), now: now))
        #expect(try await accounts.authenticate("ana", password: old, now: now))
        let stored = try #require(try store.readNow { try $0.passwordHash(of: "ana") })
        #expect(verified.knows("ana", old, storedHash: stored, now: now + 1000))
        #expect(!verified.knows("bo", old, storedHash: stored, now: now + 1000), "the name is part of it")
        #expect(!verified.knows("ana", old, storedHash: stored, now: now + VerifiedPasswords.lifetime), "it expires")
        try await accounts.changePassword(of: "ana", to: new)
        #expect(
            !(try await accounts.authenticate("ana", password: old, now: now + 1000)), "the old password ends at once")
        #expect(try await accounts.authenticate("ana", password: new, now: now + 1000))
        try await accounts.removeAccount("ana")
        #expect(
            !(try await accounts.authenticate("ana", password: new, now: now + 2000)),
            "a removed account signs in no more")
    }

    @Test func hashesAreVersionedBcryptOfThePreHash() {
        let stored = AccountService.hash(password: "a long enough passphrase")
        #expect(stored.hasPrefix("v1$$2"), "v1 + bcrypt: \(stored)")
        #expect(!stored.contains("passphrase"))
        #expect(AccountService.verify(password: "a long enough passphrase", stored: stored))
        #expect(!AccountService.verify(password: "a long enough passphrasE", stored: stored))
        // Beyond bcrypt's 72 bytes every character still counts.
        let long = String(repeating: "x", count: 100)
        let longStored = AccountService.hash(password: long)
        #expect(!AccountService.verify(password: long + "y", stored: longStored))
        #expect(!AccountService.verify(password: "a long enough passphrase", stored: "$2b$12$unversioned"))
    }

    @Test func theCostIsTwelveUnlessTheEnvironmentAsksForOneInRange() {
        #expect(AccountService.passwordCost(environment: [:]) == 12)
        #expect(AccountService.passwordCost(environment: ["TRAILBOOK_PASSWORD_COST": "4"]) == 4)
        #expect(AccountService.passwordCost(environment: ["TRAILBOOK_PASSWORD_COST": " 14 "]) == 14)
        for wrong in ["3", "17", "twelve", ""] {
            #expect(AccountService.passwordCost(environment: ["TRAILBOOK_PASSWORD_COST": wrong]) == 12, "\(wrong)")
        }
        // A hash says its cost, and a check takes the cost of the hash whatever the setting.
        let stored = AccountService.hash(password: "a long enough passphrase")
        let cost = String(format: "%02d", AccountService.passwordCost)
        #expect(stored.hasPrefix("v1$$2b$\(cost)$"), "\(stored)")
        let atTwelve = AccountService.hash(password: "a long enough passphrase", cost: 12)
        #expect(atTwelve.hasPrefix("v1$$2b$12$"), "\(atTwelve)")
        #expect(AccountService.verify(password: "a long enough passphrase", stored: atTwelve))
    }

    @Test func accountsDevicesAndTokens() async throws {
        let (accounts, store) = try service()
        try await accounts.addAccount("ana", password: "a long enough passphrase")
        await #expect(throws: AccountError.accountExists("ana")) {
            try await accounts.addAccount("ana", password: "another long passphrase")
        }
        await #expect(throws: AccountError.badName("a b")) {
            try await accounts.addAccount("a b", password: "whatever long one")
        }
        #expect(try await accounts.authenticate("ana", password: "a long enough passphrase"))
        #expect(try await !accounts.authenticate("ana", password: "wrong but long passphrase"))
        #expect(
            try await !accounts.authenticate("me", password: "anything at all here"), "the local account cannot log in")
        try await accounts.changePassword(of: "ana", to: "the new long passphrase")
        #expect(try await accounts.authenticate("ana", password: "the new long passphrase"))

        let token = try await accounts.addDevice("phone", account: "ana")
        #expect(token.count == 52 && token.allSatisfy { $0.isLetter || $0.isNumber })
        await #expect(throws: AccountError.deviceExists("phone", account: "ana")) {
            try await accounts.addDevice("phone", account: "ana")
        }
        await #expect(throws: AccountError.noAccount("bob")) { try await accounts.addDevice("phone", account: "bob") }
        // As the server looks a phone's token up.
        func device(_ token: String) async throws -> (account: String, device: DeviceID, name: String)? {
            try await store.readPhoneDevice(tokenHash: AccountService.tokenHash(token))
        }
        let found = try #require(try await device(token))
        #expect(found.account == "ana" && found.name == "phone")
        #expect(try await device(token + "x") == nil)
        // The token itself is nowhere in the store file.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store.path))
        #expect(bytes.range(of: Data(token.utf8)) == nil)

        try await accounts.revokeDevice("phone", account: "ana")
        #expect(try await device(token) == nil, "a revoked token authenticates nothing")
        #expect(try await accounts.devices(of: "ana").first?.revokedMilliseconds != nil)
        await #expect(throws: AccountError.noDevice("phone", account: "ana")) {
            try await accounts.revokeDevice("phone", account: "ana")
        }

        // Removing the account takes its devices' points with it.
        let device = try #require(try await accounts.devices(of: "ana").first?.id)
        var fix = Fix()
        UTCTimestamp.set(1_781_418_600_000, on: &fix)
        fix.coordinate = Coordinate(latitude: 47, longitude: 8)
        fix.mode = .threeD
        let stored = try store.writeNow {
            try $0.makeWriter(device: device).write([KeptPoint(fix: fix, ride: 1, segment: 1)])
        }
        #expect(stored == 1)
        // The local account's queries never show another account's points.
        #expect(try store.readNow { try $0.points(fromMilliseconds: .min, toMilliseconds: .max) }.isEmpty)
        try await accounts.removeAccount("ana")
        #expect(try await accounts.accounts().map(\.name) == ["me"])
        await #expect(throws: AccountError.noAccount("ana")) { try await accounts.removeAccount("ana") }
    }
}
