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
    /// The fields of the sentence decoded last (for the text of a TXT).
    private var lastDecoded: Fields?

    private enum ChecksumMode { case undecided, required, absent }

    public init() {
        bounds = .allocate(capacity: NMEAFramer.maxLength + 2)
    }

    deinit { bounds.deallocate() }

    /// Checks and decodes one candidate from ``NMEAFramer``. `emit` receives the outcome of this
    /// candidate and, when the checksum policy releases them, of earlier held ones first.
    public func parse(_ candidate: UnsafeBufferPointer<UInt8>, _ emit: (Outcome) throws -> Void) rethrows {
        try admit(check(candidate), candidate) { outcome in
            switch outcome {
            case .decoded(let r): try emit(.decoded(sentence(r)))
            case .rejected(let error): try emit(.rejected(error))
            case .held: try emit(.held)
            }
        }
    }

    /// What the decoder's own path receives: ``Outcome`` with the sentence as a ``SentenceRecord``.
    enum RecordOutcome {
        case decoded(SentenceRecord)
        case rejected(NMEAError)
        case held
    }

    /// What one candidate is before the stream's checksum policy applies: the part of
    /// ``parse(_:_:)`` that depends on the candidate alone, so candidates can be checked on
    /// several threads and admitted in order on one (``admit(_:_:_:)``).
    enum Checked {
        /// Its checksum matched and it decoded to this.
        case decoded(SentenceRecord)
        /// Its checksum matched but it did not decode.
        case rejected(NMEAError)
        /// Its checksum did not match, or `*` was followed by fewer than two digits.
        case badChecksum
        /// It has no checksum: what becomes of it depends on the stream (``admit(_:_:_:)``).
        case unchecked
    }

    /// Checks the checksum of `candidate` and, when it matches, decodes it. Uses no state of the
    /// stream, only this parser's scratch space.
    func check(_ candidate: UnsafeBufferPointer<UInt8>) -> Checked {
        let end = Self.trimmedEnd(candidate)
        // "*HH" at the end: the body stops before it.
        let hasChecksum = end >= 4 && candidate[end - 3] == ASCII.star
        guard hasChecksum else {
            if end >= 2 && (candidate[end - 1] == ASCII.star || candidate[end - 2] == ASCII.star) {
                return .badChecksum  // "*" followed by fewer than two digits
            }
            return .unchecked
        }
        let bodyEnd = end - 3
        // One pass: checksum and field boundaries together.
        let sum = split(candidate, bodyEnd: bodyEnd)
        guard let hi = ASCII.hexValue(candidate[end - 2]), let lo = ASCII.hexValue(candidate[end - 1]),
            sum == hi << 4 | lo
        else { return .badChecksum }
        switch decode(candidate, bodyEnd: bodyEnd) {
        case .decoded(let r): return .decoded(r)
        case .rejected(let error): return .rejected(error)
        case .held: return .unchecked  // decode never holds
        }
    }

    /// Applies the stream's checksum policy to a candidate ``check(_:)`` has seen (`candidate`
    /// is read only when it is ``Checked/unchecked``), in the stream's order.
    @inline(__always)
    func admit(
        _ checked: Checked, _ candidate: UnsafeBufferPointer<UInt8>, _ emit: (RecordOutcome) throws -> Void
    ) rethrows {
        switch checked {
        case .decoded(let r):
            requireChecksums()
            try emit(.decoded(r))
        case .rejected(let error):
            requireChecksums()
            try emit(.rejected(error))
        case .badChecksum:
            try emit(.rejected(.badChecksum))
        case .unchecked:
            let end = Self.trimmedEnd(candidate)
            switch checksumMode {
            case .required:
                try emit(.rejected(.missingChecksum))
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
                _ = split(candidate, bodyEnd: end)
                try emit(decode(candidate, bodyEnd: end))
            }
        }
    }

    /// A sentence with a valid checksum arrived: from now on every sentence needs one.
    @inline(__always)
    private func requireChecksums() {
        if checksumMode != .required {
            checksumMode = .required
            heldBack.removeAll()
        }
    }

    /// The end of `candidate` without trailing spaces (the first byte is kept).
    @inline(__always)
    private static func trimmedEnd(_ candidate: UnsafeBufferPointer<UInt8>) -> Int {
        var end = candidate.count
        while end > 1 && candidate[end - 1] == ASCII.space { end -= 1 }
        return end
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
    private func decode(_ bytes: UnsafeBufferPointer<UInt8>, bodyEnd: Int) -> RecordOutcome {
        let fields = Fields(
            bytes: UnsafeBufferPointer(start: bytes.baseAddress, count: bodyEnd),
            bounds: UnsafeBufferPointer(bounds), count: fieldCount)
        lastDecoded = fields

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
        let kind: SentenceKind
        let minimum: Int
        switch type {
        case Code.gga: (kind, minimum) = (.gga, GGA.minimumFields)
        case Code.rmc: (kind, minimum) = (.rmc, RMC.minimumFields)
        case Code.gll: (kind, minimum) = (.gll, GLL.minimumFields)
        case Code.gns: (kind, minimum) = (.gns, GNS.minimumFields)
        case Code.vtg: (kind, minimum) = (.vtg, VTG.minimumFields)
        case Code.gsa: (kind, minimum) = (.gsa, GSA.minimumFields)
        case Code.gsv: (kind, minimum) = (.gsv, GSV.minimumFields)
        case Code.gst: (kind, minimum) = (.gst, GST.minimumFields)
        case Code.zda: (kind, minimum) = (.zda, ZDA.minimumFields)
        case Code.txt: (kind, minimum) = (.txt, TXT.minimumFields)
        default: return .rejected(.unsupported)
        }
        guard fields.count >= minimum else { return .rejected(.tooFewFields(needed: minimum, got: fields.count)) }
        var r = SentenceRecord(kind: kind, talker: talker)
        do throws(NMEAError) {
            switch kind {
            case .gga: try GGA.decode(fields, into: &r)
            case .rmc: try RMC.decode(fields, into: &r)
            case .gll: try GLL.decode(fields, into: &r)
            case .gns: try GNS.decode(fields, into: &r)
            case .vtg: try VTG.decode(fields, into: &r)
            case .gsa: try GSA.decode(fields, into: &r)
            case .gsv: try GSV.decode(fields, into: &r)
            case .gst: try GST.decode(fields, into: &r)
            case .zda: try ZDA.decode(fields, into: &r)
            case .txt: try TXT.decode(fields, into: &r)
            }
        } catch {
            return .rejected(error)
        }
        return .decoded(r)
    }

    /// The public form of a record this parser has just decoded (a TXT's text is read from the
    /// sentence's bytes, still in ``lastDecoded``).
    private func sentence(_ r: SentenceRecord) -> Sentence {
        let body: Sentence.Body
        switch r.kind {
        case .gga: body = .gga(GGA(r))
        case .rmc: body = .rmc(RMC(r))
        case .gll: body = .gll(GLL(r))
        case .gns: body = .gns(GNS(r))
        case .vtg: body = .vtg(VTG(r))
        case .gsa: body = .gsa(GSA(r))
        case .gsv: body = .gsv(GSV(r))
        case .gst: body = .gst(GST(r))
        case .zda: body = .zda(ZDA(r))
        case .txt: body = .txt(TXT(kind: r.code.present, text: lastDecoded?.text(4) ?? ""))
        }
        return Sentence(talker: r.talker, body: body)
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

}
