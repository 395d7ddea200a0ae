import ArgumentParser
import Foundation
import GPSCore
import TrailbookKit

/// `--server` and `--token` of `record` and `push`.
struct UploadOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "A Trailbook server (its address, e.g. https://trailbook.example.org; /overland is added) or any "
                + "Overland endpoint URL, to send the points to.",
            valueName: "url"))
    var server: String?

    @Option(
        help: ArgumentHelp(
            "The device token the server gave (trailbook device add on the server), sent as a bearer token. "
                + "Default: $TRAILBOOK_TOKEN.",
            valueName: "token"))
    var token: String?

    /// The target, when --server is given; its token from --token or $TRAILBOOK_TOKEN.
    func target() throws -> UploadTarget? {
        guard let server else {
            if token != nil { throw ValidationError("--token goes with --server URL.") }
            return nil
        }
        let token = self.token ?? Console.current.environment["TRAILBOOK_TOKEN"]
        do {
            return try UploadTarget(server: server, token: token)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
