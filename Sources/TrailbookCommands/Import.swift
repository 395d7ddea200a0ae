import ArgumentParser
import Foundation
import GPSCore
import NMEA
import Reports
import TrackModel
import TrackStore
import TrailbookKit

/// `trailbook import FILE...`: files through the decoder and the collection rules into the store.
struct Import: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract:
            "Import NMEA logs, GPX, FIT, TCX, KML/KMZ, GeoJSON and CSV tracks and Google location history into the store through the collection rules (--dry-run: store nothing).",
        discussion: """
            Each file is its own stream (each GPX track too), put in time order before the rules \
            run, so the files may come in any order and the store ends up the same; points \
            earlier than what is stored are stored too. A ride that overlaps a stored ride in \
            time joins it. Each file is one transaction: its points are stored while it is read \
            and commit once it has been read whole, so a file that fails stores nothing; points \
            already stored are skipped. A file that \
            stored something is remembered (by its SHA-256) and skipped when given again; \
            --reimport replaces what it stored, with the current rules. A file that stored nothing \
            can simply be imported again. Without --format or --json, prints a summary per file: \
            fixes read, kept, stored, dropped per reason, waypoints; then rides and segments. \
            --format csv (with --dry-run) prints the kept fixes (the columns of trailbook decode, \
            then ride, segment and the sensor columns); --json prints the counts as one JSON document. With --user, \
            the points go to that account's device and the file counts as imported for that \
            account only (each account's imports are its own). Trailbook's own exports come back \
            as written (each ride a ride, each segment a segment); the web app's account archive \
            (a .tar from /export/archive) is read as downloaded; an OwnTracks Recorder store (its \
            folder with rec/USER/DEVICE/) goes into the accounts of its users; Dawarich's account \
            export (its zip) brings its points and visits. Where each tool's \
            files come from: docs/MOVING-IN.md.
            """
    )

    enum Format: String, ExpressibleByArgument { case csv }

    @Argument(
        help:
            "NMEA logs, GPX, FIT, TCX, KML/KMZ, GeoJSON or CSV tracks, JSON tracks, Google location history, OwnTracks .rec files or Dawarich exports to read (plain or gzip-compressed), in any order; a folder or zip stands for those in it (a Google Takeout); an account archive .tar is read as downloaded."
    )
    var files: [String]

    @Flag(help: "Decode and filter without storing anything.")
    var dryRun = false

    @Flag(help: "For a file imported before: remove what it stored, then import it again with the current rules.")
    var reimport = false

    @Option(
        help: ArgumentHelp(
            "UTC date of the first epoch of NMEA logs that never give one (a date in the log wins).",
            valueName: "YYYY-MM-DD"))
    var date: String?

    @Option(
        help: ArgumentHelp(
            "Time for GPX waypoints that have none: 'first' (the file's first track point) or an ISO 8601 time. "
                + "Without it such waypoints are not stored.",
            valueName: "first|time"))
    var waypointTime: String?

    @Option(
        help: ArgumentHelp(
            "The device the points are stored as; points of different devices never merge. Default: imported "
                + "(import in a store an earlier Trailbook imported into, so that its points still merge).",
            valueName: "name"))
    var deviceName: String?

    @OptionGroup var storeOptions: StoreOptions

    @OptionGroup var accountOptions: AccountOptions

    @Option(help: "Print the kept fixes as CSV.")
    var format: Format?

    @Flag(help: "Print the counts as JSON (keys in docs/COMMANDS.md).")
    var json = false

    @Flag(
        help: "Also print the events found (arrivals, departures, stops, ...; with --dry-run nothing is stored).")
    var events = false

    @OptionGroup var configOptions: ConfigOptions

    func validate() throws {
        if json && format != nil { throw ValidationError("Choose --format csv or --json, not both.") }
        if events && format != nil { throw ValidationError("Choose --format csv or --events, not both.") }
        if format != nil && !dryRun {
            throw ValidationError("--format csv prints what would be kept; use it with --dry-run.")
        }
        if reimport && dryRun { throw ValidationError("--reimport replaces stored points; it cannot be a dry run.") }
        // A UTC date: the receiver's clock is UTC.
        if let date { try LocalDate.check(date, option: "--date") }
        if let waypointTime, waypointTime != "first", UTCTimestamp.milliseconds(Substring(waypointTime)) == nil {
            throw ValidationError(
                "--waypoint-time takes 'first' or an ISO 8601 time such as 2026-06-14T06:30:00Z; got '\(waypointTime)'."
            )
        }
    }

    func run() async throws {
        let config = try configOptions.load()
        var options = ImportService.Options(configuration: config.pipeline)
        options.reimport = reimport
        options.date = date.flatMap { try? LocalDate.parse($0, zone: TimeZone(identifier: "UTC")!).get() }
        options.waypointTime = waypointTime.map {
            $0 == "first" ? .first : .at(UTCTimestamp.milliseconds(Substring($0))!)
        }
        options.keepFixes = format == .csv
        // Ctrl-C stops between blocks of a file: that file stores nothing, the ones before it stay.
        Interruption.catchSIGINT()
        options.interrupted = { Interruption.isRequested }
        // A store that cannot be read yet (a new database) has no earlier device; the import
        // itself says why a store cannot be used.
        let existing = (try? storeOptions.openIfItExists()) ?? nil
        if let user = accountOptions.user {
            // An account is made with trailbook user add: a store that does not exist has none.
            guard let existing else {
                throw CommandFailure(
                    message:
                        "There is no account \(user) in \(storeOptions.path) (it has none; trailbook user add NAME makes one).",
                    code: .noInput)
            }
            try await existing.read { try AccountOptions.check(user, in: $0) }
        }
        // The web app's account archive, as downloaded: its rides and records as Trailbook's GPX.
        var archives: [AccountArchive] = []
        defer { for archive in archives { archive.remove() } }
        var files: [String] = []
        for path in self.files {
            guard AccountArchive.isArchive(path) else {
                files.append(path)
                continue
            }
            let archive = try AccountArchive(path, undone: "stored")
            archives.append(archive)
            let gpx = try await archive.gpx(named: path)
            options.names[gpx] = path
            files.append(gpx)
        }
        if files.count == 1, let tree = RecorderTree.find(files[0]) {
            return try await importTree(tree, options: options, existing: existing, zone: config.timeZone)
        }
        let deviceName: String
        if let given = self.deviceName {
            deviceName = given
        } else {
            deviceName = try await Self.defaultDevice(in: existing)
        }
        let (expanded, passedOver) = try ImportJob.files(for: files)
        if passedOver > 0 && !json && format == nil {
            printError(
                "Importing \(counted(expanded.count, "file")); \(counted(passedOver, "other file")) passed over "
                    + "(no track in \(passedOver == 1 ? "it" : "them")).")
        }
        var job = ImportJob(files: expanded, device: deviceName, options: options)
        job.account = accountOptions.user
        job.dryRun = dryRun
        job.events = events
        job.zone = config.timeZone
        var out = OutputBuffer()
        if format == .csv { out.appendCSVHeader(extra: ["ride", "segment"] + SensorColumns.names) }
        func row(_ fix: Fix, _ ride: Int, _ segment: Int) throws {
            out.appendCSVRow(
                fix, extra: [ride, segment] + SensorColumns.values(fix.sensors), text: SensorColumns.texts(fix.sensors))
            try out.flushIfFull()
        }
        var summary: ImportSummary
        // The store opened above is the one written to: one opening (and one pool) per run.
        var opened = existing
        func target() throws -> any TrackStoring {
            if let opened { return opened }
            let store = try storeOptions.openOrCreate()
            opened = store
            return store
        }
        do {
            summary = try await job.run(store: target, existing: { existing }, keptRow: row)
        } catch let stopped as ImportJob.Interrupted {
            try? out.flush()
            throw CommandFailure(message: stopped.description, code: .interrupted)
        }
        // An archive's photos and day summaries, now that its records are stored.
        if !dryRun {
            for archive in archives {
                let brought = try await ArchiveDiary.bring(
                    from: try TrackStore(path: archive.store), to: try target(), account: accountOptions.user)
                summary.archive = summary.archive.map {
                    var all = $0
                    all.photos += brought.photos
                    all.photosLeftOut += brought.photosLeftOut
                    all.summaries += brought.summaries
                    all.summariesKept += brought.summariesKept
                    return all
                } ?? brought
            }
        }
        try out.flush()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(summary), as: UTF8.self))
        } else if format == nil {
            for line in summary.lines(zone: config.timeZone) { print(line) }
        }
    }
}

extension Import {
    /// What one device of a Recorder tree became: whose, which device, what its files stored.
    struct TreeDevice: Encodable {
        var user: String
        var device: String
        var account: String?
        var storedAs: String
        var summary: ImportSummary

        enum CodingKeys: String, CodingKey {
            case user, device, account
            case storedAs = "stored_as"
            case summary = "import"
        }
    }

    /// An OwnTracks Recorder tree, whole: each user's devices into the account of the user's name
    /// (or all into --user's), each device stored as its folder's name (`USER-DEVICE` when
    /// --user gathers several users), its monthly files one import.
    func importTree(
        _ tree: RecorderTree, options: ImportService.Options, existing: (any TrackStoring)?, zone: TimeZone
    ) async throws {
        if deviceName != nil {
            throw CommandFailure(
                message: "\(tree.root) is an OwnTracks Recorder tree, whose devices are named by their folders; "
                    + "leave out --device-name.", code: .usage)
        }
        if format != nil {
            throw CommandFailure(
                message: "--format csv prints the fixes of one device: give that device's .rec files, "
                    + "not the Recorder tree \(tree.root).", code: .usage)
        }
        if accountOptions.user == nil {
            let missing =
                try await existing?.read { tx in try tree.users.filter { try tx.devices(of: $0) == nil } } ?? tree.users
            guard missing.isEmpty else {
                let who = missing.count == 1 ? "the user \(missing[0])" : "the users " + missing.joined(separator: ", ")
                throw CommandFailure(
                    message: "The OwnTracks Recorder tree \(tree.root) holds \(who) with no account in "
                        + "\(storeOptions.path): add \(missing.count == 1 ? "it" : "each") (trailbook user add NAME), "
                        + "or give --user NAME to take every device into one account.", code: .noInput)
            }
        }
        let gathered = accountOptions.user != nil && tree.users.count > 1
        var done: [TreeDevice] = []
        for device in tree.devices {
            let name = gathered ? "\(device.user)-\(device.device)" : device.device
            var job = ImportJob(files: device.files, device: name, options: options)
            job.account = accountOptions.user ?? device.user
            job.dryRun = dryRun
            job.events = events
            job.zone = zone
            let summary: ImportSummary
            do {
                summary = try await job.run(
                    store: { try existing ?? storeOptions.openOrCreate() }, existing: { existing })
            } catch let stopped as ImportJob.Interrupted {
                throw CommandFailure(message: stopped.description, code: .interrupted)
            }
            done.append(
                TreeDevice(
                    user: device.user, device: device.device, account: job.account, storedAs: name, summary: summary))
            guard !json else { continue }
            print("\(device.user)/\(device.device) → account \(job.account ?? ""), device \(name):")
            for line in summary.lines(zone: zone) { print("  " + line) }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(["recorder": done]), as: UTF8.self))
        }
    }

    /// The device of files imported without --device-name: `imported` (its events read "imported
    /// lost its fix"), or `import`, the name earlier versions used, in a store that has it.
    static func defaultDevice(in store: (any TrackStoring)?) async throws -> String {
        let earlier = try await store?.read { try $0.devices() }.contains { $0.name == "import" } ?? false
        return earlier ? "import" : "imported"
    }
}

extension ImportSummary {
    /// The text `import` prints: a line per file, the events (with --events) and the totals.
    func lines(zone: TimeZone) -> [String] {
        var lines = files.map(\.line)
        if events != nil {
            for (i, e) in found.enumerated() {
                lines.append("  " + EventService.line(StoredEvent(id: 0, device: e.device, event: e.event), zone: zone))
                for alert in i < wouldSend.count ? wouldSend[i] : [] {
                    lines.append("    → alert \(alert.id) (\(alert.channel.kind)) would send it live")
                }
            }
        }
        let skipped = !files.isEmpty && files.allSatisfy { $0.alreadyImported != nil && $0.replaced == nil }
        let totals =
            rides == 0 && skipped
            ? (files.count == 1 ? "Nothing new: the file was" : "Nothing new: every file was") + " imported before"
            : "\(counted(rides, "ride")), \(counted(segments, "segment"))"
        lines.append(store.map { totals + "; store \($0)" } ?? totals + " (dry run: nothing stored)")
        if let archive { lines.append("The archive's diary: " + archive.line) }
        return lines
    }
}

extension ImportFileReport {
    /// The line printed for this file.
    var line: String {
        if let earlier = alreadyImported, replaced == nil {
            let name = earlier.name == file ? "" : " as \(earlier.name)"
            if notReplaced == true {
                return "\(file): imported\(name) by an earlier Trailbook that did not note which points it stored, "
                    + "so --reimport cannot replace them; skipped (trailbook rm --from --to removes a time range)"
            }
            return
                "\(file): already imported\(name), skipped (\(counted(earlier.points, "point")) stored \(earlier.importedAt); "
                + "--reimport replaces them)"
        }
        let drops = dropped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let storedText =
            stored.map { ", \($0) stored" + ($0 < kept ? " (\(kept - $0) already in the store)" : "") } ?? ""
        var text = file + (format.map { " (\($0))" } ?? "") + ": "
        if let elements {
            let left = (skipped ?? [:]).sorted { $0.key < $1.key }
            text += "\(counted(elements, "element")) read"
            if !left.isEmpty {
                text +=
                    " (\(left.map(\.value).reduce(0, +)) left out: "
                    + left.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
            }
            text += ", "
        }
        text +=
            "\(counted(fixesRead, "fix", "fixes")) read, \(kept) kept\(storedText), \(fixesRead - kept) dropped"
            + (drops.isEmpty ? "" : " (\(drops))")
        if let replaced { text += "; replaced \(counted(replaced, "point")) of the earlier import" }
        if reordered == true { text += "; points put in time order" }
        if let devices {
            text +=
                "; " + (devices.count == 1 ? "a phone" : "\(devices.count) phones") + ": "
                + devices.joined(separator: ", ")
        }
        if let waypoints, waypoints > 0 {
            var parts: [String] = []
            if let records { parts.append("\(records) stored as " + (records == 1 ? "a record" : "records")) }
            if let already = recordsAlreadyStored, already > 0 { parts.append("\(already) already stored") }
            if let untimed = waypointsWithoutTime, untimed > 0 {
                parts.append("\(untimed) without a time, not stored (--waypoint-time stores them)")
            }
            text += "; " + counted(waypoints, "waypoint") + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
        }
        if visits != nil || activities != nil {
            let found = counted(visits ?? 0, "visit") + " and " + counted(activities ?? 0, "activity", "activities")
            var parts: [String] = []
            if let records { parts.append("\(records) stored as " + (records == 1 ? "a record" : "records")) }
            if let already = recordsAlreadyStored, already > 0 { parts.append("\(already) already stored") }
            text += "; " + found + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
        }
        if let routesSkipped, routesSkipped > 0 { text += "; \(counted(routesSkipped, "route")) skipped (no times)" }
        if let events, events > 0 {
            text += "; \(counted(events, "event"))"
            if let new = eventsStored, new < events { text += " (\(new) new)" }
        }
        return text
    }
}
