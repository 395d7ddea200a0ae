import ArgumentParser
import Foundation
import GPSCore
import TrackModel
import TrailbookKit

/// `trailbook geocoder`: the gazetteer visits are named from, loaded once from GeoNames' dumps.
struct GeocoderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geocoder", abstract: "Load the gazetteer that names visits, and look places up in it.",
        discussion: """
            Names come from a file you load once, never from a service on the network: GeoNames' \
            cities500.txt (about 200,000 places with more than 500 people), cities1000.txt or \
            allCountries.txt, from download.geonames.org/export/dump (CC BY 4.0), unzipped or as the .zip.
            """,
        subcommands: [Import.self, Near.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Replace the gazetteer with a GeoNames dump's populated places.",
            discussion: """
                Reads the geoname table (19 tab-separated columns) as it goes and keeps the populated places \
                (feature class P) with their country, first-level division and IANA time zone. The gazetteer \
                is replaced in one unit of work: a line that is no such row is exit 65 with its number, and \
                the gazetteer stays as it was. --admin1 admin1CodesASCII.txt gives the divisions their names \
                (else their codes). Every account of the store shares the gazetteer.
                """)
        @Argument(help: "cities500.txt, cities1000.txt, allCountries.txt, or its .zip.") var file: String
        @Option(help: ArgumentHelp("GeoNames' admin1CodesASCII.txt, for the divisions' names.", valueName: "file"))
        var admin1: String?
        @Flag(help: "Print {\"file\", \"rows\", \"stored\", \"passed_over\"}.") var json = false
        @OptionGroup var storeOptions: StoreOptions

        struct Output: Encodable {
            let file: String
            let rows: Int
            let stored: Int
            let passedOver: Int
        }

        func run() async throws {
            let store = try storeOptions.openOrCreate()
            let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            let bar = ProgressBar(label: "gazetteer", totalBytes: json ? 0 : size)
            let outcome = try await GazetteerService.importGeoNames(file, admin1Names: admin1, store: store) {
                bytes, _ in
                bar.update(bytes)
            }
            bar.finish()
            if json {
                return try printJSON(
                    snakeCase: true,
                    Output(file: file, rows: outcome.rows, stored: outcome.stored, passedOver: outcome.passedOver))
            }
            print(
                "Stored \(outcome.stored) populated places from \(file)"
                    + (outcome.passedOver > 0 ? " (\(outcome.passedOver) other rows passed over)." : "."))
        }
    }

    struct Near: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "near", abstract: "The populated place nearest a position (within 50 km), from the gazetteer.")
        @Option(help: "Latitude, degrees (WGS-84).") var lat: Double
        @Option(help: "Longitude, degrees.") var lon: Double
        @Flag(
            help: """
                Print {"name", "admin1", "country", "country_name", "lat", "lon", "distance_m", "time_zone", \
                "population"}.
                """)
        var json = false
        @OptionGroup var storeOptions: StoreOptions

        struct Output: Encodable {
            let name: String
            let admin1: String
            let country: String
            let countryName: String
            let lat: Double
            let lon: Double
            let distanceM: Double
            let timeZone: String
            let population: Int64
        }

        func validate() throws {
            guard abs(lat) <= 90, abs(lon) <= 180 else {
                throw ValidationError(
                    "The position must be a latitude from -90 to 90 and a longitude from -180 to 180.")
            }
        }

        func run() async throws {
            let store = try storeOptions.open()
            guard try await store.read({ try $0.hasGazetteer() }) else {
                throw CommandFailure(
                    message: "The gazetteer of \(store.path) is empty; load one with trailbook geocoder import "
                        + "cities500.txt (from download.geonames.org/export/dump).",
                    code: .noInput)
            }
            let nearest = try await store.read { tx in
                var lookup = GazetteerLookup(store: tx)
                return try lookup.nearest(Coordinate(latitude: lat, longitude: lon))
            }
            guard let (e, metres) = nearest else {
                throw CommandFailure(
                    message: "No populated place of the gazetteer lies within 50 km of \(lat), \(lon).", code: .failure)
            }
            let countryName = GazetteerService.countryName(e.country)
            if json {
                return try printJSON(
                    snakeCase: true,
                    Output(
                        name: e.name, admin1: e.admin1, country: e.country, countryName: countryName, lat: e.latitude,
                        lon: e.longitude, distanceM: (metres * 10).rounded() / 10, timeZone: e.zone,
                        population: e.population))
            }
            let distance = metres < 1000 ? "\(Int(metres.rounded())) m" : String(format: "%.1f km", metres / 1000)
            print(
                "\(e.name), \(e.admin1.isEmpty ? "" : e.admin1 + ", ")\(countryName) · \(distance) away"
                    + (e.zone.isEmpty ? "" : " · \(e.zone)"))
        }
    }
}
