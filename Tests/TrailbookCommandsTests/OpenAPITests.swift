import Foundation
import Logging
import Pipeline
import Testing
import TrackStore
import TrailbookServer
import TrailbookTestSupport

/// The OpenAPI document stays true: it is what the server serves and what docs/ holds, it
/// names every route (and no other), and real answers of every operation have a documented
/// status and match the documented schema. (`make fuzz` runs schemathesis against it too.)
@Suite(.serialized) struct OpenAPITests {
    /// The document, parsed (each time: a parsed document is not Sendable).
    static var document: [String: Any] {
        try! JSONSerialization.jsonObject(with: Data(SharingServer.openAPIDocument.utf8)) as! [String: Any]
    }

    /// `METHOD /path/{param}` of every documented operation.
    static var operations: Set<String> {
        var result: Set<String> = []
        for (path, item) in document["paths"] as! [String: [String: Any]] {
            for method in item.keys where method != "parameters" { result.insert("\(method.uppercased()) \(path)") }
        }
        return result
    }

    /// The web app's routes: its pages, forms, scripts, tiles and photos, and the upload its import page
    /// sends (docs/COMMANDS.md describes them), not part of the JSON API.
    static let webPages: Set<String> = [
        "GET /", "POST /login", "POST /logout", "POST /codes", "POST /redeem", "POST /revoke", "GET /live.js",
        "GET /tiles/{z}/{x}/{y}", "GET /day", "GET /day/{date}", "POST /day/{date}/summary", "POST /day/{date}/records",
        "POST /day/{date}/corrections",
        "POST /records/{id}/notes", "GET /records/{id}/delete", "POST /records/{id}/delete", "GET /photos/{id}/{index}",
        "GET /day.js", "GET /days", "GET /days.js", "GET /calendar", "GET /year", "GET /export", "GET /import",
        "GET /import.js",
        "POST /import", "GET /settings", "POST /devices", "POST /devices/revoke", "POST /password", "GET /map.js",
        "GET /places", "GET /places.js", "POST /places", "POST /places/rename", "POST /places/found",
        "GET /places/found/{id}",
        "GET /places/delete",
        "POST /places/delete", "GET /alerts", "POST /alerts", "POST /alerts/{id}/test", "GET /alerts/{id}/delete",
        "POST /alerts/{id}/delete", "GET /friends", "POST /sessions/end", "POST /preferences",
        "GET /export/archive", "POST /records/{id}/photos", "GET /heatmap", "GET /heatmap.js",
        // The app's look: stylesheet, icons, manifest.
        "GET /app.css", "GET /icons.svg", "GET /icon.svg", "GET /favicon.ico", "GET /manifest.webmanifest",
    ]

    /// The document is one file in the repository; the server serves it and `serve --openapi`
    /// prints it, byte for byte.
    @Test func theServedDocumentIsTheRepositorysFile() async throws {
        let dir = try Samples.temporaryDirectory()
        let server = try ServeCommandTests.RunningServer(store: dir + "/s.sqlite")
        defer { _ = server.stop() }
        let (status, body) = try await HTTP.request(server.url.appendingPathComponent("api/openapi.json"))
        #expect(status == 200)
        let file = try String(
            contentsOf: packageRoot.appendingPathComponent("Sources/TrailbookServer/openapi.json"), encoding: .utf8)
        #expect(body == file, "the served document is not Sources/TrailbookServer/openapi.json")
        let printed = try await run(["serve", "--openapi"])
        #expect(printed.status == 0 && printed.stdout == file)
        #expect(Self.document["openapi"] as? String == "3.1.0")
    }

    @Test func everyRouteIsDocumentedAndNothingElse() throws {
        let dir = try Samples.temporaryDirectory()
        let store = try TrackStore(path: dir + "/s.sqlite")
        let server = SharingServer(
            configuration: .init(), store: store, rules: PipelineConfiguration(), logger: Logger(label: "test"))
        let routes = Set(server.routes)
        #expect(routes.count > 15, "\(routes)")
        #expect(routes.subtracting(Self.webPages) == Self.operations, "routes \(routes.sorted())")
    }

    /// Every documented operation, asked as a client would (right and wrong): each answer's
    /// status is one the document lists for it, and its JSON body matches the schema there.
    @Test func realAnswersMatchTheDocument() async throws {
        let dir = try Samples.temporaryDirectory()
        let storePath = dir + "/s.sqlite"
        let password = "correct horse battery staple"
        for user in ["ana", "ben"] {
            #expect(
                try await run(["user", "add", user, "--password-stdin", "--store", storePath], input: Data(password.utf8))
                    .status == 0)
        }
        let token = try await deviceToken("phone", user: "ana", store: storePath)
        let server = try ServeCommandTests.RunningServer(store: storePath)
        defer { _ = server.stop() }
        let checker = SchemaChecker(document: Self.document)
        var exercised: Set<String> = []
        func basic(_ user: String, _ secret: String) -> [String: String] {
            ["Authorization": "Basic " + Data("\(user):\(secret)".utf8).base64EncodedString()]
        }
        let ana = basic("ana", password)
        let ben = basic("ben", password)

        /// Sends a request for the operation `method template` and checks the answer; returns
        /// the status and the body.
        @discardableResult
        func call(
            _ method: String, _ template: String, _ path: String, headers: [String: String] = [:], body: String? = nil,
            expect status: Int
        ) async throws -> String {
            exercised.insert("\(method) \(template)")
            var h = headers
            if body != nil { h["Content-Type"] = h["Content-Type"] ?? "application/json" }
            let answer = try await HTTP.exchange(
                URL(string: server.url.absoluteString + path)!, method: method, body: body.map { Data($0.utf8) },
                headers: h)
            #expect(answer.status == status, "\(method) \(path): \(answer.status) \(answer.body)")
            let problems = checker.check(
                method: method, path: template, status: answer.status, headers: answer.headers, body: answer.body)
            #expect(problems.isEmpty, "\(method) \(path) \(answer.status): \(problems)")
            return answer.body
        }
        let now = Int(Date().timeIntervalSince1970)
        let iso = ISO8601DateFormatter().string(from: Date())

        try await call("GET", "/api/health", "/api/health", expect: 200)
        try await call("GET", "/api/openapi.json", "/api/openapi.json", expect: 200)

        // The phones.
        let batch = """
            {"locations":[{"type":"Feature","geometry":{"type":"Point","coordinates":[8.54,47.37]},
            "properties":{"timestamp":"\(iso)","speed":4.2,"horizontal_accuracy":5,"battery_level":0.8}}]}
            """
        let bearer = ["Authorization": "Bearer \(token)"]
        try await call("POST", "/overland", "/overland", headers: bearer, body: batch, expect: 200)
        try await call("POST", "/overland", "/overland", headers: bearer, body: "{not json", expect: 400)
        try await call(
            "POST", "/overland", "/overland", headers: ["Authorization": "Bearer nope"], body: batch, expect: 401)
        try await call(
            "POST", "/overland", "/overland", headers: bearer,
            body: batch.replacingOccurrences(of: "47.37", with: "147.37"),
            expect: 200)
        let location = #"{"_type":"location","lat":47.371,"lon":8.541,"tst":\#(now),"acc":8,"batt":70,"tid":"an"}"#
        try await call("POST", "/pub", "/pub", headers: basic("ana", token), body: location, expect: 200)
        try await call("POST", "/pub", "/pub", headers: basic("ben", token), body: location, expect: 401)
        try await call("GET", "/osmand", "/osmand?id=\(token)&lat=47.372&lon=8.542&timestamp=\(now + 1)", expect: 200)
        try await call("GET", "/osmand", "/osmand?id=nope&lat=47.372&lon=8.542", expect: 401)
        try await call("GET", "/osmand", "/osmand?id=\(token)&lat=north&lon=8.542", expect: 400)
        let traccar = """
            {"device_id":"\(token)","location":{"timestamp":"\(iso)","coords":{"latitude":47.373,"longitude":8.543}}}
            """
        try await call("POST", "/osmand", "/osmand", body: traccar, expect: 200)
        try await call(
            "GET", "/gpslogger", "/gpslogger?lat=47.374&lon=8.544&timestamp=\(now + 2)", headers: basic("ana", token),
            expect: 200)
        try await call(
            "POST", "/gpslogger", "/gpslogger",
            headers: basic("ana", token).merging(["Content-Type": "application/x-www-form-urlencoded"]) { $1 },
            body: "lat=47.375&lon=8.545&timestamp=\(now + 3)", expect: 200)

        // Pairing, grants, friends.
        let created = try await call(
            "POST", "/api/share-codes", "/api/share-codes", headers: ana,
            body: #"{"scopes":["live","motion","history"],"history_hours":24}"#, expect: 201)
        let code = try #require((try JSONSerialization.jsonObject(with: Data(created.utf8)) as? [String: Any])?["code"])
        try await call(
            "POST", "/api/share-codes", "/api/share-codes", headers: ana, body: #"{"scopes":"all"}"#, expect: 400)
        try await call("POST", "/api/share-codes", "/api/share-codes", body: "{}", expect: 401)
        try await call(
            "POST", "/api/share-codes/redeem", "/api/share-codes/redeem", headers: ben, body: #"{"code":"\#(code)"}"#,
            expect: 200)
        try await call(
            "POST", "/api/share-codes/redeem", "/api/share-codes/redeem", headers: ben, body: #"{"code":"\#(code)"}"#,
            expect: 422)
        try await call(
            "POST", "/api/share-codes/redeem", "/api/share-codes/redeem", headers: ben, body: "[]", expect: 400)
        let grants = try await call("GET", "/api/grants", "/api/grants", headers: ana, expect: 200)
        #expect(grants.contains("\"viewer\":\"ben\""), "\(grants)")
        try await call("GET", "/api/grants", "/api/grants", headers: basic("ana", "wrong password here"), expect: 401)
        try await call(
            "PATCH", "/api/grants/{user}", "/api/grants/ben", headers: ana,
            body: #"{"paused":false,"expires_at":"2099-01-01T00:00:00Z"}"#, expect: 200)
        try await call(
            "PATCH", "/api/grants/{user}", "/api/grants/ben", headers: ana, body: #"{"expires_at":"soon"}"#, expect: 400
        )
        try await call("PATCH", "/api/grants/{user}", "/api/grants/nobody", headers: ana, body: "{}", expect: 404)
        let friends = try await call("GET", "/api/friends", "/api/friends", headers: ben, expect: 200)
        #expect(friends.contains("\"user\":\"ana\"") && friends.contains("\"battery\""), "\(friends)")
        try await call("GET", "/api/friends/{user}/track", "/api/friends/ana/track?hours=2", headers: ben, expect: 200)
        try await call("GET", "/api/friends/{user}/track", "/api/friends/ana/track?hours=-1", headers: ben, expect: 400)
        try await call("GET", "/api/friends/{user}/track", "/api/friends/ben/track", headers: ana, expect: 404)
        try await call("GET", "/api/live", "/api/live", expect: 401)
        // A day's timeline: the points the phones sent today make it.
        let today = String(iso.prefix(10))
        let day = try await call("GET", "/api/days/{date}", "/api/days/\(today)", headers: ana, expect: 200)
        #expect(day.contains("\"date\":\"") && day.contains("\"entries\":["), "\(day)")
        try await call("GET", "/api/days/{date}", "/api/days/June", headers: ana, expect: 400)
        try await call("GET", "/api/days/{date}", "/api/days/\(today)", expect: 401)
        try await call("DELETE", "/api/grants/{user}", "/api/grants/ben", headers: ana, expect: 204)
        try await call("DELETE", "/api/grants/{user}", "/api/grants/ben", headers: ana, expect: 404)
        // The live stream's answer: its status and type, read for a moment.
        let live = try HTTP.EventStream(server.url.appendingPathComponent("api/live"), headers: ben)
        #expect(live.wait(seconds: 5) { $0.text.contains("retry: 3000") }, "\(live.text)")
        live.stop()
        exercised.insert("GET /api/live")

        #expect(exercised == Self.operations, "not exercised: \(Self.operations.subtracting(exercised).sorted())")
        // A known path with a method it does not take: 405 naming the ones it does.
        let trace = try await HTTP.exchange(
            server.url.appendingPathComponent("api/grants"), method: "PUT", headers: ana)
        #expect(trace.status == 405 && trace.headers.contains { $0.lowercased() == "allow: get" }, "\(trace)")
        // A path the server does not have: 404 with a JSON error, as every error.
        let nowhere = try await HTTP.exchange(server.url.appendingPathComponent("nope"), method: "GET", headers: [:])
        #expect(
            nowhere.status == 404 && nowhere.body.contains(#"{"error":{"message":"There is no /nope here"#),
            "\(nowhere)")
    }
}

/// Checks answers against the OpenAPI document: the status is listed for the operation, and a
/// JSON body matches the listed schema (the subset of JSON Schema the document uses: $ref,
/// type, const, enum, required, properties, additionalProperties false, items, minItems,
/// pattern).
struct SchemaChecker {
    let document: [String: Any]

    func check(method: String, path: String, status: Int, headers: [String], body: String) -> [String] {
        guard let item = (document["paths"] as? [String: Any])?[path] as? [String: Any],
            let operation = item[method.lowercased()] as? [String: Any],
            let responses = operation["responses"] as? [String: Any]
        else { return ["\(method) \(path) is not in the document"] }
        guard let response = (responses["\(status)"] as? [String: Any]).map(resolve) else {
            return ["status \(status) is not documented (\(responses.keys.sorted()))"]
        }
        guard let content = response["content"] as? [String: Any] else {
            return body.isEmpty ? [] : ["the document says no body, the server sent \(body.prefix(80))"]
        }
        let type = headers.first { $0.lowercased().hasPrefix("content-type:") }.map { $0.dropFirst(13) } ?? ""
        guard let mediaType = content.keys.first(where: { type.contains($0) }) else {
            return ["Content-Type \(type) is not one of \(content.keys.sorted())"]
        }
        guard mediaType == "application/json", let schema = (content[mediaType] as? [String: Any])?["schema"] else {
            return []
        }
        guard let value = try? JSONSerialization.jsonObject(with: Data(body.utf8), options: [.fragmentsAllowed]) else {
            return ["the body is not JSON: \(body.prefix(80))"]
        }
        return problems(value, schema as! [String: Any], at: "$")
    }

    func resolve(_ schema: [String: Any]) -> [String: Any] {
        guard let ref = schema["$ref"] as? String else { return schema }
        var node: Any = document
        for part in ref.dropFirst(2).split(separator: "/") { node = (node as! [String: Any])[String(part)]! }
        return resolve(node as! [String: Any])
    }

    static func isBoolean(_ value: Any) -> Bool {
        guard let n = value as? NSNumber else { return false }
        return String(cString: n.objCType) == "c"
    }

    func hasType(_ value: Any, _ type: String) -> Bool {
        switch type {
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "null": return value is NSNull
        case "boolean": return Self.isBoolean(value)
        case "number": return value is NSNumber && !Self.isBoolean(value)
        case "integer":
            guard let n = value as? NSNumber, !Self.isBoolean(value) else { return false }
            return n.doubleValue == n.doubleValue.rounded()
        default: return false
        }
    }

    func problems(_ value: Any, _ raw: [String: Any], at path: String) -> [String] {
        let schema = resolve(raw)
        var found: [String] = []
        if let type = schema["type"] {
            let types = (type as? [String]) ?? [type as! String]
            if !types.contains(where: { hasType(value, $0) }) { return ["\(path): \(value) is not \(types)"] }
        }
        if let constant = schema["const"], "\(constant)" != "\(value)" { found.append("\(path): not \(constant)") }
        if let options = schema["enum"] as? [Any], !options.contains(where: { "\($0)" == "\(value)" }) {
            found.append("\(path): \(value) is not one of \(options)")
        }
        if let text = value as? String, let pattern = schema["pattern"] as? String,
            text.range(of: pattern, options: .regularExpression) == nil
        {
            found.append("\(path): \(text) does not match \(pattern)")
        }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                found.append("\(path): \(key) is missing")
            }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for (key, item) in object {
                if let sub = properties[key] as? [String: Any] {
                    found += problems(item, sub, at: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    found.append("\(path): \(key) is not allowed")
                }
            }
        }
        if let array = value as? [Any] {
            if let least = schema["minItems"] as? Int, array.count < least {
                found.append("\(path): fewer than \(least) items")
            }
            if let items = schema["items"] as? [String: Any] {
                for (i, item) in array.enumerated() { found += problems(item, items, at: "\(path)[\(i)]") }
            }
        }
        return found
    }
}
