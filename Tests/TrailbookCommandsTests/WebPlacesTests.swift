import Foundation
import Testing
import TrailbookTestSupport

/// `/places` in the browser: the account's places on a map with their arrivals and departures; a
/// place put by tapping the map and sized by dragging its edge, renamed, deleted after a page that
/// says what goes; a refused one said by the form; another account sees none of it.
extension WebPageTests {
    @Test func placesArePutOnTheMapRenamedAndDeleted() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/s.sqlite"
        try await addUsers(["ana", "ben"], store: store)
        // A place at the ride's start before the ride comes in: the import notes the departure.
        let placed = try await run([
            "place", "add", "bridge", "--lat", "47.3769", "--lon", "8.5417", "--radius", "200", "--user", "ana",
            "--store", store,
        ])
        #expect(placed.status == 0, "\(placed.stderr)")
        let imported = try await run(["import", "--store", store, "--user", "ana", "Samples/ride.nmea"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let mbtiles = dir + "/town.mbtiles"
        try TileServer.makeMBTiles(mbtiles, tiles: Self.rideTiles())
        let config = dir + "/config.toml"
        try "[time]\nzone = \"Europe/Zurich\"\n[maps]\ntiles = \"mbtiles:\(mbtiles)\"\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let server = try ServeCommandTests.RunningServer(store: store, arguments: ["--config", config])
        defer { _ = server.stop() }
        let base = server.url!
        let ana = try await signIn(base, as: "ana")
        let jar = ["Cookie": "trailbook_session=\(ana)"]
        let page = try await HTTP.request(URL(string: "\(base)/places")!, headers: jar)
        #expect(page.0 == 200)
        #expect(page.1.contains(#"<tr data-name="bridge">"#) && page.1.contains("radius 200 m"), "\(page.1)")
        #expect(page.1.contains("left 2026-06-14"), "the ride's departure from the place is listed: \(page.1)")

        // At both widths the map draws the place over tiles from this server, and nothing scrolls sideways.
        for width in [390, 1280] {
            let seen = try browse(
                "\(base)/places", session: ana, width: width,
                [
                    "wait:document.querySelectorAll('#map circle.place').length===1",
                    "eval:[document.documentElement.scrollWidth, document.querySelectorAll('#map image.tile').length, "
                        + "document.querySelector('#map text.placename').textContent]",
                    "shot:\(dir)/places-\(width).png",
                ])
            let values = try #require(seen.first as? [Any])
            #expect((values[0] as? Int ?? .max) <= width, "no sideways scroll at \(width) px: \(values)")
            #expect((values[1] as? Int ?? 0) > 0, "tiles are drawn at \(width) px")
            #expect(values[2] as? String == "bridge")
        }

        // A tap puts the new place, a drag of its edge's handle makes it bigger, the form sends it.
        let tapAndDrag = """
            (function(){const svg=document.getElementById('map'),b=svg.getBoundingClientRect();
            function fire(type,x,y){svg.dispatchEvent(new PointerEvent(type,{clientX:x,clientY:y,pointerId:1,bubbles:true}))}
            const x=b.left+b.width*0.3,y=b.top+b.height*0.6;fire('pointerdown',x,y);fire('pointerup',x,y);
            const before=+document.getElementById('newplace').elements.radius.value;
            const h=document.getElementById('handle').getBoundingClientRect(),hx=h.left+h.width/2,hy=h.top+h.height/2;
            fire('pointerdown',hx,hy);fire('pointermove',hx+30,hy);fire('pointermove',hx+60,hy);fire('pointerup',hx+60,hy);
            const f=document.getElementById('newplace');f.elements.name.value='bakery';
            return [before,+f.elements.radius.value,+f.elements.lat.value,+f.elements.lon.value,
            document.querySelectorAll('#map circle.pick').length]})()
            """
        let added = try browse(
            "\(base)/places", session: ana, width: 1280,
            [
                "wait:document.querySelectorAll('#map circle.place').length===1", "eval:\(tapAndDrag)",
                "shot:\(dir)/places-pick.png", "eval:document.getElementById('newplace').requestSubmit()",
                "wait:location.search==='?saved=added'",
                "wait:document.querySelectorAll('#map circle.place').length===2",
                "eval:document.getElementById('message').textContent",
            ])
        let picked = try #require(added.first as? [Double])
        #expect(picked[0] == 100 && picked[1] > 100, "dragging the handle made the radius bigger: \(picked)")
        #expect(abs(picked[2] - 47.37) < 0.1 && abs(picked[3] - 8.54) < 0.1 && picked[4] == 1, "\(picked)")
        #expect((added.last as? String)?.hasPrefix("The place is added") == true, "\(added)")
        let listed = try await run(["place", "list", "--user", "ana", "--store", store])
        let bakery = try #require(listed.stdout.split(separator: "\n").first { $0.hasPrefix("bakery: ") })
        #expect(bakery.contains("\(Int(picked[1])) m around"), "\(listed.stdout)")

        // Refused: one sentence by the form, which keeps what was typed; a form without the token is refused.
        let token = try #require(csrf(in: page.1))
        let post = jar.merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 }
        let bad = try await HTTP.exchange(
            URL(string: "\(base)/places")!, method: "POST",
            body: form(["csrf": token, "name": "pond", "lat": "north", "lon": "8.5", "radius": "50"]), headers: post)
        #expect(bad.status == 422 && bad.body.contains(#"id="placemessage""#), "\(bad.status)")
        #expect(bad.body.contains("The latitude must be from -90 to 90") && bad.body.contains(#"value="pond""#))
        let stale = try await HTTP.exchange(
            URL(string: "\(base)/places")!, method: "POST",
            body: form(["name": "pond", "lat": "47", "lon": "8.5", "radius": "50"]), headers: post)
        #expect(stale.status == 403)

        // Renamed; not onto a name in use.
        let renamed = try await HTTP.exchange(
            URL(string: "\(base)/places/rename")!, method: "POST",
            body: form(["csrf": token, "name": "bakery", "new": "Bäckerei Huber"]), headers: post)
        #expect(renamed.status == 303)
        let taken = try await HTTP.exchange(
            URL(string: "\(base)/places/rename")!, method: "POST",
            body: form(["csrf": token, "name": "Bäckerei Huber", "new": "bridge"]), headers: post)
        #expect(taken.status == 422 && taken.body.contains("There is already a place named bridge"))

        // Deleted after a page that says what goes.
        let confirm = try await HTTP.request(URL(string: "\(base)/places/delete?name=bridge")!, headers: jar)
        #expect(confirm.0 == 200 && confirm.1.contains("the place bridge, radius 200 m"), "\(confirm.1)")
        #expect(confirm.1.contains(#"action="/places/delete?name=bridge""#))
        let deleted = try await HTTP.exchange(
            URL(string: "\(base)/places/delete?name=bridge")!, method: "POST", body: form(["csrf": token]),
            headers: post)
        #expect(deleted.status == 303)
        let after = try await run(["place", "list", "--user", "ana", "--store", store])
        #expect(after.stdout.hasPrefix("Bäckerei Huber: ") && !after.stdout.contains("bridge"), "\(after.stdout)")

        // Ben has none of Ana's places.
        let ben = try await signIn(base, as: "ben")
        let his = try await HTTP.request(
            URL(string: "\(base)/places")!, headers: ["Cookie": "trailbook_session=\(ben)"])
        #expect(his.1.contains(#"id="noplaces""#) && !his.1.contains("Bäckerei"))
    }
}
