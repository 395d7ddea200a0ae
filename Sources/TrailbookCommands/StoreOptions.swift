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
    var path: String { store ?? Self.defaultPath }

    /// The store without --store: $TRAILBOOK_STORE, else under $XDG_DATA_HOME (~/.local/share).
    static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        if let p = env["TRAILBOOK_STORE"], !p.isEmpty { return p }
        let base = env["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return base + "/trailbook/trailbook.sqlite"
    }

    /// Opens the store, which must exist (commands that read never make one: a mistyped path
    /// is exit 66, not an empty store); failures become the documented exit codes.
    func open() throws -> TrackStore {
        do {
            return try TrackStore(existingAt: path)
        } catch {
            throw error.commandFailure
        }
    }

    /// Opens the store, making it (and its folder) when there is none: for commands that store
    /// what they are given (import, record, mark, pause, photo import, a day's summary).
    func openOrCreate() throws -> TrackStore {
        do {
            return try TrackStore(path: path)
        } catch {
            throw error.commandFailure
        }
    }
}
