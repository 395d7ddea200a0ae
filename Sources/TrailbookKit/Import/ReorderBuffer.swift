import GPSCore

/// Puts a stream that is almost in time order back in order as it is read, in bounded memory:
/// fixes wait in a heap, and the earliest goes on once it is more than ``window`` older than the
/// latest read, or more than ``capacity`` wait (a segment or track boundary lets all of them go,
/// in order). A stream in order keeps only its last two minutes waiting. Files whose parts
/// overlap a little (a logger's files run together, a few late rows) are imported in one
/// reading this way. A fix
/// earlier than one that has already gone on throws ``StreamRunner/OutOfOrder``: the file is
/// then read again and sorted whole.
struct ReorderBuffer {
    /// How many fixes may wait: 16,384 by default (about 5 MB).
    let capacity: Int
    /// How far back a fix may come, ms: two minutes by default (an hour of 1 Hz fixes waiting
    /// made an import's memory per point half as large again).
    let window: Int64
    private typealias Entry = (ms: Int64, seq: Int, fix: Fix)
    /// The fixes that came in time order, oldest first (from `head` on): most of any stream,
    /// which then goes through without the heap's swaps of whole fixes.
    private var queue: [Entry] = []
    private var head = 0
    /// The fixes that came earlier than one read before them.
    private var heap: [Entry] = []
    private var sequence = 0
    /// The time of the last fix that went on.
    private var released: Int64 = .min
    /// Whether any fix came earlier than one read before it.
    private(set) var reordered = false
    private var latest: Int64 = .min

    private var waiting: Int { queue.count - head + heap.count }

    init(capacity: Int = 1 << 14, window: Int64 = 120_000) {
        self.capacity = capacity
        self.window = window
    }

    mutating func take(_ item: StreamItem, _ next: (StreamItem) throws -> Void) throws {
        guard case .fix(let fix) = item, let ms = fix.unixMilliseconds else {
            // A boundary, or a fix without a time (the runner judges it where it stands). A new
            // stream (a GPX track) has a pipeline of its own and may begin at any time.
            try flush(next)
            if case .track = item { (released, latest) = (.min, .min) }
            return try next(item)
        }
        guard ms >= released else { throw StreamRunner.OutOfOrder() }
        if ms < latest {
            reordered = true
            push((ms, sequence, fix))
        } else {
            latest = ms
            queue.append((ms, sequence, fix))
        }
        sequence += 1
        while let top = earliest(), waiting > capacity || top < latest - window { try next(.fix(pop().fix)) }
    }

    /// Lets every waiting fix go on, in time order.
    mutating func flush(_ next: (StreamItem) throws -> Void) throws {
        while waiting > 0 { try next(.fix(pop().fix)) }
    }

    /// The time of the fix that goes on next, if any waits.
    private func earliest() -> Int64? {
        switch (head < queue.count ? queue[head].ms : nil, heap.first?.ms) {
        case (let a?, let b?): Swift.min(a, b)
        case (let a?, nil): a
        case (nil, let b): b
        }
    }

    private static func earlier(_ a: Entry, _ b: Entry) -> Bool { (a.ms, a.seq) < (b.ms, b.seq) }

    /// The earliest waiting fix (of the queue's oldest and the heap's top), taken.
    private mutating func pop() -> Entry {
        if head < queue.count, heap.isEmpty || Self.earlier(queue[head], heap[0]) {
            let e = queue[head]
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head >= 4096 && head * 2 >= queue.count {
                queue.removeFirst(head)
                head = 0
            }
            released = e.ms
            return e
        }
        return popHeap()
    }

    private mutating func push(_ e: Entry) {
        heap.append(e)
        var i = heap.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.earlier(heap[i], heap[parent]) else { break }
            heap.swapAt(i, parent)
            i = parent
        }
    }

    private mutating func popHeap() -> Entry {
        let top = heap[0]
        let last = heap.removeLast()
        if !heap.isEmpty {
            heap[0] = last
            var i = 0
            while true {
                let (l, r) = (2 * i + 1, 2 * i + 2)
                var m = i
                if l < heap.count, Self.earlier(heap[l], heap[m]) { m = l }
                if r < heap.count, Self.earlier(heap[r], heap[m]) { m = r }
                if m == i { break }
                heap.swapAt(i, m)
                i = m
            }
        }
        released = top.ms
        return top
    }
}
