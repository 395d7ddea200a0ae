import Foundation
import Testing
import TrailbookTestSupport

/// `/heatmap`: all of an account's points as counts per cell (counted per ride, kept, and
/// counted again when a ride changes), drawn over the base map; the browser gets cells, not
/// points; another account's points are not in it.
extension WebPageTests {
    @Test func theHeatMapShowsEveryPointOfTheAccountAsCells() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana", "ben"], store: store)
        #expect(try await run(["import", "--store", store, "--user", "ana", "Samples/ride.nmea"]).status == 0)
        let mbtiles = dir + "/town.mbtiles"
        try TileServer.makeMBTiles(mbtiles, tiles: Self.rideTiles())
        let config = dir + "/config.toml"
        // No round but the first while these servers run: what the second start files is then
        // known, however slow the machine (a round a minute filed the new ride's overlay
        // before the restart once, on a loaded machine).
        try "[maps]\ntiles = \"mbtiles:\(mbtiles)\"\nviews_every = 86400\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        var server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        // Once started, the server files ana's ride in its view cache (ben has none); no day's
        // figures: the import kept her timeline, whose moves the overlay counts.
        let filled = server.logged("view cache ")
        #expect(
            filled?.contains("1 ride counted, 1 overlay part and the figures of 0 days worked out in ") == true,
            "\(filled ?? "")")
        var base = server.url!
        let ana = try await signIn(base, as: "ana")
        let page = try await HTTP.request(
            URL(string: "\(base)/heatmap")!, headers: ["Cookie": "trailbook_session=\(ana)"])
        #expect(page.0 == 200 && page.1.contains("All your 1,762 points, in "), "\(page.1.prefix(2000))")
        // The cells add up to the points, and the page is far smaller than the points would be.
        let heat = try #require(
            page.1.range(of: #"data-heat="[^"]*""#, options: .regularExpression).map { String(page.1[$0]) })
        let counts = heat.components(separatedBy: "],[").compactMap {
            Int($0.split(separator: ",").last?.prefix { $0.isNumber } ?? "")
        }
        #expect(counts.reduce(0, +) == 1762, "the cells' counts: \(counts.count) cells")
        #expect(page.1.utf8.count < 40_000, "\(page.1.utf8.count) bytes")
        for width in [390, 1280] {
            let seen = try browse(
                "\(base)/heatmap", session: ana, width: width,
                [
                    "wait:document.querySelectorAll('#map path.heat').length > 0",
                    "eval:[document.documentElement.scrollWidth, document.querySelectorAll('#map image.tile').length]",
                    "shot:\(dir)/heatmap-\(width).png",
                ])
            let values = try #require(seen.last as? [Int])
            #expect(values[0] <= width && values[1] > 0, "at \(width) px: \(values)")
        }
        // Counted per ride and kept: a new ride is counted when it comes, the others are not read again.
        var gpx = #"<gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
        for i in 0..<10 {
            gpx +=
                #"<trkpt lat="47.5" lon="\#(8.6 + Double(i) * 0.0001)"><time>2026-06-20T10:00:\#(10 + i)Z</time></trkpt>"#
        }
        try (gpx + "</trkseg></trk></gpx>\n").write(toFile: dir + "/more.gpx", atomically: true, encoding: .utf8)
        #expect(try await run(["import", "--store", store, "--user", "ana", dir + "/more.gpx"]).status == 0)
        let again = try await HTTP.request(
            URL(string: "\(base)/heatmap")!, headers: ["Cookie": "trailbook_session=\(ana)"])
        #expect(again.1.contains("All your 1,772 points, in "), "\(again.1.prefix(2000))")
        // Started again: the cache has everything but the new ride's overlay, worked out at the
        // start; the heat map is as it was.
        _ = server.stop()
        server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        base = server.url!
        let refilled = server.logged("view cache ")
        #expect(
            refilled?.contains("0 rides counted, 1 overlay part and the figures of 0 days worked out") == true,
            "\(refilled ?? "")")
        let ana2 = try await signIn(base, as: "ana")
        let kept = try await HTTP.request(
            URL(string: "\(base)/heatmap")!, headers: ["Cookie": "trailbook_session=\(ana2)"])
        #expect(kept.1.contains("All your 1,772 points, in "), "\(kept.1.prefix(2000))")
        // Filled every second (`maps.views_every`): a ride another process imports is filed
        // while the server runs.
        let often = dir + "/often.toml"
        try "[maps]\ntiles = \"mbtiles:\(mbtiles)\"\nviews_every = 1\n".write(
            toFile: often, atomically: true, encoding: .utf8)
        server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", often])
        base = server.url!
        #expect(server.logged("view cache ")?.contains("nothing new") == true)
        try (gpx + "</trkseg></trk></gpx>\n").replacingOccurrences(of: "2026-06-20T10", with: "2026-06-21T10").write(
            toFile: dir + "/later.gpx", atomically: true, encoding: .utf8)
        #expect(try await run(["import", "--store", store, "--user", "ana", dir + "/later.gpx"]).status == 0)
        let later = server.logged("1 ride counted, 1 overlay part and the figures of 0 days worked out")
        let log = (try? String(contentsOfFile: server.log, encoding: .utf8)) ?? ""
        #expect(later != nil, "\(log)")
        let ben = try await signIn(base, as: "ben")
        let his = try await HTTP.request(
            URL(string: "\(base)/heatmap")!, headers: ["Cookie": "trailbook_session=\(ben)"])
        #expect(
            his.1.contains("Nothing recorded yet")
                && his.1.contains(#"data-heat="{&quot;size&quot;:0.002,&quot;cells&quot;:[]}""#),
            "\(his.1.suffix(1500))")
    }
}
