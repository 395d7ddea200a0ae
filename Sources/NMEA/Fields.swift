/// The comma-separated fields of one sentence, as byte ranges into the sentence itself.
///
/// Field 0 is the address (`GPGGA`); field numbers elsewhere in this module follow the
/// NMEA convention where field 1 is the first after the address. A field past the end of
/// the sentence reads as empty, so optional trailing fields (NMEA 2.3's mode indicator,
/// 4.10's system ID) need no special cases. Parsers never build a `String` except for
/// free text (TXT).
public struct Fields {
    let bytes: UnsafeBufferPointer<UInt8>
    /// Start offsets of each field, plus one entry past the last (its comma position + 1).
    let bounds: UnsafeBufferPointer<UInt8>

    /// Number of fields including the address.
    public let count: Int

    @inline(__always)
    func range(_ i: Int) -> Range<Int> {
        guard i < count else { return 0..<0 }
        return Int(bounds[i])..<(Int(bounds[i + 1]) - 1)
    }

    /// Whether field `i` is empty or absent.
    public func isEmpty(_ i: Int) -> Bool { range(i).isEmpty }

    /// The single character of field `i`, nil when empty; a longer field is malformed.
    public func character(_ i: Int) throws(NMEAError) -> UInt8? {
        let r = range(i)
        if r.isEmpty { return nil }
        guard r.count == 1 else { throw .badField(i) }
        return bytes[r.lowerBound]
    }

    /// The first character of field `i` (for fields such as GNS's per-system mode string).
    func characters(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[range(i)])
    }

    /// An unsigned decimal integer, nil when empty.
    public func integer(_ i: Int) throws(NMEAError) -> Int? {
        try integerSlot(i).present
    }

    /// An unsigned decimal integer of at most nine digits, -1 when empty.
    @inline(__always)
    func integerSlot(_ i: Int) throws(NMEAError) -> Int32 {
        let r = range(i)
        if r.isEmpty { return -1 }
        guard r.count <= 9 else { throw .badField(i) }
        var v: Int32 = 0
        for k in r {
            let d = bytes[k] &- ASCII.zero
            guard d < 10 else { throw .badField(i) }
            v = v &* 10 &+ Int32(d)
        }
        return v
    }

    /// A decimal number (optional sign, digits, optional fraction) as mantissa and scale:
    /// value = mantissa / 10^scale. Exact, so degree/minute splits lose nothing. At most 18
    /// digits in all. Nil when empty.
    func fixedPoint(_ i: Int) throws(NMEAError) -> (mantissa: Int64, scale: Int)? {
        let v = try fixedPointSlot(i)
        return v.scale < 0 ? nil : v
    }

    /// ``fixedPoint(_:)`` with scale -1 when empty.
    @inline(__always)
    func fixedPointSlot(_ i: Int) throws(NMEAError) -> (mantissa: Int64, scale: Int) {
        let r = range(i)
        if r.isEmpty { return (0, -1) }
        var k = r.lowerBound
        let end = r.upperBound
        let negative = bytes[k] == ASCII.minus
        if negative || bytes[k] == ASCII.plus { k += 1 }
        var mantissa: Int64 = 0
        let integerStart = k
        while k < end {
            let d = bytes[k] &- ASCII.zero
            if d >= 10 { break }
            mantissa = mantissa &* 10 &+ Int64(d)
            k += 1
        }
        let integerDigits = k - integerStart
        var scale = 0
        if k < end && bytes[k] == ASCII.dot {
            k += 1
            let fractionStart = k
            while k < end {
                let d = bytes[k] &- ASCII.zero
                if d >= 10 { break }
                mantissa = mantissa &* 10 &+ Int64(d)
                k += 1
            }
            scale = k - fractionStart
        }
        guard k == end, integerDigits + scale > 0, integerDigits + scale <= 18 else { throw .badField(i) }
        return (negative ? -mantissa : mantissa, scale)
    }

    /// A decimal number, nil when empty.
    public func decimal(_ i: Int) throws(NMEAError) -> Double? {
        try decimalSlot(i).present
    }

    /// A decimal number, NaN when empty.
    @inline(__always)
    func decimalSlot(_ i: Int) throws(NMEAError) -> Double {
        let (m, s) = try fixedPointSlot(i)
        if s < 0 { return .nan }
        return Double(m) / Double(Fields.powerOfTen(s))
    }

    /// A non-negative decimal number, nil when empty.
    public func unsignedDecimal(_ i: Int) throws(NMEAError) -> Double? {
        try unsignedDecimalSlot(i).present
    }

    /// A non-negative decimal number, NaN when empty.
    @inline(__always)
    func unsignedDecimalSlot(_ i: Int) throws(NMEAError) -> Double {
        let v = try decimalSlot(i)
        guard !(v < 0) else { throw .badField(i) }
        return v
    }

    /// Latitude or longitude in `(d)ddmm.mmmm` form at field `i`, with the hemisphere letter
    /// at field `i + 1`; decimal degrees, negative south/west. Nil when either is empty.
    public func angle(_ i: Int, positive: UInt8, negative: UInt8, maxDegrees: Int64) throws(NMEAError) -> Double? {
        try angleSlot(i, positive: positive, negative: negative, maxDegrees: maxDegrees).present
    }

    /// ``angle(_:positive:negative:maxDegrees:)``, NaN when either field is empty.
    @inline(__always)
    func angleSlot(_ i: Int, positive: UInt8, negative: UInt8, maxDegrees: Int64) throws(NMEAError) -> Double {
        let (m, s) = try fixedPointSlot(i)
        if s < 0 { return .nan }
        guard let hemisphere = try character(i + 1) else { return .nan }
        guard hemisphere == positive || hemisphere == negative else { throw .badField(i + 1) }
        guard m >= 0 else { throw .badField(i) }
        // Degrees and two digits of minutes before the point: fewer digits is not ddmm.mmmm
        // (decimal degrees such as 37.352387 written where NMEA wants 3721.1432).
        guard range(i).count - (s > 0 ? s + 1 : 0) >= 4 else { throw .badField(i) }
        // m / 10^s = ddmm.mmmm: split degrees from minutes without rounding.
        let unit = Fields.powerOfTen(s)
        let degrees = m / (100 * unit)
        let minuteMantissa = m - degrees * 100 * unit
        guard minuteMantissa < 60 * unit, degrees <= maxDegrees else { throw .badField(i) }
        var value = Double(degrees) + Double(minuteMantissa) / Double(60 * unit)
        guard degrees < maxDegrees || minuteMantissa == 0 else { throw .badField(i) }
        if hemisphere == negative { value = -value }
        return value
    }

    /// Latitude at field `i` (hemisphere at `i + 1`).
    public func latitude(_ i: Int) throws(NMEAError) -> Double? {
        try latitudeSlot(i).present
    }

    /// Longitude at field `i` (hemisphere at `i + 1`).
    public func longitude(_ i: Int) throws(NMEAError) -> Double? {
        try longitudeSlot(i).present
    }

    /// Latitude at field `i`, NaN when empty.
    @inline(__always)
    func latitudeSlot(_ i: Int) throws(NMEAError) -> Double {
        try angleSlot(i, positive: 0x4E, negative: 0x53, maxDegrees: 90)  // N, S
    }

    /// Longitude at field `i`, NaN when empty.
    @inline(__always)
    func longitudeSlot(_ i: Int) throws(NMEAError) -> Double {
        try angleSlot(i, positive: 0x45, negative: 0x57, maxDegrees: 180)  // E, W
    }

    /// UTC time of day `hhmmss[.sss]` in milliseconds since midnight, nil when empty.
    public func timeOfDay(_ i: Int) throws(NMEAError) -> Int? {
        try timeSlot(i).present
    }

    /// ``timeOfDay(_:)``, -1 when empty.
    @inline(__always)
    func timeSlot(_ i: Int) throws(NMEAError) -> Int32 {
        let r = range(i)
        if r.isEmpty { return -1 }
        guard r.count >= 6 else { throw .badField(i) }
        @inline(__always) func pair(_ at: Int) throws(NMEAError) -> Int {
            let a = bytes[at] &- ASCII.zero
            let b = bytes[at + 1] &- ASCII.zero
            guard a < 10, b < 10 else { throw .badField(i) }
            return Int(a) * 10 + Int(b)
        }
        let hours = try pair(r.lowerBound)
        let minutes = try pair(r.lowerBound + 2)
        let seconds = try pair(r.lowerBound + 4)
        guard hours < 24, minutes < 60, seconds <= 60 else { throw .badField(i) }
        var millis = 0
        if r.count > 6 {
            guard bytes[r.lowerBound + 6] == ASCII.dot else { throw .badField(i) }
            // Fraction rounded to the millisecond: up to 9 digits are read.
            var fraction = 0
            var digits = 0
            for k in (r.lowerBound + 7)..<r.upperBound {
                let d = bytes[k] &- ASCII.zero
                guard d < 10 else { throw .badField(i) }
                if digits < 9 {
                    fraction = fraction * 10 + Int(d)
                    digits += 1
                }
            }
            if digits > 0 {
                let scale = Fields.powerOfTen(digits)
                millis = Int((Int64(fraction) * 1000 * 2 + scale) / (2 * scale))
            }
        }
        return Int32(((hours * 60 + minutes) * 60 + seconds) * 1000 + millis)
    }

    /// Free text of field `i` (for TXT), nil when empty.
    public func text(_ i: Int) -> String? {
        let r = range(i)
        if r.isEmpty { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[r]), as: UTF8.self)
    }

    /// 10^n for n in 0...18 (exact in `Int64`; as a `Double` exact up to 10^22).
    @inline(__always)
    static func powerOfTen(_ n: Int) -> Int64 {
        var p: Int64 = 1
        for _ in 0..<n { p &*= 10 }
        return p
    }
}
