import GPSCore

/// Builds NMEA 0183 sentences as text with their `*HH` checksum and CR LF.
public enum NMEASentenceWriter {
    /// `$` + body + `*HH\r\n`.
    public static func sentence(_ body: String) -> String {
        var sum: UInt8 = 0
        for b in body.utf8 { sum ^= b }
        let hex = Array("0123456789ABCDEF".utf8)
        return "$" + body + "*" + String(decoding: [hex[Int(sum >> 4)], hex[Int(sum & 15)]], as: UTF8.self) + "\r\n"
    }

    /// `hhmmss.ss` for a time of day in milliseconds.
    public static func time(_ ms: Int) -> String {
        let cs = ms / 10
        return pad(cs / 360_000, 2) + pad(cs / 6000 % 60, 2) + pad(cs / 100 % 60, 2) + "." + pad(cs % 100, 2)
    }

    /// `ddmmyy`.
    public static func date(_ d: CivilDate) -> String {
        pad(d.day, 2) + pad(d.month, 2) + pad(d.year % 100, 2)
    }

    /// `ddmm.mmmmm,N` or `dddmm.mmmmm,E` (5 decimals of minutes).
    public static func angle(_ value: Double, degreeDigits: Int, positive: String, negative: String) -> String {
        let a = abs(value)
        var degrees = Int(a)
        var minutes100k = Int(((a - Double(degrees)) * 60 * 100_000).rounded())
        if minutes100k >= 6_000_000 {
            degrees += 1
            minutes100k -= 6_000_000
        }
        return pad(degrees, degreeDigits) + pad(minutes100k / 100_000, 2) + "." + pad(minutes100k % 100_000, 5)
            + "," + (value < 0 ? negative : positive)
    }

    /// `value` with `decimals` decimals.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let unit = Int(scale)
        let text = decimals == 0 ? String(scaled) : String(scaled / unit) + "." + pad(scaled % unit, decimals)
        return (value < 0 && scaled != 0 ? "-" : "") + text
    }

    static func pad(_ v: Int, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }
}
