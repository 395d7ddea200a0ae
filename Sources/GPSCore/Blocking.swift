import Foundation

/// Work that blocks (a serial port or a log read while the rules run, an import's write
/// transaction, a file's digest, a socket or a child process) runs on a thread of its own, made
/// here and nowhere else: it must not hold one of Swift's few cooperative threads (two on this
/// machine) while it waits. A store's units of work and password checks go through the
/// engines' own pools instead (GRDB's writer queue, NIO's thread pool).
public enum Blocking {
    /// Starts `body` on a new thread named `name`, which ends when `body` returns.
    public static func start(_ name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Runs `body` on a new thread and gives its result to the awaiting task.
    public static func run<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            start("trailbook blocking") { continuation.resume(returning: Result(catching: body)) }
        }
        return try result.get()
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
