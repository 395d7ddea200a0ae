import Foundation
import Logging
import Synchronization
import TrackModel
import Visits

/// The kept timeline made again soon after a phone's batch (docs/TIMELINE.md): the server tells
/// it which account's points of which time came (``touched(account:from:to:)``); ``run()`` waits
/// `delay` for the batches that follow (a phone's backlog comes in several), then makes the
/// entries of that time again (``TimelineKeeper/redo(store:account:from:to:rules:)``), one
/// account after the other.
public final class TimelineUpkeep: Sendable {
    let store: any TrackStoring
    let rules: VisitRules
    let delay: Duration
    let logger: Logger
    /// The time touched per account since the last round.
    private let pending = Mutex<[String: (from: Int64, to: Int64)]>([:])
    private let wake: AsyncStream<Void>.Continuation
    private let woken: AsyncStream<Void>
    /// Rounds done (for the tests).
    public let rounds = Atomic<Int>(0)

    public init(store: any TrackStoring, rules: VisitRules, delay: Duration = .seconds(1), logger: Logger) {
        (self.store, self.rules, self.delay, self.logger) = (store, rules, delay, logger)
        (woken, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Points of `account` in `[from, to)` were stored.
    public func touched(account: String, from: Int64, to: Int64) {
        pending.withLock { pending in
            let was = pending[account]
            pending[account] = (min(from, was?.from ?? from), max(to, was?.to ?? to))
        }
        wake.yield()
    }

    /// Makes what was touched again until cancelled; a failure is logged and the time stays
    /// pending for the next round.
    public func run() async {
        for await _ in woken {
            try? await Task.sleep(for: delay)
            if Task.isCancelled { return }
            let due = pending.withLock { pending in
                defer { pending = [:] }
                return pending
            }
            for (account, span) in due.sorted(by: { $0.key < $1.key }) {
                do {
                    try await TimelineKeeper.redo(
                        store: store, account: account, from: span.from, to: span.to, rules: rules)
                } catch {
                    logger.debug("the kept timeline of \(account) waits: \(error)")
                    touched(account: account, from: span.from, to: span.to)
                }
            }
            rounds.add(1, ordering: .relaxed)
        }
    }
}
