import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP requests from tests, made by curl(1). FoundationNetworking's URLSession on Linux waits
/// for ever on a 401 that carries `WWW-Authenticate` when the request already sent credentials,
/// which is exactly what a login test provokes; curl reports it and returns.
public enum HTTP {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Sends one request and returns the status and the body. Times out after 30 s.
    public static func request(
        _ url: URL, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> (Int, String) {
        try await Task.detached { try send(url, method: method, body: body, headers: headers) }.value
    }

    /// ``request(_:method:body:headers:)`` on the calling thread, for a loop that must keep its
    /// pace while other tests keep Swift's cooperative threads busy.
    public static func requestBlocking(
        _ url: URL, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]
    ) throws -> (Int, String) {
        try send(url, method: method, body: body, headers: headers)
    }

    /// Sends one request; returns the status, the response's header lines and the body.
    public static func exchange(
        _ url: URL, method: String = "GET", body: Data? = nil, headers: [String: String] = [:]
    ) async throws -> (status: Int, headers: [String], body: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("headers-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (status, text) = try await Task.detached {
            try send(url, method: method, body: body, headers: headers, extra: ["-D", file])
        }.value
        let lines = ((try? String(contentsOfFile: file, encoding: .utf8)) ?? "").components(separatedBy: "\r\n")
        return (status, lines.filter { !$0.isEmpty }, text)
    }

    /// GETs `url` into the file `path`, byte for byte (by curl); the status.
    public static func download(_ url: URL, to path: String, headers: [String: String] = [:]) async throws -> Int {
        try await Task.detached {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            var arguments = ["-s", "-S", "--max-time", "120", "-o", path, "-w", "%{http_code}"]
            for (k, v) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(k): \(v)"] }
            p.arguments = arguments + [url.absoluteString]
            let status = path + ".status"
            FileManager.default.createFile(atPath: status, contents: nil)
            defer { try? FileManager.default.removeItem(atPath: status) }
            let output = FileHandle(forWritingAtPath: status)
            p.standardOutput = output
            p.standardError = FileHandle.nullDevice
            p.standardInput = FileHandle.nullDevice
            try p.run()
            p.waitUntilExit()
            try? output?.close()
            let code = String(decoding: FileManager.default.contents(atPath: status) ?? Data(), as: UTF8.self)
            guard p.terminationStatus == 0, let number = Int(code) else {
                throw Failure(description: "curl GET \(url) into \(path) failed (\(p.terminationStatus))")
            }
            return number
        }.value
    }

    static func send(_ url: URL, method: String, body: Data?, headers: [String: String], extra: [String] = []) throws
        -> (Int, String)
    {
        guard
            let curl = ["/usr/bin/curl", "/bin/curl"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw Failure(description: "curl is missing: install it with `apt-get install curl` (make deps-test does).")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: curl)
        var arguments = ["-s", "-S", "--max-time", "30", "-X", method, "-w", "\n%{http_code}", "-o", "-"]
        for (k, v) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(k): \(v)"] }
        // Files, not pipes: a process another thread starts meanwhile (a test's PostgreSQL server,
        // which runs on) inherits open descriptors, and a pipe end it holds would keep the read
        // here from ever seeing the end of curl's output.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("curl-\(UUID().uuidString)").path
        let (bodyFile, outFile, errorFile) = (scratch + ".body", scratch + ".out", scratch + ".err")
        defer { for f in [bodyFile, outFile, errorFile] { try? FileManager.default.removeItem(atPath: f) } }
        if let body {
            try body.write(to: URL(fileURLWithPath: bodyFile))
            arguments += ["--data-binary", "@" + bodyFile]
        }
        p.arguments = arguments + extra + [url.absoluteString]
        for f in [outFile, errorFile] { FileManager.default.createFile(atPath: f, contents: nil) }
        guard let output = FileHandle(forWritingAtPath: outFile), let errors = FileHandle(forWritingAtPath: errorFile)
        else { throw Failure(description: "Cannot write curl's output to \(scratch).*") }
        defer {
            try? output.close()
            try? errors.close()
        }
        p.standardInput = FileHandle.nullDevice
        p.standardOutput = output
        p.standardError = errors
        try p.run()
        p.waitUntilExit()
        let data = FileManager.default.contents(atPath: outFile) ?? Data()
        let problem = String(decoding: FileManager.default.contents(atPath: errorFile) ?? Data(), as: UTF8.self)
        var text = String(decoding: data, as: UTF8.self)
        guard p.terminationStatus == 0, let newline = text.lastIndex(of: "\n"),
            let status = Int(text[text.index(after: newline)...])
        else { throw Failure(description: "curl \(method) \(url) failed (\(p.terminationStatus)): \(problem)") }
        text.removeSubrange(newline...)
        return (status, text)
    }
}

extension HTTP {
    /// A server-sent event stream read by `curl -N` into a file, for as long as the server keeps
    /// it open.
    public final class EventStream: @unchecked Sendable {
        // Sound: the process and the path are set once in init; Process is thread-safe to query.
        let process = Process()
        let path: String

        public init(_ url: URL, headers: [String: String] = [:]) throws {
            path = FileManager.default.temporaryDirectory.appendingPathComponent("sse-\(UUID().uuidString)").path
            FileManager.default.createFile(atPath: path, contents: nil)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            var arguments = ["-s", "-N"]
            for (k, v) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(k): \(v)"] }
            process.arguments = arguments + [url.absoluteString]
            process.standardOutput = FileHandle(forWritingAtPath: path)
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// What arrived so far.
        public var text: String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

        /// The `data:` lines of the `event: NAME` events so far.
        public func events(_ name: String) -> [String] {
            text.components(separatedBy: "\n\n").compactMap { block -> String? in
                let lines = block.split(separator: "\n")
                guard lines.contains("event: \(name)") else { return nil }
                return lines.first { $0.hasPrefix("data: ") }.map { String($0.dropFirst(6)) }
            }
        }

        /// Whether the server ended the stream (curl exited).
        public var ended: Bool { !process.isRunning }

        /// Waits up to `seconds` for `condition`; whether it held.
        public func wait(seconds: Double = 10, until condition: (EventStream) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if condition(self) { return true }
                Thread.sleep(forTimeInterval: 0.05)
            }
            return condition(self)
        }

        public func stop() {
            if process.isRunning {
                // SIGKILL: a SIGTERM may be blocked in the tests' process, and so in curl.
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
            }
            try? FileManager.default.removeItem(atPath: path)
        }

        deinit { stop() }
    }
}
