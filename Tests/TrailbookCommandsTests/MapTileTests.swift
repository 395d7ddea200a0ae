import Foundation
import Testing
import TrailbookTestSupport

/// Base map tiles in the reports: fetched at report time from a tile server the test runs on
/// 127.0.0.1 (or an MBTiles file the test writes), cached, and embedded, so the page still loads
/// nothing when it is opened.
@Suite(.serialized) struct MapTileTests {
    /// A store holding the sample ride (14 June 2026, Zurich).
    func store() async throws -> (dir: String, store: String) {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/tiles.sqlite"
        #expect(try await run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        return (dir, store)
    }

    func tiles(in html: String) -> [String] {
        html.components(separatedBy: "data-tile=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func tilesAreFetchedOnceCachedAndEmbedded() async throws {
        let (dir, store) = try await store()
        let server = try TileServer(directory: dir)
        try server.start()
        defer { server.stop() }
        let cache = ["XDG_CACHE_HOME": dir + "/cache"]
        let page = dir + "/day.html"
        let first = try await run(
            [
                "report", "day", "2026-06-14", "--store", store, "--time-zone", "Europe/Zurich", "-o", page, "--tiles",
                server.template, "--attribution", "© Test Tiles <contributors>",
            ], environment: cache)
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let embedded = tiles(in: html)
        let asked = server.requests()
        // Every tile the map shows was asked for once, with Trailbook's User-Agent, and is in the page.
        #expect(embedded.count >= 4 && Set(embedded).count == embedded.count, "\(embedded)")
        #expect(Set(asked.map(\.path)) == Set(embedded.map { "/\($0).png" }) && asked.count == embedded.count)
        #expect(asked.allSatisfy { $0.agent.hasPrefix("Trailbook/") }, "\(asked.map(\.agent))")
        #expect(html.contains("href=\"data:image/png;base64,"))
        #expect(html.contains("<div class=\"attribution\">© Test Tiles &lt;contributors&gt;</div>"))
        // The zoom is the one whose tiles show at most 256 px: about 14 for a ride across a town.
        let zoom = Int(embedded[0].prefix { $0 != "/" }) ?? 0
        #expect((13...16).contains(zoom), "zoom \(zoom)")
        // Two deeper levels along the route (maps.levels' default), each in its own group: fewer
        // tiles than would cover the whole map at that zoom, 200 at most together, and each
        // under a tile of the level above (the route's tiles and, on the first, their neighbours).
        let byZoom = Dictionary(grouping: embedded) { Int($0.prefix { $0 != "/" }) ?? 0 }
        #expect(Set(byZoom.keys) == [zoom, zoom + 1, zoom + 2], "\(byZoom.keys.sorted())")
        let counts = [zoom, zoom + 1, zoom + 2].map { byZoom[$0]?.count ?? 0 }
        #expect(counts[1] > 0 && counts[2] > 0, "\(counts)")
        #expect(counts[1] < 4 * counts[0] && counts[2] < 16 * counts[0], "along the route only: \(counts)")
        #expect(counts[1] + counts[2] <= 200, "\(counts)")
        for level in 1...2 {
            let above = Set(byZoom[zoom + level - 1] ?? [])
            for key in byZoom[zoom + level] ?? [] {
                let n = key.split(separator: "/").compactMap { Int($0) }
                #expect(above.contains("\(n[0] - 1)/\(n[1] / 2)/\(n[2] / 2)"), "\(key) lies under the level above")
            }
        }
        for level in 0...2 {
            let group =
                html.components(separatedBy: "<g class=\"tiles\" data-level=\"\(level)\">").dropFirst().first ?? ""
            let first = tiles(in: String(group)).first ?? ""
            #expect(first.hasPrefix("\(zoom + level)/"), "level \(level) holds zoom \(zoom + level): \(first)")
        }

        // A second report of the same day: all from the cache, not one request.
        let second = dir + "/again.html"
        let again = try await run(
            [
                "report", "day", "2026-06-14", "--store", store, "--time-zone", "Europe/Zurich", "-o", second,
                "--tiles", server.template,
            ], environment: cache)
        #expect(again.status == 0)
        #expect(server.requests().count == asked.count, "the cache answered")
        #expect(tiles(in: try String(contentsOfFile: second, encoding: .utf8)) == embedded)

        // The page opened from disk makes no request, and the tiles' colour shows, phone and desktop.
        for width in [360, 1280] {
            let framed = try Chromium.framed(page, width: width)
            defer {
                try? FileManager.default.removeItem(atPath: framed.page)
                try? FileManager.default.removeItem(atPath: framed.copy)
            }
            let look = try Chromium.look(
                at: framed.page, png: page + "-\(width).png", colours: [TileServer.colour], width: max(500, width + 20),
                height: 1400)
            #expect(look.requests.isEmpty, "\(look.requests)")
            #expect((look.pixels[TileServer.colour] ?? 0) > 5000, "tiles drawn at \(width) px: \(look.pixels)")
        }

        // Zoomed in 2.4 times, the page shows the first deeper level (not the second); fitted, neither.
        let levels = """
            <script>addEventListener('load',function(){var svg=document.getElementById('map'),out={};
            function shown(){return [0,1,2].map(function(k){var g=svg.querySelector('g.tiles[data-level="'+k+'"]');
            return g?getComputedStyle(g).display:'missing'})}
            out.start=shown();for(var i=0;i<4;i++)svg.dispatchEvent(new KeyboardEvent('keydown',{key:'+',bubbles:true}));
            out.zoomed=shown();document.querySelector('[data-map=fit]').click();out.fit=shown();
            parent.postMessage(JSON.stringify(out),'*')});</script>
            """
        let shown = try #require(
            try JSONSerialization.jsonObject(with: Data(try Chromium.probe(page, width: 1280, script: levels).utf8))
                as? [String: [String]])
        #expect(shown["start"] == ["inline", "none", "none"], "\(shown)")
        #expect(shown["zoomed"] == ["inline", "inline", "none"], "\(shown)")
        #expect(shown["fit"] == ["inline", "none", "none"], "\(shown)")

        // --tile-levels 0: only the zoom the map is drawn at.
        let flat = dir + "/flat.html"
        #expect(
            try await run(
                [
                    "report", "day", "2026-06-14", "--store", store, "--time-zone", "Europe/Zurich", "-o", flat,
                    "--tiles", server.template, "--tile-levels", "0",
                ], environment: cache
            ).status == 0)
        #expect(tiles(in: try String(contentsOfFile: flat, encoding: .utf8)) == byZoom[zoom])
        #expect(server.requests().count == asked.count, "the cache answered")

        // An MBTiles file holding those tiles gives the same map with no server at all.
        let mbtiles = dir + "/town.mbtiles"
        try TileServer.makeMBTiles(mbtiles, tiles: embedded)
        server.stop()
        let offline = dir + "/offline.html"
        let fromFile = try await run([
            "report", "day", "2026-06-14", "--store", store, "--time-zone", "Europe/Zurich", "-o", offline, "--tiles",
            "mbtiles:" + mbtiles,
        ])
        #expect(fromFile.status == 0 && fromFile.stderr.isEmpty, "\(fromFile.stderr)")
        #expect(tiles(in: try String(contentsOfFile: offline, encoding: .utf8)) == embedded)
    }

    /// libcurl is loaded only by what sends HTTP requests (``HTTPExchange``): linking it (e.g.
    /// by importing FoundationNetworking) would load it and its ~35 libraries at every start of
    /// every command, ~7 ms.
    @Test func theBinaryDoesNotLoadLibcurlAtStart() throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [try trailbookBinary().path]
        let out = Pipe()
        ldd.standardOutput = out
        try ldd.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(text.contains("libsqlite3"), "\(text)")
        #expect(!text.contains("libcurl"), "\(text)")
    }

    @Test func aServerThatIsDownLeavesBlankSquaresAndTheReport() async throws {
        let (dir, store) = try await store()
        let server = try TileServer(directory: dir)  // never started: nothing listens on its port
        let page = dir + "/day.html"
        let r = try await run([
            "report", "day", "2026-06-14", "--store", store, "--time-zone", "Europe/Zurich", "-o", page, "--tiles",
            server.template,
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stderr.hasPrefix("trailbook: warning: ") && r.stderr.contains("their squares are blank"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(tiles(in: html).isEmpty && html.contains("class=\"route\""))
        // The overlay too.
        let overlay = try await run([
            "report", "overlay", "--days", "2026-06-14", "--store", store, "--time-zone", "Europe/Zurich", "-o",
            dir + "/ov", "--tiles", server.template,
        ])
        #expect(overlay.status == 0 && overlay.stderr.contains("their squares are blank"), "\(overlay.stderr)")
    }

    /// `none` (in the config or as the option) is the plain map: no tile asked, no credit.
    @Test func noneIsThePlainMap() async throws {
        let (dir, store) = try await store()
        let config = dir + "/config.toml"
        try "[maps]\ntiles = \"none\"\nattribution = \"Nobody's tiles\"\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        for extra in [["--config", config], ["--tiles", "none"]] {
            let page = dir + "/day.html"
            let r = try await run(
                ["report", "day", "2026-06-14", "--store", store, "--time-zone", "Europe/Zurich", "-o", page] + extra)
            #expect(r.status == 0 && r.stderr.isEmpty, "\(extra): \(r.stderr)")
            let html = try String(contentsOfFile: page, encoding: .utf8)
            #expect(tiles(in: html).isEmpty && html.contains("class=\"route\""), "\(extra)")
            #expect(!html.contains("Nobody&#39;s tiles") && !html.contains("Nobody's tiles"), "\(extra)")
        }
    }

    @Test func badSourcesAreRefusedInOneSentence() async throws {
        let (dir, store) = try await store()
        let base = ["report", "day", "2026-06-14", "--store", store, "-o", dir + "/x.html"]
        let template = try await run(base + ["--tiles", "https://tile.example/{z}/{x}.png"])
        #expect(template.status == 64 && template.stderr.contains("is not a tile source"), "\(template.stderr)")
        let missing = try await run(base + ["--tiles", "mbtiles:" + dir + "/none.mbtiles"])
        #expect(missing.status == 66 && missing.stderr.contains("cannot read the MBTiles file"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.html"))
        // The config's [maps] keys are the defaults of the options.
        let config = dir + "/config.toml"
        try "[maps]\ntiles = \"ftp://x/{z}/{x}/{y}\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try await run(base + ["--config", config]).status == 64)
    }
}
