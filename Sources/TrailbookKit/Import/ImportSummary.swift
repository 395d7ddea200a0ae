import GPSCore
import TrackModel

/// What an import of several files did: each file's report and the totals; with events, the
/// events found and the alerts each would have sent live. Encoded, it is `import --json`'s
/// document (keys in docs/COMMANDS.md).
public struct ImportSummary: Encodable {
    public var files: [ImportFileReport]
    public var fixesRead: Int
    public var kept: Int
    /// Fixes dropped, per rule.
    public var dropped: [String: Int]
    public var rides: Int
    public var segments: Int
    /// Points stored; nil for a dry run.
    public var stored: Int?
    /// The store's path; nil for a dry run.
    public var store: String?
    /// When events were asked for: the events found.
    public var events: [EventJSON]?
    /// When events were asked for: the alerts each event would have sent live.
    public var alerts: [WouldAlert]?
    /// An account archive's photos and day summaries, brought after its rides and records.
    public var archive: ArchiveDiary.Outcome?

    /// The events found, in order, each with its device (whether or not they were asked for in
    /// the document).
    public var found: [(event: TrailEvent, device: String)] = []
    /// For each of ``found``, the alerts it would have sent live (empty without events).
    public var wouldSend: [[Alert]] = []

    /// An alert an event would have sent, had it been found live.
    public struct WouldAlert: Encodable {
        /// UTC, ISO 8601.
        public var time: String
        public var type: String
        public var alert: Int64
        public var channel: String
    }

    enum CodingKeys: String, CodingKey {
        case files, kept, dropped, rides, segments, stored, store, events, alerts, archive
        case fixesRead = "fixes_read"
    }
}
