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
    mutating func append(unsigned value: UInt64, minDigits: Int) {
        var digits = 1
        var v = value
        while v >= 10 {
            v /= 10
            digits += 1
        }
        let n = digits > minDigits ? digits : minDigits
        reserve(n)
        v = value
        var k = n - 1
        while k >= 0 {
            storageAppendAt(offset: k, UInt8(truncatingIfNeeded: v % 10) &+ 0x30)
            v /= 10
            k -= 1
        }
        advance(n)
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
