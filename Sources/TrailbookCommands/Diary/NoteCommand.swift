import ArgumentParser
import Foundation
import TrackStore

/// `trailbook note add|edit|rm`: text on location records.
struct NoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "note",
        abstract: "Attach, edit and delete notes (text of any length) on location records.",
        subcommands: [Add.self, Edit.self, Remove.self])

    /// Where the text comes from.
    struct TextOptions: ParsableArguments {
        @Option(help: "The text.")
        var text: String?

        @Option(help: ArgumentHelp("Read the text from a UTF-8 file ('-': standard input).", valueName: "file"))
        var file: String?

        func validate() throws {
            if text != nil && file != nil { throw ValidationError("Give --text or --file, not both.") }
        }
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a note to a record (by id, or the one nearest --at).",
            discussion: """
                The text comes from --text, --file, standard input when it is piped, or else \
                $VISUAL/$EDITOR. With --at TIME the note goes on the record or stored point nearest \
                that time within --within seconds (a point becomes a record then). TIME is \(LocalTime.accepted).
                """)

        @Argument(help: "The record's id (trailbook records lists them).")
        var record: String?

        @Option(help: ArgumentHelp("The time of the record instead of its id.", valueName: "time"))
        var at: String?

        @Option(help: ArgumentHelp("How far from --at the record may be.", valueName: "seconds"))
        var within: Double = 120

        @OptionGroup var textOptions: TextOptions

        @Flag(help: "Print the record with its notes as JSON.")
        var json = false

        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        func validate() throws {
            if (record == nil) == (at == nil) { throw ValidationError("Give a record id or --at TIME (one of them).") }
        }

        func run() throws {
            let zone = try zoneOptions.zone()
            let at = try self.at.map { try LocalTime.require($0, option: "--at", zone: zone) }
            if let record { _ = try RecordReference.parse(record) }
            let store = try storeOptions.open()
            let id: Int64
            if let record {
                id = try RecordReference.existing(record, in: store)
            } else {
                guard let near = try store.nearestRecordID(to: at!, within: Int64(within * 1000)) else {
                    throw CommandFailure(
                        message: "No record or stored point lies within \(Int(within)) s of "
                            + "\(LocalTime.format(at!, zone: zone)); give a record id, a wider --within, "
                            + "or add one with trailbook mark.",
                        code: .dataError)
                }
                id = near
            }
            let text = try TextInput.read(text: textOptions.text, file: textOptions.file, what: "the note")
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw CommandFailure(message: "The note is empty; nothing added.", code: .dataError)
            }
            let note = try store.addNote(to: id, text: text)
            let record = try store.record(id)!
            if json {
                try printJSON(RecordJSON(record, store: store, zone: zone))
            } else {
                print("note \(note.id) added to record \(id) (\(LocalTime.format(record.milliseconds, zone: zone)))")
            }
        }
    }

    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace a note's text (from --text, --file, piped input, or the editor with the old text).")

        @Argument(help: "The note's id.")
        var note: Int64

        @OptionGroup var textOptions: TextOptions
        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            let store = try storeOptions.open()
            guard let old = try store.note(note) else {
                throw CommandFailure(
                    message: "There is no note \(note) in \(store.path); trailbook records shows notes with their ids.",
                    code: .noInput)
            }
            let text = try TextInput.read(
                text: textOptions.text, file: textOptions.file, initial: old.text, what: "the note")
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw CommandFailure(
                    message: "The new text is empty; use trailbook note rm \(note) to delete the note.",
                    code: .dataError)
            }
            _ = try store.updateNote(note, text: text)
            print("note \(note) updated")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Delete notes for good (their text is overwritten in the store).")

        @Argument(help: "Note ids.")
        var notes: [Int64]

        @OptionGroup var storeOptions: StoreOptions

        func run() throws {
            let store = try storeOptions.open()
            for id in notes where try store.note(id) == nil {
                throw CommandFailure(
                    message: "There is no note \(id) in \(store.path); nothing deleted.", code: .noInput)
            }
            for id in notes {
                _ = try store.deleteNote(id)
                print("note \(id) deleted")
            }
        }
    }
}
