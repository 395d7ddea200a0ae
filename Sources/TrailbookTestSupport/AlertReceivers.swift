import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP receiver for alerts on 127.0.0.1, as a webhook's or ntfy's server would take them:
/// Python's http.server answering every POST with 200 (401 when a signature is there and does
/// not verify), each request written as a JSON line: path, headers, body and whether the
/// `X-Trailbook-Signature` HMAC-SHA256 of the body under `secret` verified (null: not signed).
public final class HookReceiver: @unchecked Sendable {
    public let port: Int
    public let log: String
    let secret: String
    private var process: Process?

    static let script = #"""
        import sys, json, hmac, hashlib
        from http.server import HTTPServer, BaseHTTPRequestHandler
        port, secret, log = int(sys.argv[1]), sys.argv[2], sys.argv[3]
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get('Content-Length') or 0))
                signature = self.headers.get('X-Trailbook-Signature')
                verified = None
                if signature is not None:
                    wanted = 'sha256=' + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
                    verified = hmac.compare_digest(wanted, signature)
                record = {'path': self.path, 'headers': dict(self.headers.items()),
                          'body': body.decode('utf-8', 'replace'), 'verified': verified}
                with open(log, 'a') as f:
                    f.write(json.dumps(record) + '\n')
                self.send_response(401 if verified is False else 200)
                self.send_header('Content-Type', 'application/json')
                self.end_headers()
                self.wfile.write(b'{"ok":true}')
            def log_message(self, *args):
                pass
        server = HTTPServer(('127.0.0.1', port), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// A receiver on a free port, not started yet (`start()`), so a test can have it down first.
    public init(secret: String = "", directory: String) throws {
        port = try GPSFake.freePort()
        self.secret = secret
        log = directory + "/hook-\(port).jsonl"
        FileManager.default.createFile(atPath: log, contents: nil)
    }

    /// Starts listening (again) on its port; returns once it does.
    public func start() throws {
        process = try PythonServer.start(Self.script, [String(port), secret, log], port: port, name: "test receiver")
    }

    public func stop() { PythonServer.stop(&process) }

    /// The requests it took, in order.
    public func requests() -> [[String: Any]] {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    deinit { stop() }
}

/// A Python script that listens on `port` on 127.0.0.1 and prints its port once it does.
enum PythonServer {
    static func start(_ script: String, _ arguments: [String], port: Int, name: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script] + arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        // The first line is the port: it listens from then on.
        _ = out.fileHandleForReading.availableData
        let deadline = Date().addingTimeInterval(10)
        while !GPSFake.canConnect(port: port) {
            guard Date() < deadline else { throw SupportError("The \(name) did not start on port \(port).") }
            usleep(20_000)
        }
        return p
    }

    /// Stops it (SIGKILL: the test process may hold SIGTERM blocked, and children inherit that).
    static func stop(_ process: inout Process?) {
        guard let p = process else { return }
        kill(p.processIdentifier, SIGKILL)
        p.waitUntilExit()
        process = nil
    }
}

/// Debian's mosquitto on a free loopback port (anonymous, no persistence), and
/// `mosquitto_sub` to read what arrives on a topic.
public final class Mosquitto: @unchecked Sendable {
    public let port: Int
    let directory: String
    private var broker: Process?
    private var subscribers: [Process] = []

    public init(directory: String) throws {
        guard
            let mosquitto = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            throw SupportError("mosquitto is missing: install mosquitto and mosquitto-clients (make deps-test does).")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_sub") else {
            throw SupportError("mosquitto_sub is missing: install mosquitto-clients (make deps-test does).")
        }
        port = try GPSFake.freePort()
        self.directory = directory
        let config = directory + "/mosquitto.conf"
        try "listener \(port) 127.0.0.1\nallow_anonymous true\npersistence false\n".write(
            toFile: config, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: mosquitto)
        p.arguments = ["-c", config]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        broker = p
        let deadline = Date().addingTimeInterval(10)
        while !GPSFake.canConnect(port: port) {
            guard Date() < deadline else { throw SupportError("mosquitto did not start on port \(port).") }
            usleep(20_000)
        }
    }

    /// Subscribes to `topic` now; the returned closure gives the messages received so far.
    public func subscribe(_ topic: String) throws -> @Sendable () -> [String] {
        let file = directory + "/sub-\(subscribers.count).txt"
        FileManager.default.createFile(atPath: file, contents: nil)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        p.arguments = ["-h", "127.0.0.1", "-p", String(port), "-t", topic, "-q", "1"]
        p.standardOutput = FileHandle(forWritingAtPath: file)
        p.standardError = FileHandle.nullDevice
        try p.run()
        subscribers.append(p)
        let read: @Sendable () -> [String] = {
            ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
        // Subscribed once a probe published to the topic arrives.
        let deadline = Date().addingTimeInterval(10)
        while !read().contains("__ready__") {
            guard Date() < deadline else { throw SupportError("mosquitto_sub did not subscribe to \(topic).") }
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
            probe.arguments = ["-h", "127.0.0.1", "-p", String(port), "-t", topic, "-m", "__ready__", "-q", "1"]
            try probe.run()
            probe.waitUntilExit()
            usleep(100_000)
        }
        return { read().filter { $0 != "__ready__" } }
    }

    public func stop() {
        for p in subscribers + [broker].compactMap({ $0 }) {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
        }
        subscribers = []
        broker = nil
    }

    deinit { stop() }
}

/// A loopback port held bound and never listened on, for as long as the value lives: a
/// connection to it is refused at once, and no other test's server can take the port meanwhile
/// (a port only looked up free can be handed to the next listener in the same process).
public final class RefusingPort: Sendable {
    public let port: Int
    private let fd: Int32

    public init() throws {
        (fd, port) = try GPSFake.boundLoopback()
    }

    deinit { close(fd) }
}
