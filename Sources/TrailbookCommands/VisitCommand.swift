import ArgumentParser
import Foundation
import GPSCore
import TrackModel
import TrailbookKit
import Visits

/// `trailbook visit name|place|mode|corrections|undo`: what the user says about the visits and
/// trips found, kept so that every later listing applies it.
struct VisitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "visit",
        abstract:
            "Correct what visits found: name a place, give a trip's mode or a visit's place, remove, retime, merge, "
            + "split or add a visit.",
        discussion: """
            Places keep the number they were first found with ("place 7") in every listing. A \
            correction names a moment (TIME: \(LocalTime.accepted)): the trip or visit that holds it \
            takes the mode or place you give, in trailbook visits, day, timeline, year and the web \
            pages, however often the points are looked at again. A newer correction of the same trip \
            or visit replaces the older; trailbook visit undo ID takes one back. The edits of the \
            timeline's shape (rm, times, merge, split, add) are kept the same way and applied, in the \
            order made, over whatever the detection finds, so they stand when it is done again \
            (docs/TIMELINE.md, "Edits").
            """,
        subcommands: [
            Name.self, PlaceOf.self, Mode.self, Remove.self, Times.self, Merge.self, Split.self, Add.self,
            Corrections.self, Undo.self,
        ])

    /// The options every subcommand shares: whose visits, which store, which configuration.
    struct Common: ParsableArguments {
        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        func service() async throws -> VisitCorrections {
            let config = try zoneOptions.loaded()
            let store = try storeOptions.open()
            let devices: DeviceFilter =
                try await accountOptions.account(in: store).map { .account($0, device: nil) } ?? .all
            return VisitCorrections(
                store: store, devices: devices, rules: config.pipeline.visits, zone: config.timeZone)
        }
    }

    struct Name: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "name", abstract: "Give a place a name of your own (trailbook visits --places lists them).")
        @Argument(help: "The place's number, as in \"place 7\".") var place: Int
        @Argument(help: "Its name, e.g. \"Café Zeit\".") var name: String?
        @Flag(help: "Take the name away (the place is numbered again).") var clear = false
        @OptionGroup var common: Common

        func validate() throws {
            if (name == nil) == !clear { throw ValidationError("Give a NAME, or --clear (one of them).") }
        }

        func run() async throws {
            try await common.service().name(place: place, as: clear ? nil : name)
            print(clear ? "Place \(place) has no name of yours now." : "Place \(place) is \(name ?? "") from now on.")
        }
    }

    struct PlaceOf: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "place", abstract: "Say at which place the visit at TIME was.")
        @Argument(help: "A moment of the visit.") var time: String
        @Argument(
            help: "The place: its number (7 or \"place 7\"), the name you gave it, or the name of one of your places.")
        var place: String
        @Flag(help: "Print {\"correction\", \"start\", \"end\", \"place\"}.") var json = false
        @OptionGroup var common: Common

        func run() async throws {
            let service = try await common.service()
            let at = try LocalTime.require(time, option: "TIME", zone: service.zone)
            let (visit, id, correction) = try await service.place(at: at, place)
            let made = VisitCorrectionJSON(correction: correction, start: visit.start, end: visit.end, place: id)
            if json { return try printJSON(made) }
            print(made.line(zone: service.zone))
        }
    }

    struct Mode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "mode", abstract: "Say how you travelled on the trip at TIME.")
        @Argument(help: "A moment of the trip.") var time: String
        @Argument(help: "still, walking, running, cycling, car, train or plane.") var mode: String
        @Flag(help: "Print {\"correction\", \"start\", \"end\", \"mode\"}.") var json = false
        @OptionGroup var common: Common

        func run() async throws {
            guard let travel = TravelMode(rawValue: mode.lowercased()) else {
                throw VisitCorrectionError.badMode(mode)
            }
            let service = try await common.service()
            let at = try LocalTime.require(time, option: "TIME", zone: service.zone)
            let (trip, correction) = try await service.mode(at: at, travel)
            let made = VisitCorrectionJSON(correction: correction, start: trip.start, end: trip.end, mode: travel)
            if json { return try printJSON(made) }
            print(made.line(zone: service.zone))
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm",
            abstract: "Say the visit (or, where no visit holds TIME, the trip) at TIME never happened.",
            discussion: """
                A visit removed: the trips on either side become one. A trip removed: the visits on either \
                side, when they are at one place, become one. Nothing is deleted: the points stay, and \
                trailbook visit undo ID brings it back.
                """)
        @Argument(help: "A moment of the visit or trip.") var time: String
        @OptionGroup var edit: EditOptions

        func run() async throws {
            try await edit.run("is gone from your timeline") { service, at in
                try await service.remove(at: try at(time, "TIME"))
            }
        }
    }

    struct Times: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "times", abstract: "Say when the visit at TIME began and ended.",
            discussion: "What else the visit now covers gives way; the trips that met it meet it at its new times.")
        @Argument(help: "A moment of the visit.") var time: String
        @Option(help: "When it began.") var from: String
        @Option(help: "When it ended.") var to: String
        @OptionGroup var edit: EditOptions

        func run() async throws {
            try await edit.run("runs so now") { service, at in
                try await service.times(at: try at(time, "TIME"), from: try at(from, "--from"), to: try at(to, "--to"))
            }
        }
    }

    struct Merge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "merge", abstract: "Make the visits at TIME and OTHER, and all between, one visit.")
        @Argument(help: "A moment of the first visit.") var time: String
        @Argument(help: "A moment of the other visit.") var other: String
        @OptionGroup var edit: EditOptions

        func run() async throws {
            try await edit.run("is one visit now") { service, at in
                try await service.merge(at: try at(time, "TIME"), with: try at(other, "OTHER"))
            }
        }
    }

    struct Split: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "split", abstract: "Make the visit at TIME two visits, the second from --at.")
        @Argument(help: "A moment of the visit.") var time: String
        @Option(name: .customLong("at"), help: "When the second visit began.") var second: String
        @OptionGroup var edit: EditOptions

        func run() async throws {
            try await edit.run("is two visits now") { service, at in
                try await service.split(at: try at(time, "TIME"), from: try at(second, "--at"))
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a visit the detection missed: at a place, from a time to a time.",
            discussion: "What the visit covers gives way: a trip through it becomes the way there and the way on.")
        @Option(help: "The place: its number (7 or \"place 7\"), its name, or the name of one of your places.")
        var place: String?
        @Option(name: .customLong("at"), help: "Where, as LAT,LON in degrees (instead of --place).")
        var position: String?
        @Option(help: "When it began.") var from: String
        @Option(help: "When it ended.") var to: String
        @OptionGroup var edit: EditOptions

        func validate() throws {
            if (place == nil) == (position == nil) {
                throw ValidationError("Give --place P or --at LAT,LON (one of them).")
            }
            if let position, Self.coordinate(position) == nil {
                throw ValidationError("--at takes LAT,LON in degrees, e.g. --at 47.3769,8.5417.")
            }
        }

        static func coordinate(_ text: String) -> Coordinate? {
            let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let lat = parts[0], let lon = parts[1], abs(lat) <= 90, abs(lon) <= 180 else {
                return nil
            }
            return Coordinate(latitude: lat, longitude: lon)
        }

        func run() async throws {
            try await edit.run("is in your timeline") { service, at in
                let center =
                    if let position { Self.coordinate(position)! } else { try await service.center(of: place ?? "") }
                return try await service.add(from: try at(from, "--from"), to: try at(to, "--to"), center: center)
            }
        }
    }

    /// What every edit of the timeline's shape shares: its output, whose visits, and how it says
    /// what it did.
    struct EditOptions: ParsableArguments {
        @Flag(help: "Print {\"correction\", \"kind\", \"start\", \"end\"}.") var json = false
        @OptionGroup var common: Common

        /// Makes the edit with the service and a reader of moments (the text, and the option named
        /// when it does not read), then says what became of what it named (`verb`).
        func run(
            _ verb: String,
            _ edit: (VisitCorrections, _ at: (String, String) throws -> Int64) async throws -> VisitCorrections.Edited
        ) async throws {
            let service = try await common.service()
            let edited = try await edit(service) { try LocalTime.require($0, option: $1, zone: service.zone) }
            let made = VisitCorrectionJSON.Edit(edited, verb: verb)
            if json { return try printJSON(made) }
            print(made.line(zone: service.zone))
        }
    }

    struct Corrections: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "corrections", abstract: "List your corrections, oldest moment first.")
        @Flag(help: "Print {\"corrections\": [{\"id\", \"at\", \"kind\", \"value\", \"made\"}]}.") var json = false
        @OptionGroup var common: Common

        func run() async throws {
            let service = try await common.service()
            let list = try await service.list()
            if json { return try printJSON(VisitCorrectionJSON.List(list)) }
            if list.isEmpty { print("No corrections yet; trailbook visit mode TIME MODE makes one.") }
            for c in list {
                print("\(c.id)  \(LocalTime.iso(c.milliseconds, zone: service.zone))  \(Self.what(c, service.zone))")
            }
        }

        /// "the trip: train", "the visit: at place 3", "the visit: from 08:15 to 11:45", ...
        static func what(_ c: MovementCorrection, _ zone: TimeZone) -> String {
            let parts = c.value.split(separator: " ").map(String.init)
            func time(_ text: String) -> String { Int64(text).map { LocalTime.iso($0, zone: zone) } ?? text }
            switch c.kind {
            case .mode: return "the trip: \(c.value)"
            case .place: return "the visit: at place \(c.value)"
            case .remove: return "removed (the visit there, else the trip)"
            case .times: return "the visit: from \(time(parts.first ?? "")) to \(time(parts.last ?? ""))"
            case .merge: return "the visit: one with the visit at \(time(c.value))"
            case .split: return "the visit: a second one from \(time(c.value))"
            case .add:
                return "a visit added: to \(time(parts.first ?? "")) at \(parts.dropFirst().joined(separator: ","))"
            }
        }
    }

    struct Undo: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "undo", abstract: "Take a correction back (trailbook visit corrections lists them).")
        @Argument(help: "The correction's number.") var id: Int64
        @OptionGroup var common: Common

        func run() async throws {
            try await common.service().remove(id)
            print("Correction \(id) is taken back.")
        }
    }
}
