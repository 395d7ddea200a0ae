import ArgumentParser
import Foundation
import TrackStore

/// `--device-name` on the commands that read points and rides: one device, or all of them.
struct DeviceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Only this device's rides and points (default: every device).", valueName: "name"))
    var deviceName: String?

    /// The filter, of the store's own user or of `account`; an account or a device the store
    /// does not have is exit 66, naming the ones it has.
    func filter(_ store: any TrackStoring, account: String? = nil) async throws -> DeviceFilter {
        if let account {
            let devices = try await store.read { tx in
                try AccountOptions.check(account, in: tx)
                return try tx.devices(of: account)?.map(\.name) ?? []
            }
            if let deviceName, !devices.contains(deviceName) {
                throw Self.unknown(deviceName, store: store, devices: devices)
            }
            return .account(account, device: deviceName)
        }
        guard let deviceName else { return .all }
        let devices = try await store.read { try $0.devices() }.map(\.name)
        guard devices.contains(deviceName) else { throw Self.unknown(deviceName, store: store, devices: devices) }
        return .named(deviceName)
    }

    /// Exit 66 for a device name `store` does not have, naming the `devices` it has.
    static func unknown(_ name: String, store: any TrackStoring, devices: [String]) -> CommandFailure {
        let known = devices.isEmpty ? "it has none yet" : "it has " + devices.joined(separator: ", ")
        return CommandFailure(
            message: "There is no device \(name) in \(store.path) (\(known)); trailbook rides --json shows "
                + "each ride's device.",
            code: .noInput)
    }
}
