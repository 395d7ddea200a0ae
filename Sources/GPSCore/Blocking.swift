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
/// queues); on PostgreSQL a unit's task prefers ``units``, so that its synchronous body, which
/// waits on each reply (``settle(_:)``), runs on one of those threads.
///
/// - ``units`` is a task executor whose threads are made as its jobs need them (a task that
///   prefers it runs its synchronous parts there, never on a cooperative thread).
/// - ``wait(_:)`` blocks the calling thread until an async operation (run preferring ``units``)
///   has ended: a synchronous caller's way to async work.
/// - ``settle(_:)`` blocks the calling thread until a callback gives a result: a statement's
///   reply.
public enum Blocking {
    /// Starts `body` on a new thread named `name`, which ends when `body` returns. The thread
    /// sees the starting task's console (``Console/current``).
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let console = Console.current
        thread(name) { Console.$current.withValue(console) { body() } }
    }

    /// A new thread running `body`, with nothing bound: the offload helper's own threads, which
    /// run tasks' jobs (a task sees its own task-local values, never a thread's).
    private static func thread(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Runs `body` on one of the kept threads and gives its result to the awaiting task. At most
    /// 16 bodies run at once; more wait their turn in order. The body sees the process's console:
    /// a body that reads or writes the command's streams binds ``Console/current`` itself.
    public static func run<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            workers.submit { continuation.resume(returning: Result(catching: body)) }
        }
        return try result.get()
    }

    static let workers = Workers(limit: 16)

    /// Runs the jobs of tasks that prefer it on threads of its own, made as jobs wait with no
    /// thread idle and then kept: a job there may block (a PostgreSQL unit's body waits on each
    /// reply, a synchronous caller may wait on a task), so the threads are not bounded. What
    /// bounds them is the work: units wait for one of the store's connections before their
    /// bodies run.
    public static let units: any TaskExecutor = Units()

    private final class Units: TaskExecutor {
        let workers = Workers(limit: .max)

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedTaskExecutor()
            workers.submit { job.runSynchronously(on: executor) }
        }
    }

    /// Runs `operation` in a task that prefers ``units`` and blocks the calling thread until it
    /// has ended: a synchronous caller (a command, a synchronous store unit) waits on async work
    /// without needing a cooperative thread, which it may be holding.
    public static func wait<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) throws
        -> Value
    {
        try settle { done in
            Task(executorPreference: units) {
                do { done(.success(try await operation())) } catch { done(.failure(error)) }
            }
        }
    }

    /// Blocks the calling thread until `start`'s callback has given the result: what a
    /// synchronous body waits on (a statement's reply, a task's end).
    public static func settle<Value: Sendable>(
        _ start: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void
    ) throws -> Value {
        let outcome = Guarded<Result<Value, any Error>?>(nil)
        start { result in outcome.withLock { if $0 == nil { $0 = result } } }
        return try outcome.wait(until: { $0 != nil }) { $0! }.get()
    }

    /// The threads of ``run(_:)`` (up to 16: as many as a server's requests need to wait on the
    /// store and bcrypt at once) and of ``units``: made as work comes, up to `limit`, each then
    /// waiting for the next body (a thread made per call costs its creation and lets a burst make
    /// hundreds).
    ///
    /// A job wakes one waiting thread (a condition's signal), not all of them: as the executor
    /// of PostgreSQL's units it takes every hop of their tasks, and waking every idle thread for
    /// each cost the server half of its CPU in lock hand-offs (`perf record` under
    /// `serve-load.py --saturate`, docs/BENCHMARKS.md). Its own condition, not a `Guarded`: a
    /// worker counts itself idle and waits under one lock; on `Guarded` (with a way to wake one)
    /// that took a second lock a job and the server 11 % of its PostgreSQL points/s. Its threads
    /// are kept for the process's life: a timed wait that ended a thread idle for 30 s (beyond
    /// two kept) cost 10 % of PostgreSQL's points/s and more of SQLite's (docs/BENCHMARKS.md,
    /// "SQLite group commit").
    final class Workers: @unchecked Sendable {
        let limit: Int
        // All below only under `condition`'s lock.
        private let condition = NSCondition()
        private var jobs: [@Sendable () -> Void] = []
        private var next = 0
        private var idle = 0
        private var threads = 0

        init(limit: Int) { self.limit = limit }

        func submit(_ job: @escaping @Sendable () -> Void) {
            condition.lock()
            jobs.append(job)
            let grow = jobs.count - next > idle && threads < limit
            if grow { threads += 1 }
            if idle > 0 { condition.signal() }
            condition.unlock()
            if grow { Blocking.thread("trailbook worker") { self.serve() } }
        }

        /// Runs the bodies handed in, oldest first, for as long as the process lives.
        private func serve() {
            condition.lock()
            while true {
                while next == jobs.count {
                    idle += 1
                    condition.wait()
                    idle -= 1
                }
                let job = jobs[next]
                next += 1
                if next == jobs.count {
                    jobs.removeAll(keepingCapacity: true)
                    next = 0
                } else if next >= 1024, next * 2 >= jobs.count {
                    // A queue that never empties (a saturated server) does not keep what it ran.
                    jobs.removeFirst(next)
                    next = 0
                }
                condition.unlock()
                job()
                condition.lock()
            }
        }
    }
}

/// State that threads hand each other and wait on: a batch of fixes between a log's reader and
/// the rules, an import's batches between the rules and its write transaction, a digest.
///
/// The one lock-and-condition type of the shipped code besides the decoder's pool and the
/// offload helper's workers (which wake one thread a job). It is sound
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
