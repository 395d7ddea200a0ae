import ArgumentParser
import Foundation
import GPSCore
import Synchronization
import TrackModel
import TrailbookKit

/// `trailbook place add|list|rm`: the named areas events are detected at; `place show`: a
/// place's history.
struct PlaceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "place",
        abstract: "Manage places: the areas whose arrivals and departures become events.",
        discussion: """
            A place is a circle (a centre and a radius in metres) or a polygon read from a GeoJSON \
            file. record, import and serve detect place.arrive and place.depart at them (docs/EVENTS.md).
            """,
        subcommands: [Add.self, List.self, Remove.self, Show.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show a place's history: every visit (its day, hours and length), the first and last, the time "
                + "spent there and the days it was visited.",
            discussion: """
                PLACE is a place's number as `visits --places` lists it, its name, or the name of one of your own \
                places (the place found inside it). Read from the whole timeline, your edits and corrections applied.
                """)
        @Argument(help: "The place: its number, its name, or one of your own places' names.") var place: String
        @Flag(
            help: """
                Print {"id", "name", "lat", "lon", "visits": [{"day", "start", "end", "seconds", "hours"}], "first", \
                "last", "total_s", "days"}.
                """)
        var json = false
        @OptionGroup var devices: DeviceOptions
        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        func run() async throws {
            let config = try zoneOptions.loaded()
            let store = try storeOptions.open()
            let filter = try await devices.filter(store, account: accountOptions.user)
            let history = try await PlaceHistory.load(
                place, store: store, devices: filter, rules: config.pipeline.visits, zone: config.timeZone)
            if json { return try printJSON(history) }
            for line in history.lines { print(line) }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add",
            abstract: "Add a place: --lat and --lon, --here (the newest stored point), or --geojson FILE.")
        @Argument(help: "The place's name, e.g. home.") var name: String
        @Option(help: "Latitude of the centre, degrees (WGS-84).") var lat: Double?
        @Option(help: "Longitude of the centre, degrees.") var lon: Double?
        @Flag(help: "Centre it on the newest stored point.") var here = false
        @Option(help: ArgumentHelp("A GeoJSON Polygon (or Feature with one) as the area.", valueName: "file"))
        var geojson: String?
        @Option(help: "Radius in metres (1 to 100000) of a circle.") var radius = PlaceService.defaultRadius
        @Flag(help: "Print the place as JSON.") var json = false
        @Option(
            help:
                "The places of this account (a server's user: its phones get arrivals and departures there); default: this store's own."
        )
        var user: String?
        @OptionGroup var storeOptions: StoreOptions

        func validate() throws {
            let ways = [lat != nil || lon != nil, here, geojson != nil].filter { $0 }.count
            if ways != 1 { throw ValidationError("Give --lat and --lon, or --here, or --geojson FILE (one of them).") }
            if (lat == nil) != (lon == nil) { throw ValidationError("Give both --lat and --lon.") }
        }

        func run() async throws {
            let service = PlaceService(store: try storeOptions.openOrCreate(), account: user)
            var note = ""
            let place: Place
            if let lat, let lon {
                place = try await service.add(name: name, at: Coordinate(latitude: lat, longitude: lon), radius: radius)
            } else if let geojson {
                place = try await service.addPolygon(name: name, file: geojson)
            } else {
                let added = try await service.addHere(name: name, radius: radius)
                place = added.place
                note = " (the point of \(LocalTime.utc(added.at)))"
            }
            if json { return try printJSON(PlaceJSON(place)) }
            print("Added \(PlaceJSON.describe(place))\(note).")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the places.")
        @Flag(help: "Print {\"places\": [{\"name\", \"lat\", \"lon\", \"radius_m\", \"polygon\", \"source\"}]}.")
        var json = false
        @Option(
            help:
                "The places of this account (a server's user: its phones get arrivals and departures there); default: this store's own."
        )
        var user: String?
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            let places = try await PlaceService(store: try storeOptions.open(), account: user).list()
            if json { return try printJSON(["places": places.map(PlaceJSON.init)]) }
            if places.isEmpty { print("No places yet; trailbook place add NAME --here adds one.") }
            for place in places { print(PlaceJSON.describe(place)) }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Remove a place (its events stay, with its name).")
        @Argument(help: "The place's name.") var name: String
        @Option(
            help:
                "The places of this account (a server's user: its phones get arrivals and departures there); default: this store's own."
        )
        var user: String?
        @OptionGroup var storeOptions: StoreOptions

        func run() async throws {
            try await PlaceService(store: try storeOptions.open(), account: user).remove(name: name)
            print("Removed the place \(name).")
        }
    }
}

/// `trailbook events`: what the detector found, in time order.
struct Events: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "List events (arrivals, departures, stops, lost fixes, ...) of a day or a time range.",
        discussion: """
            Without --day, --from or --to: today. Types: \
            \(TrailEventType.allCases.map(\.rawValue).joined(separator: ", ")). docs/EVENTS.md has the rules.
            """)

    @Option(help: ArgumentHelp("One local day (\(LocalDate.accepted)).", valueName: "date")) var day: String?
    @Option(help: ArgumentHelp("From this time (\(LocalTime.accepted)).", valueName: "time")) var from: String?
    @Option(help: ArgumentHelp("Up to this time, not included.", valueName: "time")) var to: String?
    @Option(
        name: .customLong("type"),
        help: ArgumentHelp("Only these types (repeat, or comma-separated).", valueName: "type"))
    var types: [String] = []
    @Option(help: "The events of this account's devices (a server's phones); default: this store's own.")
    var user: String?
    @Flag(
        help:
            "Print {\"events\": [{\"id\", \"time\", \"type\", \"device\", \"place\", \"lat\", \"lon\", \"text\", \"details\"}]}."
    )
    var json = false
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func validate() throws {
        if day != nil && (from != nil || to != nil) {
            throw ValidationError("Give --day, or --from and --to, not both.")
        }
        do {
            _ = try EventService.types(types)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        let zone = try zoneOptions.zone()
        let range: (Int64, Int64)
        if from != nil || to != nil {
            range = (
                try from.map { try LocalTime.require($0, option: "--from", zone: zone) } ?? .min,
                try to.map { try LocalTime.require($0, option: "--to", zone: zone) } ?? .max
            )
        } else {
            range = LocalDay.range(
                try day.map { try LocalDate.require($0, option: "--day", zone: zone) } ?? LocalTime.today(in: zone),
                in: zone)
        }
        let events = try await EventService(store: try storeOptions.open()).events(
            fromMilliseconds: range.0, toMilliseconds: range.1, types: try EventService.types(types), account: user)
        if json { return try printJSON(["events": events.map(EventJSON.init)]) }
        if events.isEmpty { print("No events in that time.") }
        for stored in events { print(EventService.line(stored, zone: zone)) }
    }
}

/// `trailbook timeline D` (the day as one list in time order) and `trailbook timeline rebuild`.
struct Timeline: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "Show a day as one timeline (timeline D), or make the kept stays and moves again (timeline rebuild).",
        discussion: """
            The stays and moves of every day are kept in the store, made when points arrive \
            (docs/TIMELINE.md); every reader reads them.
            """,
        subcommands: [TimelineDay.self, TimelineRebuild.self], defaultSubcommand: TimelineDay.self)
}

/// `trailbook timeline rebuild [--from D --to D]`: the kept stays and moves made again.
struct TimelineRebuild: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Make the kept stays and moves again, from the stored points and imported visits.",
        discussion: """
            The writes keep them (import, the server after a phone's batch, rm); run this after \
            changing the [visits] settings, or to keep those of a store made by an older release \
            (until then, each reader works the days out itself). Without --from/--to every day is \
            made again, with a progress bar on a terminal; with them, those days (all of them when \
            the rows were made with other settings or none were kept).
            """)

    @OptionGroup var days: DayRangeOptions
    @Flag(help: #"Print {"account", "whole", "from", "to", "stays", "moves", "version", "rules", "seconds"}."#)
    var json = false
    @OptionGroup var accountOptions: AccountOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    struct Report: Encodable {
        var account: String?
        var whole: Bool
        var from: String?
        var to: String?
        var stays: Int
        var moves: Int
        var version: Int
        var rules: String
        var seconds: Double
    }

    func run() async throws {
        let config = try zoneOptions.loaded()
        let zone = config.timeZone
        let rules = config.pipeline.visits
        let store = try storeOptions.open()
        let account = try await accountOptions.account(in: store)
        let started = ContinuousClock.now
        let outcome: TimelineKeeper.Outcome
        if days.isSet {
            let (from, to, _) = try await store.read { [days] tx in
                try days.range(in: zone, store: tx, devices: DeviceFilter(account: account))
            }
            outcome = try await TimelineKeeper.redo(store: store, account: account, from: from, to: to, rules: rules)
        } else {
            let bar = Mutex<ProgressBar?>(nil)
            outcome = try await TimelineKeeper.rebuild(store: store, account: account, rules: rules) { done, total in
                bar.withLock { bar in
                    if bar == nil { bar = ProgressBar(label: "timeline", total: total, unit: "days") }
                    bar?.update(done)
                }
            }
            bar.withLock { $0?.finish() }
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        func time(_ ms: Int64) -> String? {
            outcome.stays + outcome.moves == 0 ? nil : LocalTime.format(ms, zone: zone)
        }
        let report = Report(
            account: account, whole: outcome.whole, from: time(outcome.from), to: time(outcome.to),
            stays: outcome.stays, moves: outcome.moves, version: TimelineKeeper.version,
            rules: TimelineKeeper.rulesText(rules), seconds: (seconds * 1000).rounded() / 1000)
        if json { return try printJSON(report) }
        let what = "\(counted(outcome.stays, "stay")) and \(counted(outcome.moves, "move"))"
        let span = report.from.map { " from \($0) to \(report.to ?? $0)" } ?? ""
        print(
            (outcome.whole ? "Kept the whole timeline: " : "Kept the timeline of those days: ") + what + span
                + String(format: ", in %.1f s.", seconds))
    }
}

/// `trailbook timeline D`: the day as one list in time order.
struct TimelineDay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show a day as one timeline: rides, visits, trips, stops, events, cues, tasks and records.",
        discussion: """
            Visits run from a place.arrive to its place.depart, and where the points show a stay \
            (trailbook visits: named by your places, home and work suggested, else "place N"); trips \
            between visits carry their mode; stops run from motion.stopped to motion.moving (a stop \
            within a visit is that visit). A span over midnight is cut at the day's edge, its length \
            the whole. report day and the web day page draw the same timeline.
            """)

    @Argument(help: ArgumentHelp("The local date: \(LocalDate.accepted).", valueName: "date")) var date: String
    @Flag(
        help: """
            Print {"date", "time_zone", "entries": [{"kind", "start", "end", "title", "detail", "type", "device", \
            "place", "ride", "record"}]}.
            """)
    var json = false
    @OptionGroup var devices: DeviceOptions
    @OptionGroup var accountOptions: AccountOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func validate() throws { try LocalDate.check(date, option: "") }

    func run() async throws {
        let config = try zoneOptions.loaded()
        let zone = config.timeZone
        let day = try LocalDate.require(date, option: "", zone: zone)
        let store = try storeOptions.open()
        let filter = try await devices.filter(store, account: accountOptions.user)
        // The day where the person was (a day in London is London's day), its times in `zone`.
        let (cut, until) = try await store.read { tx in
            (
                try DayZone.of(day, store: tx, devices: filter, zone: zone),
                try DayZone.end(of: day, store: tx, devices: filter, zone: zone)
            )
        }
        let entries = try await DayTimeline.load(
            day, store: store, zone: zone, cutIn: cut, until: until, devices: filter, visits: config.pipeline.visits)
        if json { return try printJSON(TimelineJSON(date: day.description, zone: zone, cutIn: cut, entries: entries)) }
        if entries.isEmpty { print("Nothing on \(day) \(DayZone.words(cut: cut, times: zone)).") }
        for entry in entries { print(TimelineJSON.line(entry, zone: zone)) }
    }
}
