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

    /// Adds one sentence; when it starts a new epoch, `finished` first receives the previous
    /// epoch's fix. Most sentences end no epoch, so nothing is returned for them.
    mutating func add(_ r: SentenceRecord, finished: (Fix) throws -> Void) rethrows {
        let t = r.timeOfDay
        if t >= 0 {
            if let open = epoch.timeOfDay, Int(t) != open {
                let done = epoch.fix()
                if done == nil, let date = epoch.date { dateWithoutPosition = (date, open) }
                epoch = Epoch()
                if let done { try finished(done) }
            }
            if epoch.timeOfDay == nil { epoch.timeOfDay = Int(t) }
        }
        let kind = Int(r.kind.rawValue)
        if r.kind.isTimed {
            epoch.lastTimedKind = kind
        } else if !order.accept(kind, after: epoch.lastTimedKind) {
            misplaced += 1
            return
        }
        epoch.merge(r)
    }

    /// Ends the stream; returns the open epoch's fix, if it has a position sentence.
    public mutating func finish() -> Fix? {
        defer { epoch = Epoch() }
        let done = epoch.fix()
        if done == nil, let date = epoch.date, let t = epoch.timeOfDay { dateWithoutPosition = (date, t) }
        return done
    }
}

/// Which timed sentence each untimed sentence type follows, learned by majority vote.
private struct SentenceOrder {
    static let kinds = 12
    /// Votes needed before an untimed sentence out of place is dropped.
    static let quorum = 4
    /// votes[untimed kind * kinds + preceding kind] (kinds are ``SentenceKind`` raw values); kind
    /// 0 is "no timed sentence yet".
    private var votes = [Int32](repeating: 0, count: kinds * kinds)
    /// Per untimed kind: the preceding kind with the most votes, and the votes cast.
    private var best = [Int](repeating: 0, count: kinds)
    private var total = [Int32](repeating: 0, count: kinds)

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

    /// Offers the position of a position sentence (latitude and longitude NaN when absent).
    mutating func offerPosition(_ lat: Double, _ lon: Double, valid: Bool, rank: Int) {
        sawPositionSentence = true
        guard valid, !lat.isNaN, !lon.isNaN, rank > positionRank else { return }
        let c = Coordinate(latitude: lat, longitude: lon)
        guard c.isPlausible else { return }
        coordinate = c
        positionRank = rank
    }

    /// Merges one sentence; which slot of `r` holds what is for its type to say (``GGA``, ...).
    mutating func merge(_ r: SentenceRecord) {
        switch r.kind {
        case .gga:
            let q = r.code < 0 ? nil : FixQuality(rawValue: Int(r.code))
            let valid = q?.isMeasured ?? false
            offerPosition(r.latitude, r.longitude, valid: valid, rank: 4)
            if valid {
                quality = q
                altitude = r.b.present ?? altitude
                geoidSeparation = r.c.present ?? geoidSeparation
            }
            ggaHDOP = r.a.present ?? ggaHDOP
            ggaSatellites = r.count.present ?? ggaSatellites
        case .gns:
            offerPosition(r.latitude, r.longitude, valid: r.valid, rank: 3)
            if r.valid {
                if altitude == nil { altitude = r.b.present }
                if geoidSeparation == nil { geoidSeparation = r.c.present }
            }
            if ggaHDOP == nil { ggaHDOP = r.a.present }
            if ggaSatellites == nil { ggaSatellites = r.count.present }
        case .rmc:
            let valid = r.valid && Self.modeIndicatorValid(r.indicator)
            offerPosition(r.latitude, r.longitude, valid: valid, rank: 2)
            if let d = r.date { date = d }
            if valid {
                rmcSpeed = r.a.present ?? rmcSpeed
                rmcTrack = r.b.present ?? rmcTrack
            }
        case .gll:
            offerPosition(
                r.latitude, r.longitude, valid: r.valid && Self.modeIndicatorValid(r.indicator), rank: 1)
        case .vtg:
            if Self.modeIndicatorValid(r.indicator) {
                vtgSpeed = r.a.present ?? vtgSpeed
                vtgTrack = r.b.present ?? vtgTrack
            }
        case .gsa:
            sawGSA = true
            if r.code >= 0 { gsaMode = max(gsaMode ?? 0, Int(r.code)) }
            let system = r.count < 0 ? 0 : Int(r.count)
            for k in 0..<Int(r.satelliteCount) { gsaSatellites.insert(Int(r.satellite(k)), system: system) }
            gsaHDOP = r.b.present ?? gsaHDOP
            vdop = r.c.present ?? vdop
            pdop = r.a.present ?? pdop
        case .gsv:
            if r.count == 1, r.count2 >= 0 { inView.set(Int(r.count2), for: r.talker) }
        case .gst:
            latitudeError = r.a.present ?? latitudeError
            longitudeError = r.b.present ?? longitudeError
            altitudeError = r.c.present ?? altitudeError
        case .zda:
            if let d = r.date { date = d }
        case .txt:
            break
        }
    }

    /// NMEA 2.3 mode indicators: N (not valid), M (manual input) and S (simulator) are no fix;
    /// 0 is none given.
    static func modeIndicatorValid(_ c: UInt8) -> Bool {
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
