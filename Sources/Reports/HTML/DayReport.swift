import Foundation
import GPSCore

/// The values a day report shows; built by the command, so the renderer never sees the store.
public struct DayReportInput: Sendable {
    public struct Ride: Sendable {
        public var id: Int64
        public var points: [TrackPoint]
        public var statistics: RideStatistics

        public init(id: Int64, points: [TrackPoint], statistics: RideStatistics) {
            self.id = id
            self.points = points
            self.statistics = statistics
        }
    }

    public struct Record: Sendable {
        public var id: Int64
        public var milliseconds: Int64
        public var coordinate: Coordinate
        public var notes: [String]
        /// `src`/`href` of each photo: a data: URI (embedded) or a file path (linked).
        public var photos: [(name: String, source: String)]
        public var fields: [(key: String, value: String)]

        public init(
            id: Int64, milliseconds: Int64, coordinate: Coordinate, notes: [String],
            photos: [(name: String, source: String)], fields: [(key: String, value: String)]
        ) {
            self.id = id
            self.milliseconds = milliseconds
            self.coordinate = coordinate
            self.notes = notes
            self.photos = photos
            self.fields = fields
        }

        /// Whether the record gets a numbered pin (it has a note or a photo, and is not one of
        /// the visits or trips another tool said, which the day shows as its stays and moves).
        var pinned: Bool { (!notes.isEmpty || !photos.isEmpty) && said == nil }

        /// Who said the visit or trip this record keeps (``DayReportInput/saidBy``), nil for the
        /// person's own records.
        public var said: String? { fields.lazy.compactMap { DayReportInput.saidBy[$0.key] }.first }
    }

    /// The fields that mark a record as a visit or trip another tool said, imported with its
    /// history (`google` = `visit` or `activity`; `dawarich` = `visit`), and the tool's name.
    public static let saidBy = [
        "google": "Google’s timeline", "dawarich": "Dawarich", "trailbook": "Trailbook’s export",
    ]

    public var date: String
    /// The zone the times are written in.
    public var timeZone: TimeZone
    /// The zone the day was cut in, where the person was, when it is not ``timeZone``.
    public var dayZone: TimeZone?
    public var summary: String?
    public var rides: [Ride]
    public var records: [Record]
    /// The day in time order: rides, visits, stops, events, cues, tasks, records. When empty,
    /// the page makes one of the rides and records.
    public var timeline: [TimelineEntry]
    /// What `suggest` found for the kinds of the day's records.
    public var suggestions: [SuggestionTable] = []
    /// The day's distance (m) and moving time (s) as its kept moves count them (a move over
    /// midnight by its share in the day, docs/TIMELINE.md); nil: the rides' sums.
    public var moved: (distance: Double, moving: Double)?

    /// The day's distance and moving time: its moves', else its rides'.
    public var distanceAndMoving: (distance: Double, moving: Double) {
        moved ?? (rides.map(\.statistics.distance).reduce(0, +), rides.map(\.statistics.moving).reduce(0, +))
    }

    public init(
        date: String, timeZone: TimeZone, summary: String?, rides: [Ride], records: [Record],
        timeline: [TimelineEntry] = []
    ) {
        self.date = date
        self.timeZone = timeZone
        self.summary = summary
        self.rides = rides
        self.records = records
        self.timeline = timeline
    }
}

/// How a report looks.
public struct ReportStyle: Sendable {
    public enum Theme: String, Sendable, CaseIterable { case light, dark }
    public enum TimeFormat: String, Sendable, CaseIterable {
        case h24 = "24h"
        case h12 = "12h"
    }

    public var theme: Theme = .light
    public var palette: Palette = .default
    public var timeFormat: TimeFormat = .h24
    public var imperial = false
    /// The timeline as lanes on a time axis, or as a list.
    public var view: TimelineView = .timeline
    /// The base map under the routes; nil: the plain map.
    public var tiles: (any TileFetching)?
    /// How many deeper zoom levels of tiles the page carries along the routes (0: only the
    /// zoom the map is drawn at), for a reader who zooms in (`maps.levels`, `--tile-levels`).
    public var tileLevels = 2
    /// Where a served page links its base map's tiles (`/tiles/`, followed by `z/x/y`) instead of
    /// embedding them: the server's pages, whose tiles the browser asks the server for. Nil: the
    /// tiles are fetched now and embedded, so a report file loads nothing.
    public var tilePath: String?

    public init() {}

    func time(_ ms: Int64, _ zone: TimeZone) -> String {
        clock(zone).string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    /// The time in `there` (where it happened), with its offset when that is not `zone`'s then.
    func time(_ ms: Int64, there: TimeZone?, _ zone: TimeZone) -> String {
        guard let there else { return time(ms, zone) }
        let date = Date(timeIntervalSince1970: Double(ms) / 1000)
        let offset = there.secondsFromGMT(for: date)
        guard offset != zone.secondsFromGMT(for: date) else { return time(ms, there) }
        return time(ms, there) + Self.offset(offset)
    }

    /// `+01:00`, `-03:30`, `+00:00`: a UTC offset as a time's suffix.
    public static func offset(_ seconds: Int) -> String {
        let minutes = abs(seconds) / 60
        return (seconds < 0 ? "-" : "+") + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }

    /// The formatter of ``time(_:_:)``, for many times in one zone.
    func clock(_ zone: TimeZone) -> DateFormatter {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = timeFormat == .h24 ? "HH:mm" : "h:mm a"
        return f
    }

    func distance(_ m: Double) -> String {
        imperial ? String(format: "%.2f mi", m / 1609.344) : String(format: "%.2f km", m / 1000)
    }

    func speed(_ v: Double) -> String {
        imperial ? String(format: "%.1f mph", v / 0.44704) : String(format: "%.1f km/h", v * 3.6)
    }

    func height(_ m: Double) -> String {
        imperial ? String(format: "%.0f ft", m / 0.3048) : String(format: "%.0f m", m)
    }

    static func duration(_ s: Double) -> String {
        let t = Int(s.rounded())
        return String(format: "%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60)
    }

    /// The page's CSS: one stylesheet, the theme chosen by a class on <body>.
    static let css = """
        :root{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        body{margin:0;padding:24px;max-width:1000px;margin:auto;line-height:1.45}
        body.light{background:#fafafa;color:#1b1b1b}body.dark{background:#15181c;color:#e6e6e6}
        h1{margin:0 0 4px}h2{margin:28px 0 8px;font-size:1.15em}
        .muted{opacity:.7}.summary{white-space:pre-wrap;font-size:1.05em}
        svg{display:block;width:100%;height:auto;border-radius:8px}
        body.light .mapbg{fill:#eef1f4}body.dark .mapbg{fill:#232830}body.dark a{color:#8ab4f8}
        body.dark .tile{filter:invert(1) hue-rotate(180deg) brightness(.85) contrast(.9)}
        .tiles{display:none}.tiles[data-level="0"]{display:inline}
        .attribution{font-size:.8em;opacity:.75;text-align:right;margin-top:2px}
        body.light .ink{fill:#1b1b1b;stroke:#1b1b1b}body.dark .ink{fill:#e6e6e6;stroke:#e6e6e6}.ink text{stroke:none}
        .route{fill:none;stroke-width:3.5;stroke-linejoin:round;stroke-linecap:round}
        .gap{fill:none;stroke-width:2;stroke-dasharray:6 5;opacity:.8}
        .pin rect{stroke:#fff;stroke-width:1.5}.pin text{fill:#fff;font-size:11px;font-weight:700}
        table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
        td,th{padding:4px 8px;text-align:left;border-bottom:1px solid rgba(128,128,128,.3)}
        .record{margin:18px 0;padding:12px 16px;border-radius:8px}
        body.light .record{background:#fff;box-shadow:0 1px 3px rgba(0,0,0,.12)}
        body.dark .record{background:#1e232a}
        .note{white-space:pre-wrap}.photos img{max-width:100%;max-height:360px;margin:6px 6px 0 0;border-radius:6px}
        .totals{font-size:1.15em;font-weight:600;margin:2px 0}nav{margin-bottom:8px}
        .num{display:inline-block;min-width:1.6em;text-align:center;border-radius:1em;color:#fff;background:#444;margin-right:6px}
        .swatch{display:inline-block;width:1.4em;height:.35em;border-radius:.2em;vertical-align:middle;margin-right:6px}
        .nowrap{white-space:nowrap}
        .mapwrap{position:relative}#map{touch-action:none;cursor:grab}#map:focus{outline:2px solid #1f77b4}
        #map .route{vector-effect:non-scaling-stroke}
        .mapctl{position:absolute;top:8px;right:8px;display:flex;flex-direction:column;gap:4px}
        .mapctl button{width:34px;height:34px;font-size:20px;line-height:1;border-radius:6px;border:1px solid rgba(128,128,128,.5);cursor:pointer}
        body.light .mapctl button{background:#fff;color:#1b1b1b}body.dark .mapctl button{background:#2a3038;color:#e6e6e6}
        .maptip{display:none;position:absolute;z-index:2;padding:4px 8px;border-radius:6px;font-size:13px;white-space:nowrap;pointer-events:none;box-shadow:0 1px 4px rgba(0,0,0,.3)}
        body.light .maptip{background:#fff;color:#1b1b1b}body.dark .maptip{background:#2a3038;color:#e6e6e6}
        .hovermark{fill:#fff;stroke:#1b1b1b;stroke-width:3;vector-effect:non-scaling-stroke;pointer-events:none}
        .lanes{border-radius:6px;padding:4px 0}body.light .lanes{background:#eef1f4}body.dark .lanes{background:#232830}
        .lane{position:relative;height:26px;margin:2px 8px}.lane .span{position:absolute;top:1px;height:24px;\
        overflow:hidden;white-space:nowrap;font-size:12px;line-height:24px;padding-left:3px;box-sizing:border-box;\
        color:#111;border-radius:3px}.lane .moment{position:absolute;top:2px;transform:translateX(-50%);font-size:16px;\
        line-height:22px;cursor:default}
        .axis{display:flex;justify-content:space-between;gap:8px;font-size:.85em;opacity:.75;margin-top:2px}
        @media (max-width:600px){
        body{padding:12px}table{font-size:.88em}td,th{padding:4px 4px}.wide{display:none}
        #map .ink text{font-size:32px}.route{stroke-width:3;vector-effect:non-scaling-stroke}
        .pin,.start,.end,.place{transform:scale(2.2);transform-box:fill-box;transform-origin:center}
        .photos img{max-height:240px}}
        .pinlabel{display:inline-block;min-width:1.5em;padding:0 .3em;text-align:center;border-radius:.3em;color:#fff;background:#333;margin-right:6px;font-weight:700}
        [hidden]{display:none!important}
        body.dark textarea,body.dark input,body.dark button{background:#2a3038;color:#e6e6e6;border:1px solid #4a525e}
        .webnav{display:flex;flex-wrap:wrap;align-items:center;gap:6px 16px;margin-bottom:12px}.webnav form{margin:0}
        .webnav>a:first-child{font-weight:700}.message{padding:6px 10px;border-radius:6px}
        body.light .message{background:#fff4c2}body.dark .message{background:#4a4020}
        .edit{margin:10px 0}.edit label{display:block;margin:4px 0}.edit textarea,.edit input[name=note]{width:100%;\
        box-sizing:border-box;font:inherit}.edit button,.pickday button{font:inherit;margin-top:4px}
        .note-form{display:flex;gap:6px;align-items:end;flex-wrap:wrap}.note-form label{flex:1;min-width:12em}
        table.movements td{vertical-align:top}table.movements td:first-child{width:7.5em}
        table.movements summary{cursor:pointer;font-size:.9em;opacity:.75}table.movements select{font:inherit}
        """
}

/// What the day page carries when `trailbook serve` shows it to a signed-in account: where it
/// links, and the forms that change the diary (each with the session's CSRF token).
public struct WebDay: Sendable {
    /// The signed-in account.
    public var user: String
    public var csrf: String
    /// The previous and next day's pages, the home page.
    public var previous: String
    public var next: String
    public var home: String
    /// The map script (a served page runs no inline script: its content security policy).
    public var script: String
    /// Where the day summary, a record's note and a new record are posted.
    public var summaryAction: String
    public var noteAction: @Sendable (Int64) -> String
    /// Where a record's photo is uploaded (nil: no upload form).
    public var photoAction: (@Sendable (Int64) -> String)?
    /// The page that asks before a record is deleted.
    public var deleteLink: @Sendable (Int64) -> String
    public var markAction: String
    /// A sentence about the last change (saved, or what was wrong with it).
    public var message: String?
    /// The day's visits and trips as found, each with the forms that put it right, posted to
    /// `correctAction` (none: no such section).
    public var movements: [Movement] = []
    public var correctAction = ""
    /// The correction just made, which the page offers to undo.
    public var undo: Int64?
    /// The places a visit can be said to have been at: the value posted and its name.
    public var places: [(value: String, name: String)] = []
    /// The modes a trip can be given.
    public var modes: [String] = []

    /// A visit or a trip of the day, for the forms that correct it.
    public struct Movement: Sendable {
        /// A trip (its mode can be given) or a visit (its place can be given and named).
        public var isTrip: Bool
        /// "07:30–07:40".
        public var span: String
        /// "cycling 3.5 km", "work (suggested)".
        public var title: String
        /// A moment inside it, ms since 1970 UTC: what a correction is kept by.
        public var at: Int64
        /// The user said so already.
        public var corrected: Bool
        /// The trip's mode; the visit's place (its id as posted) and its own name when it has one.
        public var mode: String?
        public var place: String?
        public var placeName: String?
        /// When it began and ended, ms since 1970 UTC (the panel finds the trip's points by them).
        public var start: Int64 = 0
        public var end: Int64 = 0
        /// Where: a visit's centre, a trip's ends; and how far a visit's fixes spread, metres.
        public var coordinates: [Coordinate] = []
        public var spread: Double = 0
        /// "2 h 10 min", "3.5 km · 14 min": what the panel says under the title.
        public var detail = ""
        /// A visit's hours as the time fields show them ("07:30"), and a moment in the next visit
        /// of the day (what "one stay with the next" merges it with); nil: none.
        public var from = ""
        public var to = ""
        /// The days `from` and `to` are on, from the page's (-1: the day before, 1: the next).
        public var fromDay = 0
        public var toDay = 0
        public var next: Int64?

        public init(
            isTrip: Bool, span: String, title: String, at: Int64, corrected: Bool, mode: String? = nil,
            place: String? = nil, placeName: String? = nil
        ) {
            self.isTrip = isTrip
            self.span = span
            self.title = title
            self.at = at
            self.corrected = corrected
            self.mode = mode
            self.place = place
            self.placeName = placeName
        }
    }

    public init(
        user: String, csrf: String, previous: String, next: String, home: String, script: String,
        summaryAction: String, noteAction: @escaping @Sendable (Int64) -> String,
        deleteLink: @escaping @Sendable (Int64) -> String, markAction: String, message: String? = nil,
        photoAction: (@Sendable (Int64) -> String)? = nil
    ) {
        self.photoAction = photoAction
        self.user = user
        self.csrf = csrf
        self.previous = previous
        self.next = next
        self.home = home
        self.script = script
        self.summaryAction = summaryAction
        self.noteAction = noteAction
        self.deleteLink = deleteLink
        self.markAction = markAction
        self.message = message
    }
}

/// The HTML diary page for one day. As a report file it is self-contained: nothing is loaded from
/// anywhere. Served (``WebDay``), it links its tiles, photos and script on the server and carries
/// the forms that change the day. Rendered through ``ReportTemplates`` (Mustache, escaping by
/// default): the functions here only work out the values the templates show.
public enum DayReport {
    /// `back`: the overlay page this day belongs to, linked at the top (nil for a page alone).
    public static func render(
        _ input: DayReportInput, style: ReportStyle = .init(), back: String? = nil, web: WebDay? = nil
    ) -> String {
        let zone = input.timeZone
        let stats = input.rides.map(\.statistics)
        var page = Page(
            title: "Trailbook \(input.date)", theme: style.theme.rawValue, date: input.date,
            weekday: OverlayReport.weekday(input.date).map { $0 + " " } ?? "",
            zone: input.dayZone.map {
                "the day in \($0.displayIdentifier), where you were; times in \(zone.displayIdentifier)"
            } ?? zone.displayIdentifier,
            rideCount: counted(input.rides.count, "ride"), recordCount: counted(input.records.count, "record"),
            map: map(input, style: style, frame: web == nil ? .report : .web), hasRides: !input.rides.isEmpty,
            rides: rideRows(input, style: style), profile: profile(input, style: style),
            timeline: timelineSection(withRidesAndRecords(input), style: style),
            hasRecords: !input.records.isEmpty, records: records(input, style: style), back: back,
            summary: input.summary, suggest: SuggestionTable.section(input.suggestions),
            attribution: style.tiles.map(\.attribution).flatMap { $0.isEmpty ? nil : $0 })
        if let web {
            page.web = Page.Links(
                user: web.user, csrf: web.csrf, previous: web.previous, next: web.next, home: web.home,
                script: web.script, summaryAction: web.summaryAction, markAction: web.markAction,
                summaryText: input.summary ?? "", year: String(input.date.prefix(4)),
                written: CivilDate(iso: input.date).map(Self.written) ?? input.date, message: web.message,
                correctAction: web.correctAction, undo: web.undo.map(String.init))
            page.story = story(input, web: web, style: style, projection: projection(input, frame: .web))
            let records = page.records.map { r in
                var r = r
                (r.noteAction, r.csrf, r.deleteLink) = (web.noteAction(r.id), web.csrf, web.deleteLink(r.id))
                r.photoAction = web.photoAction.map { $0(r.id) }
                return r
            }
            // Google's visits and trips are the day's stays and moves: their records go together, folded.
            let google = Set(input.records.filter { $0.said != nil }.map(\.id))
            page.records = records.filter { !google.contains($0.id) }
            page.hasRecords = input.records.count > google.count
            let googleRecords = records.filter { google.contains($0.id) }
            if !googleRecords.isEmpty {
                page.google = Page.Google(
                    records: googleRecords,
                    who: Set(input.records.compactMap(\.said)).sorted().joined(separator: " and "),
                    count: counted(googleRecords.count, "visit or trip", "visits and trips"))
            }
        }
        if !input.rides.isEmpty {
            let (distance, moving) = input.distanceAndMoving
            page.totals = Page.Totals(
                distance: style.distance(distance), moving: ReportStyle.duration(moving),
                climb: style.height(stats.map(\.climb).reduce(0, +)))
        }
        return ReportTemplates.pages.render(web == nil ? "day" : "webday", model: page)
    }

    /// The served page's panel: the day as it was lived, in time order: each stay a named place
    /// with its hours, each move its mode with distance and duration (both with the forms that put
    /// them right), each record at its moment. Each entry carries where it is on the map (`box`,
    /// which the map fits when it is picked) and its shape there (`focus`: a trip's way, a stay's
    /// circle), in the map's frame units.
    static func story(_ input: DayReportInput, web: WebDay, style: ReportStyle, projection: MapProjection)
        -> [Page.Entry]
    {
        let points = input.rides.flatMap(\.points).compactMap { p -> (ms: Int64, xy: (x: Double, y: Double))? in
            guard let ms = p.fix.unixMilliseconds, let c = p.fix.coordinate else { return nil }
            return (ms, projection.point(c))
        }.sorted { $0.ms < $1.ms }
        var entries: [(start: Int64, row: Page.Entry)] = []
        for (i, m) in web.movements.enumerated() {
            let ends = m.coordinates.map { projection.point($0) }
            var row = Page.Entry(
                kind: m.isTrip ? "move" : "stay", mode: m.isTrip ? (m.mode ?? "still") : "stay",
                icon: m.isTrip ? AppStyle.modeIcon(m.mode ?? "") : "stay",
                name: m.isTrip ? (m.mode ?? "trip").capitalized : m.title, id: "s\(i)", span: m.span,
                detail: m.detail.isEmpty ? nil : m.detail)
            (row.title, row.at, row.corrected, row.csrf, row.action) = (
                m.title, String(m.at), m.corrected, web.csrf, web.correctAction
            )
            if !m.isTrip {
                row.edit = .init(
                    from: m.from, to: m.to, fromDay: m.fromDay, toDay: m.toDay, merge: m.next.map(String.init))
            }
            if m.isTrip {
                row.modes = .init(options: web.modes.map { .init(value: $0, selected: $0 == m.mode) })
                // The points are in time order: the trip's are one run of them, found by halving.
                var (first, high) = (0, points.count)
                while first < high {
                    let mid = (first + high) / 2
                    if points[mid].ms < m.start { first = mid + 1 } else { high = mid }
                }
                let way = points[first...].prefix { $0.ms <= m.end }.map(\.xy)
                let line = way.isEmpty ? ends : [ends.first].compactMap { $0 } + way + [ends.last].compactMap { $0 }
                row.box = box(line, projection: projection, minimumMetres: 300)
                if line.count > 1 { row.focus = .init(line: path(line)) }
            } else {
                var options = web.places.map {
                    Page.Option(value: $0.value, name: $0.name, selected: $0.value == m.place)
                }
                if !web.places.contains(where: { $0.value == m.place }) {
                    options.insert(.init(value: m.place ?? "", name: m.title, selected: true), at: 0)
                }
                row.places = .init(options: options)
                if let place = m.place { row.rename = .init(place: place, current: m.placeName ?? "") }
                if let centre = ends.first {
                    let r = max(m.spread, 40) / projection.metresPerPixel
                    row.box = box([centre], projection: projection, minimumMetres: max(m.spread * 6, 400))
                    row.focus = .init(
                        circle: .init(x: HTML.number(centre.x), y: HTML.number(centre.y), r: HTML.number(r)))
                }
            }
            entries.append((m.start, row))
        }
        for r in input.records where r.said == nil {
            let p = projection.point(r.coordinate)
            let title = r.notes.first.map { String($0.prefix(80)) } ?? "Record \(r.id)"
            var row = Page.Entry(
                kind: "note", mode: "record", icon: "record", name: title, id: "r\(r.id)",
                span: style.time(r.milliseconds, input.timeZone),
                // Absent, not empty: an empty text still opens a section.
                detail: r.photos.isEmpty ? nil : counted(r.photos.count, "photo"))
            row.record = r.id
            row.box = box([p], projection: projection, minimumMetres: 400)
            row.focus = .init(circle: .init(x: HTML.number(p.x), y: HTML.number(p.y), r: "6"))
            entries.append((r.milliseconds, row))
        }
        return entries.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
            .map(\.element.row)
    }

    /// A day as people write it: "Sunday 14 June 2026" (the served page's heading; a report file
    /// keeps "Sun 2026-06-14", which sorts).
    public static func written(_ day: CivilDate) -> String {
        // 1970-01-01 was a Thursday.
        let weekdays = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
        return "\(weekdays[(day.daysSinceEpoch % 7 + 7) % 7]) \(day.day) \(monthNames[day.month - 1]) \(day.year)"
    }

    /// The months' names, January first.
    public static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// The records as the list shows them: time, place, notes, fields, photos; a pin label for
    /// those on the map.
    static func records(_ input: DayReportInput, style: ReportStyle) -> [Page.Record] {
        let pinned = pinned(input)
        return input.records.map { r in
            Page.Record(
                id: r.id, pinned: pinned.contains(r.id), time: style.time(r.milliseconds, input.timeZone),
                position: String(format: "%.5f, %.5f", r.coordinate.latitude, r.coordinate.longitude),
                notes: r.notes, hasFields: !r.fields.isEmpty,
                fields: r.fields.map { .init(key: $0.key, value: $0.value, label: label($0.key)) },
                hasPhotos: !r.photos.isEmpty, photos: r.photos.map { .init(name: $0.name, source: $0.source) })
        }
    }

    /// A field's key as a label: `place_id` is "Place id", `heartRate` "Heart rate".
    static func label(_ key: String) -> String {
        var words = ""
        for c in key {
            if c == "_" || c == "-" || c == "." {
                words.append(" ")
            } else if c.isUppercase, let last = words.last, last.isLowercase {
                words += " " + c.lowercased()
            } else {
                words.append(c)
            }
        }
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    /// The records that get a pin on the map (a note or a photo): the pin shows the record's id,
    /// the number the records list and every command use for it.
    static func pinned(_ input: DayReportInput) -> Set<Int64> {
        Set(input.records.filter(\.pinned).map(\.id))
    }

    /// The start and end markers: white with a dark edge, a colour no palette gives a ride.
    static let markerFill = "#ffffff"
    static let markerEdge = "#333333"

    /// The SVG map: rides per segment (simplified at the drawn scale), dashed lines across gaps,
    /// start and end markers, numbered pins, a scale bar.
    static func map(_ input: DayReportInput, style: ReportStyle, frame: Frame = .report) -> Page.Map {
        let (width, height) = (frame.width, frame.height)
        let projection = projection(input, frame: frame)
        var lines: [[(x: Double, y: Double)]] = input.records.map { [projection.point($0.coordinate)] }
        let rides = input.rides.enumerated().map { i, ride in
            var parts: [Page.Map.Part] = []
            var previousEnd: (x: Double, y: Double)?
            for segment in segments(ride.points) {
                let screen = segment.map { projection.point($0.fix.coordinate!) }
                lines.append(screen)
                var part = Page.Map.Part(d: path(screen))
                if let end = previousEnd, let start = screen.first {
                    part.gap = .init(
                        x1: HTML.number(end.x), y1: HTML.number(end.y), x2: HTML.number(start.x),
                        y2: HTML.number(start.y))
                }
                parts.append(part)
                previousEnd = screen.last
            }
            var entry = Page.Map.Ride(id: ride.id, colour: style.palette.colour(i), parts: parts)
            if let first = ride.points.first, let last = ride.points.last {
                let a = projection.point(first.fix.coordinate!)
                let b = projection.point(last.fix.coordinate!)
                entry.ends = .init(
                    ax: HTML.number(a.x), ay: HTML.number(a.y), bx: HTML.number(b.x - 6), by: HTML.number(b.y - 6))
            }
            return entry
        }
        // Record pins: dark rounded squares with the record's id (rides are coloured lines with
        // white start circles and dark end squares; no numbered circles).
        let pins = input.records.filter(\.pinned).map { r in
            let p = projection.point(r.coordinate)
            let w = 10.0 + 7 * Double(String(r.id).count)
            return Page.Map.Pin(
                id: r.id, x: HTML.number(p.x - w / 2), y: HTML.number(p.y - 9), w: HTML.number(w),
                tx: HTML.number(p.x), ty: HTML.number(p.y + 4))
        }
        let bar = projection.scaleBar()
        let label =
            style.imperial
            ? String(format: "%.0f ft", bar.metres / 0.3048)
            : (bar.metres >= 1000 ? "\(Int(bar.metres / 1000)) km" : "\(Int(bar.metres)) m")
        let y = height - 18
        return Page.Map(
            width: Int(width), height: Int(height), rides: rides, pins: pins, markerFill: markerFill,
            markerEdge: markerEdge,
            tileLevels: MapTiles.layers(
                projection, along: lines, fetcher: style.tiles, levels: style.tileLevels, link: style.tilePath),
            projection: projection.parameters, trackData: trackData(input, style: style, projection: projection),
            bar: ScaleBar(y: HTML.number(y), ty: HTML.number(y - 6), width: HTML.number(bar.pixels), label: label),
            // A frame larger than the routes (the served page's) says where they are: the script
            // opens the map on them, at the shape of the window.
            fit: frame.margin > Frame.report.margin
                ? box(lines.flatMap { $0 }, projection: projection, minimumMetres: 400) : nil)
    }

    /// The map's frame in SVG units, and the margin left around the routes. A report's is the
    /// routes with a small margin; the served page's a square with the routes in its middle, so a
    /// window of any shape shows base map all around them.
    struct Frame {
        var width: Double
        var height: Double
        var margin: Double
        static let report = Frame(width: 960, height: 600, margin: 30)
        static let web = Frame(width: 1200, height: 1200, margin: 220)
    }

    static func projection(_ input: DayReportInput, frame: Frame) -> MapProjection {
        let coordinates = input.rides.flatMap { $0.points.map { $0.fix.coordinate! } } + input.records.map(\.coordinate)
        return MapProjection(fitting: coordinates, width: frame.width, height: frame.height, margin: frame.margin)
    }

    /// `x y w h` around `points` (frame units), at least `minimumMetres` across.
    static func box(_ points: [(x: Double, y: Double)], projection: MapProjection, minimumMetres: Double) -> String {
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        let least = minimumMetres / projection.metresPerPixel
        let (cx, cy) = (((xs.min() ?? 0) + (xs.max() ?? 0)) / 2, ((ys.min() ?? 0) + (ys.max() ?? 0)) / 2)
        let w = max((xs.max() ?? 0) - (xs.min() ?? 0), least)
        let h = max((ys.max() ?? 0) - (ys.min() ?? 0), least)
        return [cx - w / 2, cy - h / 2, w, h].map(HTML.number).joined(separator: " ")
    }

    /// The points the map's pointer finds (at most ``hoverPoints``, evenly spread): map x, y;
    /// profile x, y (null without an altitude); the tip (ride, local time, speed, elevation). As
    /// JSON, for an attribute (the template escapes it).
    static func trackData(_ input: DayReportInput, style: ReportStyle, projection: MapProjection) -> String {
        let profile = profileScale(input)
        let total = input.rides.map(\.points.count).reduce(0, +)
        let step = max(1, (total + hoverPoints - 1) / hoverPoints)
        let clock = style.clock(input.timeZone)
        var rows: [String] = []
        var offset = 0.0
        var n = 0
        for ride in input.rides {
            var d = offset
            var previous: Coordinate?
            for p in ride.points {
                let c = p.fix.coordinate!
                if let prev = previous { d += Geodesy.haversineDistance(prev, c) }
                previous = c
                defer { n += 1 }
                guard n % step == 0, let ms = p.fix.unixMilliseconds else { continue }
                let m = projection.point(c)
                var px = "null"
                var py = "null"
                if let alt = p.fix.altitudeMSL, let s = profile {
                    px = HTML.number(40 + d / s.length * (960 - 60))
                    py = HTML.number(180 - 20 - (alt - s.lowest) / s.span * (180 - 40))
                }
                let time = clock.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
                let tip =
                    ["ride \(ride.id)", time, p.fix.speed.map { style.speed($0) } ?? "speed unknown"]
                    + (p.fix.altitudeMSL.map { [style.height($0)] } ?? [])
                    + (p.fix.sensors?.heartRate.map { ["\($0) bpm"] } ?? [])
                    + (p.fix.sensors?.power.map { ["\($0) W"] } ?? [])
                rows.append(
                    "[\(HTML.number(m.x)),\(HTML.number(m.y)),\(px),\(py),\(HTML.json(tip.joined(separator: " · ")))]")
            }
            offset = d
        }
        return "{\"points\":[" + rows.joined(separator: ",") + "]}"
    }

    /// At most this many track points are findable under the pointer.
    static let hoverPoints = 1500

    /// The elevation profile's scale: the day's length (m), lowest altitude and span shown.
    static func profileScale(_ input: DayReportInput) -> (length: Double, lowest: Double, span: Double)? {
        var length = 0.0
        var altitudes: [Double] = []
        for ride in input.rides {
            var previous: Coordinate?
            for p in ride.points {
                let c = p.fix.coordinate!
                if let prev = previous { length += Geodesy.haversineDistance(prev, c) }
                previous = c
                if let alt = p.fix.altitudeMSL { altitudes.append(alt) }
            }
        }
        guard let low = altitudes.min(), let high = altitudes.max(), length > 0 else { return nil }
        return (length, low, max(high - low, 10))
    }

    /// Points split where the segment changes.
    public static func segments(_ points: [TrackPoint]) -> [[TrackPoint]] {
        var out: [[TrackPoint]] = []
        var current: Int64?
        for p in points {
            if p.segment != current {
                out.append([])
                current = p.segment
            }
            out[out.count - 1].append(p)
        }
        return out
    }

    /// An SVG path through `screen` points, simplified to half a pixel.
    static func path(_ screen: [(x: Double, y: Double)]) -> String {
        let kept = Simplify.indices(screen, tolerance: 0.5)
        var d = ""
        d.reserveCapacity(kept.count * 14)
        for (n, i) in kept.enumerated() {
            d += (n == 0 ? "M" : "L") + HTML.number(screen[i].x) + " " + HTML.number(screen[i].y)
        }
        return d
    }

    static func rideRows(_ input: DayReportInput, style: ReportStyle) -> [Page.RideRow] {
        input.rides.enumerated().map { i, r in
            let s = r.statistics
            return Page.RideRow(
                id: r.id, colour: style.palette.colour(i), start: style.time(s.start!, input.timeZone),
                end: style.time(s.end!, input.timeZone), distance: style.distance(s.distance),
                moving: ReportStyle.duration(s.moving), average: s.averageMovingSpeed.map(style.speed) ?? "–",
                max: s.maxSpeed.map(style.speed) ?? "–", climb: style.height(s.climb),
                descent: style.height(s.descent))
        }
    }

    /// Altitude over distance, rides one after another.
    static func profile(_ input: DayReportInput, style: ReportStyle, width: Double = 960, height: Double = 180)
        -> Page.Profile
    {
        var series: [(ride: Int, points: [(Double, Double)])] = []
        // A bike computer's heart rate over the same distance, on a scale of its own.
        var heart: [[(Double, Double)]] = []
        var offset = 0.0
        for (i, ride) in input.rides.enumerated() {
            var d = offset
            var previous: Coordinate?
            var pts: [(Double, Double)] = []
            var beats: [(Double, Double)] = []
            for p in ride.points {
                let c = p.fix.coordinate!
                if let prev = previous { d += Geodesy.haversineDistance(prev, c) }
                previous = c
                if let alt = p.fix.altitudeMSL { pts.append((d, alt)) }
                if let hr = p.fix.sensors?.heartRate { beats.append((d, Double(hr))) }
            }
            series.append((i, pts))
            heart.append(beats)
            offset = d
        }
        let all = series.flatMap(\.points)
        guard let minA = all.map(\.1).min(), let maxA = all.map(\.1).max(), offset > 0 else {
            return Page.Profile(none: true)
        }
        let span = max(maxA - minA, 10)
        let paths = series.filter { !$0.points.isEmpty }.map { s in
            let screen = s.points.map {
                (x: 40 + $0.0 / offset * (width - 60), y: height - 20 - ($0.1 - minA) / span * (height - 40))
            }
            return Page.Profile.Path(colour: style.palette.colour(s.ride), d: path(screen))
        }
        var heartRate: Page.Profile.Heart?
        let beats = heart.flatMap { $0 }.map(\.1)
        if let low = beats.min(), let high = beats.max() {
            let bpmSpan = max(high - low, 20)
            let lines = heart.filter { !$0.isEmpty }.map { ride in
                path(
                    ride.map {
                        (x: 40 + $0.0 / offset * (width - 60), y: height - 20 - ($0.1 - low) / bpmSpan * (height - 40))
                    })
            }
            heartRate = .init(paths: lines, low: Int(low), high: Int(high))
        }
        // The labels are HTML under the graphic, so they keep their size at any width.
        return Page.Profile(
            none: false, width: Int(width), height: Int(height), paths: paths, lowest: style.height(minA),
            highest: style.height(maxA), distance: style.distance(input.rides.map(\.statistics.distance).reduce(0, +)),
            heart: heartRate)
    }

    /// The input with a timeline: its own, or one of its rides and records when it has none.
    static func withRidesAndRecords(_ input: DayReportInput) -> DayReportInput {
        guard input.timeline.isEmpty else { return input }
        var copy = input
        copy.timeline = TimelineEntry.ordered(
            input.rides.compactMap { r in
                r.statistics.start.map {
                    TimelineEntry(kind: .ride, start: $0, end: r.statistics.end, title: "ride \(r.id)", ride: r.id)
                }
            }
                + input.records.map {
                    TimelineEntry(
                        kind: .record, start: $0.milliseconds, title: "record \($0.id)", detail: $0.notes.first,
                        record: $0.id)
                })
        return copy
    }
}
