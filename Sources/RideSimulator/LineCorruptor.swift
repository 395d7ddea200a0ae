/// Damages lines of an NMEA log the way a serial line does, to test that nothing is invented
/// from a damaged sentence and that every intact one still decodes.
///
/// Each damaged line gets one of: a flipped bit, a lost byte, an inserted garbage byte, a cut
/// (the rest of the line lost), a lost line end (the next sentence collides with this one),
/// NUL bytes, a burst of binary noise inserted, a doubled `$`, or CR CR LF. Each of these either
/// leaves the sentence whole (NULs, `$$`, CR CR LF, a lost line end) or is one that the XOR
/// checksum always detects.
public struct LineCorruptor {
    /// The kinds of damage.
    public enum Damage: CaseIterable, Sendable {
        case bitFlip, lostByte, insertedByte, cut, lostLineEnd, nulBytes, binaryBurst, doubledDollar, crcrlf

        /// Whether the sentence still decodes after this damage.
        public var keepsSentence: Bool {
            switch self {
            case .lostLineEnd, .nulBytes, .doubledDollar, .crcrlf: return true
            case .bitFlip, .lostByte, .insertedByte, .cut, .binaryBurst: return false
            }
        }
    }

    private var random: SeededGenerator
    /// Fraction of lines damaged, 0...1.
    public let rate: Double

    public init(rate: Double, seed: UInt64) {
        self.rate = rate
        random = SeededGenerator(seed: seed ^ 0xC0FF_EE00)
    }

    /// Damages `line` (a sentence with its CR LF) or leaves it alone; returns the bytes and the damage done.
    public mutating func process(_ line: String) -> (bytes: [UInt8], damage: Damage?) {
        var bytes = Array(line.utf8)
        guard random.chance(rate) else { return (bytes, nil) }
        let damage = Damage.allCases.randomElement(using: &random)!
        let body = bytes.count - 2  // without CR LF
        switch damage {
        case .bitFlip:
            let k = Int.random(in: 1..<body, using: &random)
            var flipped = bytes[k] ^ (1 << UInt8.random(in: 0..<7, using: &random))
            if flipped == 0x0D || flipped == 0x0A || flipped == 0 { flipped = bytes[k] ^ 0x40 }
            bytes[k] = flipped
        case .lostByte:
            bytes.remove(at: Int.random(in: 1..<body, using: &random))
        case .insertedByte:
            bytes.insert(UInt8.random(in: 0x21...0x7E, using: &random), at: Int.random(in: 1..<body, using: &random))
        case .cut:
            bytes = Array(bytes[0..<Int.random(in: 1..<(body - 3), using: &random)]) + [0x0D, 0x0A]
        case .lostLineEnd:
            bytes.removeLast(2)
        case .nulBytes:
            let k = Int.random(in: 1..<body, using: &random)
            bytes.insert(contentsOf: [0, 0], at: k)
        case .binaryBurst:
            let burst = (0..<Int.random(in: 3...24, using: &random)).map { _ in
                UInt8.random(in: 0x80...0xFF, using: &random)
            }
            bytes.insert(contentsOf: burst, at: Int.random(in: 1..<body, using: &random))
        case .doubledDollar:
            bytes.insert(0x24, at: 0)
        case .crcrlf:
            bytes.insert(0x0D, at: body)
        }
        return (bytes, damage)
    }
}
