import Foundation

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

    static func send(_ url: URL, method: String, body: Data?, headers: [String: String]) throws -> (Int, String) {
        guard
            let curl = ["/usr/bin/curl", "/bin/curl"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else {
            throw Failure(description: "curl is missing: install it with `apt-get install curl` (make deps-test does).")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: curl)
        var arguments = ["-s", "-S", "--max-time", "30", "-X", method, "-w", "\n%{http_code}", "-o", "-"]
        for (k, v) in headers.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(k): \(v)"] }
        if body != nil { arguments += ["--data-binary", "@-"] }
        p.arguments = arguments + [url.absoluteString]
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = errors
        try p.run()
        let writer = Thread {
            if let body { input.fileHandleForWriting.write(body) }
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        var text = String(decoding: data, as: UTF8.self)
        guard p.terminationStatus == 0, let newline = text.lastIndex(of: "\n"),
            let status = Int(text[text.index(after: newline)...])
        else { throw Failure(description: "curl \(method) \(url) failed (\(p.terminationStatus)): \(problem)") }
        text.removeSubrange(newline...)
        return (status, text)
    }
}
