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
        // Locate "*HH" at the end.
        var bodyEnd = end
        var hasChecksum = false
        if end >= 4 && candidate[end - 3] == ASCII.star {
            guard let hi = ASCII.hexValue(candidate[end - 2]), let lo = ASCII.hexValue(candidate[end - 1]) else {
                return try emit(.rejected(.badChecksum))
            }
            var sum: UInt8 = 0
            for k in 1..<(end - 3) { sum ^= candidate[k] }
            guard sum == hi << 4 | lo else { return try emit(.rejected(.badChecksum)) }
            bodyEnd = end - 3
            hasChecksum = true
        } else if let star = candidate[0..<end].lastIndex(of: ASCII.star), star >= end - 3 {
            return try emit(.rejected(.badChecksum))  // "*" followed by fewer than two digits
        }
        if hasChecksum {
            if checksumMode != .required {
                checksumMode = .required
                heldBack.removeAll()
            }
        } else {
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
                    try h.withUnsafeBufferPointer { try emit(decode($0, bodyEnd: $0.count)) }
                }
                return
            case .absent:
                break
            }
        }
        try emit(decode(candidate, bodyEnd: bodyEnd))
    }

    /// Splits `bytes[1..<bodyEnd]` into fields and runs the decoder for its type.
    private func decode(_ bytes: UnsafeBufferPointer<UInt8>, bodyEnd: Int) -> Outcome {
        // bounds[i] = offset of field i; the sentinel after the last is bodyEnd + 1.
        var count = 0
        bounds[0] = 1
        for k in 1..<bodyEnd where bytes[k] == ASCII.comma {
            count += 1
            bounds[count] = UInt8(k + 1)
        }
        count += 1
        bounds[count] = UInt8(bodyEnd + 1)
        let fields = Fields(
            bytes: UnsafeBufferPointer(start: bytes.baseAddress, count: bodyEnd),
            bounds: UnsafeBufferPointer(bounds), count: count)

        let address = fields.range(0)
        guard address.count == 5 else {
            return .rejected(address.count >= 2 && address.count <= 8 ? .unsupported : .badAddress)
        }
        for k in address {
            let c = bytes[k]
            guard (0x41...0x5A).contains(c) || ASCII.isDigit(c) else { return .rejected(.badAddress) }
        }
        let a = address.lowerBound
        if bytes[a] == 0x50 { return .rejected(.unsupported) }  // "P": proprietary
        let talker = Talker(bytes[a], bytes[a + 1])
        let type = UInt32(bytes[a + 2]) << 16 | UInt32(bytes[a + 3]) << 8 | UInt32(bytes[a + 4])
        do throws(NMEAError) {
            let body: Sentence.Body
            switch type {
            case Self.code("GGA"): body = .gga(try Self.checked(GGA.minimumFields, fields, GGA.decode))
            case Self.code("RMC"): body = .rmc(try Self.checked(RMC.minimumFields, fields, RMC.decode))
            case Self.code("GLL"): body = .gll(try Self.checked(GLL.minimumFields, fields, GLL.decode))
            case Self.code("GNS"): body = .gns(try Self.checked(GNS.minimumFields, fields, GNS.decode))
            case Self.code("VTG"): body = .vtg(try Self.checked(VTG.minimumFields, fields, VTG.decode))
            case Self.code("GSA"): body = .gsa(try Self.checked(GSA.minimumFields, fields, GSA.decode))
            case Self.code("GSV"): body = .gsv(try Self.checked(GSV.minimumFields, fields, GSV.decode))
            case Self.code("GST"): body = .gst(try Self.checked(GST.minimumFields, fields, GST.decode))
            case Self.code("ZDA"): body = .zda(try Self.checked(ZDA.minimumFields, fields, ZDA.decode))
            case Self.code("TXT"): body = .txt(try Self.checked(TXT.minimumFields, fields, TXT.decode))
            default: return .rejected(.unsupported)
            }
            return .decoded(Sentence(talker: talker, body: body))
        } catch {
            return .rejected(error)
        }
    }

    @inline(__always)
    private static func checked<T>(
        _ minimum: Int, _ fields: Fields, _ decode: (Fields) throws(NMEAError) -> T
    ) throws(NMEAError) -> T {
        guard fields.count >= minimum else { throw .tooFewFields(needed: minimum, got: fields.count) }
        return try decode(fields)
    }

    private static func code(_ s: StaticString) -> UInt32 {
        let p = s.utf8Start
        return UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
    }
}
