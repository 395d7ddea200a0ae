import GPSCore

/// The sentence types the decoder knows, in the order ``FixAssembler`` counts them; timed
/// types first.
enum SentenceKind: UInt8 {
    case gga = 1
    case rmc, gll, gns, gst, zda, vtg, gsa, gsv, txt

    /// Whether sentences of this type carry a time of day (and so open or continue an epoch).
    var isTimed: Bool { rawValue <= SentenceKind.zda.rawValue }
}

/// One decoded sentence as the decoder's hot path carries it: a fixed-size value without
/// references, filled straight from the fields by each type's `decode(_:into:)`, where an
/// absent value is a sentinel instead of an optional (NaN, -1, 0): copied once into a block's
/// array and read in place by ``FixAssembler``. The public per-type structs (``GGA``, ``RMC``,
/// ...) are made from it for ``SentenceParser/parse(_:_:)``.
///
/// Which slot holds what depends on ``kind``; each type's file says so.
struct SentenceRecord {
    var kind: SentenceKind
    var talker: Talker
    /// RMC/GLL status A, GNS mode "a fix".
    var valid = false
    /// NMEA 2.3 mode indicator (RMC, GLL, VTG), 0 when absent.
    var indicator: UInt8 = 0
    /// GSA: how many of ``satellites`` are filled.
    var satelliteCount: UInt8 = 0
    /// UTC date: month 0 when absent.
    var month: UInt8 = 0
    var day: UInt8 = 0
    var year: Int16 = 0
    /// UTC time of day in milliseconds, -1 when absent.
    var timeOfDay: Int32 = -1
    /// GGA quality, GSA mode, GSV total, TXT message type; -1 when absent.
    var code: Int32 = -1
    /// Satellites used (GGA, GNS), GSV sentence number, GSA system ID; -1 when absent.
    var count: Int32 = -1
    /// GSV satellites in view; -1 when absent.
    var count2: Int32 = -1
    /// GSA satellite IDs (fields 3-14).
    var satellites: (UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16, UInt16) =
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// Latitude and longitude in decimal degrees; NaN when absent.
    var latitude = Double.nan
    var longitude = Double.nan
    /// Per type: GGA/GNS hdop, altitude, geoid separation; RMC/VTG speed, track; GSA pdop,
    /// hdop, vdop; GST the three error estimates. NaN when absent.
    var a = Double.nan
    var b = Double.nan
    var c = Double.nan

    init(kind: SentenceKind, talker: Talker) {
        self.kind = kind
        self.talker = talker
    }

    /// The date, when the sentence carries one.
    @inline(__always)
    var date: CivilDate? {
        month == 0 ? nil : CivilDate(unchecked: Int(year), Int(month), Int(day))
    }

    @inline(__always)
    mutating func setDate(_ date: CivilDate) {
        year = Int16(truncatingIfNeeded: date.year)
        month = UInt8(truncatingIfNeeded: date.month)
        day = UInt8(truncatingIfNeeded: date.day)
    }

    /// The ``timeOfDay`` as an optional.
    var time: Int? { timeOfDay < 0 ? nil : Int(timeOfDay) }

    /// GSA satellite ID `k` (0..<12).
    func satellite(_ k: Int) -> UInt16 {
        withUnsafeBytes(of: satellites) { $0.load(fromByteOffset: k * 2, as: UInt16.self) }
    }

    mutating func setSatellite(_ k: Int, _ id: UInt16) {
        withUnsafeMutableBytes(of: &satellites) { $0.storeBytes(of: id, toByteOffset: k * 2, as: UInt16.self) }
    }
}

extension Double {
    /// Nil for the NaN that marks an absent value in a ``SentenceRecord``.
    @inline(__always)
    var present: Double? { isNaN ? nil : self }
}

extension Int32 {
    /// Nil for the -1 that marks an absent value in a ``SentenceRecord``.
    @inline(__always)
    var present: Int? { self < 0 ? nil : Int(self) }
}

extension Optional where Wrapped == Double {
    /// The value, or NaN for absent (a ``SentenceRecord`` slot).
    @inline(__always)
    var slot: Double { self ?? .nan }
}

extension Optional where Wrapped == Int {
    /// The value, or -1 for absent (a ``SentenceRecord`` slot); fields hold at most nine digits.
    @inline(__always)
    var slot: Int32 { self.map { Int32(truncatingIfNeeded: $0) } ?? -1 }
}
