import Foundation
import GPSCore

/// Many days' routes on one map, a colour per day, with a list of the days (weekday, date, the
/// day's summary, distance, moving time): selecting a day highlights its route and dims the
/// others (a few lines of inline script, driven by the URL's fragment, so
/// `index.html#2026-06-14` opens with that day highlighted), and each day links to its day
/// report. A day with records but no ride (a walk with a geotagged photo) shows its places.
public enum OverlayReport {
    /// The map's size in pixels (its scale is fitted to the days' routes and places).
    public static let mapSize = (width: 960.0, height: 640.0)

    public struct Day: Sendable {
        public var date: String
        /// Each ride's segments, as coordinates.
        public var lines: [[Coordinate]]
        public var distance: Double
        public var moving: Double
        /// File name of the day report, relative to the overlay.
        public var link: String
        /// The day's summary text.
        public var summary: String?
        /// Where the day's records are.
        public var places: [Coordinate]

        public init(
            date: String, lines: [[Coordinate]], distance: Double, moving: Double, link: String,
            summary: String? = nil, places: [Coordinate] = []
        ) {
            self.date = date
            self.lines = lines
            self.distance = distance
            self.moving = moving
            self.link = link
            self.summary = summary
            self.places = places
        }
    }

    /// `Sun` for `2026-06-14`; nil when the text is not a date.
    public static func weekday(_ date: String) -> String? {
        guard let d = CivilDate(iso: date) else { return nil }
        // 1970-01-01 was a Thursday.
        let names = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]
        return names[((d.daysSinceEpoch % 7) + 7) % 7]
    }

    /// `Sun 14 Jun 2026` for 2026-06-14: the day as the web app writes it in lists.
    public static func shortWritten(_ day: CivilDate) -> String {
        let month = DayReport.monthNames[day.month - 1].prefix(3)
        return (weekday(day.description) ?? "") + " \(day.day) \(month) \(day.year)"
    }

    /// The points the map's pointer finds (at most ``DayReport/hoverPoints``, evenly spread):
    /// map x, y, no profile, and the index of the day, whose tip (weekday, date, distance,
    /// moving time) and date come once in `tips` and `days`. As JSON, for an attribute.
    static func pointerData(_ days: [Day], screen: [[[(x: Double, y: Double)]]], style: ReportStyle) -> String {
        let total = screen.map { $0.map(\.count).reduce(0, +) }.reduce(0, +)
        let step = max(1, (total + DayReport.hoverPoints - 1) / DayReport.hoverPoints)
        var rows: [String] = []
        var n = 0
        for (i, lines) in screen.enumerated() {
            for p in lines.joined() {
                defer { n += 1 }
                if n % step == 0 { rows.append("[\(HTML.number(p.x)),\(HTML.number(p.y)),null,null,\(i)]") }
            }
        }
        let tips = days.map { day in
            HTML.json(
                (weekday(day.date).map { $0 + " " } ?? "") + day.date + " · " + style.distance(day.distance)
                    + " · moving "
                    + ReportStyle.duration(day.moving))
        }
        return "{\"points\":[" + rows.joined(separator: ",") + "],\"tips\":[" + tips.joined(separator: ",")
            + "],\"days\":[" + days.map { HTML.json($0.date) }.joined(separator: ",") + "]}"
    }

    /// `web`: the links and the range form of the page `trailbook serve` shows (nil: a report file,
    /// self-contained).
    public static func render(
        _ days: [Day], title: String, style: ReportStyle = .init(), suggestions: [SuggestionTable] = [],
        web: WebOverlay? = nil
    ) -> String {
        let (width, height) = mapSize
        let projection = MapProjection(
            fitting: days.flatMap { $0.lines.joined() + $0.places }, width: width, height: height)
        let screen = days.map { day in day.lines.map { $0.map(projection.point) } }
        let drawn = days.enumerated().map { i, day in
            Page.Drawn(
                date: day.date, colour: style.palette.colour(i),
                paths: screen[i].filter { $0.count > 1 }.map { DayReport.path($0) },
                places: day.places.map { place in
                    let p = projection.point(place)
                    return Page.Spot(x: HTML.number(p.x), y: HTML.number(p.y))
                })
        }
        let bar = projection.scaleBar()
        let rows = days.enumerated().map { i, day in
            Page.Row(
                date: day.date, colour: style.palette.colour(i), weekday: weekday(day.date).map { $0 + " " } ?? "",
                // The web app writes days as its day pages do ("Sun 14 Jun 2026"); a report file
                // keeps the sortable "Sun 2026-06-14".
                shown: web != nil
                    ? CivilDate(iso: day.date).map(shortWritten) ?? day.date
                    : (weekday(day.date).map { $0 + " " } ?? "") + day.date,
                ride: !day.lines.isEmpty, distance: style.distance(day.distance),
                moving: ReportStyle.duration(day.moving), link: day.link, summary: day.summary)
        }
        let page = Page(
            title: title, theme: style.theme.rawValue, dayCount: counted(days.count, "day"),
            total: style.distance(days.map(\.distance).reduce(0, +)), rows: rows,
            map: Page.Map(
                width: Int(width), height: Int(height), days: drawn,
                tileLevels: MapTiles.layers(
                    projection,
                    along: screen.flatMap { $0 } + days.flatMap { $0.places.map { [projection.point($0)] } },
                    fetcher: style.tiles, levels: style.tileLevels, link: style.tilePath),
                trackData: pointerData(days, screen: screen, style: style),
                bar: ScaleBar(
                    y: "\(Int(height - 18))", ty: "\(Int(height - 24))", width: HTML.number(bar.pixels),
                    label: bar.metres >= 1000 ? "\(Int(bar.metres / 1000)) km" : "\(Int(bar.metres)) m")),
            suggest: SuggestionTable.section(suggestions),
            attribution: style.tiles.map(\.attribution).flatMap { $0.isEmpty ? nil : $0 },
            web: web.map {
                Page.Links(
                    user: $0.user, home: $0.home, calendar: $0.calendar, script: $0.script, from: $0.from, to: $0.to,
                    message: $0.message)
            },
            inline: web == nil ? true : nil)
        return ReportTemplates.pages.render(web == nil ? "overlay" : "webdays", model: page)
    }

    /// What the `overlay` and `webdays` templates read.
    struct Page: Encodable {
        /// A day's lines and places on the map.
        struct Drawn: Encodable {
            var date: String
            var colour: String
            var paths: [String]
            var places: [Spot]
        }
        struct Spot: Encodable {
            var x: String
            var y: String
        }
        /// A day in the list under the map.
        struct Row: Encodable {
            var date: String
            var colour: String
            var weekday: String
            var shown: String
            var ride: Bool
            var distance: String
            var moving: String
            var link: String
            var summary: String?
        }
        struct Map: Encodable {
            var width: Int
            var height: Int
            var days: [Drawn]
            var tileLevels: [MapTiles.Level]
            var trackData: String
            var bar: ScaleBar
        }
        /// The served page's links and range.
        struct Links: Encodable {
            var user: String
            var home: String
            var calendar: String
            var script: String
            var from: String
            var to: String
            var message: String?
        }
        var title: String
        var theme: String
        var overlay = true
        var dayCount: String
        var total: String
        var rows: [Row]
        var map: Map
        var suggest: SuggestionTable.Section?
        var attribution: String?
        var web: Links?
        /// A report file (its script inline).
        var inline: Bool?
    }
}

/// What the overlay page carries when `trailbook serve` shows it to a signed-in account: its
/// links and the range it shows (`YYYY-MM-DD`, for the range form).
public struct WebOverlay: Sendable {
    public var user: String
    public var home: String
    public var calendar: String
    public var script: String
    public var from: String
    public var to: String
    /// A sentence about the range asked for (cut short, say).
    public var message: String?

    public init(
        user: String, home: String, calendar: String, script: String, from: String, to: String,
        message: String? = nil
    ) {
        self.user = user
        self.home = home
        self.calendar = calendar
        self.script = script
        self.from = from
        self.to = to
        self.message = message
    }
}

/// A map's scale bar, where a template draws it (SVG units) and what it says.
struct ScaleBar: Encodable {
    var y: String
    var ty: String
    var width: String
    var label: String
}
