import Foundation

/// Headless Chromium (Debian's `chromium`) looking at a page the way a person would: a
/// screenshot, and Chromium's own network log to see whether the page asked for anything.
public enum Chromium {
    public struct Look {
        /// Pixels within a small distance of each colour asked about.
        public var pixels: [String: Int]
        /// URLs the page requested other than itself (from the net log).
        public var requests: [String]
    }

    /// Debian's Chromium, or an error saying how to install it.
    private static func executable() throws -> String {
        guard
            let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw SupportError("Chromium is missing: sudo apt-get install chromium (make test does this).")
        }
        return chromium
    }

    /// The document of `html` (a file path) with `fragment` (`#...`) as Chromium holds it once the
    /// page's scripts have run: what the page made of itself, not the file's text.
    public static func dom(of html: String, fragment: String = "", arguments extra: [String] = []) throws -> String {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--dump-dom",
            ] + extra + [URL(fileURLWithPath: html).absoluteString + fragment]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, text.contains("<html") else {
            throw SupportError("Chromium did not print the document of \(html) (exit \(process.terminationStatus)).")
        }
        return text
    }

    /// Loads `html` (a file path) at `width`×`height`, saves `png`, and counts the pixels close
    /// to each `#rrggbb` colour in `colours`.
    public static func look(at html: String, png: String, colours: [String], width: Int = 1100, height: Int = 1800)
        throws -> Look
    {
        let chromium = try executable()
        let netlog = png + ".netlog.json"
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=\(profile)",
            "--window-size=\(width),\(height)", "--screenshot=\(png)", "--log-net-log=\(netlog)",
            "--net-log-capture-mode=Default", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-default-apps",
            URL(fileURLWithPath: html).absoluteString,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: png) else {
            throw SupportError("Chromium did not write the screenshot \(png) (exit \(process.terminationStatus)).")
        }
        // Pixels by colour, counted by Pillow.
        let script = """
            import sys
            from PIL import Image
            img = Image.open(sys.argv[1]).convert("RGB")
            targets = [tuple(int(c[i:i+2], 16) for i in (1, 3, 5)) for c in sys.argv[2:]]
            counts = [0] * len(targets)
            for p in img.getdata():
                for i, t in enumerate(targets):
                    if abs(p[0]-t[0]) + abs(p[1]-t[1]) + abs(p[2]-t[2]) < 40:
                        counts[i] += 1
            print(" ".join(str(c) for c in counts))
            """
        let counter = Process()
        counter.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        counter.arguments = ["-c", script, png] + colours
        let out = Pipe()
        counter.standardOutput = out
        try counter.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        counter.waitUntilExit()
        guard counter.terminationStatus == 0 else {
            throw SupportError("Counting pixels failed: is python3-pil installed? (make test installs it)")
        }
        let counts = text.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        var pixels: [String: Int] = [:]
        for (c, n) in zip(colours, counts) { pixels[c] = n }
        // Requests the page made, from the net log: those whose network isolation key is the
        // page's file:// origin (Chromium's own background requests to its update and account
        // services carry other keys), leaving out file: and data: URLs.
        var requests: [String] = []
        if let data = FileManager.default.contents(atPath: netlog),
            let log = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let events = log["events"] as? [[String: Any]]
        {
            for event in events {
                guard let params = event["params"] as? [String: Any], let url = params["url"] as? String,
                    let key = params["network_isolation_key"] as? String, key.contains("file://")
                else { continue }
                if !url.hasPrefix("file:") && !url.hasPrefix("data:") && !requests.contains(url) {
                    requests.append(url)
                }
            }
        } else {
            throw SupportError("Chromium wrote no readable net log at \(netlog).")
        }
        return Look(pixels: pixels, requests: requests)
    }

    /// How a page lays out at a viewport width.
    public struct Layout: Decodable {
        /// The viewport's width and the document's scroll width (wider: the page scrolls sideways).
        public var viewport: Int
        public var scrollWidth: Int
        /// Visible elements whose right edge passes the viewport (tag.class "text...").
        public var overflowing: [String]
        /// The smallest rendered height of an SVG text, in CSS pixels (the graphics' labels).
        public var smallestSVGText: Double?
        /// The most lines the text of a `.nowrap` element takes (times, dates, numbers must not
        /// wrap): its line boxes' distinct tops.
        public var nowrapLines: Int
        /// The text of those that wrap.
        public var wrapped: [String]
    }

    /// A page beside `html` that shows it in a frame `width` CSS pixels wide: headless Chromium's
    /// window is at least 500 pixels wide, a frame can be a phone's 390. `script` is added to the
    /// framed copy's end. Remove both files when done (the second is the copy).
    public static func framed(_ html: String, width: Int, height: Int = 1400, script: String = "") throws -> (
        page: String, copy: String
    ) {
        let folder = (html as NSString).deletingLastPathComponent
        let id = UUID().uuidString
        let copy = folder + "/.framed-\(id).html"
        let text = try String(contentsOfFile: html, encoding: .utf8)
        try text.replacingOccurrences(of: "</body>", with: script + "</body>").write(
            toFile: copy, atomically: true, encoding: .utf8)
        let page = folder + "/.frame-\(id).html"
        try """
        <!DOCTYPE html><html><head><meta charset="utf-8"></head><body style="margin:0">
        <iframe src="\((copy as NSString).lastPathComponent)" style="border:0;width:\(width)px;height:\(height)px"></iframe>
        <script>addEventListener('message',function(e){var p=document.createElement('pre');p.id='layout-result';
        p.textContent=e.data;document.body.appendChild(p)})</script></body></html>
        """.write(toFile: page, atomically: true, encoding: .utf8)
        return (page, copy)
    }

    /// Lays `html` (a file path) out at `width` CSS pixels (in a frame, see ``framed``) and
    /// measures it with a script added to a copy of the page.
    public static func layout(of html: String, width: Int) throws -> Layout {
        let measure = """
            <script>addEventListener('load',function(){var w=document.documentElement.clientWidth,bad=[],small=null,lines=1,wrapped=[];
            document.querySelectorAll('body *').forEach(function(e){var r=e.getBoundingClientRect();
            if(r.width===0&&r.height===0)return;if(e.closest('svg')&&e.tagName!=='svg')return;
            if(r.right>w+1)bad.push(e.tagName.toLowerCase()+'.'+(e.getAttribute('class')||'')+' "'+(e.textContent||'').trim().slice(0,30)+'"')});
            document.querySelectorAll('svg text').forEach(function(t){var h=t.getBoundingClientRect().height;
            if(h>0&&(small===null||h<small))small=h});
            document.querySelectorAll('.nowrap').forEach(function(e){var tops={},t,k=document.createTreeWalker(e,NodeFilter.SHOW_TEXT);
            while((t=k.nextNode())){var g=document.createRange();g.selectNodeContents(t);
            Array.prototype.forEach.call(g.getClientRects(),function(r){if(r.width>0)tops[Math.round(r.top)]=1})}
            var n=Object.keys(tops).length;if(n>1)wrapped.push((e.textContent||'').trim().slice(0,40));lines=Math.max(lines,n)});
            parent.postMessage(JSON.stringify({viewport:w,scrollWidth:document.documentElement.scrollWidth,
            overflowing:bad,smallestSVGText:small,nowrapLines:lines,wrapped:wrapped}),'*')});</script>
            """
        return try JSONDecoder().decode(Layout.self, from: Data(try probe(html, width: width, script: measure).utf8))
    }

    /// Opens `html` (a file path) in a frame `width` pixels wide with `script` added to a copy of
    /// it, and returns what the script posts to its parent (`parent.postMessage(text, '*')`).
    public static func probe(_ html: String, width: Int, script: String) throws -> String {
        let (page, copy) = try framed(html, width: width, script: script)
        defer {
            try? FileManager.default.removeItem(atPath: page)
            try? FileManager.default.removeItem(atPath: copy)
        }
        let dom = try self.dom(
            of: page, arguments: ["--window-size=\(max(500, width + 20)),1400", "--virtual-time-budget=5000"])
        guard let start = dom.range(of: "<pre id=\"layout-result\">"),
            let end = dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex)
        else { throw SupportError("The script added to \(html) did not report.") }
        return String(dom[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
