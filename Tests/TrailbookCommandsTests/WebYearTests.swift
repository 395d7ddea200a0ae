import Foundation
import Testing
import TrailbookTestSupport

/// `/year`: the year in review in the browser, the account's own, with the gazetteer's names.
extension WebPageTests {
    @Test func theYearInReviewPage() async throws {
        let (dir, store, config) = try await fortnightStore(users: ["ana", "ben"]) { dir, store in
            let (table, admin1) = try VisitsCommandTests.gazetteer(dir)
            #expect(try await run(["geocoder", "import", table, "--admin1", admin1, "--store", store]).status == 0)
        }
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        let ana = try await signIn(base, as: "ana")
        let page = try await HTTP.request(
            URL(string: "\(base)/year?year=2026")!, headers: ["Cookie": "trailbook_session=\(ana)"])
        #expect(page.0 == 200, "\(page.1.prefix(500))")
        for words in [
            "2026 in review", "14 days with data", "#plane\"/></svg> plane</td>", "Switzerland</strong> 13 days",
            "United Kingdom</strong> 3 days", "3 nights elsewhere", "home (suggested)",
            "from Kloten, CH to Hounslow, GB",
        ] {
            #expect(page.1.contains(words), "\(words) in \(page.1.suffix(3000))")
        }
        // The year's heat map, one click away: her points of 2026 only.
        #expect(page.1.contains(#"<a href="/heatmap?year=2026" id="heat">"#))
        let heat = try await HTTP.request(
            URL(string: "\(base)/heatmap?year=2026")!, headers: ["Cookie": "trailbook_session=\(ana)"])
        #expect(heat.0 == 200 && heat.1.contains("<h1>Where you were in 2026</h1>"), "\(heat.1.prefix(1500))")
        let all = try await HTTP.request(
            URL(string: "\(base)/heatmap")!, headers: ["Cookie": "trailbook_session=\(ana)"])
        func count(_ html: String, _ lead: String) -> String? {
            html.components(separatedBy: lead).dropFirst().first?.components(separatedBy: " points").first
        }
        let ofYear = try #require(count(heat.1, "Your "))
        #expect(ofYear == count(all.1, "All your ") && ofYear != "0", "every point of hers is of 2026: \(ofYear)")
        let before = try await HTTP.request(
            URL(string: "\(base)/heatmap?year=2025")!, headers: ["Cookie": "trailbook_session=\(ana)"])
        #expect(before.1.contains("Nothing recorded in 2025.") && before.1.contains("cells&quot;:[]"), "no cells")
        #expect(
            try await HTTP.request(
                URL(string: "\(base)/heatmap?year=99999")!, headers: ["Cookie": "trailbook_session=\(ana)"]
            ).0 == 404)
        let calendar = try await HTTP.request(
            URL(string: "\(base)/calendar?year=2026")!, headers: ["Cookie": "trailbook_session=\(ana)"])
        #expect(calendar.1.contains(#"<a href="/year?year=2026" id="review">"#))
        for width in [390, 1280] {
            let seen = try browse(
                "\(base)/year?year=2026", session: ana, width: width,
                [
                    "eval:[document.documentElement.scrollWidth, document.querySelectorAll('#modes tbody tr').length]",
                    "shot:\(dir)/year-\(width).png",
                ])
            let values = try #require(seen.last as? [Int])
            #expect(values[0] <= width && values[1] == 5, "at \(width) px: \(values), \(dir)/year-\(width).png")
        }
        // Ben has recorded nothing: his review says so, and shows none of Ana's.
        let ben = try await signIn(base, as: "ben")
        let his = try await HTTP.request(
            URL(string: "\(base)/year?year=2026")!, headers: ["Cookie": "trailbook_session=\(ben)"])
        #expect(his.1.contains("Nothing recorded in 2026") && !his.1.contains("Switzerland"), "\(his.1.suffix(1500))")
    }
}
