import Foundation
import Testing
import TrailbookTestSupport

/// The maps' pan, zoom and hover, driven in headless Chromium with scripted events.
@Suite struct InteractiveMapTests {
    /// Zooms with the wheel and the keyboard, fits again, then points at the record's pin (the
    /// stored fix at 08:45 local) and reads the tip, at `width` pixels.
    static let script = """
        <script>addEventListener('load',function(){
        var svg=document.getElementById('map'),r=svg.getBoundingClientRect(),out={};
        out.before=svg.getAttribute('viewBox');
        svg.dispatchEvent(new WheelEvent('wheel',{deltaY:-120,clientX:r.left+r.width/4,clientY:r.top+r.height/4,bubbles:true,cancelable:true}));
        out.wheel=svg.getAttribute('viewBox');
        svg.dispatchEvent(new KeyboardEvent('keydown',{key:'+',bubbles:true}));
        out.key=svg.getAttribute('viewBox');
        document.querySelector('[data-map=fit]').click();
        out.fit=svg.getAttribute('viewBox');
        var pin=document.querySelector('.pin rect');
        if(pin){var p=pin.getBoundingClientRect();
        svg.dispatchEvent(new PointerEvent('pointermove',{clientX:p.left+p.width/2,clientY:p.top+p.height+2,bubbles:true,pointerType:'mouse'}));}
        var tip=document.getElementById('maptip');out.tip=tip?tip.textContent:null;
        out.shown=tip?getComputedStyle(tip).display:null;
        var ph=document.getElementById('phover');out.profile=ph?ph.getAttribute('visibility'):null;
        parent.postMessage(JSON.stringify(out),'*')});</script>
        """

    @Test func wheelKeysAndButtonsZoomAndTheTipShowsThePointsTime() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/map.sqlite"
        #expect(try await run(["import", "--store", store, "Samples/ride.nmea"]).status == 0)
        let note = try await run([
            "note", "add", "--store", store, "--at", "2026-06-14 08:45", "--time-zone", "Europe/Zurich", "--text",
            "Heron",
        ])
        #expect(note.status == 0, "\(note.stderr)")
        let page = dir + "/day.html"
        #expect(
            try await run(["report", "day", "2026-06-14", "--store", store, "--time-zone", "Europe/Zurich", "-o", page])
                .status
                == 0)
        for width in [360, 1280] {
            let text = try Chromium.probe(page, width: width, script: Self.script)
            let result = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            func box(_ key: String) -> [Double] {
                ((result[key] as? String) ?? "").split(separator: " ").compactMap { Double($0) }
            }
            #expect(box("before") == [0, 0, 960, 600], "\(result)")
            // The wheel zooms in by a quarter toward the pointer; the + key again; fit goes back.
            #expect(box("wheel").count == 4 && abs(box("wheel")[2] - 768) < 0.5 && box("wheel")[0] > 0, "\(result)")
            #expect(abs(box("key")[2] - 614.4) < 0.5, "\(result)")
            #expect(box("fit") == [0, 0, 960, 600])
            // Over the pin of the record made at 08:45: the track point there, with its time.
            let tip = (result["tip"] as? String) ?? ""
            #expect(tip.hasPrefix("ride 1 · 08:4") && tip.contains("km/h"), "\(width) px: \(tip)")
            #expect(tip.contains("08:45") || tip.contains("08:44") || tip.contains("08:46"), "\(tip)")
            #expect(result["shown"] as? String == "block" && result["profile"] as? String == "visible")
        }
    }

    @Test func theOverlayZoomsAndKeepsItsDayHighlighting() async throws {
        let dir = try Samples.temporaryDirectory()
        let store = dir + "/overlay.sqlite"
        let second = dir + "/next.nmea"
        #expect(try await run(["simulate", "--duration", "600", "--start", "2026-06-15T07:00:00", "-o", second]).status == 0)
        #expect(try await run(["import", "--store", store, "Samples/ride.nmea", second]).status == 0)
        let folder = dir + "/ov"
        let made = try await run([
            "report", "overlay", "--from", "2026-06-14", "--to", "2026-06-15", "--store", store, "--time-zone",
            "Europe/Zurich", "-o", folder,
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let script = """
            <script>addEventListener('load',function(){
            var svg=document.getElementById('map'),r=svg.getBoundingClientRect(),out={};
            svg.dispatchEvent(new WheelEvent('wheel',{deltaY:120,clientX:r.left+10,clientY:r.top+10,bubbles:true,cancelable:true}));
            out.zoomedOut=svg.getAttribute('viewBox');
            svg.dispatchEvent(new WheelEvent('wheel',{deltaY:-120,clientX:r.left+r.width/2,clientY:r.top+r.height/2,bubbles:true,cancelable:true}));
            out.zoomedIn=svg.getAttribute('viewBox');
            document.querySelector('tr.pick').click();
            setTimeout(function(){out.dim=svg.classList.contains('dim');
            out.on=document.querySelectorAll('.day.on').length;
            document.querySelector('[data-map=fit]').click();location.hash='';
            // Pointing at the second day's route shows that day; a tap highlights it.
            var route=document.querySelector('#day-2026-06-15 path'),p=route.getPointAtLength(route.getTotalLength()/2),
            m=svg.getScreenCTM(),x=m.a*p.x+m.c*p.y+m.e,y=m.b*p.x+m.d*p.y+m.f;
            svg.dispatchEvent(new PointerEvent('pointermove',{clientX:x,clientY:y,bubbles:true,pointerType:'mouse'}));
            var tip=document.getElementById('maptip');out.tip=tip.textContent;out.shown=getComputedStyle(tip).display;
            svg.dispatchEvent(new PointerEvent('pointerdown',{pointerId:7,clientX:x,clientY:y,bubbles:true,pointerType:'touch'}));
            svg.dispatchEvent(new PointerEvent('pointerup',{pointerId:7,clientX:x,clientY:y,bubbles:true,pointerType:'touch'}));
            setTimeout(function(){out.tapped=Array.prototype.map.call(document.querySelectorAll('.day.on'),function(g){return g.id});
            parent.postMessage(JSON.stringify(out),'*')},50)},50)});</script>
            """
        let text = try Chromium.probe(folder + "/index.html", width: 1280, script: script)
        let result = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        // Never wider than the whole map; a wheel step in makes it a quarter smaller.
        #expect(result["zoomedOut"] as? String == "0 0 960 640", "\(result)")
        let zoomed = ((result["zoomedIn"] as? String) ?? "").split(separator: " ").compactMap { Double($0) }
        #expect(zoomed.count == 4 && zip(zoomed, [96, 64, 768, 512]).allSatisfy { abs($0 - $1) < 0.5 }, "\(result)")
        #expect(result["dim"] as? Bool == true && result["on"] as? Int == 1, "\(result)")
        let tip = (result["tip"] as? String) ?? ""
        #expect(tip.hasPrefix("Mon 2026-06-15 · ") && tip.contains(" km · moving 0:"), "\(result)")
        #expect(result["shown"] as? String == "block", "\(result)")
        #expect(result["tapped"] as? [String] == ["day-2026-06-15"], "\(result)")
    }
}
