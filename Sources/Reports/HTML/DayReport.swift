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

        /// Whether the record gets a numbered pin (it has a note or a photo).
        var pinned: Bool { !notes.isEmpty || !photos.isEmpty }
    }

    public var date: String
    public var timeZone: TimeZone
    public var summary: String?
    public var rides: [Ride]
    public var records: [Record]

    public init(date: String, timeZone: TimeZone, summary: String?, rides: [Ride], records: [Record]) {
        self.date = date
        self.timeZone = timeZone
        self.summary = summary
        self.rides = rides
        self.records = records
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

    public init() {}

    func time(_ ms: Int64, _ zone: TimeZone) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = zone
        f.dateFormat = timeFormat == .h24 ? "HH:mm" : "h:mm a"
        return f.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
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
        .axis{display:flex;justify-content:space-between;gap:8px;font-size:.85em;opacity:.75;margin-top:2px}
        @media (max-width:600px){
        body{padding:12px}table{font-size:.88em}td,th{padding:4px 4px}.wide{display:none}
        #map .ink text{font-size:32px}.route{stroke-width:3;vector-effect:non-scaling-stroke}
        .pin,.start,.end,.place{transform:scale(2.2);transform-box:fill-box;transform-origin:center}
        .photos img{max-height:240px}}
        .pinlabel{display:inline-block;min-width:1.5em;padding:0 .3em;text-align:center;border-radius:.3em;color:#fff;background:#333;margin-right:6px;font-weight:700}
        """
}

/// The self-contained HTML diary page for one day: nothing is loaded from anywhere.
public enum DayReport {
    /// `back`: the overlay page this day belongs to, linked at the top (nil for a page alone).
    public static func render(_ input: DayReportInput, style: ReportStyle = .init(), back: String? = nil) -> String {
        let zone = input.timeZone
        let stats = input.rides.map(\.statistics)
        let totals =
            input.rides.isEmpty
            ? ""
            : "<div class=\"totals\"><span class=\"nowrap\">\(style.distance(stats.map(\.distance).reduce(0, +)))</span> · "
                + "<span class=\"nowrap\">moving \(ReportStyle.duration(stats.map(\.moving).reduce(0, +)))</span> · "
                + "<span class=\"nowrap\">climb \(style.height(stats.map(\.climb).reduce(0, +)))</span></div>"
        let nav = back.map { "<nav><a href=\"\(HTML.escape($0))\">← all days</a></nav>" } ?? ""
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Trailbook \(HTML.escape(input.date))</title>
            <style>\(ReportStyle.css)</style></head>
            <body class="\(style.theme.rawValue)">
            \(nav)<header><h1 class="nowrap">\(HTML.escape(OverlayReport.weekday(input.date).map { $0 + " " } ?? ""))\(HTML.escape(input.date))</h1>\
            \(totals)<div class="muted">\(HTML.escape(zone.identifier)) · \
            \(counted(input.rides.count, "ride")) · \(counted(input.records.count, "record"))</div></header>

            """
        if let summary = input.summary { html += "<p class=\"summary\">\(HTML.escape(summary))</p>\n" }
        html += "<h2>Map</h2>\n" + map(input, style: style) + "\n"
        if !input.rides.isEmpty {
            html += "<h2>Rides</h2>\n" + table(input, style: style) + "\n"
            html += "<h2>Elevation</h2>\n" + profile(input, style: style) + "\n"
        }
        html += "<h2>Timeline</h2>\n" + timeline(input, style: style) + "\n"
        let pinned = pinned(input)
        if !input.records.isEmpty {
            html += "<h2>Records</h2>\n"
            for r in input.records {
                html += "<section class=\"record\" id=\"record-\(r.id)\"><div>"
                if pinned.contains(r.id) { html += "<span class=\"pinlabel\">\(r.id)</span>" }
                html +=
                    "<strong>\(style.time(r.milliseconds, zone))</strong> <span class=\"muted\">record \(r.id) · "
                    + String(format: "%.5f, %.5f", r.coordinate.latitude, r.coordinate.longitude) + "</span></div>\n"
                for note in r.notes { html += "<p class=\"note\">\(HTML.escape(note))</p>\n" }
                if !r.fields.isEmpty {
                    html += "<table>"
                    for f in r.fields {
                        html += "<tr><th>\(HTML.escape(f.key))</th><td>\(HTML.escape(f.value))</td></tr>"
                    }
                    html += "</table>\n"
                }
                if !r.photos.isEmpty {
                    html += "<div class=\"photos\">"
                    for p in r.photos {
                        html +=
                            "<a href=\"\(HTML.escape(p.source))\"><img src=\"\(HTML.escape(p.source))\" alt=\"\(HTML.escape(p.name))\"></a>"
                    }
                    html += "</div>\n"
                }
                html += "</section>\n"
            }
        }
        return html
            + "<footer class=\"muted\"><p>Made by Trailbook. Nothing on this page comes from the network.</p></footer>\n</body></html>\n"
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
    static func map(_ input: DayReportInput, style: ReportStyle, width: Double = 960, height: Double = 600) -> String {
        let coordinates = input.rides.flatMap { $0.points.map { $0.fix.coordinate! } } + input.records.map(\.coordinate)
        let projection = MapProjection(fitting: coordinates, width: width, height: height)
        var svg =
            "<svg id=\"map\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
            + "aria-label=\"Map of the day's routes\"><rect class=\"mapbg\" width=\"100%\" height=\"100%\"/>\n"
        for (i, ride) in input.rides.enumerated() {
            let colour = style.palette.colour(i)
            svg += "<g class=\"ride\" data-ride=\"\(ride.id)\">"
            var previousEnd: (x: Double, y: Double)?
            for segment in segments(ride.points) {
                let screen = segment.map { projection.point($0.fix.coordinate!) }
                if let end = previousEnd, let start = screen.first {
                    svg +=
                        "<line class=\"gap\" stroke=\"\(colour)\" x1=\"\(HTML.number(end.x))\" y1=\"\(HTML.number(end.y))\" "
                        + "x2=\"\(HTML.number(start.x))\" y2=\"\(HTML.number(start.y))\"/>"
                }
                svg += "<path class=\"route\" stroke=\"\(colour)\" d=\"\(path(screen))\"/>"
                previousEnd = screen.last
            }
            if let first = ride.points.first, let last = ride.points.last {
                let a = projection.point(first.fix.coordinate!)
                let b = projection.point(last.fix.coordinate!)
                svg +=
                    "<circle class=\"start\" cx=\"\(HTML.number(a.x))\" cy=\"\(HTML.number(a.y))\" r=\"6\" fill=\"\(markerFill)\" stroke=\"\(markerEdge)\" stroke-width=\"3\"><title>start of ride \(ride.id)</title></circle>"
                svg +=
                    "<rect class=\"end\" x=\"\(HTML.number(b.x - 6))\" y=\"\(HTML.number(b.y - 6))\" width=\"12\" height=\"12\" fill=\"\(markerEdge)\" stroke=\"\(markerFill)\" stroke-width=\"2\"><title>end of ride \(ride.id)</title></rect>"
            }
            svg += "</g>\n"
        }
        // Record pins: dark rounded squares with the record's id (rides are coloured lines with
        // white start circles and dark end squares; no numbered circles).
        for r in input.records where r.pinned {
            let p = projection.point(r.coordinate)
            let w = 10.0 + 7 * Double(String(r.id).count)
            svg +=
                "<g class=\"pin\"><a href=\"#record-\(r.id)\"><rect x=\"\(HTML.number(p.x - w / 2))\" y=\"\(HTML.number(p.y - 9))\" "
                + "width=\"\(HTML.number(w))\" height=\"18\" rx=\"4\" fill=\"#333\"/>"
                + "<text x=\"\(HTML.number(p.x))\" y=\"\(HTML.number(p.y + 4))\" text-anchor=\"middle\">\(r.id)</text>"
                + "<title>record \(r.id)</title></a></g>\n"
        }
        let bar = projection.scaleBar()
        let label =
            style.imperial
            ? String(format: "%.0f ft", bar.metres / 0.3048)
            : (bar.metres >= 1000 ? "\(Int(bar.metres / 1000)) km" : "\(Int(bar.metres)) m")
        let y = height - 18
        svg +=
            "<g class=\"ink\"><rect x=\"20\" y=\"\(HTML.number(y))\" width=\"\(HTML.number(bar.pixels))\" height=\"4\"/>"
            + "<text x=\"20\" y=\"\(HTML.number(y - 6))\" font-size=\"12\" stroke=\"none\">\(label)</text></g>\n"
        return svg + "</svg>"
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

    static func table(_ input: DayReportInput, style: ReportStyle) -> String {
        var html =
            "<table><tr><th>ride</th><th>time</th><th>distance</th><th>moving</th><th class=\"wide\">avg speed</th>"
            + "<th class=\"wide\">max</th><th>climb</th><th class=\"wide\">descent</th></tr>"
        for (i, r) in input.rides.enumerated() {
            let s = r.statistics
            html +=
                "<tr><td class=\"nowrap\"><span class=\"swatch\" style=\"background:\(style.palette.colour(i))\"></span>ride \(r.id)</td>"
                + "<td><span class=\"nowrap\">\(style.time(s.start!, input.timeZone))</span>–"
                + "<span class=\"nowrap\">\(style.time(s.end!, input.timeZone))</span></td>"
                + "<td class=\"nowrap\">\(style.distance(s.distance))</td><td>\(ReportStyle.duration(s.moving))</td>"
                + "<td class=\"wide nowrap\">\(s.averageMovingSpeed.map(style.speed) ?? "–")</td>"
                + "<td class=\"wide nowrap\">\(s.maxSpeed.map(style.speed) ?? "–")</td>"
                + "<td class=\"nowrap\">\(style.height(s.climb))</td><td class=\"wide nowrap\">\(style.height(s.descent))</td></tr>"
        }
        return html + "</table>"
    }

    /// Altitude over distance, rides one after another.
    static func profile(_ input: DayReportInput, style: ReportStyle, width: Double = 960, height: Double = 180)
        -> String
    {
        var series: [(ride: Int, points: [(Double, Double)])] = []
        var offset = 0.0
        for (i, ride) in input.rides.enumerated() {
            var d = offset
            var previous: Coordinate?
            var pts: [(Double, Double)] = []
            for p in ride.points {
                let c = p.fix.coordinate!
                if let prev = previous { d += Geodesy.haversineDistance(prev, c) }
                previous = c
                if let alt = p.fix.altitudeMSL { pts.append((d, alt)) }
            }
            series.append((i, pts))
            offset = d
        }
        let all = series.flatMap(\.points)
        guard let minA = all.map(\.1).min(), let maxA = all.map(\.1).max(), offset > 0 else {
            return "<p class=\"muted\">No altitudes recorded.</p>"
        }
        let span = max(maxA - minA, 10)
        var svg =
            "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"Elevation profile\">"
            + "<rect class=\"mapbg\" width=\"100%\" height=\"100%\"/>"
        for s in series where !s.points.isEmpty {
            let screen = s.points.map {
                (x: 40 + $0.0 / offset * (width - 60), y: height - 20 - ($0.1 - minA) / span * (height - 40))
            }
            svg += "<path class=\"route\" stroke=\"\(style.palette.colour(s.ride))\" d=\"\(path(screen))\"/>"
        }
        // The labels are HTML under the graphic, so they keep their size at any width.
        return svg + "</svg><div class=\"axis\"><span>lowest \(style.height(minA))</span>"
            + "<span>highest \(style.height(maxA))</span>"
            + "<span>\(style.distance(input.rides.map(\.statistics.distance).reduce(0, +)))</span></div>"
    }

    /// The day's span as a bar: rides coloured, the time between them as stops, records as ticks.
    static func timeline(_ input: DayReportInput, style: ReportStyle, width: Double = 960) -> String {
        let times =
            input.rides.flatMap { [$0.statistics.start!, $0.statistics.end!] } + input.records.map(\.milliseconds)
        guard let first = times.min(), let last = times.max() else { return "<p class=\"muted\">Nothing recorded.</p>" }
        let span = Double(max(last - first, 60_000))
        func x(_ ms: Int64) -> Double { 20 + Double(ms - first) / span * (width - 40) }
        var svg =
            "<svg viewBox=\"0 0 \(Int(width)) 70\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"Timeline\">"
            + "<rect class=\"mapbg\" width=\"100%\" height=\"100%\"/><rect x=\"20\" y=\"24\" width=\"\(Int(width - 40))\" height=\"14\" fill=\"#999\" opacity=\".25\"><title>stopped</title></rect>"
        for (i, r) in input.rides.enumerated() {
            let a = x(r.statistics.start!)
            let b = max(a + 2, x(r.statistics.end!))
            svg +=
                "<rect x=\"\(HTML.number(a))\" y=\"24\" width=\"\(HTML.number(b - a))\" height=\"14\" fill=\"\(style.palette.colour(i))\">"
                + "<title>ride \(r.id) \(style.time(r.statistics.start!, input.timeZone))–\(style.time(r.statistics.end!, input.timeZone))</title></rect>"
        }
        for r in input.records {
            svg +=
                "<line x1=\"\(HTML.number(x(r.milliseconds)))\" x2=\"\(HTML.number(x(r.milliseconds)))\" y1=\"16\" y2=\"46\" class=\"ink\" stroke-width=\"2\"><title>record \(r.id) \(style.time(r.milliseconds, input.timeZone))</title></line>"
        }
        return svg + "</svg><div class=\"axis\"><span class=\"nowrap\">\(style.time(first, input.timeZone))</span>"
            + "<span class=\"nowrap\">\(style.time(last, input.timeZone))</span></div>"
    }
}
