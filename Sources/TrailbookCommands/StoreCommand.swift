import ArgumentParser
import Foundation
import GPSCore
import StorePostgres
import TrackStore
import TrailbookKit

/// `trailbook store`: the store as a whole.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store", abstract: "Work on a whole store: copy it into another (SQLite ⇄ PostgreSQL).",
        subcommands: [Copy.self])

    /// `trailbook store copy SOURCE DEST`.
    struct Copy: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "copy",
            abstract: "Copy a whole store into a new one: a file into a PostgreSQL database, or back.",
            discussion: """
                SOURCE and DEST are store files or postgresql://USER@HOST:PORT/DATABASE URLs. \
                Everything is copied with its ids (accounts, devices and their tokens, points, rides \
                and segments, records with their notes, fields and photos, day summaries, share codes \
                and grants, upload cursors, phone messages, sessions), in batches each committed on \
                its own; the photo files go into DEST's media folder. DEST must be new and empty. \
                An interrupted copy continues where it stopped when the same command is run again. \
                At the end the rows of every table are counted on both sides.

                With --user NAME only that account goes: the account (and its password), its \
                devices, points, rides, imports, records and their photos, day summaries, places, \
                events, cues, tasks, alerts and their outbox; not what ties it to other accounts \
                (share grants and codes) nor its sessions. Its ids are kept, so the copy of one \
                account is a backup that copies back whole into an empty store (the web app's \
                /export/archive is this copy, as a tar file).

                Exit codes: 66 SOURCE does not exist (or has no account NAME), 73 DEST is not empty (or holds an unfinished \
                copy of another store), 69 a database does not answer, 77 a login was refused, \
                1 the counts differ after the copy (run it again to continue).
                """)

        @Argument(help: ArgumentHelp("The store to copy (a file or a URL).", valueName: "source"))
        var source: String

        @Argument(help: ArgumentHelp("The new store (a file or a URL).", valueName: "dest"))
        var destination: String

        @Option(help: ArgumentHelp("Copy only this account (a server's user).", valueName: "name"))
        var user: String?

        @Flag(
            help:
                "Print {\"source\", \"destination\", \"resumed\", \"tables\": {NAME: ROWS}, \"photo_files\", \"photo_folder\"} as JSON."
        )
        var json = false

        func run() throws {
            // The web app's account archive, as downloaded: unpacked (checked whole first) into a
            // folder of its own, its store copied, the folder removed.
            var source = self.source
            var archive: AccountArchive?
            defer { archive?.remove() }
            if !source.contains("://"), AccountArchive.isArchive(source) {
                archive = try AccountArchive(source, undone: "copied")
                source = archive!.store
            }
            let from = try Self.open(source, create: false)
            var account: Int64?
            if let user {
                guard let id = try from.copyAccountID(user) else {
                    throw CommandFailure(
                        message: "The store \(self.source) has no account \(user); trailbook user list shows them.",
                        code: .noInput)
                }
                account = id
            }
            let to = try Self.open(destination, create: true)
            let service = StoreCopyService(source: from, destination: to, account: account)
            let total = try service.totalRows()
            let bar = ProgressBar(label: "store copy", totalPoints: total)
            let report: StoreCopyService.Report
            do {
                report = try service.copy { bar.update($0) }
                bar.finish()
            } catch let failure as StoreCopyError {
                bar.finish()
                if case .countsDiffer = failure {
                    throw CommandFailure(message: failure.description, code: .failure)
                }
                throw commandFailure(failure)
            }
            if json {
                let document: [String: Any] = [
                    "source": report.source, "destination": report.destination, "resumed": report.resumed,
                    "tables": Dictionary(uniqueKeysWithValues: report.tables.map { ($0.table, $0.rows) }),
                    "photo_files": report.photoFiles, "photo_folder": to.mediaDirectory,
                ]
                let data = try JSONSerialization.data(
                    withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
                print(String(decoding: data, as: UTF8.self))
                return
            }
            print("\(report.resumed ? "Continued the copy of" : "Copied") \(report.source) into \(report.destination):")
            for table in report.tables where table.rows > 0 {
                print(
                    "  \(table.table): \(table.rows) row\(table.rows == 1 ? "" : "s")"
                        + (table.copied < table.rows ? " (\(table.copied) now)" : ""))
            }
            if report.photoFiles > 0 {
                print("  \(counted(report.photoFiles, "photo file")), into \(to.mediaDirectory)")
            }
            print("Every table has as many rows in both stores.")
        }

        static func open(_ path: String, create: Bool) throws -> any StoreCopying {
            do {
                // Both stores copy; the protocol says so only through the concrete types.
                guard let store = try StoreOptions.open(path, create: create) as? any StoreCopying else {
                    throw CommandFailure(message: "The store \(path) cannot be copied.", code: .failure)
                }
                return store
            } catch let error as PostgresStoreError {
                throw error.commandFailure
            } catch let error as StoreError {
                throw error.commandFailure
            }
        }
    }
}
