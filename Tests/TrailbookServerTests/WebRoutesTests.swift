import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import TrailbookKit

@testable import TrackStore
@testable import TrailbookServer

/// The web app's pages run in this process (Hummingbird's router test) on a temporary store:
/// signing in as a browser does (the login form's token in its cookie, then the form), each page
/// answers for the account signed in, and none answers without a session.
@Suite struct WebRoutesTests {
    typealias API = SharingAPITests

    /// The value of cookie `name` among a response's `Set-Cookie` fields.
    static func cookie(_ name: String, in headers: HTTPFields) -> String? {
        headers[values: .setCookie].lazy.compactMap { field -> String? in
            let pair = field.split(separator: ";", maxSplits: 1).first ?? ""
            let parts = pair.split(separator: "=", maxSplits: 1)
            return parts.count == 2 && parts[0] == name ? String(parts[1]) : nil
        }.first
    }

    /// The `csrf` value of the first form in `html`.
    static func formToken(_ html: String) -> String? {
        guard let field = html.range(of: #"name="csrf" value=""#) else { return nil }
        let rest = html[field.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// Signs `user` in with `password`: the `Cookie` header of the session.
    static func signIn(
        _ client: any TestClientProtocol, _ user: String, password: String
    ) async throws -> HTTPFields {
        let token = try await client.execute(uri: "/", method: .get) { response in
            #expect(response.status == .ok && String(buffer: response.body).contains("name=\"csrf\""))
            return Self.cookie(Login.loginCookie, in: response.headers)
        }
        let csrf = try #require(token, "the login page sets its form's token as a cookie")
        let form = "csrf=\(csrf)&user=\(user)&password=\(password.replacingOccurrences(of: " ", with: "+"))"
        let session = try await client.execute(
            uri: "/login", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "\(Login.loginCookie)=\(csrf)"],
            body: ByteBuffer(string: form)
        ) { response in
            #expect(response.status == .seeOther, "signed in, sent on to the home page: \(response.status)")
            return Self.cookie(Login.sessionCookie, in: response.headers)
        }
        return [.cookie: "\(Login.sessionCookie)=\(try #require(session))"]
    }

    @Test func aSignedInAccountGetsEveryPageAndAStrangerNone() async throws {
        try await API.withServer { client, _, _ in
            let wrong = try await client.execute(
                uri: "/login", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "csrf=forged&user=ana&password=x")
            ) { ($0.status, String(buffer: $0.body)) }
            #expect(wrong.0 == .forbidden && wrong.1.contains("The form is out of date"), "no login cookie: \(wrong)")
            let ana = try await Self.signIn(client, "ana", password: API.passwords["ana"]!)
            let home = try await client.execute(uri: "/", method: .get, headers: ana) { String(buffer: $0.body) }
            #expect(home.contains("signed in as <strong id=\"me\">ana</strong>"), "\(home.prefix(500))")
            let pages = [
                "/day/2026-06-14", "/days", "/year", "/places", "/alerts", "/import", "/export", "/heatmap", "/friends",
            ]
            for page in pages {
                let (status, text) = try await client.execute(uri: page, method: .get, headers: ana) {
                    ($0.status, String(buffer: $0.body))
                }
                #expect(status == .ok && text.contains("<html"), "\(page): \(status) \(text.prefix(300))")
            }
            // The import page's view model: the largest upload in MiB, the session's token for the form.
            let importPage = try await client.execute(uri: "/import", method: .get, headers: ana) {
                String(buffer: $0.body)
            }
            #expect(importPage.contains("at most \(WebImport.limit >> 20) MiB"), "\(importPage.prefix(800))")
            #expect(
                importPage.contains("<form id=\"import\" data-csrf=\"") && !importPage.contains("data-csrf=\"\""),
                "\(importPage.prefix(800))")
            // The day and the calendar without a date send on to a page that has one.
            for (page, to) in [("/day", "/day/20"), ("/calendar", "/calendar?year=20")] {
                let (status, location) = try await client.execute(uri: page, method: .get, headers: ana) {
                    ($0.status, $0.headers[.location] ?? "")
                }
                #expect(status == .seeOther && location.hasPrefix(to), "\(page): \(status) to \(location)")
            }
            // Without a session, each sends on to the sign-in page.
            for page in pages {
                let (status, location) = try await client.execute(uri: page, method: .get) {
                    ($0.status, $0.headers[.location] ?? "")
                }
                #expect(status == .seeOther && location == "/", "\(page) without a session: \(status) to \(location)")
            }
            // Signed out with the form's token (a page's forms carry the session's), the session
            // answers no more; without the token, signing out is refused.
            let csrf = try #require(Self.formToken(home), "the home page's forms carry the session's token")
            var form = ana
            form[.contentType] = "application/x-www-form-urlencoded"
            let stale = try await client.execute(
                uri: "/logout", method: .post, headers: form, body: ByteBuffer(string: "csrf=forged")
            ) { $0.status }
            #expect(stale != .seeOther, "a forged token signs nobody out: \(stale)")
            #expect(try await client.execute(uri: "/places", method: .get, headers: ana) { $0.status } == .ok)
            let out = try await client.execute(
                uri: "/logout", method: .post, headers: form, body: ByteBuffer(string: "csrf=\(csrf)")
            ) { $0.status }
            #expect(out == .seeOther)
            #expect(try await client.execute(uri: "/places", method: .get, headers: ana) { $0.status } != .ok)
        }
    }

    /// Posts the sign-in form for `user` with `password`: the status and the page.
    static func tryLogin(_ client: any TestClientProtocol, _ user: String, _ password: String) async throws -> (
        HTTPResponse.Status, String
    ) {
        let token = try await client.execute(uri: "/", method: .get) { Self.cookie(Login.loginCookie, in: $0.headers) }
        let csrf = try #require(token)
        return try await client.execute(
            uri: "/login", method: .post,
            headers: [.contentType: "application/x-www-form-urlencoded", .cookie: "\(Login.loginCookie)=\(csrf)"],
            body: ByteBuffer(string: "csrf=\(csrf)&user=\(user)&password=\(password)")
        ) { ($0.status, String(buffer: $0.body)) }
    }

    @Test func aWrongPasswordAndAnUnknownNameGetTheSameAnswerAndTenLockTheAccount() async throws {
        try await API.withServer { client, _, _ in
            let wrong = try await Self.tryLogin(client, "ana", "not+her+password")
            let nobody = try await Self.tryLogin(client, "zed", "not+her+password")
            #expect(wrong.0 == .unauthorized && wrong.1.contains("Wrong user name or password."))
            #expect(nobody.0 == wrong.0 && nobody.1.contains("Wrong user name or password."), "no name is given away")
            for _ in 0..<9 { _ = try await Self.tryLogin(client, "ana", "still+wrong") }
            // Ten failures in the quarter hour: the right password is refused too, for ana alone.
            let locked = try await Self.tryLogin(
                client, "ana", API.passwords["ana"]!.replacingOccurrences(of: " ", with: "+"))
            #expect(locked.0 == .tooManyRequests && locked.1.contains("Too many failed logins"), "\(locked.0)")
            _ = try await Self.signIn(client, "bob", password: API.passwords["bob"]!)
        }
    }

    @Test func aRemovedAccountsSessionsAnswerNoMore() async throws {
        try await API.withServer { client, _, store in
            let ana = try await Self.signIn(client, "ana", password: API.passwords["ana"]!)
            #expect(try await client.execute(uri: "/places", method: .get, headers: ana) { $0.status } == .ok)
            try await AccountService(store: store).removeAccount("ana")
            let (status, location) = try await client.execute(uri: "/places", method: .get, headers: ana) {
                ($0.status, $0.headers[.location] ?? "")
            }
            #expect(status == .seeOther && location == "/", "\(status) to \(location)")
            #expect(try store.readNow { try $0.devices(of: "ana") } == nil)
        }
    }
}
