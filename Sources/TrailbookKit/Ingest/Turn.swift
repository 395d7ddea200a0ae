import Synchronization

/// One body at a time, in the order they asked: the others await their turn (no thread waits,
/// no lock is held while a body runs).
final class Turn: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    /// Runs `body` once the bodies before it are done.
    func run<T>(_ body: () async throws -> T) async rethrows -> T {
        await withCheckedContinuation { (turn: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.busy {
                    state.waiting.append(turn)
                    return false
                }
                state.busy = true
                return true
            }
            if now { turn.resume() }
        }
        defer {
            let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
                if state.waiting.isEmpty {
                    state.busy = false
                    return nil
                }
                return state.waiting.removeFirst()
            }
            next?.resume()
        }
        return try await body()
    }
}
