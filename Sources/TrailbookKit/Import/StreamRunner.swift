import GPSCore
import Pipeline
import TrackModel

/// What a file reader hands over, in file order.
enum StreamItem {
    /// A new stream begins (a GPX `<trk>`): it gets a pipeline of its own.
    case track
    /// A new segment of the current stream begins (a GPX `<trkseg>`, a JSON track segment).
    case segment
    case fix(Fix)
    /// The fixes that follow are of this source (a phone in a Google history: its own device;
    /// nil: the file's), until the next. Taken by ``SourceRouter``.
    case source(String?)
}

/// Runs the fixes of one imported file through the collection rules, a stream at a time: a log
/// is one stream, each GPX track is one. Each stream gets a pipeline of its own, so what is
/// kept never depends on other files or on the order of the files. A stream must arrive in time
/// order: ``add(_:)`` throws ``OutOfOrder`` at the first fix earlier than the one before, and the
/// file is then read again into ``SpilledStreams``, which sorts it.
struct StreamRunner {
    /// A fix of the stream is earlier than the fix before it.
    struct OutOfOrder: Error {}

    let configuration: PipelineConfiguration
    /// Whether to keep the stored form of every kept fix (not for a dry run).
    let keepPoints: Bool
    /// Whether to keep every kept fix with its ride and segment numbered through the run (for
    /// `--dry-run --format csv`).
    let keepFixes: Bool
    /// Rides and segments of the files before this one, so numbers run through the whole run.
    let rideOffset: Int
    let segmentOffset: Int
    /// The places events are detected at; each stream gets a detector of its own.
    let places: [Place]
    /// The cues the place events fire, and the once cues that fired in this file.
    let cues: [Cue]
    private var spentCues = Set<Int64>()

    private(set) var streams: [ImportStream] = []
    var keptFixes: [(fix: Fix, ride: Int, segment: Int)] { decisions.keptFixes }
    private(set) var fixesRead = 0
    var kept: Int { decisions.kept }
    var dropped: [String: Int] { decisions.dropped }
    /// Rides and segments formed in this file.
    private(set) var rides = 0
    private(set) var segments = 0
    /// The earliest time of a fix in the file.
    private(set) var firstTime: Int64?
    /// The events found in the streams ended so far and the current one, in time order (a
    /// stop is found after it began: its event goes back to that time).
    /// Each is kept once, with its stream until it is handed over (a year of history finds tens
    /// of thousands), and then only when ``keepEvents``.
    var events: [TrailEvent] {
        (handedEvents + streams.flatMap(\.events) + streamEvents).sorted { $0.milliseconds < $1.milliseconds }
    }
    /// Whether events handed over (``handOver(atLeast:_:)``) are kept for ``events``.
    var keepEvents = true
    private var handedEvents: [TrailEvent] = []
    /// How many events were found.
    private(set) var eventCount = 0

    /// The last ride of the current stream handed over as done (``handOver(atLeast:_:)``).
    private var closedThrough = 0
    /// The streams whose points were all handed over (``handOver(atLeast:_:)``).
    private var handedStreams = 0
    /// What the rules decided. Apart from the pipeline, so that the pipeline decides in place
    /// while they are recorded (taking the pipeline out of `self` and back copied it per fix).
    private struct Decisions {
        var kept = 0
        var dropped: [String: Int] = [:]
        /// The current stream's kept points not handed over yet.
        var points: [KeptPoint] = []
        /// The rides and segments of the current stream's points, those handed over included.
        var extents = RideExtent.Builder()
        var keptFixes: [(fix: Fix, ride: Int, segment: Int)] = []

        /// Records one decision; `rideBase` and `segmentBase` number rides and segments through
        /// the run (for `keepFixes`).
        mutating func record(
            _ event: PipelineEvent, keepPoints: Bool, keepFixes: Bool, rideBase: Int, segmentBase: Int
        ) {
            switch event {
            case .kept(let fix, let ride, let segment):
                kept += 1
                if keepPoints {
                    let point = KeptPoint(fix: fix, ride: ride, segment: segment)
                    points.append(point)
                    extents.add(point)
                }
                if keepFixes { keptFixes.append((fix, rideBase + ride, segmentBase + segment)) }
            case .dropped(_, let reason):
                dropped[reason.rawValue, default: 0] += 1
            }
        }
    }
    private var decisions = Decisions()

    private var pipeline: Pipeline?
    /// Whether each stream's gaps follow its pace: a stream that gives a fix less often than
    /// the segment gap (a phone app logging once a minute to GPX or CSV) is split into segments
    /// and rides as the phones' posts are (``PipelineConfiguration/forPhones``), not into a
    /// segment per point. Its first ``probeSize`` fixes wait until its pace is known.
    var followsPace = false
    static let probeSize = 8
    private var probe: [Fix] = []
    private var detector: EventDetector?
    private var streamEvents: [TrailEvent] = []
    private var latest: Int64?

    init(
        configuration: PipelineConfiguration, keepPoints: Bool, keepFixes: Bool, rideOffset: Int, segmentOffset: Int,
        places: [Place], cues: [Cue] = []
    ) {
        self.configuration = configuration
        self.places = places
        self.cues = cues
        self.keepPoints = keepPoints
        self.keepFixes = keepFixes
        self.rideOffset = rideOffset
        self.segmentOffset = segmentOffset
    }

    /// Takes one item from a reader (which must give each stream in time order).
    mutating func take(_ item: StreamItem) throws {
        switch item {
        case .track: try endStream()
        case .segment:
            startPipeline()
            pipeline?.sourceDisconnected()
        case .fix(let fix): try add(fix)
        case .source: preconditionFailure("sources are routed before their runners")
        }
    }

    /// Runs `fix` through the stream's pipeline, throwing ``OutOfOrder`` when it is earlier than
    /// the fix before it (fixes without a time are dropped by the rules wherever they are).
    mutating func add(_ fix: Fix) throws {
        if let t = fix.unixMilliseconds {
            if let latest, t < latest { throw OutOfOrder() }
            latest = t
            firstTime = Swift.min(firstTime ?? t, t)
        }
        fixesRead += 1
        // Observed in place: taking the detector out and back copied it at every fix.
        if detector == nil { detector = EventDetector(rules: configuration.events, places: places) }
        var found = detector!.observe(fix)
        if !found.isEmpty && !cues.isEmpty {
            let fired = CueService.fire(cues.filter { !($0.once && spentCues.contains($0.id)) }, for: found)
            for (cue, _) in fired where cue.once { spentCues.insert(cue.id) }
            found += fired.map(\.event)
        }
        streamEvents += found
        eventCount += found.count
        if pipeline == nil && followsPace {
            probe.append(fix)
            if probe.count >= Self.probeSize { startPipeline() }
            return
        }
        if pipeline == nil { pipeline = Pipeline(configuration: configuration) }
        decide { pipeline, record in pipeline.process(fix, record) }
    }

    /// Starts the stream's pipeline on the fixes probed for its pace (none unless
    /// ``followsPace``), with the rules that pace calls for.
    private mutating func startPipeline() {
        guard pipeline == nil, !probe.isEmpty else { return }
        let times = probe.compactMap(\.unixMilliseconds)
        let steps = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 > 0 }.sorted()
        let pace = steps.isEmpty ? 0 : Double(steps[steps.count / 2]) / 1000
        pipeline = Pipeline(configuration: pace >= configuration.segmentGap ? configuration.forPhones : configuration)
        let held = probe
        probe = []
        for fix in held { decide { pipeline, record in pipeline.process(fix, record) } }
    }

    /// Runs `body` on the current stream's pipeline in place, with a function that records its
    /// decisions (moved out of `self` meanwhile: a few words, not the pipeline).
    private mutating func decide(
        _ body: (inout Pipeline, (PipelineEvent) -> Void) throws -> Void
    ) rethrows {
        var taken = Decisions()
        swap(&taken, &decisions)
        defer { swap(&taken, &decisions) }
        let (keepPoints, keepFixes) = (self.keepPoints, self.keepFixes)
        let (rideBase, segmentBase) = (rideOffset + rides, segmentOffset + segments)
        try body(&pipeline!) {
            taken.record($0, keepPoints: keepPoints, keepFixes: keepFixes, rideBase: rideBase, segmentBase: segmentBase)
        }
    }

    /// Ends the current stream (its held fixes are decided now); the next fix starts a new one.
    mutating func endStream() throws {
        startPipeline()
        guard pipeline != nil else { return }
        decide { pipeline, record in pipeline.finish(record) }
        let finished = pipeline!
        var drops: [Int: [String: Int]] = [:]
        // Rides handed over as done took their drops with them.
        for (ride, counts) in finished.drops where ride > closedThrough {
            for (reason, n) in counts.byReason { drops[ride, default: [:]][reason.rawValue] = n }
        }
        // In time order (moved, not copied: sorted in place only when a stop went back in time).
        if zip(streamEvents, streamEvents.dropFirst()).contains(where: { $0.milliseconds > $1.milliseconds }) {
            streamEvents.sort { $0.milliseconds < $1.milliseconds }
        }
        streams.append(
            .init(points: decisions.points, extents: decisions.extents.rides, drops: drops, events: streamEvents))
        decisions.extents = RideExtent.Builder()
        rides += finished.rides
        segments += finished.segments
        decisions.points = []
        latest = nil
        closedThrough = 0
        pipeline = nil
        detector = nil
        streamEvents = []
    }

    /// Kept points not handed over yet.
    var pendingPoints: Int {
        streams[handedStreams...].reduce(decisions.points.count) { $0 + $1.points.count }
    }

    /// What ``handOver(atLeast:_:)`` hands to a writer that stores a file while it is read.
    enum Handed {
        /// Points of a stream, in the order kept.
        case points([KeptPoint])
        /// Rides of a stream that are done: all their points were handed over before, and no
        /// fix counts for them any more (their drops, by ride number, are final); and the
        /// events found in the stream since the last hand-over.
        case closed([RideExtent], drops: [Int: [String: Int]], events: [TrailEvent])
    }

    /// Hands what was kept since the last call to `body` with the index of its stream, and lets
    /// go of it: the points and rides of streams that ended, and of the current stream, when
    /// there are at least `minimum` points, its points and the rides before the last.
    mutating func handOver(atLeast minimum: Int, _ body: (Handed, Int) throws -> Void) rethrows {
        while handedStreams < streams.count {
            let ended = streams[handedStreams]
            streams[handedStreams].points = []
            streams[handedStreams].extents = []
            streams[handedStreams].drops = [:]
            streams[handedStreams].events = []
            if !ended.points.isEmpty { try body(.points(ended.points), handedStreams) }
            if !ended.extents.isEmpty || !ended.events.isEmpty {
                try body(.closed(ended.extents, drops: ended.drops, events: ended.events), handedStreams)
                if keepEvents { handedEvents += ended.events }
            }
            handedStreams += 1
        }
        guard decisions.points.count >= Swift.max(minimum, 1) else { return }
        let current = decisions.points
        decisions.points = []
        decisions.points.reserveCapacity(Swift.min(current.count, 8192))
        try body(.points(current), handedStreams)
        // A ride is done once a point of a later ride was kept: the pipeline counts the fixes
        // it drops for its current ride.
        let done = decisions.extents.takeDone()
        guard let last = done.last, let pipeline else { return }
        var drops: [Int: [String: Int]] = [:]
        for ride in done {
            for (reason, n) in pipeline.drops[ride.number]?.byReason ?? [:] {
                drops[ride.number, default: [:]][reason.rawValue] = n
            }
        }
        closedThrough = last.number
        let found = streamEvents
        streamEvents = []
        if keepEvents { handedEvents += found }
        try body(.closed(done, drops: drops, events: found), handedStreams)
    }
}
