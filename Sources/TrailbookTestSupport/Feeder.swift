import Foundation

/// Writes epochs into a pseudo-terminal at a steady rate on a background thread, like a
/// receiver sending NMEA.
public final class Feeder: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var stopped = false
    private var sentCount = 0

    /// Starts sending `epochs` into `terminal`, `rate` epochs per second.
    public init(_ terminal: PseudoTerminal, epochs: [[UInt8]], rate: Double) {
        let thread = Thread { [self] in
            for epoch in epochs {
                if isStopped || !terminal.send(epoch) { break }
                lock.withLock { sentCount += 1 }
                Thread.sleep(forTimeInterval: 1 / rate)
            }
            done.signal()
        }
        thread.start()
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Epochs written so far.
    public var sent: Int { lock.withLock { sentCount } }

    /// Asks the thread to stop after the current epoch.
    public func stop() { lock.withLock { stopped = true } }

    /// Waits until every epoch was sent (or the feeder stopped).
    public func wait() { done.wait() }
}
