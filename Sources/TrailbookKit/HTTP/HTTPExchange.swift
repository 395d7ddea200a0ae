import CHTTP
import Foundation
import GPSCore

/// One HTTP request and its answer, through libcurl loaded on first use (``chttp_send``): the
/// commands that send nothing (all but `report` with web tiles, alerts and `upload`) never load
/// it and the ~35 libraries it needs. Redirects are followed; proxies come from the usual
/// environment variables; TLS certificates are checked against the system's.
public struct HTTPExchange: Sendable {
    public var method = "GET"
    public var url: URL
    public var headers: [(name: String, value: String)] = []
    public var body = Data()
    /// Seconds for the whole exchange.
    public var timeout: TimeInterval

    public init(
        _ method: String = "GET", _ url: URL, headers: [(String, String)] = [], body: Data = Data(),
        timeout: TimeInterval
    ) {
        self.method = method
        self.url = url
        self.headers = headers.map { (name: $0.0, value: $0.1) }
        self.body = body
        self.timeout = timeout
    }

    /// What came back: the last response's status, body and headers (names in lower case).
    public struct Answer: Sendable {
        public let status: Int
        public let body: Data
        public let headers: [String: String]

        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    /// Why no answer came, in a few words ("connection refused", "timed out", ...).
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public enum Kind: Sendable { case refused, timedOut, unknownHost, tls, lost, other }
        public let kind: Kind
        public let description: String
    }

    /// Sends the request and waits for the answer (on the calling thread).
    public func send() throws(Failure) -> Answer {
        var answer = chttp_answer()
        let lines = headers.map { "\($0.name): \($0.value)" }
        var pointers = lines.map { strdup($0) }
        defer { for p in pointers { free(p) } }
        let milliseconds = Int(max(1, (timeout * 1000).rounded()))
        body.withUnsafeBytes { bytes in
            pointers.withUnsafeMutableBufferPointer { list in
                list.withMemoryRebound(to: UnsafePointer<CChar>?.self) { constList in
                    chttp_send(
                        method, url.absoluteString, constList.baseAddress, constList.count, bytes.baseAddress,
                        bytes.count, milliseconds, &answer)
                }
            }
        }
        defer { chttp_answer_free(&answer) }
        guard answer.failure == 0 else {
            let message = withUnsafeBytes(of: answer.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            switch answer.failure_kind {
            case 1: throw Failure(kind: .refused, description: "connection refused")
            case 2: throw Failure(kind: .timedOut, description: "timed out")
            case 3: throw Failure(kind: .unknownHost, description: "unknown host")
            case 4: throw Failure(kind: .tls, description: "TLS failed: \(message)")
            case 5: throw Failure(kind: .lost, description: "connection lost")
            default: throw Failure(kind: .other, description: message)
            }
        }
        let body = answer.body.map { Data(bytes: $0, count: answer.body_length) } ?? Data()
        var headers: [String: String] = [:]
        if let raw = answer.headers {
            let text = String(decoding: UnsafeRawBufferPointer(start: raw, count: answer.headers_length), as: UTF8.self)
            for line in text.split(whereSeparator: { $0 == "\r\n" || $0 == "\n" }) {
                // Each response of a redirect starts with its status line: keep the last one's.
                if line.hasPrefix("HTTP/") {
                    headers = [:]
                    continue
                }
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return Answer(status: answer.status, body: body, headers: headers)
    }

    /// Sends the request on a thread of its own and resumes with the answer.
    public func send() async throws(Failure) -> Answer {
        let exchange = self
        return try await Blocking.run { () throws(Failure) -> Answer in try exchange.send() }
    }
}
