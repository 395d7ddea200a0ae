import GPSCore

/// What a track file holds, in document order, as the readers of GPX, KML, GeoJSON and CSV hand
/// it over.
public enum TrackItem: Equatable {
    /// A track begins (a GPX `<trk>`, a KML `<gx:Track>`, a GeoJSON line): its segments and points
    /// follow, and it is a stream of its own.
    case track
    /// A segment of the current track begins; its points follow.
    case segment
    case point(Fix)
    /// A place with a name or a note (a GPX waypoint, a record of Trailbook's own KML or GeoJSON, a
    /// CSV row's annotation), perhaps with a time.
    case waypoint(Waypoint)

    /// A place with a name or description, perhaps a time.
    public struct Waypoint: Equatable, Sendable {
        public var fix: Fix
        public var name: String?
        /// `<desc>` and `<cmt>` joined by a blank line when both are present; a record's notes.
        public var text: String?
        public var link: String?
        /// Trailbook's fields (`<extensions><trailbook:field key="...">`), in file order.
        public var fields: [Field] = []

        public init(fix: Fix, name: String? = nil, text: String? = nil, link: String? = nil, fields: [Field] = []) {
            self.fix = fix
            self.name = name
            self.text = text
            self.link = link
            self.fields = fields
        }

        public struct Field: Equatable, Sendable {
            public var key: String
            public var value: String

            public init(key: String, value: String) {
                self.key = key
                self.value = value
            }
        }
    }
}

/// A streaming reader of a track file: fed its bytes a chunk at a time, it hands over what it
/// has read as it goes, so memory does not grow with the file.
public protocol TrackFileReader: AnyObject {
    /// Reads `bytes`, handing each whole item to `handle`.
    func feed(_ bytes: UnsafeRawBufferPointer, _ handle: (TrackItem) throws -> Void) throws
    /// Ends the file; a file cut short is an error.
    func finish(_ handle: (TrackItem) throws -> Void) throws
    /// Elements read (positions, places, rows).
    var elements: Int { get }
    /// Elements left out, by reason ("no time", "no position", "position out of range", ...).
    var skipped: [String: Int] { get }
}

/// Times and positions as track files write them.
public enum TrackValues {
    /// A number of seconds or milliseconds since 1970 as milliseconds: a value of 10^11 or more
    /// is taken as milliseconds (10^11 seconds is the year 5138, 10^11 ms is 1973).
    public static func milliseconds(unix value: Double) -> Int64? {
        guard value.isFinite, value >= 0 else { return nil }
        let ms = value >= 1e11 ? value : value * 1000
        guard ms < 1e15 else { return nil }
        return Int64(ms.rounded())
    }

    /// An ISO 8601 time, or Unix seconds or milliseconds written as a number.
    public static func milliseconds(text: Substring) -> Int64? {
        let trimmed = text.trimmingSpaces
        if let ms = UTCTimestamp.milliseconds(trimmed) { return ms }
        if let value = Double(trimmed) { return milliseconds(unix: value) }
        return nil
    }

    /// Whether `value` is a latitude (`limit` 90) or longitude (180).
    public static func inRange(_ value: Double, _ limit: Double) -> Bool { value.isFinite && abs(value) <= limit }
}

extension Substring {
    /// Without spaces, tabs and line ends at either end.
    var trimmingSpaces: Substring {
        var s = self
        while let f = s.first, f == " " || f == "\t" || f == "\r" || f == "\n" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" || l == "\n" { s = s.dropLast() }
        return s
    }
}
