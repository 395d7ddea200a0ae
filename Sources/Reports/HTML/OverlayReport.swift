import Foundation
import GPSCore

/// Many days' routes on one map, a colour per day, with a list of the days (weekday, date, the
/// day's summary, distance, moving time): selecting a day highlights its route and dims the
/// others (a few lines of inline script, driven by the URL's fragment, so
/// `index.html#2026-06-14` opens with that day highlighted), and each day links to its day
/// report. A day with records but no ride (a walk with a geotagged photo) shows its places.
public enum OverlayReport {
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

    public static func render(_ days: [Day], title: String, style: ReportStyle = .init()) -> String {
        let width = 960.0
        let height = 640.0
        let projection = MapProjection(
            fitting: days.flatMap { $0.lines.joined() + $0.places }, width: width, height: height)
        var svg =
            "<svg id=\"map\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
            + "aria-label=\"Routes of \(counted(days.count, "day"))\"><rect class=\"mapbg\" width=\"100%\" height=\"100%\"/>\n"
        for (i, day) in days.enumerated() {
            svg += "<g class=\"day\" id=\"day-\(HTML.escape(day.date))\" stroke=\"\(style.palette.colour(i))\">"
            for line in day.lines where line.count > 1 {
                svg += "<path class=\"route\" d=\"\(DayReport.path(line.map(projection.point)))\"/>"
            }
            for place in day.places {
                let p = projection.point(place)
                svg +=
                    "<circle class=\"place\" cx=\"\(HTML.number(p.x))\" cy=\"\(HTML.number(p.y))\" r=\"4\" "
                    + "fill=\"\(style.palette.colour(i))\"/>"
            }
            svg += "</g>\n"
        }
        let bar = projection.scaleBar()
        let label = bar.metres >= 1000 ? "\(Int(bar.metres / 1000)) km" : "\(Int(bar.metres)) m"
        svg +=
            "<g class=\"ink\"><rect x=\"20\" y=\"\(Int(height - 18))\" width=\"\(HTML.number(bar.pixels))\" height=\"4\"/>"
            + "<text x=\"20\" y=\"\(Int(height - 24))\" font-size=\"12\" stroke=\"none\">\(label)</text></g></svg>"
        var list = "<table><tr><th>day</th><th>distance</th><th>moving</th><th></th></tr>"
        for (i, day) in days.enumerated() {
            list +=
                "<tr class=\"pick\" data-day=\"\(HTML.escape(day.date))\"><td><span class=\"swatch\" style=\"background:\(style.palette.colour(i))\"></span>"
                + "<span class=\"nowrap\">\(HTML.escape(weekday(day.date).map { $0 + " " } ?? ""))\(HTML.escape(day.date))</span>"
                + (day.summary.map { "<div class=\"muted daysummary\">\(HTML.escape($0))</div>" } ?? "") + "</td>"
                + (day.lines.isEmpty
                    ? "<td>no ride</td><td></td>"
                    : "<td class=\"nowrap\">\(style.distance(day.distance))</td><td>\(ReportStyle.duration(day.moving))</td>")
                + "<td><a href=\"\(HTML.escape(day.link))\">day report</a></td></tr>"
        }
        list += "</table>"
        let total = days.map(\.distance).reduce(0, +)
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(HTML.escape(title))</title>
            <style>\(ReportStyle.css)
            .day{transition:opacity .15s}.dim .day{opacity:.15}.dim .day.on{opacity:1}.dim .day.on .route{stroke-width:5}
            tr.pick{cursor:pointer}tr.pick.on{font-weight:700}</style></head>
            <body class="\(style.theme.rawValue)">
            <header><h1>\(HTML.escape(title))</h1><div class="muted">\(counted(days.count, "day")) · \(style.distance(total))</div></header>
            <h2>Map</h2>
            \(svg)
            <h2>Days</h2>
            <p class="muted">Select a day to highlight its route; select it again to show all.</p>
            \(list)
            <script>
            (function(){var map=document.getElementById('map'),rows=document.querySelectorAll('tr.pick');
            function show(d){document.querySelectorAll('.on').forEach(function(n){n.classList.remove('on')});
            var g=d?document.getElementById('day-'+d):null;if(!g){map.classList.remove('dim');return}
            map.classList.add('dim');g.classList.add('on');
            rows.forEach(function(r){if(r.getAttribute('data-day')===d)r.classList.add('on')})}
            rows.forEach(function(row){row.addEventListener('click',function(e){
            if(e.target.tagName==='A')return;var d=row.getAttribute('data-day');
            location.hash=location.hash==='#'+d?'':d})});
            window.addEventListener('hashchange',function(){show(location.hash.slice(1))});
            show(location.hash.slice(1))})();
            </script>
            <footer class="muted"><p>Made by Trailbook. Nothing on this page comes from the network.</p></footer>
            </body></html>

            """
    }
}
