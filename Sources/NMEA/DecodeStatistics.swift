/// What a decoder saw, for `--stats` and data-quality reports.
public struct DecodeStatistics: Equatable, Sendable {
    /// Candidate sentences the framer found.
    public var sentences = 0
    /// Sentences decoded into fix data.
    public var decoded = 0
    /// Sentences whose checksum did not match.
    public var badChecksum = 0
    /// Sentences without a checksum in a stream that carries them.
    public var missingChecksum = 0
    /// Sentence types not decoded (proprietary, AIS, depth, ...), skipped by design.
    public var unknown = 0
    /// Of the unknown ones, those with a well-formed address (a talker and a type, or a
    /// proprietary `P...` one): NMEA Trailbook does not decode. The others (`$HOME/...` in a text
    /// file) are not NMEA at all.
    public var unsupported = 0
    /// Sentences with a valid checksum whose fields did not parse.
    public var malformed = 0
    /// Bytes outside any sentence: garbage, binary bursts, comments, abandoned sentences.
    public var skippedBytes = 0
    /// Epochs reported (rows of `decode`).
    public var epochs = 0
    /// Epochs with a 2D or 3D position.
    public var fixes = 0

    public init() {}

    /// Whether the input held any NMEA at all: a sentence with a valid checksum, whether or not
    /// its type is one Trailbook decodes. False for empty input and for other kinds of files.
    public var foundNMEA: Bool { decoded + unsupported + malformed > 0 }
}
