import Foundation
import TrackModel

/// What importing one file did (the JSON of `import --json`, and the line printed for it).
public struct ImportFileReport: Codable, Sendable {
    public var file: String

    public init(file: String) { self.file = file }

    public var fixesRead = 0
    public var kept = 0
    public var stored: Int?
    public var dropped: [String: Int] = [:]
    /// Set when the same bytes were imported before: nothing was read (unless reimporting).
    public var alreadyImported: Earlier?
    /// When reimporting: points of the earlier import removed first.
    public var replaced: Int?
    /// When reimporting a file imported before Trailbook noted which points it stored.
    public var notReplaced: Bool?
    /// Whether a stream was out of time order and was sorted.
    public var reordered: Bool?
    /// GPX, and KML, GeoJSON or CSV with places: waypoints read, records stored for them, those already stored, those without
    /// a time (not stored), routes skipped.
    public var waypoints: Int?
    public var records: Int?
    public var recordsAlreadyStored: Int?
    public var waypointsWithoutTime: Int?
    public var routesSkipped: Int?
    /// Google: the format read, the elements read (positions, visits, activities), those left
    /// out before the collection rules by reason ("no time", "no position", ...), and the visits
    /// and activities (stored as records: ``records``).
    public var format: String?
    public var elements: Int?
    public var skipped: [String: Int]?
    public var visits: Int?
    public var activities: Int?
    /// An account export (Dawarich's): its areas added as places (not those whose name the
    /// account has already), and its visited places remembered with their names (not those a
    /// found place is near already).
    public var places: Int?
    public var placesNamed: Int?
    /// The devices of the file's sources, when it names any (a Google history's phones, each
    /// ``ImportService`` device name + `-google-` + its `deviceTag`): their points are stored as
    /// those devices; the rest of the file's as the import's.
    public var devices: [String]?
    /// Events found in the file, and those of them stored (not there already).
    public var events: Int?
    public var eventsStored: Int?
    /// The first and last point the file stored (UTC, ISO 8601 with milliseconds).
    public var start: String?
    public var end: String?
    /// The time of the records it read (ms, the first and last; not printed): what changes the
    /// kept timeline besides the points (Google's visits and activities).
    public var recordsSpan: ClosedRange<Int64>?

    public struct Earlier: Codable, Sendable {
        public var name: String
        public var points: Int
        public var importedAt: String

        public init(_ i: StoredImport) {
            name = i.name
            points = i.points
            let formatter = ISO8601DateFormatter()
            importedAt = formatter.string(from: Date(timeIntervalSince1970: Double(i.importedMilliseconds) / 1000))
        }

        enum CodingKeys: String, CodingKey {
            case name, points
            case importedAt = "imported_at"
        }
    }

    enum CodingKeys: String, CodingKey {
        case file, kept, stored, dropped, waypoints, records, replaced, reordered, format, elements, skipped
        case visits, activities, devices, places
        case placesNamed = "places_named"
        case fixesRead = "fixes_read"
        case alreadyImported = "already_imported"
        case notReplaced = "not_replaced"
        case recordsAlreadyStored = "records_already_stored"
        case waypointsWithoutTime = "waypoints_without_time"
        case routesSkipped = "routes_skipped"
        case events, start, end
        case eventsStored = "events_stored"
    }

}
