import GPSCore

#if canImport(Glibc)
    import Glibc
#endif

/// Prints live fixes: CSV or JSON Lines (the decode columns), or text — one line per fix,
/// or on a terminal a single line rewritten in place.
struct FixPrinter: ~Copyable {
    let format: FixFormat
    /// Standard output is a terminal: text mode rewrites one line.
    let live: Bool
    private var out = OutputBuffer()
    private var headerDone = false
    private var lineOpen = false

    init(format: FixFormat, live: Bool) {
        self.format = format
        self.live = live
    }

    mutating func print(_ fix: Fix) throws {
        switch format {
        case .csv:
            if !headerDone {
                out.appendCSVHeader()
                headerDone = true
            }
            out.appendCSVRow(fix)
        case .jsonl:
            out.appendJSONLine(fix)
        case .text:
            if live { out.append("\r\u{1B}[K") }
            out.append(Self.text(fix))
            if !live { out.append(0x0A) }
            lineOpen = live
        }
        try out.flush()
    }

    /// A state change (connected, disconnected): on standard error, so data output stays clean.
    mutating func note(_ message: String) throws {
        if lineOpen {
            out.append(0x0A)
            try out.flush()
            lineOpen = false
        }
        printError("trailbook watch: \(message)")
    }

    mutating func finish() throws {
        if lineOpen { out.append(0x0A) }
        if format == .csv && !headerDone { out.appendCSVHeader() }
        try out.flush()
    }

    /// `06:30:01Z  3D  47.376900 8.541700  412.5 m  23.4 km/h  212°  sats 9/12  HDOP 0.9`
    static func text(_ f: Fix) -> String {
        var parts: [String] = []
        if let t = f.timeOfDay {
            let s = t / 1000
            parts.append(pad(s / 3600) + ":" + pad(s / 60 % 60) + ":" + pad(s % 60) + "Z")
        }
        switch f.mode {
        case .threeD: parts.append("3D")
        case .twoD: parts.append("2D")
        default: parts.append("no fix")
        }
        if let c = f.coordinate {
            parts.append(fixed(c.latitude, 6) + " " + fixed(c.longitude, 6))
            if let a = f.altitudeMSL { parts.append(fixed(a, 1) + " m") }
            if let v = f.speed { parts.append(fixed(v * 3.6, 1) + " km/h") }
            if let tr = f.track { parts.append(fixed(tr, 0) + "°") }
        }
        if let used = f.satellitesUsed {
            parts.append("sats \(used)" + (f.satellitesInView.map { "/\($0)" } ?? ""))
        }
        if let h = f.hdop { parts.append("HDOP " + fixed(h, 1)) }
        return parts.joined(separator: "  ")
    }

    private static func pad(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    private static func fixed(_ v: Double, _ decimals: Int) -> String {
        var b = OutputBuffer(fd: -1, capacity: 32)
        b.append(v, decimals: decimals)
        return b.text
    }
}
