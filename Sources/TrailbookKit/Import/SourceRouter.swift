import GPSCore
import TrackModel

/// The sources of one file, each its own device: a Google history's phones (`deviceTag`) follow
/// each other, or take turns at the same hours, in one list. Each source has its own
/// ``ReorderBuffer`` and ``StreamRunner``, so one phone's points never decide another's; a file
/// of one source (every other format) has one of each, as before.
///
/// Streams are numbered through the file in the order they begin (the number a writer's
/// ``ImportWriting/add(_:stream:device:)`` and ``streams`` use), whatever source they are of.
struct SourceRouter {
    private let newRunner: () -> StreamRunner
    /// The device of a source named in the file (``StreamItem/source(_:)``).
    private let deviceOf: (String) -> String
    // Per source, the unnamed one first (apart, so that a buffer hands its fixes to a runner in
    // place): its device (nil: the import's), what reads it, and the file-wide number of each of
    // its runner's streams begun so far.
    private var sourceDevices: [String?] = [nil]
    private var reorders = [ReorderBuffer()]
    private var runners: [StreamRunner]
    private var numbers: [[Int]] = [[]]
    /// Sources by name.
    private var index: [String: Int] = [:]
    private var current = 0
    /// Streams numbered so far.
    private var numbered = 0

    init(newRunner: @escaping () -> StreamRunner, deviceOf: @escaping (String) -> String) {
        self.newRunner = newRunner
        self.deviceOf = deviceOf
        runners = [newRunner()]
    }

    /// Takes one item from a reader: a source switches where the fixes that follow go.
    mutating func take(_ item: StreamItem) throws {
        if case .source(let name) = item {
            current = name.map { source($0) } ?? 0
            return
        }
        let s = current
        try reorders[s].take(item) { try runners[s].take($0) }
    }

    /// Takes one item into the runner of its source as it comes (the items of a reading put in
    /// order already).
    mutating func takeInOrder(_ item: StreamItem) throws {
        if case .source(let name) = item {
            current = name.map { source($0) } ?? 0
            return
        }
        try runners[current].take(item)
    }

    private mutating func source(_ name: String) -> Int {
        if let i = index[name] { return i }
        sourceDevices.append(deviceOf(name))
        reorders.append(ReorderBuffer())
        runners.append(newRunner())
        numbers.append([])
        index[name] = runners.count - 1
        return runners.count - 1
    }

    /// Ends the file: every source's waiting fixes go on, and its stream ends.
    mutating func finish() throws {
        for s in runners.indices {
            try reorders[s].flush { try runners[s].take($0) }
            try runners[s].endStream()
        }
    }

    /// Whether a source's fixes came a little out of order and were put back in order.
    var reordered: Bool { reorders.contains { $0.reordered } }

    /// The file-wide number of stream `local` of source `s`, given when it is first asked for.
    private mutating func number(_ s: Int, _ local: Int) -> Int {
        while numbers[s].count <= local {
            numbers[s].append(numbered)
            numbered += 1
        }
        return numbers[s][local]
    }

    /// Hands what every source kept to `body` with its stream's number and device (as
    /// ``StreamRunner/handOver(atLeast:_:)``).
    mutating func handOver(atLeast minimum: Int, _ body: (StreamRunner.Handed, Int, String?) throws -> Void) rethrows {
        for s in runners.indices {
            let device = sourceDevices[s]
            var handed: [(StreamRunner.Handed, Int)] = []
            runners[s].handOver(atLeast: minimum) { handed.append(($0, $1)) }
            for (what, local) in handed { try body(what, number(s, local), device) }
        }
    }

    /// The streams of every source, in the file-wide numbering, each naming its device.
    mutating func streams() -> [ImportStream] {
        var all: [Int: ImportStream] = [:]
        for s in runners.indices {
            for (local, stream) in runners[s].streams.enumerated() {
                let n = number(s, local)
                all[n] = stream
                all[n]!.device = sourceDevices[s]
            }
        }
        // Every number was given to a stream that began.
        return (0..<numbered).map { all[$0] ?? ImportStream(points: [], drops: [:]) }
    }

    var pendingPoints: Int { runners.reduce(0) { $0 + $1.pendingPoints } }
    var fixesRead: Int { runners.reduce(0) { $0 + $1.fixesRead } }
    var kept: Int { runners.reduce(0) { $0 + $1.kept } }
    var dropped: [String: Int] { runners.reduce(into: [:]) { $0.merge($1.dropped, uniquingKeysWith: +) } }
    var eventCount: Int { runners.reduce(0) { $0 + $1.eventCount } }
    /// The events of every source, in time order, each with its source's device (nil: the
    /// import's own).
    var events: [ImportService.FoundEvent] {
        runners.indices.flatMap { s in
            runners[s].events.map { ImportService.FoundEvent(device: sourceDevices[s], event: $0) }
        }
        .sorted { $0.event.milliseconds < $1.event.milliseconds }
    }
    var firstTime: Int64? { runners.compactMap(\.firstTime).min() }
    /// The kept fixes of every source, each source's rides and segments numbered after the
    /// earlier sources' (a dry run's CSV gives no two phones the same ride).
    var keptFixes: [(fix: Fix, ride: Int, segment: Int)] {
        var (ridesBefore, segmentsBefore) = (0, 0)
        var all: [(fix: Fix, ride: Int, segment: Int)] = []
        for runner in runners {
            all += runner.keptFixes.map { ($0.fix, $0.ride + ridesBefore, $0.segment + segmentsBefore) }
            (ridesBefore, segmentsBefore) = (ridesBefore + runner.rides, segmentsBefore + runner.segments)
        }
        return all
    }
    var rides: Int { runners.reduce(0) { $0 + $1.rides } }
    var segments: Int { runners.reduce(0) { $0 + $1.segments } }
    /// The devices of the sources named in the file, in the order they came.
    var devices: [String] { sourceDevices.compactMap { $0 } }
}
