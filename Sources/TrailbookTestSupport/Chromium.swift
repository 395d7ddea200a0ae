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
    public static func dom(of html: String, fragment: String = "") throws -> String {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable())
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--dump-dom",
            URL(fileURLWithPath: html).absoluteString + fragment,
        ]
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
}
