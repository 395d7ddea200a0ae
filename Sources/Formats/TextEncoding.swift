/// The encoding of an XML file, told from its first bytes, and a streaming conversion to UTF-8.
///
/// XML 1.0 (appendix F): a byte-order mark, or the first characters `<?` in UTF-16, say which
/// encoding a document uses. Garmin BaseCamp writes UTF-8 with a byte-order mark; some Windows
/// tools write UTF-16. The scanner reads UTF-8 only, so the rest is converted before it.
public struct TextEncoding: Sendable {
    public enum Kind: Equatable, Sendable {
        case utf8, utf16LittleEndian, utf16BigEndian
    }

    /// Bytes kept back until the encoding is known (a byte-order mark is at most 3 bytes), and
    /// then an odd byte or a lone high surrogate waiting for the rest of its character.
    private var pending: [UInt8] = []
    private var highSurrogate: UInt16?
    public private(set) var kind: Kind?

    public init() {}

    /// The encoding the first bytes of a document announce, and how many bytes of byte-order
    /// mark to skip; nil when more bytes are needed to tell (fewer than 4 and not `final`).
    public static func detect(_ head: some Collection<UInt8>, final: Bool) -> (kind: Kind, skip: Int)? {
        let b = Array(head.prefix(4))
        if b.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if b.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
        if b.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
        if b.count < 4 && !final
            && [[0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF], [0x3C, 0x00], [0x00, 0x3C]]
                .contains(where: { $0.starts(with: b) || b.starts(with: $0) })
        {
            return nil
        }
        if b.starts(with: [0x3C, 0x00]) { return (.utf16LittleEndian, 0) }
        if b.starts(with: [0x00, 0x3C]) { return (.utf16BigEndian, 0) }
        return (.utf8, 0)
    }

    /// The first bytes of a document as UTF-8 (for telling what a file is).
    public static func utf8Prefix(_ head: UnsafeRawBufferPointer) -> [UInt8] {
        var encoding = TextEncoding()
        var out = encoding.convert(head)
        out += encoding.finish()
        return out
    }

    /// Converts the next bytes of the document to UTF-8 (what cannot be converted yet is kept
    /// for the next call). A UTF-16 code unit that is not a valid character becomes U+FFFD.
    public mutating func convert(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        if kind == .utf8 { return Array(bytes) }
        pending.append(contentsOf: bytes)
        return drain(final: false)
    }

    /// Converts what is left at the end of the document.
    public mutating func finish() -> [UInt8] { drain(final: true) }

    private mutating func drain(final: Bool) -> [UInt8] {
        if kind == nil {
            guard let (found, skip) = Self.detect(pending, final: final) else { return [] }
            kind = found
            pending.removeFirst(Swift.min(skip, pending.count))
            if found == .utf8 {
                defer { pending = [] }
                return pending
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(pending.count)
        var i = 0
        while i + 1 < pending.count {
            let unit =
                kind == .utf16LittleEndian
                ? UInt16(pending[i]) | UInt16(pending[i + 1]) << 8 : UInt16(pending[i]) << 8 | UInt16(pending[i + 1])
            i += 2
            if let high = highSurrogate {
                highSurrogate = nil
                if (0xDC00...0xDFFF).contains(unit) {
                    let scalar = 0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(unit - 0xDC00)
                    Self.append(Unicode.Scalar(scalar)!, to: &out)
                    continue
                }
                Self.append("\u{FFFD}", to: &out)
            }
            if (0xD800...0xDBFF).contains(unit) {
                highSurrogate = unit
            } else if let scalar = Unicode.Scalar(unit) {
                Self.append(scalar, to: &out)
            } else {
                Self.append("\u{FFFD}", to: &out)
            }
        }
        pending.removeFirst(i)
        if final && (highSurrogate != nil || !pending.isEmpty) {
            Self.append("\u{FFFD}", to: &out)
            highSurrogate = nil
            pending = []
        }
        return out
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        out.append(contentsOf: UTF8.encode(scalar)!)
    }
}
