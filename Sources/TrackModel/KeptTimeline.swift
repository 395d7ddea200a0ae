import GPSCore

/// One entry of an account's kept timeline (docs/TIMELINE.md): a stay at a place, or a move
/// between two, as the detection over all the account's points and imported records found it.
/// The writes make these rows (``VisitStoring/keepTimeline(_:from:to:state:account:)``); every
/// reader reads them. A place's name, home and work and the user's corrections are applied
/// over them when read, so a correction never changes a row.
public struct KeptEntry: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case stay, move
    }

    /// Its row's id: stable until the time it covers is detected again.
    public var id: Int64
    public var kind: Kind
    /// ms since 1970 UTC: the first and last fix of it.
    public var start: Int64
    public var end: Int64
    /// A stay's centre; a move's first position.
    public var from: Coordinate
    /// A move's last position (a stay's is its centre).
    public var to: Coordinate
    /// A stay's spread (metres), the fixes it was made of.
    public var spread: Double
    public var fixes: Int
    /// A stay that was the last of the data: the person may still be there.
    public var ongoing: Bool
    /// A move's distance along its fixes (m), its time faster than 0.5 m/s (s), its typical and
    /// high moving speed (m/s), its mode ("walking", ``Visits/TravelMode``) and where the mode
    /// came from ("speeds", "phone").
    public var distance: Double
    public var movingSeconds: Double
    public var medianSpeed: Double
    public var highSpeed: Double
    public var mode: String?
    public var modeFrom: String?

    public init(
        id: Int64 = 0, kind: Kind, start: Int64, end: Int64, from: Coordinate, to: Coordinate, spread: Double = 0,
        fixes: Int, ongoing: Bool = false, distance: Double = 0, movingSeconds: Double = 0, medianSpeed: Double = 0,
        highSpeed: Double = 0, mode: String? = nil, modeFrom: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.start = start
        self.end = end
        self.from = from
        self.to = to
        self.spread = spread
        self.fixes = fixes
        self.ongoing = ongoing
        self.distance = distance
        self.movingSeconds = movingSeconds
        self.medianSpeed = medianSpeed
        self.highSpeed = highSpeed
        self.mode = mode
        self.modeFrom = modeFrom
    }
}

/// What an account's kept timeline was made with: the detection's version and its rules
/// (``Visits/VisitRules``, as a text), the newest point it saw, and when it was last made or
/// extended. A reader whose rules or version differ does not read the rows, nor one that looks
/// at a time with points newer than `through` (a recorder's or a phone's, not kept yet).
public struct KeptTimelineState: Equatable, Sendable {
    public var version: Int
    public var rules: String
    /// ms since 1970 UTC: every point up to this time was seen when the rows were made.
    public var through: Int64
    public var madeMilliseconds: Int64

    public init(version: Int, rules: String, through: Int64, madeMilliseconds: Int64) {
        self.version = version
        self.rules = rules
        self.through = through
        self.madeMilliseconds = madeMilliseconds
    }
}
