import GPSCore

/// Number and time formatting straight into the buffer, without `String`s.
///
/// Each function reserves the few bytes it may write; a row writer may also reserve once for
/// the whole row.
extension OutputBuffer {
    /// Appends a decimal integer.
    public mutating func append(int value: Int) {
        if value < 0 {
            append(0x2D)
            append(unsigned: value.magnitude.toUInt64, minDigits: 1)
        } else {
            append(unsigned: UInt64(value), minDigits: 1)
        }
    }

    /// Appends `value` with at least `minDigits` digits (zero-padded, at most 20).
    ///
    /// The digit count comes from the bit length and one comparison, and the digits two at a
    /// time from the right out of a table of the hundred pairs "00" to "99" (this runs for every
    /// number of every CSV row).
    @inline(__always)
    mutating func append(unsigned value: UInt64, minDigits: Int) {
        let digits = Self.decimalDigitCount(value)
        append(digitsOf: value, count: digits > minDigits ? digits : minDigits)
    }

    /// Appends exactly `n` digits of `value` (zero-padded; `value` below 10^n, n at most 20).
    @inline(__always)
    mutating func append(digitsOf value: UInt64, count n: Int) {
        reserve(n)
        let pairs = Self.digitPairs.utf8Start
        var v = value
        var k = n
        while k >= 2 {
            let q = v / 100
            let pair = Int(truncatingIfNeeded: v &- q &* 100) &* 2
            v = q
            k -= 2
            storageAppendAt(offset: k, pairs[pair])
            storageAppendAt(offset: k + 1, pairs[pair &+ 1])
        }
        if k == 1 { storageAppendAt(offset: 0, UInt8(truncatingIfNeeded: v) &+ 0x30) }
        advance(n)
    }

    /// "00", "01", ... "99" one after the other: the two digits of `n` at `2n`.
    static var digitPairs: StaticString {
        // swift-format-ignore
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// Decimal digits of `value` (1 for 0, 20 for values from 10^19): from its bit length
    /// (log10 2 ≈ 1233/4096), then one comparison with the power of ten at that count.
    @inline(__always)
    static func decimalDigitCount(_ value: UInt64) -> Int {
        let bits = 64 - (value | 1).leadingZeroBitCount
        let guess = (bits &* 1233) >> 12  // the digit count, or one less
        let digits = value >= Self.powerOfTen(guess) ? guess + 1 : guess
        return digits > 0 ? digits : 1
    }

    /// Appends `value` rounded to `decimals` (0...9) decimal places, half away from zero,
    /// without exponent ("-12.500").
    @inline(__always)
    public mutating func append(_ value: Double, decimals: Int) {
        guard value.isFinite else { return }
        let unit = Self.powerOfTen(decimals)
        let x = value * Double(unit)
        guard x < 9.2e18 && x > -9.2e18 else {
            append(String(value))
            return
        }
        // x.rounded() without the libm call: truncation is exact here, and so is the fraction.
        var whole = Int64(x)
        let fraction = x - Double(whole)
        if fraction >= 0.5 {
            whole += 1
        } else if fraction <= -0.5 {
            whole -= 1
        }
        if whole < 0 { append(0x2D) }
        let magnitude = whole.magnitude
        let integral = magnitude / unit
        append(unsigned: integral, minDigits: 1)
        if decimals > 0 {
            append(0x2E)
            append(digitsOf: magnitude &- integral &* unit, count: decimals)
        }
    }

    /// 10^n for n in 0...19, from a table.
    @inline(__always)
    static func powerOfTen(_ n: Int) -> UInt64 {
        switch n {
        case 0: 1
        case 1: 10
        case 2: 100
        case 3: 1_000
        case 4: 10_000
        case 5: 100_000
        case 6: 1_000_000
        case 7: 10_000_000
        case 8: 100_000_000
        case 9: 1_000_000_000
        case 10: 10_000_000_000
        case 11: 100_000_000_000
        case 12: 1_000_000_000_000
        case 13: 10_000_000_000_000
        case 14: 100_000_000_000_000
        case 15: 1_000_000_000_000_000
        case 16: 10_000_000_000_000_000
        case 17: 100_000_000_000_000_000
        case 18: 1_000_000_000_000_000_000
        default: 10_000_000_000_000_000_000
        }
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS.mmmZ`, or `HH:MM:SS.mmm` when the date is unknown.
    mutating func append(date: CivilDate?, timeOfDay ms: Int) {
        reserve(24)
        if let date {
            if date.year >= 0 && date.year <= 9999 {
                appendPair(date.year / 100)
                appendPair(date.year % 100)
            } else {
                append(unsigned: UInt64(date.year < 0 ? 0 : date.year), minDigits: 4)
            }
            append(0x2D)
            appendPair(date.month)
            append(0x2D)
            appendPair(date.day)
            append(0x54)
        }
        // A leap second (23:59:60.xxx) is the only time of day at or past 86,400 s.
        let leap = ms >= 86_400_000
        appendPair(leap ? 23 : ms / 3_600_000)
        append(0x3A)
        appendPair(leap ? 59 : ms / 60_000 % 60)
        append(0x3A)
        appendPair(leap ? 60 : ms / 1000 % 60)
        append(0x2E)
        let millis = ms % 1000
        append(UInt8(truncatingIfNeeded: millis / 100) &+ 0x30)
        appendPair(millis % 100)
        if date != nil { append(0x5A) }
    }

    /// Appends the two digits of `v` (0...99) from the table of pairs.
    @inline(__always)
    mutating func appendPair(_ v: Int) {
        append(digitsOf: UInt64(truncatingIfNeeded: v), count: 2)
    }
}

extension UInt {
    fileprivate var toUInt64: UInt64 { UInt64(self) }
}
