/// How a position was obtained: the GGA quality indicator (NMEA 0183 GGA field 6).
public enum FixQuality: Int, Sendable, CaseIterable {
    case invalid = 0
    /// Autonomous GNSS.
    case gps = 1
    /// Differential (SBAS, DGPS).
    case dgps = 2
    /// Precise positioning service.
    case pps = 3
    /// RTK with fixed integers.
    case rtkFixed = 4
    /// RTK with float integers.
    case rtkFloat = 5
    /// Dead reckoning (estimated).
    case estimated = 6
    /// Position typed in by hand.
    case manual = 7
    /// Simulator output.
    case simulation = 8

    /// Whether this quality stands for a position measured by the receiver. Manual input
    /// and simulator output are not measurements, so a logger must not record them.
    public var isMeasured: Bool {
        switch self {
        case .invalid, .manual, .simulation: return false
        default: return true
        }
    }
}
