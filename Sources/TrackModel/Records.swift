import GPSCore

/// A location record: a place at a time with what the user attached to it.
///
/// Every stored point is a location record; the store keeps a `record` row only for manual
/// records and for points that carry a note, photo or field. `id` is nil for a plain point.
public struct LocationRecord: Equatable, Sendable {
    public var id: Int64?
    /// ms since 1970, UTC.
    public var milliseconds: Int64
    public var coordinate: Coordinate
    /// Metres above mean sea level.
    public var altitude: Double?
    /// Placed by the user (`mark`), rather than a recorded point.
    public var manual: Bool
    public var notes: [Note] = []
    public var photos: [Photo] = []
    /// By key, in key order.
    public var fields: [Field] = []
    /// The snapshot of the moment's conditions (sun, moon, weather…), by key in key order.
    public var conditions: [ConditionValue] = []

    public init(
        id: Int64?, milliseconds: Int64, coordinate: Coordinate, altitude: Double?, manual: Bool
    ) {
        self.id = id
        self.milliseconds = milliseconds
        self.coordinate = coordinate
        self.altitude = altitude
        self.manual = manual
    }

    /// Whether anything is attached.
    public var isEmpty: Bool { notes.isEmpty && photos.isEmpty && fields.isEmpty }
}

public struct Note: Equatable, Sendable {
    public var id: Int64
    public var recordID: Int64
    public var text: String
    public var createdMilliseconds: Int64
    public var updatedMilliseconds: Int64

    public init(id: Int64, recordID: Int64, text: String, createdMilliseconds: Int64, updatedMilliseconds: Int64) {
        self.id = id
        self.recordID = recordID
        self.text = text
        self.createdMilliseconds = createdMilliseconds
        self.updatedMilliseconds = updatedMilliseconds
    }
}

/// A photo file in the media folder.
public struct Photo: Equatable, Sendable {
    public var sha256: String
    /// Path inside the media folder.
    public var file: String
    public var bytes: Int
    /// When it was taken (EXIF, converted to UTC), when known.
    public var takenMilliseconds: Int64?
    /// The file name it was added under.
    public var name: String

    public init(sha256: String, file: String, bytes: Int, takenMilliseconds: Int64?, name: String) {
        self.sha256 = sha256
        self.file = file
        self.bytes = bytes
        self.takenMilliseconds = takenMilliseconds
        self.name = name
    }
}

/// A structured value on a record; numbers stay numbers.
public enum FieldValue: Equatable, Sendable, CustomStringConvertible {
    case text(String)
    case number(Double)

    /// A number when the text reads as a finite one (`12`, `-3.5`, `1e3`), else text.
    public init(parsing text: String) {
        if let n = Double(text), n.isFinite,
            text.first.map({ $0.isNumber || $0 == "-" || $0 == "+" || $0 == "." })
                == true
        {
            self = .number(n)
        } else {
            self = .text(text)
        }
    }

    public var description: String {
        switch self {
        case .text(let t): return t
        case .number(let n):
            return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        }
    }

    /// As a store keeps it: a `text` and a `number` column, one of them set.
    public var columns: (text: String?, number: Double?) {
        switch self {
        case .text(let t): return (t, nil)
        case .number(let n): return (nil, n)
        }
    }

    /// From a store's `text` and `number` columns: the number when there is one.
    public init(text: String?, number: Double?) {
        self = number.map(FieldValue.number) ?? .text(text ?? "")
    }
}

public struct Field: Equatable, Sendable {
    public var key: String
    public var value: FieldValue

    public init(key: String, value: FieldValue) {
        self.key = key
        self.value = value
    }
}

/// One value of a record's conditions (`sun.phase`, `moon.illumination`, `weather.pressure_hpa`)
/// and where it came from.
public struct ConditionValue: Equatable, Sendable {
    public enum Source: String, Sendable, CaseIterable {
        /// Computed from time and place (sun, moon, solunar, tide).
        case computed
        /// Sent by the receiver or phone with the position (OwnTracks `p`).
        case device
        /// From an imported file (a weather station's export).
        case imported
        /// Typed by the user.
        case user
    }

    public var key: String
    public var value: FieldValue
    public var source: Source

    public init(key: String, value: FieldValue, source: Source) {
        self.key = key
        self.value = value
        self.source = source
    }
}

/// What a removal took away.
public struct Removal: Equatable, Sendable {
    public var points = 0
    public var records = 0
    public var notes = 0
    public var photos = 0
    public var fields = 0
    public var rides = 0
    public var daySummaries = 0
    /// Events of the removed time (arrivals, stops, ...).
    public var events = 0
    /// Photo files no longer referenced, deleted from the media folder.
    public var photoFilesDeleted = 0

    public init() {}
}
