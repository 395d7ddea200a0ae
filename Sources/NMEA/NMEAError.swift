/// Why one candidate sentence was not decoded. A bad sentence is data, not a failure of the
/// run: the decoder counts it and goes on.
public enum NMEAError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The `*HH` checksum does not match the bytes.
    case badChecksum
    /// No `*HH` checksum where the stream carries checksums.
    case missingChecksum
    /// The address field is not a talker and sentence type.
    case badAddress
    /// A sentence type this decoder does not handle (including proprietary `$P...`).
    case unsupported
    /// Fewer fields than the sentence type requires.
    case tooFewFields(needed: Int, got: Int)
    /// A field's content does not fit its format (NMEA field number, 1-based).
    case badField(Int)

    public var description: String {
        switch self {
        case .badChecksum: return "The sentence's checksum does not match its contents."
        case .missingChecksum: return "The sentence has no checksum although this receiver sends them."
        case .badAddress: return "The sentence does not start with a talker and sentence type."
        case .unsupported: return "The sentence type is not one Trailbook decodes."
        case .tooFewFields(let needed, let got):
            return "The sentence has \(got) fields where at least \(needed) are needed."
        case .badField(let n): return "Field \(n) of the sentence is malformed."
        }
    }
}
