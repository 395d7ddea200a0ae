/// The OpenAPI 3.1 document of the server's JSON API and phone endpoints: the file
/// `Sources/TrailbookServer/openapi.json`, compiled into the binary as it is (SwiftPM's
/// `embedInCode`), served at `GET /api/openapi.json` and printed by `trailbook serve --openapi`.
/// A test checks the server's real answers against it.
enum OpenAPIDocument {
    /// The file's text, without its last line end.
    static let json: String = {
        var text = String(decoding: PackageResources.openapi_json, as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return text
    }()
}
