import ArgumentParser
import Foundation
import Tides
import TrackStore
import TrailbookKit

/// `--user NAME` on the diary commands: whose diary (records, notes, photos, fields, day
/// summaries, weather readings, rides to remove) a command reads or writes.
struct AccountOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The diary of this account (a server's user, see trailbook user list); default: this store's own.",
            valueName: "name"))
    var user: String?

    /// The account to pass to the services: nil for the store's own user; an account the store
    /// does not have is exit 66, naming the ones it has.
    func account(in store: any TrackStoring) async throws -> String? {
        guard let user else { return nil }
        try await store.read { try Self.check(user, in: $0) }
        return user
    }

    /// Exit 66 unless `store` has the account `name`.
    static func check(_ name: String, in store: any StoreReading) throws {
        guard try store.devices(of: name) == nil else { return }
        let known = try store.accounts().map(\.name)
        throw CommandFailure(
            message: "There is no account \(name) in \(store.path) ("
                + (known.isEmpty
                    ? "it has none; trailbook user add NAME makes one" : "it has " + known.joined(separator: ", "))
                + ").",
            code: .noInput)
    }
}

extension AccountOptions {
    /// The diary of the account `--user` names (exit 66 when `store` does not have it), checked in
    /// a read unit.
    func diary(_ store: any TrackStoring, zone: TimeZone = TimeZone(identifier: "UTC")!, tide: TideStation? = nil)
        async throws -> DiaryService
    {
        if let user { try await store.read { tx in try Self.check(user, in: tx) } }
        return DiaryService(store: store, zone: zone, tide: tide, account: user)
    }
}

extension AccountOptions {
    /// `store`, once it is known to have the account `--user` names (exit 66 otherwise).
    func having(_ store: any TrackStoring) async throws -> any TrackStoring {
        _ = try await account(in: store)
        return store
    }
}
