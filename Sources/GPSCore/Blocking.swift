import Foundation

/// Work that blocks runs on threads made here and nowhere else (but for the decoder's pool): it
/// must not hold one of Swift's few cooperative threads (two on this machine) while it waits.
/// This is the one offload helper of the shipped code:
///
/// - ``run(_:)`` gives a blocking call's result to an awaiting task from one of a few threads
///   kept for that (a unit of work on a synchronous store, a password check, a file read or
///   written, a tile fetched): what a server request or a service's async boundary hands off.
/// - ``start(_:_:)`` starts a long-lived thread of its own (a serial port or a log read while the
///   rules run, an import's write transaction, a file's digest, a socket or a child process).
///
/// A store's async units (`store.read { }`, `store.write { }`) run on SQLite's own threads (GRDB's
/// queues), on PostgreSQL through ``run(_:)``.
public enum Blocking {
    /// Starts `body` on a new thread named `name`, which ends when `body` returns.
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Runs `body` on one of the kept threads and gives its result to the awaiting task. At most
    /// ``Workers/limit`` bodies run at once; more wait their turn in order.
    public static func run<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            workers.submit { continuation.resume(returning: Result(catching: body)) }
        }
        return try result.get()
    }

    static let workers = Workers()

    /// The threads of ``run(_:)``: made as work comes, up to ``limit``, each then waiting for the
    /// next body (a thread made per call costs its creation and lets a burst make hundreds).
    final class Workers: Sendable {
        /// As many as a server's requests need to wait on the store and bcrypt at once.
        static let limit = 16

        private struct State: Sendable {
            var jobs: [@Sendable () -> Void] = []
            var next = 0
            var idle = 0
            var threads = 0
        }

        private let state = Guarded(State())

        func submit(_ job: @escaping @Sendable () -> Void) {
            let grow = state.withLock { s -> Bool in
                s.jobs.append(job)
                guard s.jobs.count - s.next > s.idle, s.threads < Self.limit else { return false }
                s.threads += 1
                return true
            }
            if grow { Blocking.start("trailbook worker") { self.serve() } }
        }

        /// Runs the bodies handed in, oldest first, for as long as the process lives.
        private func serve() {
            while true {
                state.withLock { $0.idle += 1 }
                let job = state.wait(until: { $0.next < $0.jobs.count }) { s -> @Sendable () -> Void in
                    let job = s.jobs[s.next]
                    s.next += 1
                    if s.next == s.jobs.count { (s.jobs, s.next) = ([], 0) }
                    s.idle -= 1
                    return job
                }
                job()
            }
        }
    }
}

/// State that threads hand each other and wait on: a batch of fixes between a log's reader and
/// the rules, an import's batches between the rules and its write transaction, a digest.
///
/// The one lock-and-condition type of the shipped code besides the decoder's pool. It is sound
/// to share because `state` is reachable only inside ``withLock(_:)`` and
/// ``wait(until:then:)`` (and ``peek(_:)``, which cannot change it), which hold the condition's
/// lock for the whole of their body; every body that may change it wakes the waiters when it
/// returns, so a waiter sees each change.
public final class Guarded<State: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var state: State

    public init(_ state: State) { self.state = state }

    /// Runs `body` on the state, then wakes whoever waits for a change.
    public func withLock<T>(_ body: (inout State) throws -> T) rethrows -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&state)
    }

    /// Reads the state without changing it, so without waking anyone: a check made often (whether
    /// the taker stopped, once a line) must not wake a waiting thread each time.
    public func peek<T>(_ body: (State) throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body(state)
    }

    /// Waits until `ready` holds for the state, then runs `body` on it (and wakes the others).
    public func wait<T>(until ready: (State) -> Bool, then body: (inout State) throws -> T) rethrows -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while !ready(state) { condition.wait() }
        return try body(&state)
    }
}
