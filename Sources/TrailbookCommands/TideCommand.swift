import ArgumentParser
import Foundation
import GPSCore
import Tides
import TrailbookKit

/// `trailbook tide stations`: the stations one can name in tide.station.
struct TideCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tide", abstract: "Find a tide station for tide.station in the config.",
        subcommands: [Stations.self])

    struct Stations: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stations",
            abstract: "List the water-level stations of the harmonic constants (nearest first with --near).",
            discussion: """
                The stations come from Debian's xtide-data (NOAA's and other agencies' constants, as \
                collected for XTide), or the .tcd file of tide.file. Put a station's name or id in the \
                config as tide.station and records get the tide there (height, and rising, high, \
                falling or low); predictions are not for navigation.
                """)
        @Option(help: ArgumentHelp("Sort by distance from this place.", valueName: "lat,lon")) var near: String?
        @Option(help: "How many to list.") var limit = 10
        @Option(help: ArgumentHelp("A harmonic constants file (.tcd) instead of xtide-data's.", valueName: "path"))
        var file: String?
        @Flag(help: "Print JSON: {\"stations\": [{name, id, lat, lon, subordinate, km}]}.") var json = false

        /// Farther than this (km), a station's tide is not the one where you are.
        static let farAway = 100.0

        func validate() throws {
            guard limit > 0 else { throw ValidationError("--limit must be 1 or more.") }
            if let near, parsedNear(near) == nil {
                throw ValidationError("--near '\(near)' is not LAT,LON in degrees (e.g. 48.55,-123.01).")
            }
        }

        func parsedNear(_ text: String) -> Coordinate? {
            let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 2, let lat = parts[0], let lon = parts[1],
                ConditionsService.problem(latitude: lat, longitude: lon) == nil
            else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }

        struct Output: Encodable {
            struct Station: Encodable {
                let name: String
                let id: String
                let lat: Double
                let lon: Double
                let subordinate: Bool
                let km: Double?
            }
            let stations: [Station]
        }

        func run() throws {
            let list: [(station: TideStationSummary, km: Double?)]
            do {
                list = try TideStations.list(
                    near: near.flatMap(parsedNear), limit: limit, path: file ?? TideDatabase.defaultPath)
            } catch let error as TideError {
                throw CommandFailure(
                    message: "\(error)".prefix(1).uppercased() + "\(error)".dropFirst() + ".", code: .noInput)
            }
            if json {
                return try printJSON(
                    Output(
                        stations: list.map {
                            .init(
                                name: $0.station.name, id: $0.station.id, lat: $0.station.latitude,
                                lon: $0.station.longitude, subordinate: $0.station.subordinate,
                                km: $0.km.map { ($0 * 10).rounded() / 10 })
                        }))
            }
            if let nearest = list.first?.km, nearest > Self.farAway {
                printError(
                    "trailbook: the nearest station is \(Int(nearest.rounded())) km away: tides are predicted only "
                        + "where the database has stations (mostly the coasts of North America, and ports elsewhere); "
                        + "a station this far does not tell the tide where you are.")
            }
            for (s, km) in list {
                let distance = km.map { String(format: "%7.1f km  ", $0) } ?? ""
                print("\(distance)\(s.id.padding(toLength: 10, withPad: " ", startingAt: 0)) \(s.name)")
            }
        }
    }
}
