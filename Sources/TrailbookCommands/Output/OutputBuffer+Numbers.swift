import GPSCore

/// Number and time formatting straight into the buffer, without `String`s.
///
/// Each function reserves the few bytes it may write; a row writer may also reserve once for
/// the whole row.
extension OutputBuffer {
    /// Appends a decimal integer.
    mutating func append(int value: Int) {
        if value < 0 {
            append(0x2D)
            append(unsigned: value.magnitude.toUInt64, minDigits: 1)
        } else {
            append(unsigned: UInt64(value), minDigits: 1)
        }
    }

    /// Appends `value` with at least `minDigits` digits (zero-padded, at most 20).
    ///
    /// The digit count comes from comparisons, and the digits two at a time from the right:
    /// half the divisions of one digit at a time (this ran for every number of every CSV row).
    mutating func append(unsigned value: UInt64, minDigits: Int) {
        let digits = Self.decimalDigitCount(value)
        let n = digits > minDigits ? digits : minDigits
        reserve(n)
        var v = value
        var k = n
        while v >= 100 {
            let pair = v % 100
            v /= 100
            k -= 2
            storageAppendAt(offset: k, UInt8(truncatingIfNeeded: pair / 10) &+ 0x30)
            storageAppendAt(offset: k + 1, UInt8(truncatingIfNeeded: pair % 10) &+ 0x30)
        }
        if v >= 10 {
            k -= 2
            storageAppendAt(offset: k, UInt8(truncatingIfNeeded: v / 10) &+ 0x30)
            storageAppendAt(offset: k + 1, UInt8(truncatingIfNeeded: v % 10) &+ 0x30)
        } else {
            k -= 1
            storageAppendAt(offset: k, UInt8(truncatingIfNeeded: v) &+ 0x30)
        }
        while k > 0 {
            k -= 1
            storageAppendAt(offset: k, 0x30)
        }
        advance(n)
    }

    /// Decimal digits of `value` (1 for 0, 20 for values from 10^19).
    @inline(__always)
    static func decimalDigitCount(_ value: UInt64) -> Int {
        var n = 1
        var bound: UInt64 = 10
        while n < 20 && value >= bound {
            n += 1
            bound &*= 10
        }
        return n
    }

    /// Appends `value` rounded to `decimals` (0...9) decimal places, without exponent ("-12.500").
    mutating func append(_ value: Double, decimals: Int) {
        guard value.isFinite else { return }
        let unit = Self.powerOfTen(decimals)
        var scaled = (value * Double(unit)).rounded()
        if scaled >= 9.2e18 || scaled <= -9.2e18 {
            append(String(value))
            return
        }
        if scaled < 0 {
            append(0x2D)
            scaled = -scaled
        }
        let whole = UInt64(scaled)
        append(unsigned: whole / unit, minDigits: 1)
        if decimals > 0 {
            append(0x2E)
            append(unsigned: whole % unit, minDigits: decimals)
        }
    }

    /// 10^n for n in 0...9.
    @inline(__always)
    static func powerOfTen(_ n: Int) -> UInt64 {
        var p: UInt64 = 1
        for _ in 0..<n { p &*= 10 }
        return p
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS.mmmZ`, or `HH:MM:SS.mmm` when the date is unknown.
    mutating func append(date: CivilDate?, timeOfDay ms: Int) {
        if let date {
            append(unsigned: UInt64(date.year < 0 ? 0 : date.year), minDigits: 4)
            append(0x2D)
            append(unsigned: UInt64(date.month), minDigits: 2)
            append(0x2D)
            append(unsigned: UInt64(date.day), minDigits: 2)
            append(0x54)
        }
        // A leap second (23:59:60.xxx) is the only time of day at or past 86,400 s.
        let leap = ms >= 86_400_000
        append(unsigned: UInt64(leap ? 23 : ms / 3_600_000), minDigits: 2)
        append(0x3A)
        append(unsigned: UInt64(leap ? 59 : ms / 60_000 % 60), minDigits: 2)
        append(0x3A)
        append(unsigned: UInt64(leap ? 60 : ms / 1000 % 60), minDigits: 2)
        append(0x2E)
        append(unsigned: UInt64(ms % 1000), minDigits: 3)
        if date != nil { append(0x5A) }
    }
}

extension UInt {
    fileprivate var toUInt64: UInt64 { UInt64(self) }
}
