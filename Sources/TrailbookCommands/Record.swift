import ArgumentParser
import Foundation
import GPSCore
import GPSDevices
import Logging
import Pipeline
import ServiceLifecycle
import Synchronization
import TrackStore

/// `trailbook record`: the long-running logger, source → pipeline → store.
struct Record: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
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
            """
    )

    @OptionGroup var receiver: ReceiverOptions

    @Option(help: ArgumentHelp("Longest time between commits while fixes arrive.", valueName: "seconds"))
    var commitInterval = 1.0

    @Option(help: "Log detail on standard error: trace, debug, info, notice, warning, error or critical.")
    var logLevel: GlobalOptions.LogLevel = .info

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var configOptions: ConfigOptions

    func validate() throws {
        if receiver.device == nil && receiver.gpsd == nil {
            throw ValidationError("Give one source: --device PATH or --gpsd [HOST[:PORT]].")
        }
        if !(commitInterval > 0) { throw ValidationError("--commit-interval must be a positive number of seconds.") }
    }

    func run() async throws {
        var logger = Logger(label: "trailbook.record") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = logLevel.level
        let config = try configOptions.load()
        let store = try storeOptions.open()
        try store.limitWriteWait(to: RecordService.writeWait)
        let source: any FixSource
        if let device = receiver.device {
            source = SerialSource(path: device, baud: receiver.baudSetting, logger: logger)
        } else {
            let (host, port) = receiver.gpsdAddress!
            // A daemon waits for gpsd instead of failing when it is not up yet.
            source = GPSDSource(host: host, port: port, failIfUnavailableAtStart: false, logger: logger)
        }
        let service = RecordService(
            source: source,
            sourceName: receiver.device ?? "gpsd \(receiver.gpsdAddress!.host):\(receiver.gpsdAddress!.port)",
            configuration: config.pipeline, store: store, commitInterval: commitInterval, logger: logger)
        let group = ServiceGroup(
            services: [service], gracefulShutdownSignals: [.sigterm, .sigint], cancellationSignals: [], logger: logger)
        do {
            try await group.run()
        } catch {
            // The group reports a service that ended early as "finished unexpectedly"; the
            // service's own failure says what went wrong.
            guard service.failure != nil else { throw error }
        }
        if let failure = service.failure {
            if let device = failure as? DeviceError { throw device.commandFailure }
            throw failure
        }
    }
}

/// The recording loop as a swift-service-lifecycle service. The source blocks, so it runs on a
/// thread of its own; graceful shutdown asks it to stop, and what is pending is stored.
///
/// `@unchecked Sendable`: the source and the pipeline are used only by the recording thread; the
/// stop flag is atomic and the failure is behind a lock.
final class RecordService: Service, @unchecked Sendable {
    private var source: any FixSource
    private let sourceName: String
    private let configuration: PipelineConfiguration
    private let store: TrackStore
    private let commitInterval: Double
    private let logger: Logger
    private let stopRequested = Atomic<Bool>(false)
    /// How long a write waits for another process's before the points wait for the next commit.
    static let writeWait = 0.25
    /// How long the last commit, at a stop, waits for a busy store.
    static let finalWait = Duration.seconds(30)
    private let failureLock = NSLock()
    private var failureValue: (any Error)?

    init(
        source: any FixSource, sourceName: String, configuration: PipelineConfiguration, store: TrackStore,
        commitInterval: Double, logger: Logger
    ) {
        self.source = source
        self.sourceName = sourceName
        self.configuration = configuration
        self.store = store
        self.commitInterval = commitInterval
        self.logger = logger
    }

    /// Why recording ended early (nil after a clean stop).
    var failure: (any Error)? { failureLock.withLock { failureValue } }

    func run() async throws {
        await withGracefulShutdownHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let thread = Thread { [self] in
                    do {
                        try record()
                    } catch {
                        failureLock.withLock { failureValue = error }
                    }
                    done.resume()
                }
                thread.start()
            }
        } onGracefulShutdown: { [self] in
            stopRequested.store(true, ordering: .relaxed)
        }
    }

    private func record() throws {
        defer { logger.info("stopped") }
        let started = UTCTimestamp.now()
        var status = RecorderStatus(
            pid: getpid(), source: sourceName, startedMs: started, heartbeatMs: started, paused: false)
        var lastControl = ContinuousClock.now - .seconds(10)
        var pipeline = Pipeline(configuration: configuration, logger: logger)
        let writer = TrackWriter(store: store)
        var pending: [TrackWriter.KeptPoint] = []
        var dropsCommitted = pipeline.drops
        var lastCommit = ContinuousClock.now
        var hadFix: Bool?
        let interval = Duration.milliseconds(Int(commitInterval * 1000))

        func keep(_ event: PipelineEvent) {
            if case .kept(let fix, let ride, let segment) = event {
                pending.append(.init(fix: fix, ride: ride, segment: segment))
            }
        }
        // While another process holds the store (a long import, a removal), points wait here
        // and the recorder goes on reading its receiver; each commit tries again.
        var busySince: ContinuousClock.Instant?
        func commit() throws {
            let drops = DropCounts.added(since: dropsCommitted, to: pipeline.drops)
            lastCommit = .now
            guard !pending.isEmpty || !drops.isEmpty else { return }
            do {
                try writer.write(pending, drops: drops)
            } catch  where TrackStore.isBusy(error) {
                if busySince == nil {
                    busySince = .now
                    logger.warning(
                        "the store is busy (another process is writing to it); points wait in memory and are stored when it is free",
                        metadata: ["waiting": "\(pending.count)"])
                }
                return
            }
            if let since = busySince {
                busySince = nil
                logger.info(
                    "the store is free again; the points that waited are stored",
                    metadata: [
                        "points": "\(pending.count)", "seconds": "\((ContinuousClock.now - since).components.seconds)",
                    ])
            }
            pending.removeAll(keepingCapacity: true)
            dropsCommitted = pipeline.drops
        }
        /// The last commit, when stopping: waits for a busy store up to ``finalWait``.
        func finalCommit() throws {
            let deadline = ContinuousClock.now + Self.finalWait
            while true {
                try commit()
                if busySince == nil || ContinuousClock.now >= deadline { break }
                Thread.sleep(forTimeInterval: 0.2)
            }
            if busySince != nil {
                throw CommandFailure(
                    message:
                        "The store \(store.path) stayed busy (another process was writing to it) for \(Int(Self.finalWait.components.seconds)) s after the stop; \(pending.count) points were not stored.",
                    code: .cannotCreate)
            }
        }
        /// Once a second: read the pause switch (acting on a change) and write the heartbeat.
        func control() throws {
            guard ContinuousClock.now - lastControl >= .seconds(1) else { return }
            lastControl = .now
            let now = UTCTimestamp.now()
            let paused = try PauseSwitch.pause(in: store, now: now).paused
            if paused != status.paused {
                if paused {
                    pipeline.finish(keep)
                    try commit()
                    logger.info("collection paused: fixes are not stored until trailbook resume")
                } else {
                    pipeline.sourceDisconnected()
                    logger.info("collection resumed; a new segment starts")
                }
                status.paused = paused
            }
            status.heartbeatMs = now
            do {
                try store.setSetting(
                    PauseSwitch.recorderKey, String(decoding: try JSONEncoder().encode(status), as: UTF8.self))
            } catch  where TrackStore.isBusy(error) {
                // The heartbeat is written again next second.
            }
        }
        defer { try? store.setSetting(PauseSwitch.recorderKey, nil) }
        do {
            try source.run(shouldStop: {
                do {
                    try control()
                } catch {
                    logger.warning("cannot read or write the pause switch and status: \(error)")
                }
                return stopRequested.load(ordering: .relaxed)
            }) { event in
                switch event {
                case .connected(let what):
                    logger.info("connected", metadata: ["source": "\(what)"])
                case .disconnected(let why):
                    logger.info("disconnected; the segment ends here", metadata: ["reason": "\(why)"])
                    pipeline.sourceDisconnected()
                    hadFix = nil
                    try commit()
                case .fix(let fix):
                    if fix.hasPosition != hadFix {
                        logger.info(fix.hasPosition ? "fix acquired" : "fix lost")
                        hadFix = fix.hasPosition
                    }
                    if fix.hasPosition, let t = fix.unixMilliseconds {
                        status.lastFixMs = t
                        status.lastFixSeenMs = UTCTimestamp.now()
                    }
                    try control()
                    if status.paused { return }
                    pipeline.process(fix, keep)
                    if ContinuousClock.now - lastCommit >= interval { try commit() }
                }
            }
        }
        pipeline.finish(keep)
        try finalCommit()
    }

}
