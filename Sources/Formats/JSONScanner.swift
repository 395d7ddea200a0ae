import Foundation

/// What a ``JSONScanner`` hands over: one token at a time, in document order.
public protocol JSONHandler {
    /// A token. For ``JSONScanner/Token/key`` and ``JSONScanner/Token/string`` `bytes` is the
    /// string's UTF-8 with its escapes decoded; for ``JSONScanner/Token/number`` the number as
    /// written. `bytes` is valid only during the call.
    mutating func token(_ token: JSONScanner.Token, _ bytes: UnsafeRawBufferPointer) throws
}

/// A small streaming JSON reader: fed the file in chunks of any size, it hands each token to a
/// ``JSONHandler`` as soon as the token is whole, and checks the grammar as it goes (RFC 8259).
///
/// Memory is bounded whatever the file: a single token longer than ``maxTokenBytes`` (a 100 MB
/// string) and nesting deeper than ``maxDepth`` are errors, so it holds about one token and one
/// byte per open container. Errors say the byte offset where the document went wrong.
public struct JSONScanner {
    public enum Token: Equatable, Sendable {
        case objectStart, objectEnd, arrayStart, arrayEnd, key, string, number, `true`, `false`, null
    }

    /// What is wrong with the document, and at which byte (0-based, of the decompressed text).
    public struct Failure: Error, Equatable, CustomStringConvertible, Sendable {
        public var offset: Int
        public var reason: String
        public var description: String { "at byte \(offset): \(reason)" }
    }

    public static let maxTokenBytes = 1 << 20
    public static let maxDepth = 512

    /// What may come next.
    private enum Expect: UInt8 {
        /// A value (the document's, after `:`, or after `,` in an array).
        case value
        /// A value or `]` (after `[`).
        case valueOrEnd
        /// A key or `}` (after `{`).
        case keyOrEnd
        /// A key (after `,` in an object).
        case key
        case colon
        /// `,` or the end of the open container.
        case commaOrEnd
        /// Nothing but whitespace (after the document's value).
        case nothing
    }

    private var pending: [UInt8] = []
    /// Bytes of the document before `pending`.
    private var consumedBefore = 0
    /// The open containers: `[` or `{`.
    private var open: [UInt8] = []
    private var expect = Expect.value
    private var scratch: [UInt8] = []
    private var sawBOMCheck = false
    /// Whether the text is a sequence of values rather than one (JSON Lines: a value per line).
    private let sequence: Bool

    /// A scanner of one JSON document, or with `sequence` of values one after another (JSON
    /// Lines, as Dawarich writes its archive's months).
    public init(sequence: Bool = false) { self.sequence = sequence }

    /// Makes the scanner ready for another document, keeping the memory it has (a reader of a
    /// document per line uses one scanner for all of them).
    public mutating func reset() {
        pending.removeAll(keepingCapacity: true)
        open.removeAll(keepingCapacity: true)
        consumedBefore = 0
        expect = .value
        sawBOMCheck = false
    }

    /// Scans `bytes`, handing each whole token to `handler`.
    public mutating func feed<H: JSONHandler>(_ bytes: UnsafeRawBufferPointer, _ handler: inout H) throws {
        if pending.isEmpty {
            // Scan the chunk where it lies; only a token cut at its end is kept.
            let used = try scan(bytes, final: false, &handler)
            consumedBefore += used
            pending.append(contentsOf: bytes[used...])
        } else {
            pending.append(contentsOf: bytes)
            let used = try pending.withUnsafeBytes { try scan($0, final: false, &handler) }
            consumedBefore += used
            pending.removeFirst(used)
        }
        if pending.count > Self.maxTokenBytes {
            throw Failure(
                offset: consumedBefore, reason: "a single value is longer than 1 MB (a string that never ends?)")
        }
    }

    /// Ends the document: a value left open means the file was cut short.
    public mutating func finish<H: JSONHandler>(_ handler: inout H) throws {
        let used = try pending.withUnsafeBytes { try scan($0, final: true, &handler) }
        consumedBefore += used
        pending.removeFirst(used)
        if !open.isEmpty || expect != .nothing && !(sequence && expect == .value) {
            let what =
                open.last == UInt8(ascii: "{")
                ? "an object" : open.last == UInt8(ascii: "[") ? "an array" : "a value"
            throw Failure(offset: consumedBefore, reason: "the file ends inside \(what) (it looks truncated)")
        }
    }

    private func fail(_ at: Int, _ reason: String) -> Failure { Failure(offset: consumedBefore + at, reason: reason) }

    /// Describes the byte at `i` for an error.
    private static func shown(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    /// Scans whole tokens of `b`; returns how many bytes were used (the rest is a token cut at
    /// the end, unless `final`).
    private mutating func scan<H: JSONHandler>(
        _ b: UnsafeRawBufferPointer, final: Bool, _ handler: inout H
    ) throws -> Int {
        let n = b.count
        var i = 0
        if !sawBOMCheck, consumedBefore == 0 {
            if n < 3 && !final { return 0 }
            sawBOMCheck = true
            if n >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { i = 3 }
        }
        while i < n {
            let c = b[i]
            switch c {
            case 0x20, 0x0A, 0x0D, 0x09:
                i += 1
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard expect == .value || expect == .valueOrEnd else { throw unexpected(b, i) }
                guard open.count < Self.maxDepth else {
                    throw fail(i, "it nests deeper than \(Self.maxDepth) levels")
                }
                open.append(c)
                expect = c == UInt8(ascii: "{") ? .keyOrEnd : .valueOrEnd
                try handler.token(
                    c == UInt8(ascii: "{") ? .objectStart : .arrayStart, UnsafeRawBufferPointer(start: nil, count: 0))
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                let opener = c == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "[")
                let canEnd =
                    expect == .commaOrEnd || (opener == UInt8(ascii: "{") ? expect == .keyOrEnd : expect == .valueOrEnd)
                guard canEnd, open.last == opener else { throw unexpected(b, i) }
                open.removeLast()
                expect = open.isEmpty ? (sequence ? .value : .nothing) : .commaOrEnd
                try handler.token(
                    c == UInt8(ascii: "}") ? .objectEnd : .arrayEnd, UnsafeRawBufferPointer(start: nil, count: 0))
                i += 1
            case UInt8(ascii: ","):
                guard expect == .commaOrEnd else { throw unexpected(b, i) }
                expect = open.last == UInt8(ascii: "{") ? .key : .value
                i += 1
            case UInt8(ascii: ":"):
                guard expect == .colon else { throw unexpected(b, i) }
                expect = .value
                i += 1
            case UInt8(ascii: "\""):
                let isKey = expect == .key || expect == .keyOrEnd
                guard isKey || expect == .value || expect == .valueOrEnd else { throw unexpected(b, i) }
                // Find the closing quote; note whether anything needs decoding.
                var j = i + 1
                var escaped = false
                while j < n {
                    let d = b[j]
                    if d == UInt8(ascii: "\"") { break }
                    if d == UInt8(ascii: "\\") {
                        escaped = true
                        j += 2
                        continue
                    }
                    if d < 0x20 { throw fail(j, "a control character (\(Self.shown(d))) is inside a string") }
                    j += 1
                }
                if j >= n {
                    if final { throw fail(i, "a string never ends (the file looks truncated)") }
                    return i
                }
                let raw = UnsafeRawBufferPointer(rebasing: b[(i + 1)..<j])
                let kind: Token = isKey ? .key : .string
                expect = isKey ? .colon : .commaOrEnd
                if escaped {
                    try decodeEscapes(raw, at: i + 1)
                    try scratch.withUnsafeBytes { try handler.token(kind, $0) }
                } else {
                    try handler.token(kind, raw)
                }
                i = j + 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard expect == .value || expect == .valueOrEnd else { throw unexpected(b, i) }
                var j = i + 1
                while j < n {
                    let d = b[j]
                    guard (d >= 0x30 && d <= 0x39) || d == 0x2E || d == 0x65 || d == 0x45 || d == 0x2B || d == 0x2D
                    else { break }
                    j += 1
                }
                if j == n && !final { return i }
                let raw = UnsafeRawBufferPointer(rebasing: b[i..<j])
                guard Self.isNumber(raw) else {
                    throw fail(i, "\"\(String(decoding: raw.prefix(40), as: UTF8.self))\" is not a JSON number")
                }
                expect = .commaOrEnd
                try handler.token(.number, raw)
                i = j
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                guard expect == .value || expect == .valueOrEnd else { throw unexpected(b, i) }
                let (word, token): ([UInt8], Token) =
                    c == UInt8(ascii: "t")
                    ? (Array("true".utf8), .true)
                    : c == UInt8(ascii: "f") ? (Array("false".utf8), .false) : (Array("null".utf8), .null)
                if i + word.count > n {
                    if final { throw fail(i, "the file ends inside a value (it looks truncated)") }
                    return i
                }
                for k in 0..<word.count where b[i + k] != word[k] { throw unexpected(b, i) }
                expect = .commaOrEnd
                try handler.token(token, UnsafeRawBufferPointer(start: nil, count: 0))
                i += word.count
            default:
                throw unexpected(b, i)
            }
        }
        return n
    }

    /// The error for a byte that cannot come where it is.
    private func unexpected(_ b: UnsafeRawBufferPointer, _ i: Int) -> Failure {
        let wanted: String
        switch expect {
        case .value, .valueOrEnd: wanted = "a value"
        case .keyOrEnd, .key: wanted = "a key in quotes"
        case .colon: wanted = "':'"
        case .commaOrEnd: wanted = open.last == UInt8(ascii: "{") ? "',' or '}'" : "',' or ']'"
        case .nothing: wanted = "the end of the file"
        }
        return fail(i, "\(Self.shown(b[i])) where \(wanted) should be")
    }

    /// Whether `raw` is a number as JSON writes them: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    static func isNumber(_ raw: UnsafeRawBufferPointer) -> Bool {
        var i = 0
        let n = raw.count
        func digits() -> Int {
            let start = i
            while i < n && raw[i] >= 0x30 && raw[i] <= 0x39 { i += 1 }
            return i - start
        }
        if i < n && raw[i] == 0x2D { i += 1 }
        let start = i
        let whole = digits()
        guard whole > 0, whole == 1 || raw[start] != 0x30 else { return false }
        if i < n && raw[i] == 0x2E {
            i += 1
            guard digits() > 0 else { return false }
        }
        if i < n && (raw[i] == 0x65 || raw[i] == 0x45) {
            i += 1
            if i < n && (raw[i] == 0x2B || raw[i] == 0x2D) { i += 1 }
            guard digits() > 0 else { return false }
        }
        return i == n
    }

    /// Decodes a string's escapes into `scratch`.
    private mutating func decodeEscapes(_ raw: UnsafeRawBufferPointer, at offset: Int) throws {
        scratch.removeAll(keepingCapacity: true)
        var i = 0
        let n = raw.count
        func hex4(_ at: Int) throws -> UInt32 {
            guard at + 4 <= n else { throw fail(offset + at, "a \\u escape has fewer than four hex digits") }
            var v: UInt32 = 0
            for k in 0..<4 {
                let d = raw[at + k]
                let x: UInt8
                switch d {
                case 0x30...0x39: x = d - 0x30
                case 0x41...0x46: x = d - 0x41 + 10
                case 0x61...0x66: x = d - 0x61 + 10
                default: throw fail(offset + at, "a \\u escape has fewer than four hex digits")
                }
                v = v << 4 | UInt32(x)
            }
            return v
        }
        while i < n {
            let c = raw[i]
            guard c == UInt8(ascii: "\\") else {
                scratch.append(c)
                i += 1
                continue
            }
            guard i + 1 < n else { throw fail(offset + i, "a string ends in a lone backslash") }
            let e = raw[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scratch.append(e)
            case UInt8(ascii: "b"): scratch.append(0x08)
            case UInt8(ascii: "f"): scratch.append(0x0C)
            case UInt8(ascii: "n"): scratch.append(0x0A)
            case UInt8(ascii: "r"): scratch.append(0x0D)
            case UInt8(ascii: "t"): scratch.append(0x09)
            case UInt8(ascii: "u"):
                var v = try hex4(i)
                i += 4
                if v >= 0xD800 && v < 0xDC00, i + 6 <= n, raw[i] == UInt8(ascii: "\\"), raw[i + 1] == UInt8(ascii: "u")
                {
                    let low = try hex4(i + 2)
                    if low >= 0xDC00 && low < 0xE000 {
                        v = 0x10000 + ((v - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                }
                // A lone surrogate becomes U+FFFD.
                let scalar = Unicode.Scalar(v) ?? "\u{FFFD}"
                scratch.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                throw fail(offset + i - 2, "\"\\\(Character(Unicode.Scalar(e)))\" is not a JSON escape")
            }
        }
    }
}

/// Numbers and texts of JSON tokens, read without making a `String` where none is needed.
public enum JSONValue {
    /// The number in `raw` (a JSON number, checked by the scanner).
    public static func double(_ raw: UnsafeRawBufferPointer) -> Double {
        // The exact fast path: up to 15 significant digits and a small power of ten.
        let n = raw.count
        let negative = isNegative(raw)
        var i = negative ? 1 : 0
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        while i < n, raw[i] >= 0x30, raw[i] <= 0x39 {
            mantissa = mantissa &* 10 &+ UInt64(raw[i] - 0x30)
            digits += 1
            i += 1
        }
        if i < n && raw[i] == 0x2E {
            i += 1
            while i < n, raw[i] >= 0x30, raw[i] <= 0x39 {
                mantissa = mantissa &* 10 &+ UInt64(raw[i] - 0x30)
                digits += 1
                scale -= 1
                i += 1
            }
        }
        if i == n && digits <= 15 && scale >= -22 {
            let value = scale == 0 ? Double(mantissa) : Double(mantissa) / powersOfTen[-scale]
            return negative ? -value : value
        }
        return strtod(raw)
    }

    @inline(__always)
    private static func isNegative(_ raw: UnsafeRawBufferPointer) -> Bool { raw.first == 0x2D }

    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    private static func strtod(_ raw: UnsafeRawBufferPointer) -> Double {
        var text = [CChar](repeating: 0, count: raw.count + 1)
        for k in 0..<raw.count { text[k] = CChar(bitPattern: raw[k]) }
        return Foundation.strtod(text, nil)
    }

    /// The number in `raw` when it is a whole number that fits 64 bits (nil otherwise).
    public static func integer(_ raw: UnsafeRawBufferPointer) -> Int64? {
        let n = raw.count
        let negative = isNegative(raw)
        var i = negative ? 1 : 0
        guard i < n, n - i <= 18 else { return nil }
        var v: Int64 = 0
        while i < n {
            let d = raw[i]
            guard d >= 0x30 && d <= 0x39 else { return nil }
            v = v * 10 + Int64(d - 0x30)
            i += 1
        }
        return negative ? -v : v
    }

    /// The token's text.
    public static func string(_ raw: UnsafeRawBufferPointer) -> String { String(decoding: raw, as: UTF8.self) }

    /// Whether `raw` holds exactly the bytes of `text`.
    @inline(__always)
    public static func equals(_ raw: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
        guard raw.count == text.utf8CodeUnitCount else { return false }
        let t = text.utf8Start
        for k in 0..<raw.count where raw[k] != t[k] { return false }
        return true
    }
}
