import Foundation
import Testing
import TrailbookKit
import TrailbookTestSupport

/// The HTTP layer (libcurl loaded on first use) against a loopback server: what tiles, alerts
/// and uploads rely on.
@Suite struct HTTPExchangeTests {
    @Test func redirectsAreFollowedAndTheLastAnswersHeadersKept() throws {
        let server = try EchoServer()
        try server.start()
        defer { server.stop() }
        let answer = try HTTPExchange(
            "GET", server.url("/redirect"), headers: [("If-None-Match", "\"v0\"")], timeout: 10
        ).send()
        #expect(answer.status == 200)
        #expect(String(decoding: answer.body, as: UTF8.self) == "final")
        #expect(answer.header("etag") == "\"v1\"" && answer.header("ETag") == "\"v1\"")
        #expect(answer.header("X-Seen") == "\"v0\"", "the request's header reached the server")
        let missing = try HTTPExchange("GET", server.url("/nothing"), timeout: 10).send()
        #expect(missing.status == 404 && String(decoding: missing.body, as: UTF8.self) == "no such path")
    }

    @Test func aPostCarriesItsBodyAndHeaders() async throws {
        let server = try EchoServer()
        try server.start()
        defer { server.stop() }
        let body = Data((0..<100_000).map { UInt8($0 % 251) })
        let answer = try await HTTPExchange(
            "POST", server.url("/echo"), headers: [("Content-Type", "application/octet-stream")], body: body,
            timeout: 10
        ).send()
        #expect(answer.status == 201 && answer.body == body)
        #expect(answer.header("x-seen") == "application/octet-stream")
    }

    @Test func failuresSayWhatHappenedInAFewWords() throws {
        let server = try EchoServer()
        #expect(throws: HTTPExchange.Failure.self) { try HTTPExchange("GET", server.url("/final"), timeout: 5).send() }
        do {
            _ = try HTTPExchange("GET", server.url("/final"), timeout: 5).send()
        } catch {
            #expect(error.kind == .refused && error.description == "connection refused")
        }
        try server.start()
        defer { server.stop() }
        do {
            _ = try HTTPExchange("GET", server.url("/slow"), timeout: 0.5).send()
            Issue.record("a 3-second answer came within a 0.5-second time-out")
        } catch {
            #expect(error.kind == .timedOut && error.description == "timed out")
        }
    }
}
