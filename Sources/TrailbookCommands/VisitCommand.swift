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
        abstract: "Correct what visits found: name a place, give a trip's mode or a visit's place.",
        discussion: """
            Places keep the number they were first found with ("place 7") in every listing. A \
            correction names a moment (TIME: \(LocalTime.accepted)): the trip or visit that holds it \
            takes the mode or place you give, in trailbook visits, day, timeline, year and the web \
            pages, however often the points are looked at again. A newer correction of the same trip \
            or visit replaces the older; trailbook visit undo ID takes one back.
            """,
        subcommands: [Name.self, PlaceOf.self, Mode.self, Corrections.self, Undo.self])

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

    struct Corrections: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "corrections", abstract: "List your corrections, oldest moment first.")
        @Flag(help: "Print {\"corrections\": [{\"id\", \"at\", \"kind\", \"value\"}]}.") var json = false
        @OptionGroup var common: Common

        func run() async throws {
            let service = try await common.service()
            let list = try await service.list()
            if json { return try printJSON(VisitCorrectionJSON.List(list)) }
            if list.isEmpty { print("No corrections yet; trailbook visit mode TIME MODE makes one.") }
            for c in list {
                let what = c.kind == .mode ? "the trip: \(c.value)" : "the visit: at place \(c.value)"
                print("\(c.id)  \(LocalTime.iso(c.milliseconds, zone: service.zone))  \(what)")
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
