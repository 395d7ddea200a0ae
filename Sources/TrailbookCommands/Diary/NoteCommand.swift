import ArgumentParser
import Foundation
import GPSCore
import TrackStore
import TrailbookKit

/// `trailbook note add|edit|rm`: text on location records.
struct NoteCommand: AsyncParsableCommand {
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

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
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

        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        func validate() throws {
            if (record == nil) == (at == nil) { throw ValidationError("Give a record id or --at TIME (one of them).") }
            if !(within > 0) { throw ValidationError("--within must be a positive number of seconds.") }
        }

        func run() async throws {
            let zone = try zoneOptions.zone()
            let at = try self.at.map { try LocalTime.require($0, option: "--at", zone: zone) }
            let target: DiaryService.RecordTarget =
                try record.map { .id(try RecordReference.parse($0)) } ?? .nearest(time: at!, within: within)
            let store = try await storeOptions.opened()
            let diary = try await accountOptions.diary(store, zone: zone, tide: try zoneOptions.tide())
            let id = try await diary.recordID(target)
            // Piped input or the editor is waited for on a thread of its own.
            let text = try await Blocking.runOnConsole { [textOptions] in
                try TextInput.read(text: textOptions.text, file: textOptions.file, what: "the note")
            }
            let (note, record) = try await diary.addNote(text, to: id)
            if json {
                try printJSON(RecordJSON(record, store: store, zone: zone))
            } else {
                print("note \(note.id) added to record \(id) (\(LocalTime.format(record.milliseconds, zone: zone)))")
            }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Replace a note's text (from --text, --file, piped input, or the editor with the old text).")

        @Argument(help: "The note's id.")
        var note: Int64

        @OptionGroup var textOptions: TextOptions
        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            let diary = try await accountOptions.diary(storeOptions.opened())
            let old = try await diary.note(note)
            let text = try await Blocking.runOnConsole { [textOptions] in
                try TextInput.read(text: textOptions.text, file: textOptions.file, initial: old.text, what: "the note")
            }
            try await diary.editNote(note, text: text)
            print("note \(note) updated")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Delete notes for good (their text is overwritten in the store).")

        @Argument(help: "Note ids.")
        var notes: [Int64]

        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await accountOptions.diary(storeOptions.opened()).deleteNotes(notes)
            for id in notes { print("note \(id) deleted") }
        }
    }
}
