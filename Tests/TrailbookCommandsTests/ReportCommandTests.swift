import Foundation
import Testing
import TrailbookTestSupport

/// The HTML reports, looked at in headless Chromium in both themes.
@Suite(.serialized) struct ReportCommandTests {
    /// A store with the sample ride, a second day (the same ride a day later, shifted), a note
    /// with markup in it and a photo.
    func store() async throws -> (store: String, dir: String) {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/trailbook.sqlite"
        #expect(try await run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        let shifted = try await run(["simulate", "--duration", "1200", "--seed", "9", "--start", "2026-06-15T07:00:00"])
        try shifted.stdout.write(toFile: dir + "/next.nmea", atomically: true, encoding: .utf8)
        #expect(try await run(["import", "--store", store, dir + "/next.nmea"]).status == 0)
        try TestPhotos.make(dir + "/photo.jpg", taken: "2026:06:14 06:45:00", offset: "+00:00")
        let mark = try await run(
            [
                "mark", "--store", store, "--at", "2026-06-14T06:45:00Z", "--note",
                "<script>document.title='pwned'</script>",
                "--photo", dir + "/photo.jpg", "--field", "weather=sunny",
            ])
        #expect(mark.status == 0, "\(mark.stderr)")
        _ = try await run(["day", "2026-06-14", "--store", store, "--summary", "Loop <b>round</b> the lake"])
        return (store, dir)
    }

    @Test(arguments: ["light", "dark"])
    func dayReportDrawsTheRouteAndLoadsNothing(theme: String) async throws {
        let (store, dir) = try await store()
        let html = dir + "/day-\(theme).html"
        let result = try await run(
            [
                "report", "day", "2026-06-14", "--store", store, "-o", html, "--theme", theme, "--photos", "embed",
                "--time-zone", "UTC",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: html, encoding: .utf8)
        #expect(text.contains("&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;"))
        // One script, the map's own (pan, zoom, hover); the note's <script> is text.
        #expect(text.components(separatedBy: "<script>").count == 2, "a day report has only the map's script")
        #expect(text.contains("<script>(function(){\nvar svg=document.getElementById('map')"))
        #expect(text.contains("Loop &lt;b&gt;round&lt;/b&gt; the lake"))
        #expect(text.contains("data:image/jpeg;base64,"), "--photos embed")
        #expect(
            !text.contains("http://") && !text.contains("https://")
                || text.components(separatedBy: "http").allSatisfy {
                    $0.hasPrefix("://www.w3.org/2000/svg") || !$0.hasPrefix("://") && !$0.hasPrefix("s://")
                })
        let look = try Chromium.look(at: html, png: dir + "/day-\(theme).png", colours: ["#d62728"])
        #expect((look.pixels["#d62728"] ?? 0) > 2000, "the route is drawn: \(look.pixels)")
        #expect(look.requests.isEmpty, "requests: \(look.requests)")
    }

    @Test(arguments: ["light", "dark"])
    func overlayDrawsEveryDayAndLinksTheirReports(theme: String) async throws {
        let (store, dir) = try await store()
        let out = dir + "/overlay-\(theme)"
        let result = try await run(
            [
                "report", "overlay", "--store", store, "--from", "2026-06-14", "--to", "2026-06-16", "-o", out,
                "--theme",
                theme, "--palette", "colorblind", "--time-zone", "UTC",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: out + "/2026-06-14.html"))
        #expect(FileManager.default.fileExists(atPath: out + "/2026-06-15.html"))
        #expect(!FileManager.default.fileExists(atPath: out + "/2026-06-16.html"), "no page for a day without rides")
        let index = try String(contentsOfFile: out + "/index.html", encoding: .utf8)
        #expect(index.contains("href=\"2026-06-14.html\"") && index.contains("id=\"day-2026-06-15\""))
        // Okabe-Ito blue and orange: one per day.
        let look = try Chromium.look(at: out + "/index.html", png: out + "/index.png", colours: ["#0072b2", "#e69f00"])
        #expect((look.pixels["#0072b2"] ?? 0) > 500 && (look.pixels["#e69f00"] ?? 0) > 500, "\(look.pixels)")
        #expect(look.requests.isEmpty, "requests: \(look.requests)")
    }

    /// The overlay's script: a day in the URL's fragment (what a click on its row sets) is
    /// highlighted and the others dimmed; no fragment or an unknown one shows all days.
    @Test func overlayHighlightsTheDayInTheFragment() async throws {
        let (store, dir) = try await store()
        let out = dir + "/overlay"
        let result = try await run([
            "report", "overlay", "--store", store, "--from", "2026-06-14", "--to", "2026-06-15", "-o", out,
            "--time-zone", "UTC",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let index = out + "/index.html"
        func has(_ dom: String, _ pattern: String) -> Bool {
            dom.range(of: pattern, options: .regularExpression) != nil
        }
        let picked = try Chromium.dom(of: index, fragment: "#2026-06-15")
        #expect(has(picked, #"<svg id="map" class="frame dim""#), "the map is dimmed")
        #expect(has(picked, #"<g class="day on" id="day-2026-06-15""#), "the day's route is highlighted")
        #expect(has(picked, #"<g class="day" id="day-2026-06-14""#), "the other day is not")
        #expect(has(picked, #"<tr class="pick on" data-day="2026-06-15""#), "so is its row")
        for fragment in ["", "#2031-01-01", "#%22%3E%3Cx"] {
            let all = try Chromium.dom(of: index, fragment: fragment)
            #expect(
                !has(all, #"class="frame dim""#) && !has(all, #"class="day on""#),
                "fragment '\(fragment)' shows all days")
            #expect(has(all, #"<g class="day" id="day-2026-06-15""#))
        }
    }

    /// The network check itself can fail: a page that asks for an image elsewhere is caught.
    @Test func aPageThatLoadsSomethingIsCaught() async throws {
        let dir = try Samples.temporaryDirectory()
        try "<html><body><img src=\"http://127.0.0.1:9/tracker.png\"></body></html>".write(
            toFile: dir + "/leaky.html", atomically: true, encoding: .utf8)
        let look = try Chromium.look(at: dir + "/leaky.html", png: dir + "/leaky.png", colours: [])
        #expect(look.requests.contains { $0.contains("127.0.0.1:9/tracker.png") }, "\(look.requests)")
    }

    @Test func twelveHourClockImperialUnitsAndLinkedPhotos() async throws {
        let (store, dir) = try await store()
        let html = dir + "/day.html"
        let result = try await run(
            [
                "report", "day", "2026-06-14", "--store", store, "-o", html, "--time-format", "12h", "--units",
                "imperial",
                "--time-zone", "UTC",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        let text = try String(contentsOfFile: html, encoding: .utf8)
        #expect(text.contains("6:30 AM") && text.contains(" mi<") && text.contains(" mph<"))
        #expect(text.contains("src=\"file://") && text.contains("-media/"), "--photos link is the default")
    }

    @Test func badDatesAndOptionsExit64() async throws {
        #expect(try await run(["report", "day", "14.06.2026"]).status == 64)
        #expect(try await run(["report", "day", "2026-06-14", "--theme", "neon"]).status == 64)
        #expect(try await run(["report", "overlay", "-o", "/tmp/x"]).status == 64)
    }
}

/// The pages of the first hour (issue 23, items 12 and 15), rendered by headless Chromium.
@Suite(.serialized) struct DayTotalsAndOverlayDaysTests {
    @Test func dayTotalsWeekdaysSummariesAndDaysWithoutRides() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        #expect(try await run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        #expect(
            try await run(["day", "2026-06-14", "--store", store, "--summary", "Loop <b>round</b> the lake"]).status == 0)
        // A walk with a photo on the 16th: a record, no ride.
        let walk = try await run([
            "mark", "--store", store, "--lat", "47.40", "--lon", "8.60", "--at", "2026-06-16T09:00:00Z", "--note",
            "Heron",
        ])
        #expect(walk.status == 0, "\(walk.stderr)")
        let out = dir + "/overlay"
        let overlay = try await run([
            "report", "overlay", "--store", store, "--from", "2026-06-14", "--to", "2026-06-16", "-o", out,
            "--time-zone", "UTC",
        ])
        #expect(overlay.status == 0, "\(overlay.stderr)")
        let index = try Chromium.dom(of: out + "/index.html")
        #expect(index.contains("Sun 2026-06-14") && index.contains("Tue 2026-06-16"), "weekday names")
        #expect(index.contains("Loop &lt;b&gt;round&lt;/b&gt; the lake"), "the day's summary, escaped")
        #expect(index.contains("no ride"), "the walk's day is listed")
        #expect(index.contains("class=\"place\""), "and its place drawn")
        #expect(!index.contains("A link to"), "no developer text")
        #expect(FileManager.default.fileExists(atPath: out + "/2026-06-16.html"))
        let day = try Chromium.dom(of: out + "/2026-06-14.html")
        #expect(day.contains("href=\"index.html#2026-06-14\""), "a link back to the overlay")
        #expect(
            day.range(
                of: #"class="totals"><span class="nowrap">\d+\.\d\d km</span> · <span class="nowrap">moving "#
                    + #"\d:\d\d:\d\d</span> · <span class="nowrap">climb \d+ m<"#, options: .regularExpression) != nil)
        #expect(day.contains("Sun 2026-06-14"))
        // A page made alone has the totals, not the link.
        let alone = try await run([
            "report", "day", "2026-06-14", "--store", store, "--time-zone", "UTC", "-o", dir + "/a.html",
        ])
        #expect(alone.status == 0)
        let page = try Chromium.dom(of: dir + "/a.html")
        #expect(page.contains("class=\"totals\"") && !page.contains("all days"))
    }

    /// Item 13: one number for one thing, and markers that are no ride's colour.
    @Test func pinsShowRecordIdsAndMarkersAreNoRidesColour() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        #expect(try await run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        // Three records; only the third carries a note, so it is the only pin: it shows 3, not 1.
        for minute in ["40", "42"] {
            #expect(try await run(["mark", "--store", store, "--at", "2026-06-14T06:\(minute):00Z"]).status == 0)
        }
        #expect(
            try await run(["mark", "--store", store, "--at", "2026-06-14T06:44:00Z", "--note", "Heron"]).status == 0)
        for palette in ["default", "colorblind"] {
            let page = dir + "/day-\(palette).html"
            let r = try await run([
                "report", "day", "2026-06-14", "--store", store, "--time-zone", "UTC", "--palette", palette, "-o", page,
            ])
            #expect(r.status == 0, "\(r.stderr)")
            let dom = try Chromium.dom(of: page)
            #expect(dom.contains("<title>record 3</title>") && dom.contains(">3</text>"), "the pin shows the id")
            #expect(!dom.contains(">1</text>"), "no pin numbered apart from its record")
            #expect(dom.contains("<span class=\"pinlabel\">3</span>"), "the list shows the same number")
            #expect(!dom.contains("class=\"num\""), "no numbered circles for rides")
            #expect(dom.contains("<span class=\"swatch\""), "rides are coloured swatches")
            // The start and end markers' colours are none of the palettes' ride colours.
            let rideColours = Set([
                "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
                "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000",
            ])
            for marker in ["start", "end"] {
                let pattern = "class=\"\(marker)\"[^>]*fill=\"(#[0-9a-f]{6})\"[^>]*stroke=\"(#[0-9a-f]{6})\""
                let regex = try NSRegularExpression(pattern: pattern)
                let match = try #require(regex.firstMatch(in: dom, range: NSRange(dom.startIndex..., in: dom)))
                for g in 1...2 {
                    let colour = String(dom[Range(match.range(at: g), in: dom)!])
                    #expect(!rideColours.contains(colour), "\(marker) uses \(colour)")
                }
            }
        }
    }

    /// Item 14: the pages read from phone to desktop width: nothing wider than the viewport, the
    /// graphics' labels readable, times and dates on one line.
    @Test func pagesFitFromPhoneToDesktopWidth() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        #expect(try await run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        let next = try await run(["simulate", "--duration", "900", "--seed", "12", "--start", "2026-06-14T09:00:00"])
        try next.stdout.write(toFile: dir + "/next.nmea", atomically: true, encoding: .utf8)
        #expect(try await run(["import", "--store", store, dir + "/next.nmea"]).status == 0)
        try TestPhotos.make(dir + "/p.jpg", taken: "2026:06:14 06:45:00", offset: "+00:00")
        #expect(
            try await run([
                "mark", "--store", store, "--at", "2026-06-14T06:45:00Z", "--note", "A long note about the heron",
                "--photo", dir + "/p.jpg", "--field", "weather=sunny",
            ]).status == 0)
        let day = dir + "/day.html"
        let made = try await run([
            "report", "day", "2026-06-14", "--store", store, "--time-zone", "America/Los_Angeles", "--time-format",
            "12h", "--units", "imperial", "-o", day,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let overlay = try await run([
            "report", "overlay", "--store", store, "--from", "2026-06-13", "--to", "2026-06-14", "-o", dir + "/ov",
            "--time-zone", "America/Los_Angeles",
        ])
        #expect(overlay.status == 0, "\(overlay.stderr)")
        for page in [day, dir + "/ov/index.html"] {
            for width in [390, 1280] {
                let layout = try Chromium.layout(of: page, width: width)
                // The frame is the width asked for; a vertical scroll bar may take its 15 px.
                #expect(layout.viewport <= width && layout.viewport >= width - 20, "viewport \(layout.viewport)")
                #expect(layout.overflowing.isEmpty, "\(page) at \(width) px: \(layout.overflowing)")
                #expect(layout.scrollWidth <= layout.viewport, "\(page) at \(width) px scrolls sideways")
                #expect(
                    (layout.smallestSVGText ?? 99) >= 9, "\(page) at \(width) px: labels \(layout.smallestSVGText!) px")
                #expect(layout.nowrapLines == 1, "\(page) at \(width) px: \(layout.wrapped) wrap")
                let framed = try Chromium.framed(page, width: width)
                let look = try Chromium.look(
                    at: framed.page, png: page + "-\(width).png", colours: ["#d62728", "#1f77b4"],
                    width: max(500, width + 20), height: 1400)
                try? FileManager.default.removeItem(atPath: framed.page)
                try? FileManager.default.removeItem(atPath: framed.copy)
                #expect(look.requests.isEmpty, "\(look.requests)")
                #expect((look.pixels["#d62728"] ?? 0) > 200, "the route is drawn at \(width) px: \(look.pixels)")
            }
        }
    }
}
