import Foundation

/// One thing of a day's timeline: a ride, a visit to a place, a trip between visits, a stop
/// elsewhere, an event, a cue, a task or a diary record. Entries with an end are spans; the others are moments.
public struct TimelineEntry: Equatable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case ride, visit, trip, stop, event, cue, task, record

        /// The symbol that marks it beside its label (never the colour alone).
        public var icon: String {
            switch self {
            case .ride: return "▶"
            case .visit: return "⌂"
            case .trip: return "→"
            case .stop: return "■"
            case .event: return "●"
            case .cue: return "✎"
            case .task: return "☑"
            case .record: return "✚"
            }
        }
    }

    public var kind: Kind
    /// ms since 1970 UTC.
    public var start: Int64
    public var end: Int64?
    /// "ride 3", "home", "stopped", "bike lost its fix", "buy bread", "record 5".
    public var title: String
    /// A few more words: a ride's distance, how long a visit lasted, a record's note.
    public var detail: String?
    /// The event type, for events, cues and tasks.
    public var type: String?
    public var device: String?
    public var place: String?
    public var ride: Int64?
    public var record: Int64?
    /// A visit's or a trip's id in the account's kept timeline (the id a correction names); nil
    /// for the other kinds, and when the day was worked out on reading.
    public var entry: Int64?
    /// A trip's distance (m) and moving time (s) within the day: all of them, or the share of a
    /// trip over midnight that falls in the day (docs/TIMELINE.md, "Midnight").
    public var distance: Double?
    public var moving: Double?
    /// A span already under way when the day began (its start is the day's start), or still
    /// under way when it ended (its end is the day's end).
    public var openStart = false
    public var openEnd = false
    /// The time zone where it happened, when known (a visit abroad: its place's): its times are
    /// written there.
    public var zone: TimeZone?

    public init(
        kind: Kind, start: Int64, end: Int64? = nil, title: String, detail: String? = nil, type: String? = nil,
        device: String? = nil, place: String? = nil, ride: Int64? = nil, record: Int64? = nil
    ) {
        self.kind = kind
        self.start = start
        self.end = end
        self.title = title
        self.detail = detail
        self.type = type
        self.device = device
        self.place = place
        self.ride = ride
        self.record = record
    }

    /// In time order, spans before moments at the same time.
    public static func ordered(_ entries: [TimelineEntry]) -> [TimelineEntry] {
        entries.enumerated().sorted {
            ($0.element.start, $0.element.end == nil ? 1 : 0, $0.offset)
                < ($1.element.start, $1.element.end == nil ? 1 : 0, $1.offset)
        }.map(\.element)
    }
}

/// How the day report shows the timeline: lanes on a time axis, or a list.
public enum TimelineView: String, Sendable, CaseIterable {
    case timeline, list
}

extension DayReport {
    /// The timeline as the template draws it: three lanes (rides; visits and stops; events,
    /// cues, tasks and records) with an icon and a label on each entry, and the same entries as
    /// a list, for `--view list` (and under the lanes, for reading).
    static func timelineSection(_ input: DayReportInput, style: ReportStyle, width: Double = 960) -> TimelineSection {
        let entries = input.timeline
        let zone = input.timeZone
        // The axis runs over what happened: a visit under way at midnight does not stretch it
        // to the whole day (it is drawn from the axis's edge).
        let times = entries.flatMap { e in
            (e.openStart ? [] : [e.start]) + (e.end.map { e.openEnd ? [] : [$0] } ?? [])
        }
        let all = entries.flatMap { [$0.start] + ($0.end.map { [$0] } ?? []) }
        guard var first = (times.isEmpty ? all : times).min(), var last = (times.isEmpty ? all : times).max() else {
            return TimelineSection(empty: true)
        }
        let margin = max((last - first) / 20, 60_000)
        if entries.contains(where: \.openStart) { first -= margin }
        if entries.contains(where: \.openEnd) { last += margin }
        let span = Double(max(last - first, 60_000))
        func x(_ ms: Int64) -> Double { 20 + Double(min(max(ms, first), last) - first) / span * (width - 40) }
        var rideIndex: [Int64: Int] = [:]
        for (i, r) in input.rides.enumerated() { rideIndex[r.id] = i }
        // Lanes of HTML boxes placed in percent of the width, so labels keep their size on a phone.
        func percent(_ v: Double) -> String { HTML.number(v / width * 100) }
        func lane(_ kinds: Set<TimelineEntry.Kind>) -> TimelineSection.Lane {
            let spans = entries.filter { kinds.contains($0.kind) && $0.end != nil }.map { e in
                let a = x(e.start)
                let colour =
                    e.kind == .ride
                    ? style.palette.colour(rideIndex[e.ride ?? -1] ?? 0) : e.kind == .visit ? "#8a8a8a" : "#b8b8b8"
                return TimelineSection.Span(
                    x: percent(a), w: percent(max(2, x(e.end!) - a)), colour: colour, kind: e.kind.rawValue,
                    tip: tip(e, style: style, zone: zone),
                    label: (e.openStart ? "… " : "") + "\(e.kind.icon) \(e.title)")
            }
            let moments = entries.filter { kinds.contains($0.kind) && $0.end == nil }.map { e in
                TimelineSection.Moment(
                    x: percent(x(e.start)), icon: e.kind.icon, kind: e.kind.rawValue,
                    tip: tip(e, style: style, zone: zone))
            }
            return TimelineSection.Lane(spans: spans, moments: moments)
        }
        let rows = entries.map { e in
            var time = style.time(e.start, there: e.zone, zone)
            if let end = e.end { time += "–" + style.time(end, there: e.zone, zone) }
            // Only what there is: an empty value would still open its section.
            return TimelineSection.Row(
                time: time, icon: e.kind.icon, kind: e.kind.rawValue, title: e.title,
                detail: e.detail.flatMap { $0.isEmpty ? nil : $0 }, link: e.record.map { "#record-\($0)" })
        }
        var section = TimelineSection(empty: false)
        section.lanes = style.view == .timeline
        section.lane = [lane([.ride]), lane([.visit, .trip, .stop]), lane([.event, .cue, .task, .record])]
        section.rows = rows
        section.first = axisLabel(first, of: last, style: style, zone: zone, next: false)
        section.last = axisLabel(last, of: first, style: style, zone: zone, next: true)
        section.legend = TimelineEntry.Kind.allCases.map { TimelineSection.Legend(icon: $0.icon, kind: $0.rawValue) }
        return section
    }

    /// What the day template draws of the timeline (``timelineSection(_:style:width:)``); an
    /// empty day has `empty` alone.
    struct TimelineSection: Encodable {
        /// An entry with a length, placed in percent of the width.
        struct Span: Encodable {
            let x: String
            let w: String
            let colour: String
            let kind: String
            let tip: String
            let label: String
        }
        /// An entry at one time.
        struct Moment: Encodable {
            let x: String
            let icon: String
            let kind: String
            let tip: String
        }
        struct Lane: Encodable {
            let spans: [Span]
            let moments: [Moment]
        }
        /// An entry as a line of the list.
        struct Row: Encodable {
            let time: String
            let icon: String
            let kind: String
            let title: String
            let detail: String?
            /// The record's anchor on the page.
            let link: String?
        }
        struct Legend: Encodable {
            let icon: String
            let kind: String
        }
        let empty: Bool
        /// Whether the lanes are drawn (`--view timeline`), not only the list.
        var lanes: Bool?
        var lane: [Lane]?
        var rows: [Row]?
        var first: String?
        var last: String?
        var legend: [Legend]?

        init(empty: Bool) { self.empty = empty }
    }

    static func tip(_ e: TimelineEntry, style: ReportStyle, zone: TimeZone) -> String {
        var text = "\(e.kind.rawValue): \(e.title) \(style.time(e.start, there: e.zone, zone))"
        if let end = e.end { text += "–" + style.time(end, there: e.zone, zone) }
        if let detail = e.detail { text += " · \(detail)" }
        return text
    }

    /// An end of the time axis: its clock time, with "the day before" or "next day" when it is not
    /// on the other end's day (a night that runs on to 04:01 says so).
    static func axisLabel(_ ms: Int64, of other: Int64, style: ReportStyle, zone: TimeZone, next: Bool) -> String {
        let clock = style.time(ms, zone)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let (a, b) = (Date(timeIntervalSince1970: Double(ms) / 1000), Date(timeIntervalSince1970: Double(other) / 1000))
        guard !calendar.isDate(a, inSameDayAs: b) else { return clock }
        return next ? clock + " next day" : clock + " the day before"
    }
}
