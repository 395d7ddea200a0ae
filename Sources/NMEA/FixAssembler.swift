import GPSCore

/// Merges the sentences of one epoch (one time of day) into one ``Fix``.
///
/// An epoch begins with the first timed sentence (GGA, RMC, GLL, GNS, GST, ZDA) and ends when
/// a timed sentence brings another time of day. Untimed sentences (GSA, GSV, VTG) belong to
/// the epoch that is open when they arrive.
///
/// Validity comes from the position sentences only: RMC status V, GLL status V, GGA quality 0,
/// GNS mode N, and mode indicator N give no position; manual input and simulator output
/// (GGA quality 7/8, mode indicator M/S) are not measurements and give none either. When
/// several sentences carry a position, the most precise wins: GGA, then GNS, then RMC, then
/// GLL. GSA decides 2D against 3D but can neither invent nor erase a position (it is
/// untimed, so it may belong to the neighbouring epoch). Without GSA, a position with an
/// altitude is 3D. An altitude is reported as the receiver gave it even in a 2D fix (where
/// it is usually held, not measured: consumers that need measured heights check the mode).
/// Speed and track come from RMC, else VTG. Satellites used come from GGA/GNS, else from
/// the distinct satellite IDs of the epoch's GSA sentences (receivers repeat them).
///
/// Untimed sentences carry no time, so a lost timed sentence could hand one to the wrong
/// epoch. The assembler learns, for each untimed type, which timed sentence it normally
/// follows within an epoch (VTG after RMC, say); one that arrives after another type is
/// dropped rather than merged into an epoch it probably does not belong to.
///
/// An epoch is reported only when a position sentence arrived in it (GGA, RMC, GLL, GNS),
/// so a lone ZDA or GST makes no row; its date still counts: a ZDA at its own time of day
/// dates the epochs around it (``takeDate()``).
public struct FixAssembler {
    private var epoch = Epoch()
    private var order = SentenceOrder()
    /// Untimed sentences dropped because they arrived out of their learned place.
    public private(set) var misplaced = 0
    /// The date and time of day of the last epoch that ended with a date but no position (a
    /// ZDA at its own time): not a fix, but it dates the epochs around it. See ``takeDate()``.
    private var dateWithoutPosition: (date: CivilDate, timeOfDay: Int)?

    /// The date of an epoch without a position that ended since the last call, if any.
    public mutating func takeDate() -> (date: CivilDate, timeOfDay: Int)? {
        defer { dateWithoutPosition = nil }
        return dateWithoutPosition
    }

    public init() {}

    /// Adds one sentence; returns the previous epoch's fix when this sentence starts a new epoch.
    public mutating func add(_ sentence: Sentence) -> Fix? {
        var finished: Fix?
        add(sentence) { finished = $0 }
        return finished
    }

    /// Adds one sentence; when it starts a new epoch, `finished` first receives the previous
    /// epoch's fix. The decoder's path: most sentences end no epoch, and returning an optional
    /// fix for each of them cost two copies of it per sentence.
    public mutating func add(_ sentence: Sentence, finished: (Fix) throws -> Void) rethrows {
        if let t = sentence.timeOfDay, let open = epoch.timeOfDay, t != open {
            let done = epoch.fix()
            if done == nil, let date = epoch.date { dateWithoutPosition = (date, open) }
            epoch = Epoch()
            if let done { try finished(done) }
        }
        if let t = sentence.timeOfDay, epoch.timeOfDay == nil {
            epoch.timeOfDay = t
        }
        let kind = SentenceOrder.kind(of: sentence.body)
        if SentenceOrder.isTimed(kind) {
            epoch.lastTimedKind = kind
        } else if !order.accept(kind, after: epoch.lastTimedKind) {
            misplaced += 1
            return
        }
        epoch.merge(sentence.body, talker: sentence.talker)
    }

    /// Ends the stream; returns the open epoch's fix, if it has a position sentence.
    public mutating func finish() -> Fix? {
        defer { epoch = Epoch() }
        let done = epoch.fix()
        if done == nil, let date = epoch.date, let t = epoch.timeOfDay { dateWithoutPosition = (date, t) }
        return done
    }
}

extension Sentence {
    /// The UTC time of day this sentence carries, if it is a timed sentence.
    public var timeOfDay: Int? {
        switch body {
        case .gga(let s): return s.timeOfDay
        case .rmc(let s): return s.timeOfDay
        case .gll(let s): return s.timeOfDay
        case .gns(let s): return s.timeOfDay
        case .gst(let s): return s.timeOfDay
        case .zda(let s): return s.timeOfDay
        case .vtg, .gsa, .gsv, .txt: return nil
        }
    }
}

/// What one epoch has gathered so far.
/// Which timed sentence each untimed sentence type follows, learned by majority vote.
private struct SentenceOrder {
    static let kinds = 12
    /// Votes needed before an untimed sentence out of place is dropped.
    static let quorum = 4
    /// votes[untimed kind * kinds + preceding kind]; kind 0 is "no timed sentence yet".
    private var votes = [Int32](repeating: 0, count: kinds * kinds)
    /// Per untimed kind: the preceding kind with the most votes, and the votes cast.
    private var best = [Int](repeating: 0, count: kinds)
    private var total = [Int32](repeating: 0, count: kinds)

    static func kind(of body: Sentence.Body) -> Int {
        switch body {
        case .gga: 1
        case .rmc: 2
        case .gll: 3
        case .gns: 4
        case .gst: 5
        case .zda: 6
        case .vtg: 7
        case .gsa: 8
        case .gsv: 9
        case .txt: 10
        }
    }

    static func isTimed(_ kind: Int) -> Bool { kind >= 1 && kind <= 6 }

    /// Records where `kind` arrived and says whether that is a usual place for it: the most
    /// frequent one, or one seen at least a quarter as often (receivers that alternate).
    mutating func accept(_ kind: Int, after previous: Int) -> Bool {
        let row = kind * Self.kinds
        votes[row + previous] += 1
        total[kind] += 1
        let mine = votes[row + previous]
        if mine > votes[row + best[kind]] { best[kind] = previous }
        return total[kind] < Self.quorum || mine * 4 >= votes[row + best[kind]]
    }
}

private struct Epoch {
    var timeOfDay: Int?
    /// Kind of the last timed sentence merged (``SentenceOrder``), 0 before the first.
    var lastTimedKind = 0
    var date: CivilDate?
    var sawPositionSentence = false
    /// Priority of the sentence that gave `coordinate` (higher wins): GGA 4, GNS 3, RMC 2, GLL 1.
    var positionRank = 0
    var coordinate: Coordinate?
    var quality: FixQuality?
    var altitude: Double?
    var geoidSeparation: Double?
    var rmcSpeed: Double?
    var rmcTrack: Double?
    var vtgSpeed: Double?
    var vtgTrack: Double?
    var gsaMode: Int?
    var ggaHDOP: Double?
    var gsaHDOP: Double?
    var vdop: Double?
    var pdop: Double?
    var ggaSatellites: Int?
    var gsaSatellites = SatelliteSet()
    var sawGSA = false
    var inView = InViewCounts()
    var latitudeError: Double?
    var longitudeError: Double?
    var altitudeError: Double?

    mutating func offerPosition(_ lat: Double?, _ lon: Double?, valid: Bool, rank: Int) {
        sawPositionSentence = true
        guard valid, let lat, let lon, rank > positionRank else { return }
        let c = Coordinate(latitude: lat, longitude: lon)
        guard c.isPlausible else { return }
        coordinate = c
        positionRank = rank
    }

    mutating func merge(_ body: Sentence.Body, talker: Talker) {
        switch body {
        case .gga(let s):
            let q = s.quality.flatMap(FixQuality.init(rawValue:))
            let valid = q?.isMeasured ?? false
            offerPosition(s.latitude, s.longitude, valid: valid, rank: 4)
            if valid {
                quality = q
                altitude = s.altitude ?? altitude
                geoidSeparation = s.geoidSeparation ?? geoidSeparation
            }
            ggaHDOP = s.hdop ?? ggaHDOP
            ggaSatellites = s.satellitesUsed ?? ggaSatellites
        case .gns(let s):
            offerPosition(s.latitude, s.longitude, valid: s.valid, rank: 3)
            if s.valid {
                if altitude == nil { altitude = s.altitude }
                if geoidSeparation == nil { geoidSeparation = s.geoidSeparation }
            }
            if ggaHDOP == nil { ggaHDOP = s.hdop }
            if ggaSatellites == nil { ggaSatellites = s.satellitesUsed }
        case .rmc(let s):
            let valid = s.statusValid && Self.modeIndicatorValid(s.modeIndicator)
            offerPosition(s.latitude, s.longitude, valid: valid, rank: 2)
            if s.date != nil { date = s.date }
            if valid {
                rmcSpeed = s.speed ?? rmcSpeed
                rmcTrack = s.track ?? rmcTrack
            }
        case .gll(let s):
            offerPosition(
                s.latitude, s.longitude, valid: s.statusValid && Self.modeIndicatorValid(s.modeIndicator), rank: 1)
        case .vtg(let s):
            if Self.modeIndicatorValid(s.modeIndicator) {
                vtgSpeed = s.speed ?? vtgSpeed
                vtgTrack = s.track ?? vtgTrack
            }
        case .gsa(let s):
            sawGSA = true
            if let m = s.mode { gsaMode = max(gsaMode ?? 0, m) }
            for k in 0..<s.satelliteCount { gsaSatellites.insert(Int(s.satelliteLanes[k]), system: s.systemID ?? 0) }
            gsaHDOP = s.hdop ?? gsaHDOP
            vdop = s.vdop ?? vdop
            pdop = s.pdop ?? pdop
        case .gsv(let s):
            if s.number == 1, let n = s.satellitesInView { inView.set(n, for: talker) }
        case .gst(let s):
            latitudeError = s.latitudeError ?? latitudeError
            longitudeError = s.longitudeError ?? longitudeError
            altitudeError = s.altitudeError ?? altitudeError
        case .zda(let s):
            if s.date != nil { date = s.date }
        case .txt:
            break
        }
    }

    /// NMEA 2.3 mode indicators: N (not valid), M (manual input) and S (simulator) are no fix.
    static func modeIndicatorValid(_ c: UInt8?) -> Bool {
        switch c {
        case 0x4E, 0x4D, 0x53: return false  // N M S
        default: return true
        }
    }

    func fix() -> Fix? {
        guard sawPositionSentence else { return nil }
        var f = Fix()
        f.date = date
        f.timeOfDay = timeOfDay
        f.coordinate = coordinate
        if coordinate != nil {
            if let m = gsaMode, m >= 2 {
                f.mode = m == 3 && altitude != nil ? .threeD : .twoD
            } else {
                f.mode = altitude != nil ? .threeD : .twoD
            }
            f.quality = quality ?? .gps
            f.altitudeMSL = altitude
            f.geoidSeparation = geoidSeparation
            f.speed = rmcSpeed ?? vtgSpeed
            f.track = rmcTrack ?? vtgTrack
        } else {
            f.mode = .noFix
            f.quality = FixQuality.invalid
        }
        f.hdop = ggaHDOP ?? gsaHDOP
        f.vdop = vdop
        f.pdop = pdop
        f.satellitesUsed = ggaSatellites ?? (sawGSA ? gsaSatellites.count : nil)
        f.satellitesInView = inView.total
        f.latitudeError = latitudeError
        f.longitudeError = longitudeError
        f.altitudeError = altitudeError
        return f
    }
}

/// The distinct satellites of an epoch's GSA sentences, as a 1024-bit set without allocation.
private struct SatelliteSet {
    private var words = SIMD16<UInt64>(repeating: 0)

    mutating func insert(_ id: Int, system: Int) {
        let key = (system &* 256 &+ id) & 1023
        words[key >> 6] |= 1 << UInt64(key & 63)
    }

    var count: Int {
        var n = 0
        for k in 0..<16 { n += words[k].nonzeroBitCount }
        return n
    }
}

/// Satellites in view per talker (GP, GL, ...), for up to eight talkers, without allocation.
private struct InViewCounts {
    private var talkers = SIMD8<UInt16>(repeating: 0)
    private var counts = SIMD8<UInt16>(repeating: 0)
    private var used = 0

    mutating func set(_ n: Int, for talker: Talker) {
        let code = UInt16(talker.first) << 8 | UInt16(talker.second)
        let value = UInt16(clamping: n)
        for k in 0..<used where talkers[k] == code {
            counts[k] = value
            return
        }
        guard used < 8 else { return }
        talkers[used] = code
        counts[used] = value
        used += 1
    }

    /// Sum over talkers, nil when no sky view arrived.
    var total: Int? {
        guard used > 0 else { return nil }
        var n = 0
        for k in 0..<used { n += Int(counts[k]) }
        return n
    }
}
