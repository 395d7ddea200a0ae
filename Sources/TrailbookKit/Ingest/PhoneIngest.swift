import Foundation
import GPSCore
import Logging
import Pipeline
import Synchronization
import TrackModel

/// Why points sent by a phone are refused. Nothing of such a batch is stored.
public enum IngestError: ServiceFailure, Equatable {
    /// A point that cannot be a position at a time: the reason as a clause.
    case badPoint(String)

    public var kind: FailureKind { .badData }

    public var description: String {
        switch self {
        case .badPoint(let reason): return "The point is refused: \(reason)."
        }
    }
}

/// Points from phones (OsmAnd, Overland, ...) through the same collection rules as a receiver's,
/// into the store as their device's. Each device keeps its own pipeline while the server runs;
/// a batch is stored (one transaction) before ``ingest(_:device:battery:now:)`` returns, so a
/// phone's reply means its points are safe. A point whose millisecond the device already has is
/// ignored (a phone that resends).
///
/// Synchronous and safe from any thread: a device's batches go one after the other (its lane's
/// lock), different devices' side by side — a server runs them on threads of its own, so that a
/// database's commits overlap instead of queueing behind one another.
public final class PhoneIngest: Sendable {
    private let store: any TrackStoring
    private let configuration: PipelineConfiguration
    private let logger: Logger
    private let lanes = Mutex<[DeviceID: Lane]>([:])

    /// A device's pipeline and writer, used by one batch at a time.
    final class Lane: @unchecked Sendable {
        let lock = NSLock()
        var pipeline: Pipeline
        let writer: any TrackWriting

        init(pipeline: Pipeline, writer: any TrackWriting) {
            self.pipeline = pipeline
            self.writer = writer
        }
    }

    public init(store: any TrackStoring, configuration: PipelineConfiguration, logger: Logger) {
        self.store = store
        self.configuration = configuration
        self.logger = logger
    }

    public static func check(_ fix: Fix, now: Int64 = UTCTimestamp.now()) throws(IngestError) {
        guard let c = fix.coordinate, c.latitude.isFinite, c.longitude.isFinite else {
            throw .badPoint("it has no finite latitude and longitude")
        }
        guard abs(c.latitude) <= 90, abs(c.longitude) <= 180 else {
            throw .badPoint("latitude \(c.latitude), longitude \(c.longitude) is not a place on Earth")
        }
        guard let ms = fix.unixMilliseconds else { throw .badPoint("it has no time") }
        guard abs(ms - now) <= 366 * 86_400_000 else {
            throw .badPoint("its time \(LocalTime.utc(ms)) is more than a year from now")
        }
        // Finite and within what a place on or over the Earth can have (a value out of these
        // bounds is no measurement, and could not be stored).
        let bounds: [(String, Double?, ClosedRange<Double>)] = [
            ("altitude", fix.altitudeMSL, -20_000...200_000), ("speed", fix.speed, 0...10_000),
            ("course", fix.track, 0...360), ("accuracy", fix.horizontalError, 0...10_000_000),
        ]
        for (name, value, range) in bounds {
            guard let value else { continue }
            if !value.isFinite { throw .badPoint("its \(name) is not a finite number") }
            if !range.contains(value) {
                throw .badPoint("its \(name) \(value) is outside \(range.lowerBound)...\(range.upperBound)")
            }
        }
    }

    /// Stores a batch of `device`'s points (checked first: one bad point refuses the batch), in
    /// time order, through the rules, and what the phone said of itself (`battery`, percent; the
    /// newest point's accuracy radius); returns how many were stored.
    public func ingest(_ fixes: [Fix], device: DeviceID, battery: Double? = nil, now: Int64 = UTCTimestamp.now())
        throws -> Int
    {
        for f in fixes { try Self.check(f, now: now) }
        let lane = lanes.withLock { lanes in
            if let lane = lanes[device] { return lane }
            let lane = Lane(
                pipeline: Pipeline(configuration: configuration, logger: logger),
                writer: store.makeWriter(device: device))
            lanes[device] = lane
            return lane
        }
        lane.lock.lock()
        defer { lane.lock.unlock() }
        // The pipeline moves on only once the batch is stored: a batch refused by the store
        // (the database away) goes through it again when the phone sends it again.
        var pipeline = lane.pipeline
        var kept: [KeptPoint] = []
        let before = pipeline.drops
        for f in fixes.sorted(by: { $0.unixMilliseconds! < $1.unixMilliseconds! }) {
            pipeline.process(f) { event in
                if case .kept(let fix, let ride, let segment) = event {
                    kept.append(KeptPoint(fix: fix, ride: ride, segment: segment))
                }
            }
        }
        let stored = try lane.writer.write(kept, drops: DropCounts.added(since: before, to: pipeline.drops))
        lane.pipeline = pipeline
        if let newest = fixes.max(by: { $0.unixMilliseconds! < $1.unixMilliseconds! }), stored > 0 || battery != nil {
            try store.setDeviceState(
                device, atMilliseconds: newest.unixMilliseconds!, battery: battery, accuracy: newest.horizontalError)
        }
        return stored
    }
}
