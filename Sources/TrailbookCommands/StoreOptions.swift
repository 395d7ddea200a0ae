import ArgumentParser
import Foundation
import TrackStore

/// `--store`: where the track store lives.
struct StoreOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The store file. Default: $TRAILBOOK_STORE, else $XDG_DATA_HOME/trailbook/trailbook.sqlite (~/.local/share/...).",
            valueName: "path"))
    var store: String?

    /// The path by the documented precedence.
    var path: String {
        if let store { return store }
        let env = ProcessInfo.processInfo.environment
        if let p = env["TRAILBOOK_STORE"], !p.isEmpty { return p }
        let base = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return base + "/trailbook/trailbook.sqlite"
    }

    /// Opens the store; failures become the documented exit codes.
    func open() throws -> TrackStore {
        do {
            return try TrackStore(path: path)
        } catch {
            throw error.commandFailure
        }
    }
}
