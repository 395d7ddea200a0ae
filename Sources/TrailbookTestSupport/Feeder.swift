import Foundation
import GPSCore

/// Writes epochs into a pseudo-terminal at a steady rate on a background thread, like a
/// receiver sending NMEA.
public final class Feeder: Sendable {
    private struct State: Sendable {
        var stopped = false
        var sent = 0
        var done = false
    }

    private let state = Guarded(State())

    /// Starts sending `epochs` into `terminal`, `rate` epochs per second.
    public init(_ terminal: PseudoTerminal, epochs: [[UInt8]], rate: Double) {
        let state = state
        Blocking.start("feeder") {
            for epoch in epochs {
                if state.peek(\.stopped) || !terminal.send(epoch) { break }
                state.withLock { $0.sent += 1 }
                Thread.sleep(forTimeInterval: 1 / rate)
            }
            state.withLock { $0.done = true }
        }
    }

    /// Epochs written so far.
    public var sent: Int { state.peek(\.sent) }

    /// Asks the thread to stop after the current epoch.
    public func stop() { state.withLock { $0.stopped = true } }

    /// Waits until every epoch was sent (or the feeder stopped).
    public func wait() { state.wait(until: \.done) { _ in } }
}
