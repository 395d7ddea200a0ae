import Foundation

/// A loopback HTTP server for testing an HTTP client (Python's `http.server`): `GET /final`
/// answers 200 with an `ETag` and, in `X-Seen`, the `If-None-Match` it was sent; `GET /redirect`
/// answers 302 to `/final`; `POST /echo` answers 201 with the body it was sent and, in `X-Seen`,
/// its `Content-Type`; `GET /slow` answers after 3 s.
public final class EchoServer: @unchecked Sendable {
    public let port: Int
    private var process: Process?

    static let script = #"""
        import sys, time
        from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler
        class Handler(BaseHTTPRequestHandler):
            def answer(self, status, body=b'', headers=()):
                self.send_response(status)
                for name, value in headers:
                    self.send_header(name, value)
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def do_GET(self):
                if self.path == '/redirect':
                    self.answer(302, headers=[('Location', '/final'), ('ETag', '"redirect"')])
                elif self.path == '/final':
                    self.answer(200, b'final', [('ETag', '"v1"'), ('X-Seen', self.headers.get('If-None-Match', '-'))])
                elif self.path == '/slow':
                    time.sleep(3)
                    self.answer(200, b'late')
                else:
                    self.answer(404, b'no such path')
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get('Content-Length', '0')))
                self.answer(201, body, [('X-Seen', self.headers.get('Content-Type', '-'))])
            def log_message(self, *args):
                pass
        server = ThreadingHTTPServer(('127.0.0.1', int(sys.argv[1])), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// A server on a free port, not started yet: nothing listens there before ``start()``.
    public init() throws { port = try GPSFake.freePort() }

    public func url(_ path: String) -> URL { URL(string: "http://127.0.0.1:\(port)\(path)")! }

    public func start() throws {
        process = try PythonServer.start(Self.script, [String(port)], port: port, name: "test echo server")
    }

    public func stop() { PythonServer.stop(&process) }
}
