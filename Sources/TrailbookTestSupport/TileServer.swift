import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A tile server on 127.0.0.1 for report tests: Python's http.server answering
/// `GET /{z}/{x}/{y}.png` with a 256-pixel PNG of one colour (`#2e8b57`), `Cache-Control:
/// max-age=3600` and an ETag; every request is written as a JSON line (path, User-Agent).
public final class TileServer: @unchecked Sendable {
    public let port: Int
    public let log: String
    private var process: Process?
    /// The colour of every tile.
    public static let colour = "#2e8b57"

    /// A solid 256×256 RGB PNG, written with zlib (no imaging library needed).
    static let png = #"""
        import zlib, struct
        def png(rgb, size=256):
            row = b'\x00' + bytes(rgb) * size
            raw = row * size
            def chunk(kind, data):
                return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
            header = struct.pack('>IIBBBBB', size, size, 8, 2, 0, 0, 0)
            return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b'')
        TILE = png((0x2e, 0x8b, 0x57))
        """#

    static let script =
        png + "\n" + #"""
            import sys, json, re
            from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
            port, log = int(sys.argv[1]), sys.argv[2]
            deepest = int(sys.argv[3]) if len(sys.argv) > 3 else 99
            class Handler(BaseHTTPRequestHandler):
                def do_GET(self):
                    with open(log, 'a') as f:
                        f.write(json.dumps({'path': self.path, 'agent': self.headers.get('User-Agent')}) + '\n')
                    if not re.fullmatch(r'/\d+/\d+/\d+\.png', self.path) or int(self.path.split('/')[1]) > deepest:
                        self.send_response(404); self.end_headers(); return
                    self.send_response(200)
                    self.send_header('Content-Type', 'image/png')
                    self.send_header('Content-Length', str(len(TILE)))
                    self.send_header('Cache-Control', 'max-age=3600')
                    self.send_header('ETag', '"tile-1"')
                    self.end_headers()
                    self.wfile.write(TILE)
                def log_message(self, *args):
                    pass
            server = ThreadingHTTPServer(('127.0.0.1', port), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """#

    /// A server on a free port, not started yet (`start()`), so a test can have it down.
    public init(directory: String) throws {
        port = try GPSFake.freePort()
        log = directory + "/tiles-\(port).jsonl"
        FileManager.default.createFile(atPath: log, contents: nil)
    }

    /// The URL template of its tiles.
    public var template: String { "http://127.0.0.1:\(port)/{z}/{x}/{y}.png" }

    /// The deepest zoom it has (deeper tiles: 404), as a tile server that stops at a zoom.
    public var deepest = 99

    public func start() throws {
        process = try PythonServer.start(
            Self.script, [String(port), log, String(deepest)], port: port, name: "test tile server")
    }

    public func stop() { PythonServer.stop(&process) }

    /// The requests it took, in order: path and User-Agent.
    public func requests() -> [(path: String, agent: String)] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            guard let o = try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] else { return nil }
            return ((o["path"] as? String) ?? "", (o["agent"] as? String) ?? "")
        }
    }

    /// Writes an MBTiles file (SQLite, TMS rows) holding the same tile at each `z/x/y` given.
    public static func makeMBTiles(_ path: String, tiles: [String]) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script =
            png + "\n" + #"""
                import sys, sqlite3
                db = sqlite3.connect(sys.argv[1])
                db.execute('CREATE TABLE metadata (name text, value text)')
                db.execute('CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)')
                db.executemany('INSERT INTO metadata VALUES (?, ?)', [('name', 'test'), ('format', 'png')])
                for key in sys.argv[2:]:
                    z, x, y = map(int, key.split('/'))
                    db.execute('INSERT INTO tiles VALUES (?, ?, ?, ?)', (z, x, (1 << z) - 1 - y, TILE))
                db.commit()
                """#
        p.arguments = ["python3", "-c", script, path] + tiles
        try p.run()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw SupportError("Could not write the MBTiles file \(path).") }
    }

    deinit { stop() }
}
