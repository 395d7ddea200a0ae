/// TXT, text transmission (receiver messages such as firmware versions and antenna state).
///
/// `$--TXT,xx,xx,xx,c--c*hh`
public struct TXT: Equatable, Sendable {
    /// Field 3: message type (00 error, 01 warning, 02 notice, 07 user).
    public var kind: Int?
    /// Field 4: the text.
    public var text: String

    static let minimumFields = 5

    /// Fills `r`: the message type in `code` (the text is read only for ``SentenceParser/parse(_:_:)``).
    static func decode(_ f: Fields, into r: inout SentenceRecord) throws(NMEAError) {
        r.code = try f.integerSlot(3)
    }
}
