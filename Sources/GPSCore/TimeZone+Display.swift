import Foundation

extension TimeZone {
    /// The zone's identifier as people wrote it: `UTC` for the zone Foundation on Linux names
    /// `GMT` when asked for `UTC`.
    public var displayIdentifier: String { identifier == "GMT" ? "UTC" : identifier }
}
