import Foundation
import GPSCore
import Testing

@testable import Reports

/// The reports' pages come from the template layer: what a user wrote is escaped wherever it
/// lands (text, attributes), and template syntax in it is only text.
@Suite struct ReportPageTests {
    @Test func userTextIsEscapedAndNeverATemplate() throws {
        let hostile = "{{title}} <script>alert('x')</script> \" & {{{theme}}}"
        let record = DayReportInput.Record(
            id: 7, milliseconds: 1_781_418_600_000, coordinate: Coordinate(latitude: 47.37, longitude: 8.54),
            notes: [hostile], photos: [(name: hostile, source: "photo \"1\".jpg")],
            fields: [(key: hostile, value: hostile)])
        let input = DayReportInput(
            date: "2026-06-14", timeZone: TimeZone(identifier: "UTC")!, summary: hostile, rides: [], records: [record])
        let page = DayReport.render(input, back: "index.html#\"><x")
        // One script, the map's own (from the program, no user text); the hostile one is text.
        #expect(page.components(separatedBy: "<script>").count == 2, "only the map's script")
        #expect(page.contains("<script>\(MapScript.js)</script>"))
        // The value's braces stay text: "{{title}}" is not the page's title.
        let escaped = "{{title}} &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &quot; &amp; {{{theme}}}"
        #expect(page.contains("<p class=\"note\">\(escaped)</p>"), "\(page)")
        #expect(page.contains("<p class=\"summary\">\(escaped)</p>"))
        #expect(page.contains("<tr><th>\(escaped)</th><td>\(escaped)</td></tr>"))
        #expect(page.contains("alt=\"\(escaped)\""))
        #expect(page.contains("src=\"photo &quot;1&quot;.jpg\""))
        #expect(page.contains("href=\"index.html#&quot;&gt;&lt;x\""))
        #expect(
            page.components(separatedBy: "&lt;script&gt;").count == 7,
            "summary, note, field key and value, alt, the note in the timeline")
    }

    @Test func overlayEscapesTitlesAndSummaries() {
        let day = OverlayReport.Day(
            date: "2026-06-14", lines: [], distance: 0, moving: 0, link: "a\"b.html", summary: "<b>bold</b>")
        let page = OverlayReport.render([day], title: "Rides <i>&</i>")
        #expect(page.contains("<title>Rides &lt;i&gt;&amp;&lt;/i&gt;</title>"))
        #expect(page.contains("&lt;b&gt;bold&lt;/b&gt;") && page.contains("href=\"a&quot;b.html\""))
        #expect(!page.contains("<b>bold"))
    }
}
