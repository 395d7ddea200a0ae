import Foundation
import GPSCore
import GPSDevices
import Logging
import Pipeline
import ServiceLifecycle
import TrackModel

#if canImport(Glibc)
    import Glibc
#endif

/// The recording loop as a swift-service-lifecycle service: the source's events and a tick a
/// second arrive in one stream (the source reads on a thread of its own behind it), consumed
/// here in one task; a graceful shutdown ends the stream, and what is pending is stored.
public struct RecordService: Service {
    let source: any FixSource
    let device: DeviceID
    let sourceName: String
    let configuration: PipelineConfiguration
    let store: any TrackStoring
    let commitInterval: Double
    let logger: Logger
    /// The device's name, as alerts name it.
    let deviceName: String

    /// Records `source` as `device` into `store` under `configuration`, committing at least every
    /// `commitInterval` seconds while fixes arrive; `sourceName` is shown by `status`.
    public init(
        source: any FixSource, device: DeviceID, sourceName: String, configuration: PipelineConfiguration,
        store: any TrackStoring, commitInterval: Double, logger: Logger, deviceName: String? = nil
    ) {
        self.deviceName = deviceName ?? sourceName
        self.source = source
        self.device = device
        self.sourceName = sourceName
        self.configuration = configuration
        self.store = store
        self.commitInterval = commitInterval
        self.logger = logger
    }
    /// How long a write waits for another process's before the points wait for the next commit.
    public static let writeWait = 0.25
    /// How long the last commit, at a stop, waits for a busy store.
    public static let finalWait = Duration.seconds(30)

    /// The store is reached through units of work only (`store.write`/`store.read`), which run
    /// on its own threads: the loop never blocks a cooperative thread on the store.
    public func run() async throws {
        defer { logger.info("stopped") }
        let started = UTCTimestamp.now()
        var status = RecorderStatus(
            pid: getpid(), source: sourceName, startedMilliseconds: started, heartbeatMilliseconds: started,
            paused: false)
        var lastControl = ContinuousClock.now - .seconds(10)
        var pipeline = Pipeline(configuration: configuration, logger: logger)
        let (device, deviceName, store, logger) = (self.device, self.deviceName, self.store, self.logger)
        // The run's rides and segments as stored so far: each commit's writer goes on from them.
        var numbering = RunNumbering()
        var pending: [KeptPoint] = []
        // Events: the same detector as import, on every fix the receiver gives while not paused
        // (before the collection rules); the places are read again every half minute.
        var detector = EventDetector(
            rules: configuration.events, places: try await store.read { try $0.places(account: nil) })
        var pendingEvents: [TrailEvent] = []
        // Stored with the cues they fire; the alerts they match go to the outbox.
        let outlet = EventOutlet(store: store, account: nil, alerting: true, zone: configuration.alerts.zone)
        var placesRead = ContinuousClock.now
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
        /// The points, drops and events that wait, in one unit of work.
        func commit() async throws {
            let drops = DropCounts.added(since: dropsCommitted, to: pipeline.drops)
            lastCommit = .now
            guard !pending.isEmpty || !drops.isEmpty || !pendingEvents.isEmpty else { return }
            let (points, events, before) = (pending, pendingEvents, numbering)
            do {
                numbering = try await store.write { tx in
                    let writer = tx.makeWriter(device: device)
                    writer.numbering = before
                    try writer.write(points, drops: drops)
                    try outlet.take(events, device: device, deviceName: deviceName, in: tx)
                    return writer.numbering
                }
                pending.removeAll(keepingCapacity: true)
                dropsCommitted = pipeline.drops
                pendingEvents.removeAll()
            } catch  where store.isBusy(error) {
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
                        "points": "\(points.count)", "seconds": "\((ContinuousClock.now - since).components.seconds)",
                    ])
            }
        }
        /// The last commit, when stopping: waits for a busy store up to ``finalWait``.
        func finalCommit() async throws {
            let deadline = ContinuousClock.now + Self.finalWait
            while true {
                try await commit()
                if busySince == nil || ContinuousClock.now >= deadline { break }
                try? await Task.sleep(for: .milliseconds(200))
            }
            if busySince != nil {
                throw RecordError.storeStayedBusy(
                    store.path, seconds: Int(Self.finalWait.components.seconds), points: pending.count)
            }
        }
        /// Once a second: read the pause switch (acting on a change) and write the heartbeat.
        func control() async throws {
            guard ContinuousClock.now - lastControl >= .seconds(1) else { return }
            lastControl = .now
            let now = UTCTimestamp.now()
            let readPlaces = ContinuousClock.now - placesRead >= .seconds(30)
            let (paused, places) = try await store.read { tx in
                (try PauseSwitch.pause(in: tx, now: now).paused, readPlaces ? try tx.places(account: nil) : nil)
            }
            if paused != status.paused {
                if paused {
                    pipeline.finish(keep)
                    try await commit()
                    logger.info("collection paused: fixes are not stored until trailbook resume")
                } else {
                    pipeline.sourceDisconnected()
                    logger.info("collection resumed; a new segment starts")
                }
                status.paused = paused
            }
            status.heartbeatMilliseconds = now
            if let places {
                placesRead = .now
                if places != detector.places { detector.setPlaces(places) }
            }
            let heartbeat = status
            do {
                try await store.write { try $0.writeRecorderStatus(heartbeat, device: device) }
            } catch  where store.isBusy(error) {
                // The heartbeat is written again next second.
            }
        }
        do {
            loop: for await input in SourceStream.inputs(of: source, tick: .seconds(1)).cancelOnGracefulShutdown() {
                switch input {
                case .tick:
                    do {
                        try await control()
                    } catch {
                        logger.warning("cannot read or write the pause switch and status: \(error)")
                    }
                    // Points held back (a busy store, fixes that stopped) are stored on time too.
                    if ContinuousClock.now - lastCommit >= interval { try await commit() }
                case .event(.connected(let what)):
                    logger.info("connected", metadata: ["source": "\(what)"])
                    pendingEvents.append(detector.connected(at: UTCTimestamp.now()))
                case .event(.disconnected(let why)):
                    logger.info("disconnected; the segment ends here", metadata: ["reason": "\(why)"])
                    pipeline.sourceDisconnected()
                    hadFix = nil
                    pendingEvents.append(detector.disconnected(at: UTCTimestamp.now()))
                    try await commit()
                case .event(.fix(let fix)):
                    if fix.hasPosition != hadFix {
                        logger.info(fix.hasPosition ? "fix acquired" : "fix lost")
                        hadFix = fix.hasPosition
                    }
                    if fix.hasPosition, let t = fix.unixMilliseconds {
                        status.lastFixMilliseconds = t
                        status.lastFixSeenMilliseconds = UTCTimestamp.now()
                    }
                    try await control()
                    if status.paused { continue }
                    for event in detector.observe(fix) {
                        logger.info(
                            "event", metadata: ["type": "\(event.type.rawValue)", "place": "\(event.place ?? "")"])
                        pendingEvents.append(event)
                    }
                    pipeline.process(fix, keep)
                    if ContinuousClock.now - lastCommit >= interval { try await commit() }
                case .ended(let failure):
                    if let failure { throw failure }
                    break loop
                }
            }
            pipeline.finish(keep)
            try await finalCommit()
        } catch {
            _ = try? await store.write { try $0.removeRecorderStatus(device: device) }
            throw error
        }
        _ = try? await store.write { try $0.removeRecorderStatus(device: device) }
    }

}
