import ArgumentParser
import Foundation
import GPSCore
import Photos
import TrackStore
import TrailbookKit

/// `trailbook photo add|import`: JPEG photos on location records.
struct PhotoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photo",
        abstract: "Attach JPEG photos to records, by hand or by the time they were taken (geotagging).",
        subcommands: [Add.self, Import.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Attach photos to a record.",
            discussion: """
                Each photo is copied into the media folder next to the store (trailbook-media/), named \
                by its SHA-256: the same photo added twice is stored once. JPEG only.
                """)

        @Argument(help: "The record's id.")
        var record: String

        @Argument(help: "JPEG files.")
        var files: [String]

        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        func run() async throws {
            let zone = try zoneOptions.zone()
            let id = try RecordReference.parse(record)
            let photos = try await Blocking.runOnConsole { [files] in try files.map(PhotoFile.init) }
            let store = try await storeOptions.opened()
            let stored = try await accountOptions.diary(store, zone: zone).attach(photos, to: id)
            for p in stored { print("\(p.name) → record \(id): \(store.mediaDirectory)/\(p.file)") }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Attach photos to the records at the times they were taken (from EXIF).",
            discussion: """
                For each JPEG (folders are searched, recursively, for *.jpg/*.jpeg): the time it was \
                taken is the EXIF DateTimeOriginal on the camera's clock, with the camera's recorded \
                offset or else in the configured time zone, plus --offset (to correct a camera clock \
                that is off); without a DateTimeOriginal, the EXIF GPS time. The photo goes on the \
                record or stored point nearest that time within --max-gap seconds; when none is that \
                near but the photo has GPS tags, a new record is made at its GPS position. Photos \
                with neither are listed as skipped. Exit 0 when every photo found a place, 65 when \
                some did not (the others are attached).
                """)

        @Argument(help: "JPEG files or folders of them.")
        var paths: [String]

        @Option(
            help: ArgumentHelp(
                "Seconds to add to the camera clock (negative when it runs fast).", valueName: "±seconds"))
        var offset: Double = 0

        @Option(help: ArgumentHelp("Largest distance in time to a record.", valueName: "seconds"))
        var maxGap: Double = 300

        @Flag(help: "Print what happened to each photo as JSON.")
        var json = false

        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        func run() async throws {
            guard maxGap > 0 else { throw ValidationError("--max-gap must be a positive number of seconds.") }
            let zone = try zoneOptions.zone()
            let inputs = try await Blocking.runOnConsole { [paths] in try PhotoFile.collect(paths).map(PhotoFile.init) }
            if inputs.isEmpty { throw PhotoError.noneFound(paths) }
            let store = try await storeOptions.openedOrCreated()
            let outcomes = try await accountOptions.diary(store, zone: zone, tide: try zoneOptions.tide()).geotag(
                inputs, offset: offset, maxGap: maxGap)
            if json {
                try printJSON(["photos": outcomes])
            } else {
                for o in outcomes {
                    if let why = o.skipped {
                        print("\(o.file): skipped, \(why)")
                    } else {
                        print("\(o.file) → record \(o.record!)" + (o.created ? " (new, at its GPS position)" : ""))
                    }
                }
                let skipped = outcomes.filter { $0.skipped != nil }.count
                print("\(outcomes.count - skipped) attached, \(skipped) skipped")
            }
            if outcomes.contains(where: { $0.skipped != nil }) {
                throw CommandFailure(
                    message:
                        "Some photos found no record; give --time-zone if the camera clock was set to another zone, "
                        + "--offset if it was off, a wider --max-gap, "
                        + "or attach them with trailbook photo add RECORD FILE.",
                    code: .dataError)
            }
        }
    }
}

/// `trailbook field set|rm`: structured values on records.
struct FieldCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "field",
        abstract: "Set or remove fields (key=value; numbers stay numbers) on a record.",
        subcommands: [Set.self, Remove.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set fields on a record (replacing the same keys).")

        @Argument(help: "The record's id.")
        var record: String

        @Argument(help: "key=value pairs, e.g. weather=sunny weight_kg=12.5.")
        var fields: [String]

        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            let parsed = try fields.map { try FieldArgument.parse($0) }
            let id = try RecordReference.parse(record)
            let store = try await storeOptions.opened()
            try await accountOptions.diary(store).setFields(parsed, on: id)
            print("record \(id): " + parsed.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rm", abstract: "Remove fields from a record.")

        @Argument(help: "The record's id.")
        var record: String

        @Argument(help: "Field names.")
        var keys: [String]

        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            let id = try RecordReference.parse(record)
            let store = try await storeOptions.opened()
            try await accountOptions.diary(store).removeFields(keys, from: id)
            print("record \(id): removed " + keys.joined(separator: ", "))
        }
    }
}
