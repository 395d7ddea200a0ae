/// TXT, text transmission (receiver messages such as firmware versions and antenna state).
///
/// `$--TXT,xx,xx,xx,c--c*hh`
public struct TXT: Equatable, Sendable {
    /// Field 3: message type (00 error, 01 warning, 02 notice, 07 user).
    public var kind: Int?
    /// Field 4: the text.
    public var text: String

    static let minimumFields = 5

    static func decode(_ f: Fields) throws(NMEAError) -> TXT {
        TXT(kind: try f.integer(3), text: f.text(4) ?? "")
    }
}
