import ArgumentParser
import Foundation
import GPSCore
import TrackModel
import TrackStore
import TrailbookKit

/// `trailbook push`: sends the stored points a server has not acknowledged.
struct Push: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send the stored points a server does not have yet (what record --server could not send).",
        discussion: """
            Sends one device's points, oldest first, in batches of 500 Overland locations, to a \
            Trailbook server (--server https://HOST; /overland is added) or any Overland endpoint, \
            with --token as the bearer token. The store remembers, per device and server, the \
            newest point the server acknowledged: a second push sends only what came after, and \
            an interrupted one goes on where it stopped. A Trailbook server ignores a point it \
            already has, so a batch whose answer was lost and is sent again is kept once. \
            Without --device-name the device is the one with points to send; when several have, \
            name one (each goes to its own device token on the server). With --user, the devices \
            are that account's (a server's store pushing on to another server).

            Exit codes: 69 the server does not answer, 77 it refused the token, 65 it refused \
            points (a Trailbook server takes none more than a year old: --from skips them).
            """
    )

    @OptionGroup var uploadOptions: UploadOptions

    @Option(
        help: ArgumentHelp("The device whose points to send (default: the one with points to send).", valueName: "name")
    )
    var deviceName: String?

    @Option(help: ArgumentHelp("Send only points from this time on (\(LocalTime.accepted)).", valueName: "time"))
    var from: String?

    @Flag(help: "Count what would be sent; send nothing.")
    var dryRun = false

    @Flag(help: "Print {\"server\", \"device\", \"sent\", \"waiting\", \"dry_run\"} as JSON.")
    var json = false

    @OptionGroup var accountOptions: AccountOptions
    @OptionGroup var zoneOptions: ZoneOptions
    @OptionGroup var storeOptions: StoreOptions

    func validate() throws {
        if uploadOptions.server == nil { throw ValidationError("Give the server: --server URL (and --token TOKEN).") }
        _ = try uploadOptions.target()
    }

    struct Report: Encodable {
        var server: String
        /// nil when no device has points to send.
        var device: String?
        var sent: Int
        var waiting: Int
        var dryRun: Bool

        enum CodingKeys: CodingKey { case server, device, sent, waiting, dryRun }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(server, forKey: .server)
            try c.encode(device, forKey: .device)  // null, not left out
            try c.encode(sent, forKey: .sent)
            try c.encode(waiting, forKey: .waiting)
            try c.encode(dryRun, forKey: .dryRun)
        }
    }

    func run() async throws {
        let target = try uploadOptions.target()!
        let from = try from.map { try LocalTime.require($0, option: "--from", zone: try zoneOptions.zone()) }
        let store = try await storeOptions.opened()
        let account = try await accountOptions.account(in: store)
        let upload = OverlandUpload(target: target, store: store, account: account)
        guard let device = try await upload.device(named: deviceName, from: from) else {
            return output(Report(server: "\(target)", device: nil, sent: 0, waiting: 0, dryRun: dryRun))
        }
        let waiting = try await upload.pendingCount(device: device.id, from: from)
        if dryRun || waiting == 0 {
            return output(Report(server: "\(target)", device: device.name, sent: 0, waiting: waiting, dryRun: dryRun))
        }
        let bar = ProgressBar(label: "push \(device.name)", totalPoints: waiting)
        let sent: Int
        do {
            sent = try await upload.sendPending(device: device.id, deviceName: device.name, from: from) {
                bar.update($0)
            }
            bar.finish()
        } catch let error as UploadError {
            bar.finish()
            let left = (try? await upload.pendingCount(device: device.id, from: from)) ?? waiting
            if left < waiting { printError("trailbook: sent \(waiting - left) of \(waiting) points before this:") }
            throw error
        }
        output(Report(server: "\(target)", device: device.name, sent: sent, waiting: 0, dryRun: false))
    }

    private func output(_ report: Report) {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            print(String(decoding: (try? encoder.encode(report)) ?? Data(), as: UTF8.self))
        } else if report.device == nil {
            print("Nothing to send: \(report.server) has every stored point.")
        } else if report.dryRun {
            print("\(counted(report.waiting, "point")) of \(report.device!) would be sent to \(report.server).")
        } else if report.sent == 0 {
            print("Nothing to send: \(report.server) has every point of \(report.device!).")
        } else {
            print("Sent \(counted(report.sent, "point")) of \(report.device!) to \(report.server).")
        }
    }
}
