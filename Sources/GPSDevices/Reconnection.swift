import GPSCore

/// The waiting between reconnection attempts that both live sources share: a backoff from
/// 0.5 s doubling to a cap, and one log line per outage rather than one per attempt.
struct Reconnection {
    static let firstDelay = 0.5
    let maximumDelay: Double
    private var delay = Reconnection.firstDelay
    private var announced = false

    init(maximumDelay: Double) { self.maximumDelay = maximumDelay }

    /// An attempt failed: say so once per outage (`announce`), then wait before the next one.
    mutating func failed(announce: () -> Void, shouldStop: () -> Bool) {
        if !announced {
            announce()
            announced = true
        }
        Posix.sleep(delay, shouldStop: shouldStop)
        delay = Swift.min(delay * 2, maximumDelay)
    }

    /// The outage was already reported another way (a disconnect warning).
    mutating func markAnnounced() { announced = true }

    /// Connected again: the next outage starts from the first delay and is announced anew.
    mutating func succeeded() {
        delay = Reconnection.firstDelay
        announced = false
    }
}
