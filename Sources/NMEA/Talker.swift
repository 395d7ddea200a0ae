/// The two-letter talker ID that opens a sentence's address (GP, GN, GL, GA, GB, BD, QZ, ...).
///
/// Decoding does not depend on it; the assembler uses it to add up satellites per
/// constellation.
public struct Talker: Hashable, Sendable, CustomStringConvertible {
    public let first: UInt8
    public let second: UInt8

    public init(_ first: UInt8, _ second: UInt8) {
        self.first = first
        self.second = second
    }

    public var description: String { String(decoding: [first, second], as: UTF8.self) }
}
