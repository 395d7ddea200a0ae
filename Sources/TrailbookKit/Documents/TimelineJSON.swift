import Foundation
import GPSCore
import Reports

/// A day's timeline as `trailbook timeline --json` prints it.
public struct TimelineJSON: Encodable, Sendable {
    public struct Entry: Encodable, Sendable {
        /// A visit's or a trip's kept id.
        public var id: Int64?
        public var kind: String
        /// UTC, ISO 8601 with milliseconds.
        public var start: String
        public var end: String?
        public var title: String
        public var detail: String?
        public var type: String?
        public var device: String?
        public var place: String?
        public var ride: Int64?
        public var record: Int64?
        /// The IANA zone where it happened, when it is not the timeline's (a visit abroad).
        public var timeZone: String?
        /// A trip's distance (m) and moving time (s) within the day, as `summary --day` counts them.
        public var distanceM: Double?
        public var movingS: Double?

        enum CodingKeys: String, CodingKey {
            case id, kind, start, end, title, detail, type, device, place, ride, record
            case timeZone = "time_zone"
            case distanceM = "distance_m"
            case movingS = "moving_s"
        }
    }

    public var date: String
    public var timeZone: String
    /// The zone the day was cut in (where the person was), when it is not ``timeZone``.
    public var dayZone: String?
    public var entries: [Entry]

    enum CodingKeys: String, CodingKey {
        case date
        case timeZone = "time_zone"
        case dayZone = "day_zone"
        case entries
    }

    public init(date: String, zone: TimeZone, cutIn: TimeZone? = nil, entries: [TimelineEntry]) {
        self.date = date
        timeZone = zone.displayIdentifier
        dayZone = cutIn.flatMap { $0.identifier == zone.identifier ? nil : $0.identifier }
        self.entries = entries.map {
            Entry(
                id: $0.entry, kind: $0.kind.rawValue, start: LocalTime.utc($0.start), end: $0.end.map(LocalTime.utc),
                title: $0.title, detail: $0.detail, type: $0.type, device: $0.device, place: $0.place, ride: $0.ride,
                record: $0.record,
                timeZone: $0.zone.flatMap { $0.identifier == zone.identifier ? nil : $0.identifier },
                distanceM: $0.distance.map { ($0 * 10).rounded() / 10 },
                movingS: $0.moving.map { ($0 * 10).rounded() / 10 })
        }
    }

    /// One line per entry: local time (a span: start–end), the icon and kind, the title, the detail.
    public static func line(_ e: TimelineEntry, zone: TimeZone) -> String {
        // Where it happened: a visit abroad in its place's time, with the offset.
        let there = e.zone ?? zone
        var time = LocalTime.clock(e.start, there: there, listing: zone)
        time += e.end.map { "–" + LocalTime.clock($0, there: there, listing: zone) } ?? "      "
        var line =
            "\(time)  \(e.kind.icon) \(e.kind.rawValue.padding(toLength: 6, withPad: " ", startingAt: 0))  \(e.title)"
        if let detail = e.detail, !detail.isEmpty { line += "  · \(detail)" }
        if let device = e.device, e.kind != .record { line += "  (\(device))" }
        return line
    }
}
