import Foundation
import GPSCore
import Logging
import Pipeline
import Synchronization
import TrackModel

/// An alarm a phone's user raised (Traccar Client's SOS button): its kind (`sos`), when and where.
public struct PhoneAlarm: Equatable, Sendable {
    public var kind: String
    public var milliseconds: Int64
    public var coordinate: Coordinate?

    public init(kind: String, milliseconds: Int64, coordinate: Coordinate?) {
        self.kind = kind
        self.milliseconds = milliseconds
        self.coordinate = coordinate
    }
}

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
/// a batch is stored (one transaction) before ``ingest(_:device:deviceName:account:battery:readings:alarms:now:)``
/// returns, so a phone's reply means its points are safe. Points may come in any order: a late
/// one is stored in its place, and one whose millisecond the device already has is ignored (a
/// phone that resends).
///
/// Safe from any task: a device's batches go one after the other (its lane's turn, awaited),
/// different devices' side by side, so that a database's commits overlap instead of queueing
/// behind one another. No lock is held while a batch's unit of work runs.
public final class PhoneIngest: Sendable {
    private let store: any TrackStoring
    /// The collection rules the points go through.
    public let configuration: PipelineConfiguration
    private let logger: Logger
    private let lanes = Mutex<[DeviceID: Lane]>([:])
    /// Where a point of any time goes among the stored ones (the rules' segment and ride gaps).
    private let placement: PointPlacement

    /// A device's pipeline and event detector, used by one batch at a time (its turn): its mutex
    /// is held only to read the state before the batch's unit of work and to write it after, so a
    /// device's batches go one after the other while other devices' lanes go side by side.
    final class Lane: Sendable {
        struct State {
            var pipeline: Pipeline
            var detector: EventDetector
            /// Where its events go (with the cues they fire, and into its account's alerts).
            let outlet: EventOutlet
            let name: String
            /// When the account's places were last read (wall clock, ms; read again after 30 s).
            var placesRead: Int64?
            /// When the device last sent something (wall clock, ms), and whether it was found
            /// silent since.
            var lastSeen: Int64
            /// The newest point time (ms) the device sent while the server runs: older points are late.
            var seen: Int64?
            var offline = false
            /// A point ahead of the clock was logged (once a device while the server runs).
            var toldAhead = false
            /// The pipeline as the batch being stored leaves it, kept once it is stored.
            var pending: Pipeline?
            /// How many times the account's places changed (``placesChanged()``): a batch that read
            /// them marks them read only when they did not change while its unit ran.
            var placesChanges = 0
        }

        let state: Mutex<State>
        /// One batch at a time: the lane's state is read before the batch's unit of work and
        /// written after it, and no lock is held while the unit runs.
        let turn = Turn()

        init(_ state: sending State) { self.state = Mutex(state) }
    }

    public init(store: any TrackStoring, configuration: PipelineConfiguration, logger: Logger) {
        self.store = store
        // Split as a phone's points are (at the diary preset's gaps at least).
        let configuration = configuration.forPhones
        self.configuration = configuration
        self.logger = logger
        placement = PointPlacement(segmentGapSeconds: configuration.segmentGap, rideGapSeconds: configuration.rideGap)
    }

    public static func check(_ fix: Fix, now: Int64 = UTCTimestamp.now()) throws(IngestError) {
        guard let c = fix.coordinate, c.latitude.isFinite, c.longitude.isFinite else {
            throw .badPoint("it has no finite latitude and longitude")
        }
        guard abs(c.latitude) <= 90, abs(c.longitude) <= 180 else {
            throw .badPoint("latitude \(c.latitude), longitude \(c.longitude) is not a place on Earth")
        }
        guard let ms = fix.unixMilliseconds else { throw .badPoint("it has no time") }
        // A point up to a year ahead of the clock is dropped, not refused (``aheadTolerance``).
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

    /// Stores a batch of `device`'s points (checked first: one bad point refuses the batch) and
    /// what the phone said of itself (`battery`, percent; the newest point's accuracy radius;
    /// `readings` its sensors gave; `alarms` its user raised); returns how many points were stored.
    ///
    /// Points newer than any the device sent go through the collection rules in time order;
    /// older ones (a backlog sent late, a resend) through the rules that need no neighbour. Every
    /// kept point goes where it belongs in time (``PointPlacement``), once per millisecond. The
    /// battery and accuracy move the device's state on only when the batch holds a newer point.
    /// The points also go through the event detector with the places of `account` (the store's
    /// own user when nil); its events (named as `deviceName`'s) are stored after the points, with
    /// the cues they fire, and the account's alerts they match go to the outbox. `messages`, what
    /// the phone sent that is no position (`type`, the app's own text), are kept as the device's,
    /// received `now`, in the same unit of work.
    public func ingest(
        _ fixes: [Fix], device: DeviceID, deviceName: String? = nil, account: String? = nil, battery: Double? = nil,
        readings: [WeatherReading] = [], alarms: [PhoneAlarm] = [], messages: [(type: String, body: String)] = [],
        now: Int64 = UTCTimestamp.now()
    ) async throws -> Int {
        for f in fixes { try Self.check(f, now: now) }
        let lane = lanes.withLock { lanes in
            if let lane = lanes[device] { return lane }
            let lane = Lane(
                Lane.State(
                    pipeline: Pipeline(configuration: configuration, logger: logger),
                    detector: EventDetector(rules: configuration.events, places: []),
                    outlet: EventOutlet(
                        store: store, account: account, alerting: true, zone: configuration.alerts.zone,
                        maxDelay: configuration.alerts.maxDelay),
                    name: deviceName ?? "device \(device.rawValue)", lastSeen: now))
            lanes[device] = lane
            return lane
        }
        return try await lane.turn.run {
            // The pipeline moves on only once the batch is stored: a batch refused by the store
            // (the database away) goes through it again when the phone sends it again. What the
            // batch makes of the lane waits in `pending` meanwhile (the lane's turn is this batch's).
            let batch = lane.state.withLock { lane in
                Self.prepare(
                    fixes, lane: &lane, battery: battery, alarms: alarms, readings: readings, messages: messages,
                    now: now)
            }
            let placement = self.placement
            let stored: Int
            var detector = batch.detector
            do {
                if let alone = batch.quiet {
                    // Nothing but points (no reading, no event, the places read lately): their
                    // placement is the unit's last and only write.
                    stored = try await store.write {
                        try $0.makeWriter(device: device).placeLast(
                            batch.kept, drops: batch.drops, rule: placement, state: batch.state)
                    }
                    detector = alone
                } else {
                    // The batch is one unit of work: its messages, its points, the phone's readings,
                    // the events with their cues and alerts, and the device's state are stored
                    // together or not at all.
                    (stored, detector) = try await store.write { [detector] tx -> (Int, EventDetector) in
                        var detector = detector
                        for message in messages {
                            _ = try tx.addDeviceMessage(
                                device, type: message.type, receivedMilliseconds: now, body: message.body)
                        }
                        let stored = try tx.makeWriter(device: device).place(
                            batch.kept, drops: batch.drops, rule: placement, state: batch.state)
                        // What the phone measured (its barometer), as the device's own weather readings.
                        if !readings.isEmpty {
                            _ = try tx.addWeatherReadings(
                                readings.map { r in
                                    var r = r
                                    r.device = device
                                    return r
                                }, account: account)
                        }
                        if batch.readPlaces {
                            let places = try tx.places(account: account)
                            if places != detector.places { detector.setPlaces(places) }
                        }
                        let events = batch.observe(&detector)
                        var found = try self.unrepeated(
                            events.points, deviceName: batch.name, account: account, in: tx)
                        if let late = batch.late, stored > 0 {
                            found += try self.lateEvents(
                                in: late, device: device, deviceName: batch.name, account: account,
                                places: detector.places, besides: found, unit: tx)
                        }
                        try batch.outlet.take(found + events.others, device: device, deviceName: batch.name, in: tx)
                        return (stored, detector)
                    }
                }
            } catch {
                lane.state.withLock { $0.pending = nil }
                throw error
            }
            lane.state.withLock { lane in
                if let pending = lane.pending { lane.pipeline = pending }
                lane.pending = nil
                lane.seen = batch.seen
                lane.detector = detector
                if batch.readPlaces && lane.placesChanges == batch.placesChanges { lane.placesRead = now }
                lane.offline = false
                lane.lastSeen = now
                if batch.ahead > 0 && !lane.toldAhead {
                    lane.toldAhead = true
                    logger.warning(
                        "\(batch.name) sent \(counted(batch.ahead, "point")) timed more than \(Self.aheadTolerance / 60_000) minutes ahead of this server's clock, dropped (ahead); is the phone's clock or the server's wrong? (said once a device)"
                    )
                }
            }
            return stored
        }
    }

    /// What a batch makes of its lane before it is stored: the points the rules keep (the
    /// lane's pipeline moved on in `pending`), the device's new state, and how its events are
    /// found.
    struct Batch: Sendable {
        let kept: [KeptPoint]
        let drops: [String: Int]
        /// Points dropped for being ahead of the clock (``aheadTolerance``).
        let ahead: Int
        let late: ClosedRange<Int64>?
        let seen: Int64?
        let state: DeviceStateUpdate?
        let detector: EventDetector
        /// The detector as it is after the batch when the batch holds nothing but points and they
        /// make no event (its placement is then the unit's only write); nil otherwise.
        let quiet: EventDetector?
        let readPlaces: Bool
        /// The lane's ``Lane/State/placesChanges`` when the batch began.
        let placesChanges: Int
        let name: String
        let outlet: EventOutlet
        /// What the detector makes of the batch: the points' events, then the battery's, the phone
        /// coming back and its user's alarms.
        let observe: @Sendable (inout EventDetector) -> (points: [TrailEvent], others: [TrailEvent])
    }

    /// How far ahead of the server's clock a phone's point may be, ms: one further ahead (up to
    /// a year; beyond, ``check(_:now:)`` refuses it) is dropped (``DropReason/ahead``) and the rest
    /// of its batch stored. Phones take their time from the network or the satellites, seconds
    /// apart; a point hours or a year ahead is a clock gone wrong, and kept it would make every
    /// real point after it late (its events not sent).
    public static let aheadTolerance: Int64 = 10 * 60_000

    static func prepare(
        _ fixes: [Fix], lane: inout Lane.State, battery: Double?, alarms: [PhoneAlarm], readings: [WeatherReading],
        messages: [(type: String, body: String)], now: Int64
    ) -> Batch {
        var pipeline = lane.pipeline
        var seen = lane.seen
        var kept: [KeptPoint] = []
        var drops: [String: Int] = [:]
        var late: ClosedRange<Int64>?
        let sorted = fixes.filter { $0.unixMilliseconds! <= now + aheadTolerance }
            .sorted { $0.unixMilliseconds! < $1.unixMilliseconds! }
        let ahead = fixes.count - sorted.count
        if ahead > 0 { drops[DropReason.ahead.rawValue] = ahead }
        for f in sorted {
            let t = f.unixMilliseconds!
            if let seen, t <= seen {
                // A late point (a backlog sent after newer points, a resend): the rules that need
                // no neighbour, then its place among the stored points.
                if let reason = pipeline.reasonToDropAlone(f) {
                    drops[reason.rawValue, default: 0] += 1
                } else {
                    kept.append(KeptPoint(fix: f, ride: 0, segment: 0))
                    late = late.map { min($0.lowerBound, t)...max($0.upperBound, t) } ?? t...t
                }
                continue
            }
            seen = t
            pipeline.process(f) { event in
                switch event {
                case .kept(let fix, _, _): kept.append(KeptPoint(fix: fix, ride: 0, segment: 0))
                case .dropped(_, let reason): drops[reason.rawValue, default: 0] += 1
                }
            }
        }
        lane.pending = pipeline
        // Whether the batch holds a point newer than any the device sent before: only then does
        // what it says of the phone (battery, accuracy) move the device's state on.
        let advances = (sorted.last?.unixMilliseconds).map { $0 > (lane.seen ?? .min) } ?? false
        let offline = lane.offline
        // What the batch says of the phone moves the device's state on with its points.
        let state = sorted.last.flatMap { newest in
            advances
                ? DeviceStateUpdate(
                    milliseconds: newest.unixMilliseconds!, battery: battery, accuracy: newest.horizontalError)
                : nil
        }
        // Events: like the pipeline, the detector moves on only once they are stored (a resent
        // batch's points are earlier than what it saw, and pass; an event stored twice is kept once).
        let observe: @Sendable (inout EventDetector) -> (points: [TrailEvent], others: [TrailEvent]) = { detector in
            let points = sorted.flatMap { detector.observe($0) }
            var others: [TrailEvent] = []
            if let battery, advances, let newest = sorted.last?.unixMilliseconds {
                others += detector.observe(battery: battery, at: newest)
            }
            if offline { others.append(detector.connected(at: now)) }
            others += alarms.map {
                TrailEvent(milliseconds: $0.milliseconds, type: .deviceAlarm, coordinate: $0.coordinate, text: $0.kind)
            }
            return (points, others)
        }
        let readPlaces = lane.placesRead.map { now - $0 >= 30_000 } ?? true
        var quiet: EventDetector?
        if !readPlaces && readings.isEmpty && messages.isEmpty && late == nil {
            var alone = lane.detector
            let observed = observe(&alone)
            if observed.points.isEmpty && observed.others.isEmpty { quiet = alone }
        }
        return Batch(
            kept: kept, drops: drops, ahead: ahead, late: late, seen: seen, state: state, detector: lane.detector,
            quiet: quiet,
            readPlaces: readPlaces, placesChanges: lane.placesChanges, name: lane.name, outlet: lane.outlet,
            observe: observe)
    }

    /// How far around late points their events are looked for again, ms: the longest time a rule
    /// watches (arriving, stopping, leaving, losing the fix), and a minute more; the detector
    /// settles on the stored points before them and confirms on those after.
    var lateWindow: Int64 {
        let r = configuration.events
        return Int64((max(r.arriveAfter, r.stopAfter, r.departAfter, r.moveAfter, r.fixLostAfter) + 60) * 1000)
    }

    /// The events late points show (a backlog that came after newer points): a detector of its
    /// own runs over the device's stored points around them (`lateWindow` each side; it starts
    /// knowing nothing, so the first stop or place it sees is not announced), and what it finds
    /// is kept, but for a type at a place the device already has an event of in that stretch
    /// (the live detector, or an earlier late batch, found it), or that this batch's newer points
    /// gave already (`besides`). Late points can complete what
    /// stored ones began (a stay before them, a departure after), so the whole stretch counts.
    func lateEvents(
        in range: ClosedRange<Int64>, device: DeviceID, deviceName: String, account: String?, places: [Place],
        besides: [TrailEvent], unit: any StoreWriting
    ) throws -> [TrailEvent] {
        let store = unit
        let from = range.lowerBound - lateWindow
        let to = range.upperBound + lateWindow + 1
        let fixes = try store.points(
            fromMilliseconds: from, toMilliseconds: to,
            devices: account.map { .account($0, device: deviceName) } ?? .named(deviceName))
        var detector = EventDetector(rules: configuration.events, places: places)
        let found = fixes.flatMap { detector.observe($0) }
        guard !found.isEmpty else { return [] }
        let stored = try store.events(fromMilliseconds: from, toMilliseconds: to, types: nil, account: account)
            .filter { $0.device == deviceName }
        let kinds = Set((stored.map(\.event) + besides).map { "\($0.type.rawValue)|\($0.place ?? "")" })
        var fresh: [TrailEvent] = []
        for f in found {
            // The same arrival, departure, stop or start the live detector dated later, seeing the
            // points with gaps: it moves to the time the stored points show (with the cues it fired).
            if let other = Self.opposite[f.type],
                let later = stored.first(where: {
                    $0.event.type == f.type && $0.event.place == f.place && $0.event.milliseconds > f.milliseconds
                }),
                !(stored.map(\.event) + found).contains(where: {
                    $0.type == other && $0.place == f.place && $0.milliseconds > f.milliseconds
                        && $0.milliseconds < later.event.milliseconds
                })
            {
                try store.moveEvent(
                    later.id, toMilliseconds: f.milliseconds, coordinate: f.coordinate, account: account)
                for cue in stored
                where cue.event.type == .cue && cue.event.place == f.place
                    && cue.event.milliseconds == later.event.milliseconds
                {
                    try store.moveEvent(
                        cue.id, toMilliseconds: f.milliseconds, coordinate: f.coordinate, account: account)
                }
                continue
            }
            if !kinds.contains("\(f.type.rawValue)|\(f.place ?? "")") { fresh.append(f) }
        }
        return fresh
    }

    /// Arriving and leaving a place, and stopping and moving, alternate: two of one kind with
    /// none of the other between are one.
    static let opposite: [TrailEventType: TrailEventType] = [
        .placeArrive: .placeDepart, .placeDepart: .placeArrive, .motionStopped: .motionMoving,
        .motionMoving: .motionStopped,
    ]

    /// The live detector's `events` without those the device has had already: the same kind at
    /// the same place as its last one of the pair within ``lateWindow`` before (late points
    /// showed it first, at its own time; the live detector, seeing the points with gaps, found
    /// it again later).
    func unrepeated(_ events: [TrailEvent], deviceName: String, account: String?, in store: any StoreReading) throws
        -> [TrailEvent]
    {
        var kept: [TrailEvent] = []
        for e in events {
            guard let other = Self.opposite[e.type] else {
                kept.append(e)
                continue
            }
            let before =
                try store.events(
                    fromMilliseconds: e.milliseconds - lateWindow, toMilliseconds: e.milliseconds,
                    types: [e.type, other], account: account
                ).filter { $0.device == deviceName }.map(\.event)
                + kept.filter { $0.type == e.type || $0.type == other }
            if let last = before.filter({ $0.place == e.place }).max(by: { $0.milliseconds < $1.milliseconds }),
                last.type == e.type
            {
                continue
            }
            kept.append(e)
        }
        return kept
    }

    /// Places changed (a phone sent its regions): every device reads its account's places again
    /// with its next batch (otherwise they are read again after 30 s).
    public func placesChanged() {
        for lane in lanes.withLock({ Array($0.values) }) {
            lane.state.withLock {
                $0.placesRead = nil
                $0.placesChanges += 1
            }
        }
    }

    /// Seconds of silence after which a device is offline.
    public var offlineAfter: Double { configuration.events.offlineAfter }
    /// The event rules (offline, moving), as the live page shows them.
    public var rules: EventRules { configuration.events }
    /// The zone of times in messages and pages (`time.zone`).
    public var zone: TimeZone { configuration.alerts.zone }

    /// Notes `device.offline` for each device that sent nothing for the rule's time since it last
    /// did (devices that sent something since the server started; once until it sends again,
    /// which is `device.connected`). Returns how many it found.
    @discardableResult
    public func findSilent(now: Int64 = UTCTimestamp.now()) async throws -> Int {
        let silence = Int64(configuration.events.offlineAfter * 1000)
        let all = lanes.withLock { Array($0) }
        var found = 0
        for (device, lane) in all {
            try await lane.turn.run {
                let silent = lane.state.withLock { lane in
                    !lane.offline && now - lane.lastSeen >= silence
                        ? (lane.detector.offline(at: lane.lastSeen + silence), lane.outlet, lane.name) : nil
                }
                guard let (event, outlet, name) = silent else { return }
                try await store.write { try outlet.take([event], device: device, deviceName: name, in: $0) }
                lane.state.withLock { $0.offline = true }
                found += 1
            }
        }
        return found
    }
}
