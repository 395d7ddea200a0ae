import ArgumentParser
import Foundation
import GPSCore
import StorePostgres
import TrackStore
import TrailbookKit

/// `--store`: where the track store lives.
struct StoreOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The store: a file, or a postgresql://USER@HOST:PORT/DATABASE URL. Default: $TRAILBOOK_STORE, else "
                + "$XDG_DATA_HOME/trailbook/trailbook.sqlite (~/.local/share/...).",
            valueName: "path|url"))
    var store: String?

    @Flag(
        help:
            "Make the missing folders of --store when this command makes a new store (the default store's are always made)."
    )
    var mkdir = false

    /// The path by the documented precedence.
    var path: String { store ?? Self.defaultPath }

    /// The store without --store: $TRAILBOOK_STORE, else under $XDG_DATA_HOME (~/.local/share).
    static var defaultPath: String {
        let env = Console.current.environment
        if let p = env["TRAILBOOK_STORE"], !p.isEmpty { return p }
        return UserDirectories.data(env) + "/trailbook/trailbook.sqlite"
    }

    /// Opens the store, which must exist (commands that read never make one: a mistyped path
    /// is exit 66, not an empty store); failures become the documented exit codes.
    func open() throws -> any TrackStoring {
        try open(create: false)
    }

    /// ``open()`` for an async command: on a thread of its own, as opening may migrate the store.
    func opened() async throws -> any TrackStoring {
        try await Blocking.runOnConsole { try open() }
    }

    /// ``openOrCreate()`` for an async command, on a thread of its own.
    func openedOrCreated() async throws -> any TrackStoring {
        try await Blocking.runOnConsole { try openOrCreate() }
    }

    /// Opens the store, making it (and its folder) when there is none: for commands that store
    /// what they are given (import, record, mark, pause, photo import, a day's summary).
    func openOrCreate() throws -> any TrackStoring {
        try checkFolder()
        return try open(create: true)
    }

    /// A store path typed with --store whose folder does not exist is a typo more often than a
    /// wish: the folder is made only with --mkdir (the default store's folder always is).
    func checkFolder() throws {
        guard let store, !mkdir, !PostgresLocation.isURL(store) else { return }
        let folder = (store as NSString).deletingLastPathComponent
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        throw CommandFailure(
            message: "The folder \(folder) of --store does not exist; check the path, or add --mkdir to make it.",
            code: .cannotCreate)
    }

    /// Opens the store when there is one (for a dry run that reads the places); nil when the
    /// file is not there.
    func openIfItExists() throws -> (any TrackStoring)? {
        if !PostgresLocation.isURL(path), !FileManager.default.fileExists(atPath: path) { return nil }
        return try open(create: false)
    }

    private func open(create: Bool) throws -> any TrackStoring {
        do {
            return try Self.open(path, create: create)
        } catch let error as PostgresStoreError {
            throw error.commandFailure
        } catch let error as StoreError {
            throw error.commandFailure
        }
    }

    /// The store at `path` (a file or a PostgreSQL URL).
    static func open(_ path: String, create: Bool) throws -> any TrackStoring {
        if PostgresLocation.isURL(path) {
            return try PostgresStore(url: path, mediaDirectory: mediaDirectory(for: path), create: create)
        }
        return create ? try TrackStore(path: path) : try TrackStore(existingAt: path)
    }

    /// Where the photo files of a PostgreSQL store are kept: $TRAILBOOK_MEDIA, else
    /// $XDG_DATA_HOME/trailbook/DATABASE-media (a file store keeps them beside its file).
    static func mediaDirectory(for url: String) -> String {
        let env = Console.current.environment
        if let p = env["TRAILBOOK_MEDIA"], !p.isEmpty { return p }
        let base = UserDirectories.data(env)
        let database = (try? PostgresLocation.parse(url).get())?.database ?? "postgresql"
        return base + "/trailbook/" + database + "-media"
    }
}
