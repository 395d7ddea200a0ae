import ArgumentParser
import Foundation
import GPSCore
import GPSDevices
import Logging
import Pipeline
import ServiceLifecycle
import TrackStore
import TrailbookKit

/// `trailbook record`: the long-running logger, source → pipeline → store.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record fixes from a receiver or gpsd into the store until stopped.",
        discussion: """
            Reads --device (NMEA over serial, --baud auto by default) or --gpsd [HOST[:PORT]], runs \
            the collection rules (--config, --preset and the overrides, as for import) and stores \
            the kept fixes, committing at least every --commit-interval seconds while fixes arrive, \
            so a power cut loses at most that much. An unplugged receiver or a restarted gpsd ends \
            the segment and is picked up again. trailbook pause / resume stop and restart storing \
            within two seconds (a resume starts a new segment); trailbook status shows the \
            recorder. SIGTERM or SIGINT stores what is pending and exits 0. Logs state changes \
            (connected, disconnected, fix acquired, fix lost, paused, resumed) at info level.

            With --server the kept points also go to a Trailbook server (or any Overland \
            endpoint) as they are stored, store-and-forward: what cannot be sent (no network, \
            the server down, an earlier run) is sent, in order, once the server answers; \
            trailbook push sends what a stopped recorder left.
            """
    )

    @OptionGroup var receiver: ReceiverOptions

    @Option(help: ArgumentHelp("Longest time between commits while fixes arrive.", valueName: "seconds"))
    var commitInterval = 1.0

    @Option(help: "Log detail on standard error: trace, debug, info, notice, warning, error or critical.")
    var logLevel: GlobalOptions.LogLevel = .info

    @Option(
        help: ArgumentHelp(
            "The device the points are stored as. Default: the receiver's stable name (its /dev/serial/by-id "
                + "name, else the node's, e.g. ttyUSB0), or gpsd.",
            valueName: "name"))
    var deviceName: String?

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var configOptions: ConfigOptions
    @OptionGroup var uploadOptions: UploadOptions

    func validate() throws {
        if receiver.device == nil && receiver.gpsd == nil {
            throw ValidationError("Give one source: --device PATH or --gpsd [HOST[:PORT]].")
        }
        if !(commitInterval > 0) { throw ValidationError("--commit-interval must be a positive number of seconds.") }
        _ = try uploadOptions.target()
    }

    func run() async throws {
        let logger = Logger.console(label: "trailbook.record", level: logLevel.level)
        let config = try configOptions.load()
        let name = deviceName ?? receiver.device.map(DeviceDiscovery.stableName(of:)) ?? "gpsd"
        // Opening (and migrating) the store blocks: on a thread of its own, not a cooperative one.
        let store = try await storeOptions.openedOrCreated()
        // The device row is written before writes stop waiting for other processes.
        let device = try await store.write { try $0.device(named: name) }
        try await Blocking.runOnConsole { try store.limitWriteWait(to: RecordService.writeWait) }
        let source: any FixSource
        if let device = receiver.device {
            source = SerialSource(path: device, baud: receiver.baudSetting, logger: logger)
        } else {
            let (host, port) = receiver.gpsdAddress!
            // A daemon waits for gpsd instead of failing when it is not up yet.
            source = GPSDSource(host: host, port: port, failIfUnavailableAtStart: false, logger: logger)
        }
        let service = RecordService(
            source: source, device: device,
            sourceName: receiver.device ?? "gpsd \(receiver.gpsdAddress!.host):\(receiver.gpsdAddress!.port)",
            configuration: config.pipeline, store: store, commitInterval: commitInterval, logger: logger,
            deviceName: name)
        // Alerts go out and tasks fall due while the recorder runs; it stops last.
        let notifier = NotifierService(
            notifier: Notifier(store: store, settings: config.pipeline.alerts, logger: logger),
            tasks: (
                TaskService(store: store),
                EventOutlet(store: store, account: nil, alerting: true, zone: config.timeZone),
                device, name
            ))
        let started = UTCTimestamp.now()
        if let target = try uploadOptions.target() {
            var uploadLogger = logger
            uploadLogger[metadataKey: "server"] = "\(target)"
            let upload = UploadService(
                upload: OverlandUpload(target: target, store: store), device: device, deviceName: name,
                logger: uploadLogger)
            // Stopped in reverse order: the recorder's last commit comes before the upload's last try.
            try await ServiceRunner.run([notifier, upload, service], logger: logger)
        } else {
            try await ServiceRunner.run([notifier, service], logger: logger)
        }
        // The kept timeline of the time recorded, when the store keeps one made with these rules
        // (docs/TIMELINE.md); else `timeline rebuild` makes it, and readers work it out meanwhile.
        do {
            if try await TimelineKeeper.isCurrent(store: store, account: nil, rules: config.pipeline.visits) {
                try await TimelineKeeper.redo(
                    store: store, account: nil, from: started - 600_000, to: UTCTimestamp.now() + 1,
                    rules: config.pipeline.visits)
            }
        } catch {
            logger.warning("the kept timeline of the time recorded is left for `trailbook timeline rebuild`: \(error)")
        }
    }
}
