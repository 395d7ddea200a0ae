import Foundation
import GPSCore

/// A file's fixes, kept when its time order turned out to be beyond what ``ReorderBuffer``
/// mends (a history written newest first, logs run together), and handed back in time order in
/// bounded memory: they wait in memory up to ``capacity``, then each stream's are sorted and
/// written as a run to a temporary file (unlinked at once, so nothing is left behind), and the
/// runs are merged as they are read back. Per source (``StreamItem/source(_:)``), per stream:
/// its segments stay apart when they do not overlap in time (each segment's fixes in time
/// order, the segments in time order), and become one when they do.
struct SpilledStreams {
    /// How many fixes wait in memory at most (about 5 MB).
    let capacity: Int

    /// A fix waiting, with its place in the file (a tie keeps the file's order) and segment.
    fileprivate struct Entry {
        var ms: Int64
        var seq: Int64
        var segment: Int32
        var fix: Fix
    }

    /// One stream: its runs in the file, the fixes waiting, and each segment's time range.
    private struct Stream {
        var source: String?
        var runs: [(offset: Int64, count: Int)] = []
        var waiting: [Entry] = []
        var segments: [(first: Int64, last: Int64)?] = []
    }

    private var streams: [Stream] = []
    /// The stream of each source that takes fixes now.
    private var current: [String?: Int] = [:]
    private var source: String?
    private var waiting = 0
    private var sequence: Int64 = 0
    private var file: RunFile?
    /// The path the failures name.
    private let path: String

    init(path: String, capacity: Int = 1 << 14) {
        self.path = path
        self.capacity = capacity
    }

    /// Takes an item of the file as it comes.
    mutating func take(_ item: StreamItem) throws {
        switch item {
        case .source(let name):
            source = name
        case .track:
            newStream()
        case .segment:
            let s = stream()
            streams[s].segments.append(nil)
        case .fix(let fix):
            let s = stream()
            if streams[s].segments.isEmpty { streams[s].segments.append(nil) }
            let segment = streams[s].segments.count - 1
            let ms = fix.unixMilliseconds
            if let ms {
                let range = streams[s].segments[segment]
                streams[s].segments[segment] = (Swift.min(range?.first ?? ms, ms), Swift.max(range?.last ?? ms, ms))
            }
            // Fixes without a time first (the rules drop them wherever they are).
            streams[s].waiting.append(Entry(ms: ms ?? .min, seq: sequence, segment: Int32(segment), fix: fix))
            sequence += 1
            waiting += 1
            if waiting >= capacity { try spill() }
        }
    }

    /// The stream of the current source, begun when it has none.
    private mutating func stream() -> Int {
        if let s = current[source] { return s }
        newStream()
        return current[source]!
    }

    private mutating func newStream() {
        streams.append(Stream(source: source))
        current[source] = streams.count - 1
    }

    /// Writes every stream's waiting fixes as a sorted run.
    private mutating func spill() throws {
        if file == nil { file = try RunFile(naming: path) }
        for s in streams.indices where !streams[s].waiting.isEmpty {
            streams[s].waiting.sort { ($0.ms, $0.seq) < ($1.ms, $1.seq) }
            let offset = try file!.append(streams[s].waiting)
            streams[s].runs.append((offset, streams[s].waiting.count))
            streams[s].waiting = []
        }
        waiting = 0
    }

    /// Hands every stream back in time order to `take`: the unnamed source's first, each
    /// stream as a track, its segments marked where they stay apart.
    mutating func replay(_ take: (StreamItem) throws -> Void) throws {
        if waiting > 0 && file != nil { try spill() }
        let order = streams.indices.sorted {
            (streams[$0].source == nil ? 0 : 1, $0) < (streams[$1].source == nil ? 0 : 1, $1)
        }
        for s in order {
            try take(.source(streams[s].source))
            try take(.track)
            let apart = Self.apart(streams[s].segments)
            var last: Int32?
            try merge(s) { entry in
                if entry.ms != .min {
                    if apart, let last, entry.segment != last { try take(.segment) }
                    last = entry.segment
                }
                try take(.fix(entry.fix))
            }
        }
    }

    /// Whether segments with these time ranges stay apart: sorted by their last time, none
    /// begins before the one before it ends.
    static func apart(_ segments: [(first: Int64, last: Int64)?]) -> Bool {
        var end: Int64?
        for range in segments.compactMap({ $0 }).sorted(by: { $0.last < $1.last }) {
            if let end, range.first < end { return false }
            end = range.last
        }
        return true
    }

    /// The fixes of stream `s` in time order: its runs and what waits, merged (the run whose
    /// next fix is earliest found through a heap: a file of millions has hundreds of runs).
    private mutating func merge(_ s: Int, _ body: (Entry) throws -> Void) throws {
        var waiting = streams[s].waiting
        streams[s].waiting = []
        waiting.sort { ($0.ms, $0.seq) < ($1.ms, $1.seq) }
        var readers = try streams[s].runs.map { try RunFile.Reader(file: file!, offset: $0.offset, count: $0.count) }
        // The heads of the runs, earliest on top; the fixes still in memory are one run more.
        var heap: [(entry: Entry, run: Int)] = []
        func earlier(_ a: Int, _ b: Int) -> Bool {
            (heap[a].entry.ms, heap[a].entry.seq) < (heap[b].entry.ms, heap[b].entry.seq)
        }
        func up(_ i: Int) {
            var i = i
            while i > 0, earlier(i, (i - 1) / 2) {
                heap.swapAt(i, (i - 1) / 2)
                i = (i - 1) / 2
            }
        }
        func down(_ i: Int) {
            var i = i
            while true {
                var m = i
                if 2 * i + 1 < heap.count, earlier(2 * i + 1, m) { m = 2 * i + 1 }
                if 2 * i + 2 < heap.count, earlier(2 * i + 2, m) { m = 2 * i + 2 }
                if m == i { return }
                heap.swapAt(i, m)
                i = m
            }
        }
        var w = 0
        func next(_ run: Int) throws -> Entry? {
            if run < readers.count { return try readers[run].next() }
            defer { w += 1 }
            return w < waiting.count ? waiting[w] : nil
        }
        for run in 0...readers.count {
            if let e = try next(run) {
                heap.append((e, run))
                up(heap.count - 1)
            }
        }
        while let top = heap.first {
            try body(top.entry)
            if let e = try next(top.run) {
                heap[0] = (e, top.run)
            } else {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if !heap.isEmpty { down(0) }
        }
    }
}

/// The temporary file that holds the sorted runs: fixed-size records (``FixRecord``), appended,
/// read back a block at a time per run. It is unlinked as soon as it is made.
private final class RunFile {
    let fd: Int32
    private var end: Int64 = 0
    /// The path the failures name (the file being imported).
    let naming: String

    init(naming: String) throws {
        self.naming = naming
        var template = Array((NSTemporaryDirectory() + "/trailbook-sort-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Self.failure(naming, "made", errno) }
        unlink(String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        self.fd = fd
    }

    deinit { close(fd) }

    static func failure(_ path: String, _ what: String, _ code: Int32) -> ImportError {
        .cannotSort(path, what: what, folder: NSTemporaryDirectory(), reason: String(cString: strerror(code)))
    }

    /// Appends `entries`; returns where they begin.
    func append(_ entries: [SpilledStreams.Entry]) throws -> Int64 {
        let start = end
        var bytes = [UInt8]()
        bytes.reserveCapacity(Swift.min(entries.count, 4096) * FixRecord.size)
        var offset = end
        func flush() throws {
            try bytes.withUnsafeBytes { raw in
                var done = 0
                while done < raw.count {
                    let n = pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done))
                    guard n > 0 else { throw Self.failure(naming, "written", errno) }
                    done += n
                }
            }
            offset += Int64(bytes.count)
            bytes.removeAll(keepingCapacity: true)
        }
        for e in entries {
            FixRecord.write(e, to: &bytes)
            if bytes.count >= 4096 * FixRecord.size { try flush() }
        }
        try flush()
        end = offset
        return start
    }

    /// Reads one run back, a block at a time.
    struct Reader {
        let file: RunFile
        private var offset: Int64
        private var left: Int
        private var block: [UInt8] = []
        private var at = 0

        init(file: RunFile, offset: Int64, count: Int) throws {
            (self.file, self.offset, self.left) = (file, offset, count)
        }

        mutating func next() throws -> SpilledStreams.Entry? {
            if at == block.count {
                guard left > 0 else { return nil }
                let n = Swift.min(left, 256)
                block = [UInt8](repeating: 0, count: n * FixRecord.size)
                let fd = file.fd
                let naming = file.naming
                let start = offset
                try block.withUnsafeMutableBytes { raw in
                    var done = 0
                    while done < raw.count {
                        let r = pread(fd, raw.baseAddress! + done, raw.count - done, off_t(start) + off_t(done))
                        guard r > 0 else { throw RunFile.failure(naming, "read", r == 0 ? EIO : errno) }
                        done += r
                    }
                }
                offset += Int64(block.count)
                left -= n
                at = 0
            }
            let entry = block.withUnsafeBytes { FixRecord.read($0, at: at) }
            at += FixRecord.size
            return entry
        }
    }
}

/// A fix, its time and place in the file and its segment as a record of fixed size (184 bytes):
/// a mask of the fields present, then each field in 8 bytes (doubles by their bits),
/// little-endian.
private enum FixRecord {
    static let slots = 23
    static let size = slots * 8

    static func write(_ e: SpilledStreams.Entry, to bytes: inout [UInt8]) {
        let f = e.fix
        var mask: UInt64 = 0
        var values = [UInt64](repeating: 0, count: slots)
        func put(_ i: Int, _ v: UInt64?) {
            guard let v else { return }
            mask |= 1 << UInt64(i)
            values[i] = v
        }
        func double(_ d: Double?) -> UInt64? { d.map(\.bitPattern) }
        func int(_ n: Int?) -> UInt64? { n.map { UInt64(bitPattern: Int64($0)) } }
        put(1, UInt64(bitPattern: e.ms))
        put(2, UInt64(bitPattern: e.seq))
        put(3, UInt64(UInt32(bitPattern: e.segment)))
        put(4, int(f.date?.daysSinceEpoch))
        put(5, int(f.timeOfDay))
        put(6, UInt64(f.mode.rawValue))
        put(7, int(f.quality?.rawValue))
        put(8, double(f.coordinate?.latitude))
        put(9, double(f.coordinate?.longitude))
        put(10, double(f.altitudeMSL))
        put(11, double(f.geoidSeparation))
        put(12, double(f.speed))
        put(13, double(f.track))
        put(14, double(f.hdop))
        put(15, double(f.vdop))
        put(16, double(f.pdop))
        put(17, int(f.satellitesUsed))
        put(18, int(f.satellitesInView))
        put(19, double(f.latitudeError))
        put(20, double(f.longitudeError))
        put(21, double(f.altitudeError))
        put(22, f.sensors.map { UInt64(bitPattern: $0.packed) })
        values[0] = mask
        for v in values { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    }

    static func read(_ raw: UnsafeRawBufferPointer, at start: Int) -> SpilledStreams.Entry {
        func slot(_ i: Int) -> UInt64 {
            UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: start + i * 8, as: UInt64.self))
        }
        let mask = slot(0)
        func has(_ i: Int) -> Bool { mask & (1 << UInt64(i)) != 0 }
        func double(_ i: Int) -> Double? { has(i) ? Double(bitPattern: slot(i)) : nil }
        func int(_ i: Int) -> Int? { has(i) ? Int(Int64(bitPattern: slot(i))) : nil }
        var f = Fix()
        f.date = int(4).map { CivilDate(daysSinceEpoch: $0) }
        f.timeOfDay = int(5)
        f.mode = FixMode(rawValue: Int(slot(6))) ?? .unknown
        f.quality = int(7).flatMap { FixQuality(rawValue: $0) }
        if let lat = double(8), let lon = double(9) { f.coordinate = Coordinate(latitude: lat, longitude: lon) }
        f.altitudeMSL = double(10)
        f.geoidSeparation = double(11)
        f.speed = double(12)
        f.track = double(13)
        f.hdop = double(14)
        f.vdop = double(15)
        f.pdop = double(16)
        f.satellitesUsed = int(17)
        f.satellitesInView = int(18)
        f.latitudeError = double(19)
        f.longitudeError = double(20)
        f.altitudeError = double(21)
        if has(22) { f.sensors = Sensors(packed: Int64(bitPattern: slot(22))) }
        return SpilledStreams.Entry(
            ms: Int64(bitPattern: slot(1)), seq: Int64(bitPattern: slot(2)),
            segment: Int32(bitPattern: UInt32(slot(3))),
            fix: f)
    }
}
