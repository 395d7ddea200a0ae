/// ASCII byte constants used by the byte-level parsers.
enum ASCII {
    static let nul: UInt8 = 0x00
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let bang: UInt8 = 0x21  // !
    static let hash: UInt8 = 0x23  // #
    static let dollar: UInt8 = 0x24  // $
    static let star: UInt8 = 0x2A  // *
    static let comma: UInt8 = 0x2C  // ,
    static let minus: UInt8 = 0x2D  // -
    static let plus: UInt8 = 0x2B  // +
    static let dot: UInt8 = 0x2E  // .
    static let zero: UInt8 = 0x30  // 0
    static let nine: UInt8 = 0x39  // 9
    static let tilde: UInt8 = 0x7E  // ~

    static func isDigit(_ b: UInt8) -> Bool { b &- zero < 10 }

    /// CR or LF: after either, the framer is idle at the start of a line.
    @inline(__always)
    static func isLineEnd(_ b: UInt8) -> Bool { b == lf || b == cr }

    /// Value of a hexadecimal digit (either case), or nil.
    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }
}
