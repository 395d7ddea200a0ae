/// Validates one framed candidate (checksum, address) and decodes it into a ``Sentence``.
///
/// The sentence type table works like gpsd's `nmea_phrase[]`: the three-letter type, with
/// the talker stripped, selects the decoder and its minimum field count, so GP, GN, GL,
/// GA, GB, BD, QZ, ... all decode alike.
///
/// Checksums: a sentence with `*HH` must match. A sentence without one is accepted only from
/// a receiver that never sends checksums: while no checksummed sentence has been seen, the
/// first ``checksumlessProbation`` checksum-less sentences are held back; if that many arrive
/// before any checksummed one, the stream is taken as checksum-free and they are decoded in
/// order. Once any sentence with a valid checksum has arrived, sentences without one are
/// rejected (a line cut short by a serial error loses its checksum first).
public final class SentenceParser {
    /// Checksum-less sentences needed, before any checksummed one, to accept a stream without checksums.
    public static let checksumlessProbation = 3

    /// What happened to one candidate.
    public enum Outcome: Equatable {
        case decoded(Sentence)
        case rejected(NMEAError)
        /// Held back until the stream shows whether it carries checksums.
        case held
    }

    private let bounds: UnsafeMutableBufferPointer<UInt8>
    private var checksumMode = ChecksumMode.undecided
    private var heldBack: [[UInt8]] = []
    private var fieldCount = 0

    private enum ChecksumMode { case undecided, required, absent }

    public init() {
        bounds = .allocate(capacity: NMEAFramer.maxLength + 2)
    }

    deinit { bounds.deallocate() }

    /// Checks and decodes one candidate from ``NMEAFramer``. `emit` receives the outcome of this
    /// candidate and, when the checksum policy releases them, of earlier held ones first.
    public func parse(_ candidate: UnsafeBufferPointer<UInt8>, _ emit: (Outcome) throws -> Void) rethrows {
        var end = candidate.count
        while end > 1 && candidate[end - 1] == ASCII.space { end -= 1 }
        // "*HH" at the end: the body stops before it.
        let hasChecksum = end >= 4 && candidate[end - 3] == ASCII.star
        let bodyEnd = hasChecksum ? end - 3 : end
        // One pass: checksum and field boundaries together.
        let sum = split(candidate, bodyEnd: bodyEnd)
        if hasChecksum {
            guard let hi = ASCII.hexValue(candidate[end - 2]), let lo = ASCII.hexValue(candidate[end - 1]),
                sum == hi << 4 | lo
            else { return try emit(.rejected(.badChecksum)) }
            if checksumMode != .required {
                checksumMode = .required
                heldBack.removeAll()
            }
            return try emit(decode(candidate, bodyEnd: bodyEnd))
        }
        if end >= 2 && (candidate[end - 1] == ASCII.star || candidate[end - 2] == ASCII.star) {
            return try emit(.rejected(.badChecksum))  // "*" followed by fewer than two digits
        }
        switch checksumMode {
        case .required:
            return try emit(.rejected(.missingChecksum))
        case .undecided:
            heldBack.append(Array(candidate[0..<end]))
            guard heldBack.count >= Self.checksumlessProbation else { return try emit(.held) }
            checksumMode = .absent
            let held = heldBack
            heldBack = []
            for h in held {
                try h.withUnsafeBufferPointer { p in
                    _ = split(p, bodyEnd: p.count)
                    try emit(decode(p, bodyEnd: p.count))
                }
            }
        case .absent:
            try emit(decode(candidate, bodyEnd: bodyEnd))
        }
    }

    /// Records field boundaries of `bytes[1..<bodyEnd]` in `bounds` and returns the XOR of those bytes.
    ///
    /// Eight bytes at a time: the XOR folds whole words, and commas are found with an exact
    /// zero-byte test on `word ^ ",,,,,,,,"` (no carries between bytes, so no false hits).
    @inline(__always)
    private func split(_ bytes: UnsafeBufferPointer<UInt8>, bodyEnd: Int) -> UInt8 {
        var count = 0
        bounds[0] = 1
        var k = 1
        var wide: UInt64 = 0
        #if _endian(little)
            let base = UnsafeRawPointer(bytes.baseAddress!)
            let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            let commas: UInt64 = 0x2C2C_2C2C_2C2C_2C2C
            while k + 8 <= bodyEnd {
                let w = base.loadUnaligned(fromByteOffset: k, as: UInt64.self)
                wide ^= w
                let x = w ^ commas
                var hits = ~(((x & low7) &+ low7) | x | low7)
                while hits != 0 {
                    count += 1
                    bounds[count] = UInt8(truncatingIfNeeded: k + hits.trailingZeroBitCount >> 3 + 1)
                    hits &= hits &- 1
                }
                k += 8
            }
        #endif
        var sum = UInt8(truncatingIfNeeded: wide ^ wide >> 32 ^ wide >> 16 ^ wide >> 48)
        sum ^= UInt8(truncatingIfNeeded: (wide ^ wide >> 32 ^ wide >> 16 ^ wide >> 48) >> 8)
        while k < bodyEnd {
            let b = bytes[k]
            sum ^= b
            k += 1
            if b == ASCII.comma {
                count += 1
                bounds[count] = UInt8(truncatingIfNeeded: k)
            }
        }
        fieldCount = count + 1
        bounds[fieldCount] = UInt8(truncatingIfNeeded: bodyEnd + 1)
        return sum
    }

    /// Runs the decoder for the type of the sentence whose fields ``split(_:bodyEnd:)`` found.
    private func decode(_ bytes: UnsafeBufferPointer<UInt8>, bodyEnd: Int) -> Outcome {
        let fields = Fields(
            bytes: UnsafeBufferPointer(start: bytes.baseAddress, count: bodyEnd),
            bounds: UnsafeBufferPointer(bounds), count: fieldCount)

        let address = fields.range(0)
        // An address is upper-case letters and digits: `$HOME/x` in a text file is not NMEA.
        for k in address {
            let c = bytes[k]
            guard (0x41...0x5A).contains(c) || ASCII.isDigit(c) else { return .rejected(.badAddress) }
        }
        guard address.count == 5 else {
            return .rejected(address.count >= 2 && address.count <= 8 ? .unsupported : .badAddress)
        }
        let a = address.lowerBound
        if bytes[a] == 0x50 { return .rejected(.unsupported) }  // "P": proprietary
        let talker = Talker(bytes[a], bytes[a + 1])
        let type = UInt32(bytes[a + 2]) << 16 | UInt32(bytes[a + 3]) << 8 | UInt32(bytes[a + 4])
        do throws(NMEAError) {
            let body: Sentence.Body
            switch type {
            case Code.gga: body = .gga(try Self.checked(GGA.minimumFields, fields, GGA.decode))
            case Code.rmc: body = .rmc(try Self.checked(RMC.minimumFields, fields, RMC.decode))
            case Code.gll: body = .gll(try Self.checked(GLL.minimumFields, fields, GLL.decode))
            case Code.gns: body = .gns(try Self.checked(GNS.minimumFields, fields, GNS.decode))
            case Code.vtg: body = .vtg(try Self.checked(VTG.minimumFields, fields, VTG.decode))
            case Code.gsa: body = .gsa(try Self.checked(GSA.minimumFields, fields, GSA.decode))
            case Code.gsv: body = .gsv(try Self.checked(GSV.minimumFields, fields, GSV.decode))
            case Code.gst: body = .gst(try Self.checked(GST.minimumFields, fields, GST.decode))
            case Code.zda: body = .zda(try Self.checked(ZDA.minimumFields, fields, ZDA.decode))
            case Code.txt: body = .txt(try Self.checked(TXT.minimumFields, fields, TXT.decode))
            default: return .rejected(.unsupported)
            }
            return .decoded(Sentence(talker: talker, body: body))
        } catch {
            return .rejected(error)
        }
    }

    /// Sentence types as three ASCII bytes packed big-endian into a `UInt32`.
    private enum Code {
        static let gga: UInt32 = 0x47_4741
        static let rmc: UInt32 = 0x52_4D43
        static let gll: UInt32 = 0x47_4C4C
        static let gns: UInt32 = 0x47_4E53
        static let vtg: UInt32 = 0x56_5447
        static let gsa: UInt32 = 0x47_5341
        static let gsv: UInt32 = 0x47_5356
        static let gst: UInt32 = 0x47_5354
        static let zda: UInt32 = 0x5A_4441
        static let txt: UInt32 = 0x54_5854
    }

    @inline(__always)
    private static func checked<T>(
        _ minimum: Int, _ fields: Fields, _ decode: (Fields) throws(NMEAError) -> T
    ) throws(NMEAError) -> T {
        guard fields.count >= minimum else { throw .tooFewFields(needed: minimum, got: fields.count) }
        return try decode(fields)
    }
}
