import Foundation
import Hummingbird
import Reports

/// What every page links, the same for all readers and none secret: the stylesheet, the icon
/// sprite, the app's icon (as `favicon.ico` and SVG) and the web app manifest that makes the app
/// installable on a phone's home screen. Each answer carries a validator (the program's digest of
/// it), so a browser asks again cheaply and gets 304 until the program changes.
enum WebAssets {
    struct Asset: Sendable {
        var type: String
        var body: [UInt8]
        var tag: String

        init(_ type: String, _ body: [UInt8]) {
            self.type = type
            self.body = body
            tag = "\"" + AppStyle.version([String(decoding: body, as: UTF8.self)]) + "\""
        }
    }

    static let assets: [String: Asset] = [
        "/app.css": Asset("text/css; charset=utf-8", Array(AppStyle.css.utf8)),
        "/icons.svg": Asset("image/svg+xml", Array(AppStyle.sprite.utf8)),
        "/icon.svg": Asset("image/svg+xml", Array(AppStyle.appIcon.utf8)),
        "/favicon.ico": Asset("image/x-icon", favicon()),
        "/manifest.webmanifest": Asset("application/manifest+json", Array(manifest.utf8)),
    ]

    static func add(to router: Router<ServerContext>) {
        for (path, asset) in assets {
            router.get(RouterPath(stringLiteral: path)) { request, _ -> Response in
                var headers: HTTPFields = [.contentType: asset.type, .cacheControl: "no-cache", .eTag: asset.tag]
                if request.headers[.ifNoneMatch] == asset.tag {
                    headers[.contentType] = nil
                    return Response(status: .notModified, headers: headers)
                }
                return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: asset.body)))
            }
        }
    }

    /// The manifest: the app opens at its home page, standalone, in the accent colour.
    static let manifest = """
        {"name":"Trailbook","short_name":"Trailbook","description":"Where you went, day by day.",\
        "start_url":"/","scope":"/","display":"standalone","background_color":"#f4f5f7","theme_color":"#0a63c2",\
        "icons":[{"src":"/icon.svg","sizes":"any","type":"image/svg+xml","purpose":"any"},\
        {"src":"/favicon.ico","sizes":"32x32","type":"image/x-icon"}]}
        """

    /// The app's icon as a 32 × 32 Windows icon (one 32-bit bitmap, as browsers still ask for
    /// `/favicon.ico`): a white pin on the accent colour's rounded square, drawn here point by
    /// point, 4 × 4 samples a pixel.
    static func favicon() -> [UInt8] {
        let size = 32
        func inside(_ x: Double, _ y: Double) -> (r: UInt8, g: UInt8, b: UInt8)? {
            // The rounded square (radius 8).
            let cx = min(max(x, 8), 24)
            let cy = min(max(y, 8), 24)
            guard (x - cx) * (x - cx) + (y - cy) * (y - cy) <= 64 else { return nil }
            let blue: (UInt8, UInt8, UInt8) = (0x0a, 0x63, 0xc2)
            // The pin: a disc of radius 7 at (16, 13) and the point below it, with a hole.
            let d = ((x - 16) * (x - 16) + (y - 13) * (y - 13)).squareRoot()
            let point = y >= 13 && y <= 27 && abs(x - 16) <= (27 - y) * 0.5
            if d <= 2.6 { return blue }
            if d <= 7 || point { return (255, 255, 255) }
            return blue
        }
        var pixels: [UInt8] = []
        // Bottom row first, blue green red alpha.
        for row in (0..<size).reversed() {
            for column in 0..<size {
                var (r, g, b, n) = (0, 0, 0, 0)
                for sy in 0..<4 {
                    for sx in 0..<4 {
                        guard
                            let c = inside(
                                Double(column) + (Double(sx) + 0.5) / 4, Double(row) + (Double(sy) + 0.5) / 4)
                        else { continue }
                        r += Int(c.r)
                        g += Int(c.g)
                        b += Int(c.b)
                        n += 1
                    }
                }
                let k = max(n, 1)
                pixels += [UInt8(b / k), UInt8(g / k), UInt8(r / k), UInt8(n * 255 / 16)]
            }
        }
        let mask = [UInt8](repeating: 0, count: size * size / 8)
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } }
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
        let header =
            le32(40) + le32(size) + le32(size * 2) + le16(1) + le16(32) + le32(0)
            + le32(pixels.count + mask.count) + le32(0) + le32(0) + le32(0) + le32(0)
        let image = header + pixels + mask
        let directory = le16(0) + le16(1) + le16(1)
        let entry = [UInt8(size), UInt8(size), 0, 0] + le16(1) + le16(32) + le32(image.count) + le32(6 + 16)
        return directory + entry + image
    }
}
