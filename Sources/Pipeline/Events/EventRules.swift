import Foundation

/// The thresholds of the event detector (`[events]` in the config), with their units.
public struct EventRules: Equatable, Sendable {
    /// A device that stays within ``stopRadius`` (or twice its fixes' accuracy, if larger) this
    /// long has stopped, seconds.
    public var stopAfter: Double = 120
    /// How far fixes may wander around a stop, metres (at least; grows with the accuracy).
    public var stopRadius: Double = 30
    /// Fixes past the stop's radius plus the hysteresis for this long (two fixes at least) mean
    /// the device moves again, seconds.
    public var moveAfter: Double = 20
    /// The margin past a place's edge (or a stop's radius) a fix must reach to count as
    /// outside, metres (at least; twice the fix's accuracy when that is larger).
    public var hysteresis: Double = 30
    /// Fixes outside a place (past the hysteresis) for this long (two fixes at least) mean the
    /// device left it, seconds.
    public var departAfter: Double = 30
    /// Inside a place this long without stopping (a slow walk round a campus) also counts as
    /// arriving, seconds.
    public var arriveAfter: Double = 300
    /// No position for this long while the receiver keeps reporting means the fix is lost,
    /// seconds.
    public var fixLostAfter: Double = 30
    /// The error of a fix that reports only HDOP is HDOP times this, metres (a receiver's
    /// typical user range error).
    public var rangeError: Double = 5
    /// The accuracy of a fix that reports neither an error estimate nor HDOP, metres.
    public var unknownAccuracy: Double = 10
    /// A phone's battery below this has `battery.low`, percent (again after it rose 5 above).
    public var batteryLow: Double = 20
    /// A phone silent this long is `device.offline` (server), seconds.
    public var offlineAfter: Double = 600
    /// The live map calls a friend moving only from fixes of this many seconds before now; a
    /// friend whose newest fix is older is "still" no more but "silent since" its time, seconds.
    public var movingWithin: Double = 120

    public init() {}

    /// The fix's horizontal accuracy in metres, as the rules use it.
    func accuracy(errorEstimate: Double?, hdop: Double?) -> Double {
        if let e = errorEstimate, e.isFinite, e >= 0 { return e }
        if let h = hdop, h.isFinite, h > 0 { return h * rangeError }
        return unknownAccuracy
    }

    /// How far past an edge a fix of this accuracy must be to count as outside, metres.
    func margin(accuracy: Double) -> Double { Swift.max(hysteresis, 2 * accuracy) }
}

/// How alerts are delivered (`[alerts]` in the config), with their units.
public struct AlertSettings: Equatable, Sendable {
    /// The longest wait between two tries of a delivery whose receiver failed, seconds (the
    /// wait doubles from 1 s up to this).
    public var retryMax: Double = 300
    /// A delivery not made this long after its event was put in the outbox is dropped, seconds.
    public var giveUpAfter: Double = 86_400
    /// How long one try waits for the receiver, seconds.
    public var timeout: Double = 10
    /// An event of a phone (`serve`) that reaches the store later than this after it happened
    /// (a backlog, a late point) is not sent: its deliveries are listed by `alert log` as "late, not sent",
    /// seconds. A phone's alarm (`device.alarm`) is sent however late.
    public var maxDelay: Double = 900
    /// The zone of quiet hours and of the times in messages: the config's `time.zone`.
    public var zone = TimeZone.current

    public init() {}

    /// The wait before try number `attempts + 1` after `attempts` failed ones, seconds.
    public func retryDelay(afterAttempts attempts: Int) -> Double {
        Swift.min(retryMax, Double(1 << Swift.min(Swift.max(attempts - 1, 0), 20)))
    }
}
