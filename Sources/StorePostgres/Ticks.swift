import NIOCore
import Synchronization

/// The store's clock for the probes of leases that wait: one timer on the event loop, a tick
/// every 250 ms, wakes the probes waiting for their tick. A timer of each lease's own cost the
/// loop two wake-ups a unit of work (set, then cancelled when the lease came at once). Not
/// `Task.sleep` either: its wake-up needs a cooperative thread, which synchronous callers may all
/// be holding.
final class Ticks: Sendable {
    private struct State {
        var now = 0
        var nextID = 0
        var parked: [Int: (due: Int, waiter: CheckedContinuation<Void, any Error>)] = [:]
        /// Waits cancelled before they were parked.
        var cancelled: Set<Int> = []
        var timer: RepeatedTask?
    }
    private let state = Mutex(State())

    init(on loop: any EventLoop) {
        let timer = loop.scheduleRepeatedTask(initialDelay: .milliseconds(250), delay: .milliseconds(250)) {
            [weak self] _ in self?.tick()
        }
        state.withLock { $0.timer = timer }
    }

    deinit { state.withLock { $0.timer }?.cancel() }

    /// Waits until `count` ticks have passed (the first may come at once), or until the task is
    /// cancelled.
    func wait(_ count: Int) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        // A cancellation that came once the wait was over marked it for nothing.
        defer { state.withLock { _ = $0.cancelled.remove(id) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (waiter: CheckedContinuation<Void, any Error>) in
                let cancelled = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return true }
                    state.parked[id] = (state.now + count, waiter)
                    return false
                }
                if cancelled { waiter.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let parked = state.withLock { state in
                let parked = state.parked.removeValue(forKey: id)
                if parked == nil { state.cancelled.insert(id) }
                return parked
            }
            parked?.waiter.resume(throwing: CancellationError())
        }
    }

    private func tick() {
        let due = state.withLock { state in
            state.now += 1
            let due = state.parked.filter { $0.value.due <= state.now }
            for id in due.keys { state.parked[id] = nil }
            return due.values.map(\.waiter)
        }
        for waiter in due { waiter.resume() }
    }

    func stop() {
        let (timer, parked) = state.withLock { state in
            defer { state.parked = [:] }
            return (state.timer, state.parked.values.map(\.waiter))
        }
        timer?.cancel()
        for waiter in parked { waiter.resume(throwing: CancellationError()) }
    }
}
