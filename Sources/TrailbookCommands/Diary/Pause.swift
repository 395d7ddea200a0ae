import ArgumentParser
import Foundation
import GPSCore
import TrackStore
import TrailbookKit

struct Pause: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Pause collection: a running trailbook record stops storing fixes within two seconds.",
        discussion:
            "Until trailbook resume, or for --for DURATION (90s, 15m, 2h, 1h30m, 1d). The pause lives in the store, so it also holds for a recorder started later."
    )

    @Option(name: .customLong("for"), help: ArgumentHelp("How long, e.g. 15m or 2h.", valueName: "duration"))
    var duration: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func run() async throws {
        let zone = try zoneOptions.zone()
        var until: Int64 = 0
        if let duration {
            guard let seconds = LocalTime.duration(duration) else {
                throw CommandFailure(
                    message: "--for '\(duration)' is not a duration; write for example 90s, 15m, 2h or 1h30m.",
                    code: .usage)
            }
            until = UTCTimestamp.milliseconds(of: Date().addingTimeInterval(seconds))
        }
        try await RecorderControl(store: try storeOptions.openOrCreate()).pause(until: until == 0 ? nil : until)
        print(
            until == 0
                ? "Collection paused until trailbook resume."
                : "Collection paused until \(LocalTime.format(until, zone: zone)).")
    }
}

struct Resume: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "Resume collection after trailbook pause (a running recorder starts a new segment).")

    @OptionGroup var storeOptions: StoreOptions

    func run() async throws {
        let was = try await RecorderControl(store: try storeOptions.open()).resume()
        print(was ? "Collection resumed." : "Collection was not paused.")
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show whether a recorder is running, paused, its device, the last fix and its age.")

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    struct Report: Encodable {
        var running: Bool
        var paused: Bool
        var pausedUntil: String?
        var source: String?
        var pid: Int32?
        var device: String?
        var lastFix: String?
        var lastFixAgeSeconds: Double?
        var lastStoredPoint: String?

        enum CodingKeys: String, CodingKey {
            case running, paused, source, pid, device
            case pausedUntil = "paused_until"
            case lastFix = "last_fix"
            case lastFixAgeSeconds = "last_fix_age_s"
            case lastStoredPoint = "last_stored_point"
        }
    }

    func run() async throws {
        let zone = try zoneOptions.zone()
        let now = UTCTimestamp.now()
        let overview = try await RecorderControl(store: try storeOptions.open()).overview(now: now)
        let running = overview.running
        let status = running.first
        let latest = overview.lastStoredPoint
        var report = Report(
            running: status != nil, paused: overview.paused, pausedUntil: overview.pausedUntil.map(LocalTime.utc),
            source: status?.source, pid: status?.pid, device: status?.device,
            lastFix: nil, lastFixAgeSeconds: nil, lastStoredPoint: latest.map(LocalTime.utc))
        if let fix = status?.lastFixMilliseconds, let seen = status?.lastFixSeenMilliseconds {
            report.lastFix = LocalTime.utc(fix)
            report.lastFixAgeSeconds = Double(now - seen) / 1000
        }
        if json {
            try printJSON(report)
            return
        }
        for other in running.dropFirst() {
            print("Also recording from \(other.source) (pid \(other.pid), device \(other.device ?? "?")).")
        }
        if let status {
            print("Recording from \(status.source) (pid \(status.pid))" + (overview.paused ? ", paused" : "") + ".")
            if let fix = status.lastFixMilliseconds, let age = report.lastFixAgeSeconds {
                print("Last fix \(LocalTime.format(fix, zone: zone)), \(Int(age.rounded())) s ago.")
            } else {
                print("No fix yet.")
            }
        } else {
            print("No recorder is running." + (overview.paused ? " Collection is paused." : ""))
        }
        if overview.paused {
            print(
                overview.pausedUntil.map { "Paused until \(LocalTime.format($0, zone: zone))." }
                    ?? "Paused until trailbook resume.")
        }
        if let latest { print("Last stored point: \(LocalTime.format(latest, zone: zone)).") }
    }
}
