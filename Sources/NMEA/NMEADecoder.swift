import GPSCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes in, dated fixes out: framer, sentence parser, fix assembler and date resolver
/// in one streaming unit. Feed chunks of any size; the output does not depend on them.
///
/// With `workers`, framing and checking run on that many threads of their own, a block of
/// input at a time (``CheckingPool``), while the caller's thread admits the sentences in order,
/// assembles the epochs and receives the fixes: the same fixes and counts as on one thread,
/// but each fix only once its block has been checked, so this is for files, not live sources.
public final class NMEADecoder {
    private var framer = NMEAFramer()
    private let parser = SentenceParser()
    private var assembler = FixAssembler()
    private var resolver: DateResolver
    private var counts = DecodeStatistics()

    private let pool: CheckingPool?
    /// Checks blocks on the caller's thread while it would otherwise wait (``CheckingPool/help(until:_:)``).
    private let helper = SentenceParser()
    private let blockSize: Int
    /// The block being filled, then those handed to the pool, oldest first.
    private var filling: CheckingPool.Block?
    private var submitted: [CheckingPool.Block] = []
    private var spare: [CheckingPool.Block] = []
    /// Bytes skipped by the framers of blocks already admitted.
    private var blockSkippedBytes = 0
    /// A block grew past ``longestBlock`` without a line end: until the next one, the input goes
    /// through this thread's framer (blocks start only after a line end).
    private var untilLineEnd = false

    /// Blocks handed to the pool and not yet admitted, at most (memory stays bounded).
    static let blocksInFlight = 6
    /// Bytes a block without a line end may grow to before the input goes through the caller's
    /// framer instead (memory stays bounded on a file that is one long line).
    private var longestBlock: Int { max(2 * blockSize, 1 << 20) }

    /// - Parameters:
    ///   - fallbackDate: the UTC date of the first epoch, used only when the log never carries
    ///     a date of its own.
    ///   - holdLimit: how many fixes may wait for the stream's first date before the fallback
    ///     date is used: unlimited for files (back-fill), a few for live sources.
    ///   - workers: threads that frame and check blocks of input; 0 decodes on the caller's
    ///     thread alone.
    ///   - blockSize: bytes of input per block for the workers (a block grows to the next line end).
    public init(fallbackDate: CivilDate? = nil, holdLimit: Int = .max, workers: Int = 0, blockSize: Int = 1 << 17) {
        precondition(blockSize > 0, "blockSize must be positive")
        resolver = DateResolver(fallbackDate: fallbackDate, holdLimit: holdLimit)
        self.blockSize = blockSize
        if workers > 0 {
            let pool = CheckingPool(workers: workers)
            self.pool = pool.isRunning ? pool : nil
        } else {
            pool = nil
        }
    }

    deinit { pool?.stop() }

    /// Whether worker threads check the input (then a large chunk is best given whole).
    public var isParallel: Bool { pool != nil }

    /// Threads worth giving ``init(fallbackDate:holdLimit:workers:blockSize:)`` for a file of
    /// `size` bytes: one per core but the caller's (which checks blocks too while it would wait)
    /// when the machine has several and the file is large enough (`threshold` bytes) to repay
    /// starting them, else 0.
    public static func workers(forFileOf size: Int, threshold: Int = 4 << 20) -> Int {
        let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        guard size >= threshold, cores > 1 else { return 0 }
        if let forced = getenv("TRAILBOOK_DECODE_WORKERS").flatMap({ Int(atoi($0)) }), forced >= 0 { return forced }
        return min(Int(cores) - 1, 7)
    }

    /// Counts so far.
    public var statistics: DecodeStatistics {
        var s = counts
        s.skippedBytes = framer.skippedBytes + blockSkippedBytes
        return s
    }

    /// Decodes `chunk`; `emit` receives each completed, dated fix in order.
    ///
    /// With workers, a chunk of several blocks (a whole mapped file, say) is checked in place
    /// rather than copied; the call then returns once all of it has been admitted.
    public func feed(_ chunk: UnsafeRawBufferPointer, _ emit: (Fix) throws -> Void) rethrows {
        guard let pool else {
            return try framer.feed(chunk) { candidate in try handle(candidate, emit) }
        }
        var offset = 0
        if chunk.count >= 2 * blockSize && !untilLineEnd {
            offset = try feedInPlace(chunk, pool, emit)
        }
        while offset < chunk.count {
            if untilLineEnd {
                // A stretch without line ends, on this thread up to and including the next one.
                var end = offset
                while end < chunk.count && !ASCII.isLineEnd(chunk[end]) { end += 1 }
                if end < chunk.count {
                    end += 1
                    untilLineEnd = false
                }
                try framer.feed(UnsafeRawBufferPointer(rebasing: chunk[offset..<end])) { try handle($0, emit) }
                offset = end
                continue
            }
            let block = filling ?? newBlock(capacity: blockSize)
            filling = block
            let n = min(chunk.count - offset, block.bytes.count - block.count)
            UnsafeMutableRawPointer(block.bytes.baseAddress! + block.count)
                .copyMemory(from: chunk.baseAddress! + offset, byteCount: n)
            block.count += n
            offset += n
            if block.count == block.bytes.count { try cut(block, pool, emit) }
        }
        try admitChecked(pool, waiting: false, emit)
    }

    /// Reports the open epoch now instead of when the next one starts: a live source calls this
    /// when the receiver has been quiet for a while, so the last fix is not held back.
    public func flushOpenEpoch(_ emit: (Fix) throws -> Void) rethrows {
        if let open = assembler.finish() { try deliver(open, emit) }
    }

    /// Ends the stream: flushes the open epoch and any fixes waiting for a date.
    public func finish(_ emit: (Fix) throws -> Void) rethrows {
        if let pool {
            let last = filling ?? newBlock(capacity: 1)
            filling = nil
            last.isLast = true
            try submit(last, pool, emit)
            try admitChecked(pool, waiting: true, emit)
        }
        try framer.finish { candidate in try handle(candidate, emit) }
        if let last = assembler.finish() { try deliver(last, emit) }
        if let dated = assembler.takeDate() {
            try resolver.observe(dated.date, at: dated.timeOfDay) { try count($0, emit) }
        }
        try resolver.finish { try count($0, emit) }
    }

    /// Checks the whole lines of `chunk` in place, in blocks of about ``blockSize`` that end after
    /// a line end (the first one completes the line the filling block holds), and admits them
    /// all; returns where the bytes after the last line end begin (to be copied as usual).
    private func feedInPlace(_ chunk: UnsafeRawBufferPointer, _ pool: CheckingPool, _ emit: (Fix) throws -> Void)
        rethrows -> Int
    {
        // When `emit` throws half-way, the workers must be done with the chunk before it goes.
        var admitted = false
        defer {
            if !admitted {
                for block in submitted { pool.wait(for: block) }
                submitted.removeAll()
            }
        }
        var start = 0
        if let open = filling, open.count > 0 {
            // Complete the open block's last line from the chunk, copying only that much.
            var end = 0
            while end < chunk.count && !ASCII.isLineEnd(chunk[end]) { end += 1 }
            guard end < chunk.count else {
                admitted = true  // nothing borrowed
                return 0
            }
            let line = end + 1
            let block = newBlock(capacity: open.count + line)
            UnsafeMutableRawPointer(block.bytes.baseAddress!).copyMemory(
                from: open.bytes.baseAddress!, byteCount: open.count)
            UnsafeMutableRawPointer(block.bytes.baseAddress! + open.count).copyMemory(
                from: chunk.baseAddress!, byteCount: line)
            block.count = open.count + line
            open.count = 0
            if open.bytes.count == blockSize { spare.append(open) }
            filling = nil
            try submit(block, pool, emit)
            start = line
        }
        while chunk.count - start > blockSize {
            var end = start + blockSize
            while end < chunk.count && !ASCII.isLineEnd(chunk[end - 1]) { end += 1 }
            guard ASCII.isLineEnd(chunk[end - 1]) else { break }
            // A spare block's arrays keep their capacity: no fresh pages for every block.
            let block = newBlock(capacity: blockSize)
            block.borrowed = UnsafeRawBufferPointer(rebasing: chunk[start..<end])
            try submit(block, pool, emit)
            start = end
        }
        // Blocks that borrow the chunk are done before it goes.
        try admitChecked(pool, waiting: true, emit)
        admitted = true
        return start
    }

    /// A full block: what follows its last line end moves to a new block, and the rest goes to
    /// the pool. A block without a line end grows instead.
    private func cut(_ block: CheckingPool.Block, _ pool: CheckingPool, _ emit: (Fix) throws -> Void) rethrows {
        let bytes = block.bytes
        var end = block.count
        while end > 0 && !ASCII.isLineEnd(bytes[end - 1]) { end -= 1 }
        let rest = block.count - end
        let next = newBlock(capacity: end == 0 ? block.bytes.count * 2 : max(blockSize, rest + 1))
        next.count = rest
        UnsafeMutableRawPointer(next.bytes.baseAddress!).copyMemory(from: bytes.baseAddress! + end, byteCount: rest)
        filling = next
        if end == 0 {
            // Its bytes moved whole to the larger block.
            if block.bytes.count == blockSize { spare.append(block) }
            if next.bytes.count > longestBlock {
                // Too long without a line end: what came before is admitted, then this thread
                // frames the rest of the line (its framer is at the start of a line, as a block's).
                try admitChecked(pool, waiting: true, emit)
                filling = nil
                untilLineEnd = true
                try framer.feed(UnsafeRawBufferPointer(rebasing: next.bytes[0..<next.count])) { try handle($0, emit) }
            }
            return
        }
        block.count = end
        try submit(block, pool, emit)
    }

    /// Hands `block` to the pool, first admitting the oldest while too many are in flight.
    private func submit(_ block: CheckingPool.Block, _ pool: CheckingPool, _ emit: (Fix) throws -> Void) rethrows {
        while submitted.count >= Self.blocksInFlight { try admitOldest(pool, emit) }
        block.done = false
        submitted.append(block)
        pool.submit(block)
    }

    /// Admits checked blocks in order: those already checked, or (`waiting`) all of them.
    private func admitChecked(_ pool: CheckingPool, waiting: Bool, _ emit: (Fix) throws -> Void) rethrows {
        while let oldest = submitted.first, waiting || pool.isDone(oldest) { try admitOldest(pool, emit) }
    }

    /// Waits for the oldest block in flight and admits its candidates in order.
    private func admitOldest(_ pool: CheckingPool, _ emit: (Fix) throws -> Void) rethrows {
        let block = submitted.removeFirst()
        pool.help(until: block, helper)
        var next = 0
        for checked in block.checked {
            counts.sentences += 1
            if case .unchecked = checked {
                let bytes = block.unchecked[next]
                next += 1
                try bytes.withUnsafeBufferPointer { candidate in
                    try parser.admit(checked, candidate) { try take($0, emit) }
                }
            } else {
                try parser.admit(checked, UnsafeBufferPointer(start: nil, count: 0)) { try take($0, emit) }
            }
        }
        blockSkippedBytes += block.skippedBytes
        block.checked.removeAll(keepingCapacity: true)
        block.unchecked = []
        if block.bytes.count == blockSize { spare.append(block) }
    }

    /// An empty block: a spare one when it has the capacity (its arrays keep theirs), else a new one.
    private func newBlock(capacity: Int) -> CheckingPool.Block {
        guard capacity == blockSize, let reused = spare.popLast() else { return CheckingPool.Block(capacity: capacity) }
        reused.count = 0
        reused.isLast = false
        reused.borrowed = nil
        return reused
    }

    private func handle(_ candidate: UnsafeBufferPointer<UInt8>, _ emit: (Fix) throws -> Void) rethrows {
        counts.sentences += 1
        try parser.admit(parser.check(candidate), candidate) { try take($0, emit) }
    }

    /// Counts one candidate's outcome and passes a decoded sentence to the assembler.
    @inline(__always)
    private func take(_ outcome: SentenceParser.RecordOutcome, _ emit: (Fix) throws -> Void) rethrows {
        switch outcome {
        case .held:
            break
        case .decoded(let record):
            counts.decoded += 1
            try assembler.add(record) { try deliver($0, emit) }
            if let dated = assembler.takeDate() {
                try resolver.observe(dated.date, at: dated.timeOfDay) { try count($0, emit) }
            }
        case .rejected(let error):
            switch error {
            case .badChecksum: counts.badChecksum += 1
            case .missingChecksum: counts.missingChecksum += 1
            case .unsupported:
                counts.unknown += 1
                counts.unsupported += 1
            case .badAddress: counts.unknown += 1
            case .tooFewFields, .badField: counts.malformed += 1
            }
        }
    }

    private func deliver(_ fix: Fix, _ emit: (Fix) throws -> Void) rethrows {
        try resolver.push(fix) { try count($0, emit) }
    }

    private func count(_ fix: Fix, _ emit: (Fix) throws -> Void) rethrows {
        counts.epochs += 1
        if fix.hasPosition { counts.fixes += 1 }
        try emit(fix)
    }
}
