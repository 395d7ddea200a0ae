#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The first stage of a two-stage decode: framing, checksums and sentence decoding of whole
/// blocks of input on worker threads, while the caller's thread admits the checked sentences in
/// order and assembles epochs (``NMEADecoder``).
///
/// A block always ends right after a CR or LF byte. After a line end the framer is idle at the
/// start of a line whatever came before, so a fresh framer per block finds exactly the
/// candidates one framer over the whole stream finds, and its byte counts add up. Checking a
/// candidate uses nothing of the stream either (``SentenceParser/check(_:)``); the checksum
/// policy, which does, is applied later, in order. The output is therefore the same as one
/// thread's, row for row.
///
/// Shared by the workers through `pthread_create`, which the compiler cannot check; it is sound
/// because `waiting`, `stopping` and every block's `done` are touched only with `mutex` held, and
/// a block's other fields only by the one thread that holds it: the submitter until it is
/// waiting, the checker until it is done, the submitter again once ``wait(for:)`` saw it done.
final class CheckingPool: @unchecked Sendable {
    /// Input bytes of one block, and what its candidates checked to.
    final class Block {
        /// The block's own storage (it is filled by copying input into it).
        let bytes: UnsafeMutableRawBufferPointer
        var count = 0
        /// Input checked in place instead of ``bytes`` (the caller keeps it alive until the block
        /// has been admitted).
        var borrowed: UnsafeRawBufferPointer?
        /// The last block of the stream: its framer is finished (a last line without a line end).
        var isLast = false
        /// One entry per candidate, in order.
        var checked: [SentenceParser.Checked] = []
        /// The bytes of each ``SentenceParser/Checked/unchecked`` candidate, in order.
        var unchecked: [[UInt8]] = []
        /// The block framer's ``NMEAFramer/skippedBytes``.
        var skippedBytes = 0
        var done = false

        init(capacity: Int) {
            bytes = .allocate(byteCount: capacity, alignment: 16)
        }

        deinit { bytes.deallocate() }
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var waiting: [Block] = []
    private var threads: [pthread_t] = []
    private var stopping = false

    /// Starts `workers` threads.
    init(workers: Int) {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
        for _ in 0..<workers {
            var thread = pthread_t()
            let context = Unmanaged.passRetained(self).toOpaque()
            let made = pthread_create(
                &thread, nil,
                { context in
                    let pool = Unmanaged<CheckingPool>.fromOpaque(context!).takeRetainedValue()
                    pool.work()
                    return nil
                }, context)
            if made == 0 {
                threads.append(thread)
            } else {
                Unmanaged<CheckingPool>.fromOpaque(context).release()
            }
        }
    }

    /// Whether any worker started (when none could, the caller decodes on its own thread).
    var isRunning: Bool { !threads.isEmpty }

    /// Stops the workers once they have finished the block at hand, and waits for them.
    func stop() {
        pthread_mutex_lock(mutex)
        stopping = true
        waiting.removeAll()
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
        for t in threads { pthread_join(t, nil) }
        threads = []
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Hands `block` to the next free worker.
    func submit(_ block: Block) {
        pthread_mutex_lock(mutex)
        waiting.append(block)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Whether `block` has been checked (without waiting).
    func isDone(_ block: Block) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return block.done
    }

    /// Waits until `block` has been checked.
    func wait(for block: Block) {
        pthread_mutex_lock(mutex)
        while !block.done { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    /// Waits until `block` has been checked, meanwhile checking blocks no worker has taken yet
    /// with `parser` (the caller's thread works instead of idling: with one worker fewer than
    /// cores, every core stays busy).
    func help(until block: Block, _ parser: SentenceParser) {
        pthread_mutex_lock(mutex)
        while !block.done {
            if !waiting.isEmpty {
                checkNextWaiting(parser)
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
        pthread_mutex_unlock(mutex)
    }

    private func work() {
        let parser = SentenceParser()
        while true {
            pthread_mutex_lock(mutex)
            while waiting.isEmpty && !stopping { pthread_cond_wait(condition, mutex) }
            if stopping {
                pthread_mutex_unlock(mutex)
                return
            }
            checkNextWaiting(parser)
            pthread_mutex_unlock(mutex)
        }
    }

    /// Takes the first waiting block and checks it, the mutex (held on entry and on return)
    /// released meanwhile; then marks it done and wakes whoever waits for it.
    private func checkNextWaiting(_ parser: SentenceParser) {
        let block = waiting.removeFirst()
        pthread_mutex_unlock(mutex)
        Self.check(block, parser)
        pthread_mutex_lock(mutex)
        block.done = true
        pthread_cond_broadcast(condition)
    }

    /// Frames and checks every candidate of `block`.
    static func check(_ block: Block, _ parser: SentenceParser) {
        var framer = NMEAFramer()
        var checked: [SentenceParser.Checked] = []
        swap(&checked, &block.checked)
        checked.removeAll(keepingCapacity: true)
        checked.reserveCapacity(block.count / 48)
        var unchecked: [[UInt8]] = []
        func take(_ candidate: UnsafeBufferPointer<UInt8>) {
            let c = parser.check(candidate)
            if case .unchecked = c { unchecked.append(Array(candidate)) }
            checked.append(c)
        }
        let input = block.borrowed ?? UnsafeRawBufferPointer(rebasing: block.bytes[0..<block.count])
        framer.feed(input, take)
        if block.isLast { framer.finish(take) }
        block.checked = checked
        block.unchecked = unchecked
        block.skippedBytes = framer.skippedBytes
    }
}
