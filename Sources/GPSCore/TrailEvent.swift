/// What happened, as the event detector (and later the cues, tasks and the server) saw it.
public enum TrailEventType: String, CaseIterable, Codable, Sendable {
    case placeArrive = "place.arrive"
    case placeDepart = "place.depart"
    case motionMoving = "motion.moving"
    case motionStopped = "motion.stopped"
    case fixLost = "fix.lost"
    case fixRegained = "fix.regained"
    case deviceConnected = "device.connected"
    case deviceDisconnected = "device.disconnected"
    case deviceOffline = "device.offline"
    case batteryLow = "battery.low"
    /// The phone's user raised an alarm (Traccar Client's SOS button); `text` is its kind.
    case deviceAlarm = "device.alarm"
    case friendArrive = "friend.arrive"
    case friendDepart = "friend.depart"
    case cue = "cue"
    case taskDue = "task.due"
}

/// One event: when (the time of the first fix that confirmed it, ms since 1970 UTC), what, at
/// which place, where, and numbers that explain it (`accuracy_m`, `distance_m`, ...).
public struct TrailEvent: Equatable, Sendable {
    public var milliseconds: Int64
    public var type: TrailEventType
    /// The place's name, for place events (and cues at a place).
    public var place: String?
    public var coordinate: Coordinate?
    /// A cue's or task's text; the friend's name for friend events.
    public var text: String?
    public var details: [String: Double]

    public init(
        milliseconds: Int64, type: TrailEventType, place: String? = nil, coordinate: Coordinate? = nil,
        text: String? = nil, details: [String: Double] = [:]
    ) {
        self.milliseconds = milliseconds
        self.type = type
        self.place = place
        self.coordinate = coordinate
        self.text = text
        self.details = details
    }
}
