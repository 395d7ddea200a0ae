import Foundation
import Testing
import TrailbookTestSupport

/// `/year`: the year in review in the browser, the account's own, with the gazetteer's names.
extension WebPageTests {
    @Test func theYearInReviewPage() async throws {
        let (dir, store, config) = try fortnightStore(users: ["ana", "ben"]) { dir, store in
            let (table, admin1) = try VisitsCommandTests.gazetteer(dir)
            #expect(try run(["geocoder", "import", table, "--admin1", admin1, "--store", store]).status == 0)
        }
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        let ana = try await signIn(base, as: "ana")
        let page = try await HTTP.request(
            URL(string: "\(base)/year?year=2026")!, headers: ["Cookie": "trailbook_session=\(ana)"])
        #expect(page.0 == 200, "\(page.1.prefix(500))")
        for words in [
            "2026 in review", "14 days with data", "<td>plane</td>", "Switzerland</strong> 13 days",
            "United Kingdom</strong> 3 days", "3 nights elsewhere", "home (suggested)",
            "from Kloten, CH to Hounslow, GB",
        ] {
            #expect(page.1.contains(words), "\(words) in \(page.1.suffix(3000))")
        }
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
