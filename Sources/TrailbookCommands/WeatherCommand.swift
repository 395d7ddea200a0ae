import ArgumentParser
import Foundation
import TrackModel
import TrailbookKit

/// `trailbook weather import FILE`: a weather station's or service's export onto the records.
struct WeatherCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "weather", abstract: "Put weather readings on records.", subcommands: [Import.self])

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Read a weather CSV and give every record in its span the readings at its time.",
            discussion: """
                The CSV has a header line with a time column (time, date, timestamp or datetime: ISO 8601, or \
                local YYYY-MM-DD HH:MM[:SS] in the time zone) and any of temperature_c, pressure_hpa, \
                wind_speed_ms, wind_dir_deg (where the wind comes from), cloud_pct. Values are interpolated \
                linearly to each record's time between readings at most 3 h apart; the pressure trend is the \
                change over the 3 hours before (rising or falling beyond 1 hPa, else steady). The values are \
                stored with source "imported" (docs/CONDITIONS.md). The readings are kept in the store: a \
                record marked later within them gets them too, and suggest bins the time out there by them. \
                Importing a file again replaces readings at the same times. A bad line is exit 65 with file and line; \
                nothing is written then.
                """)
        @Argument(help: "The CSV file.") var file: String
        @Flag(help: "Show what each record would get; write nothing.") var dryRun = false
        @Flag(
            help:
                "Print {\"readings\", \"new_readings\", \"from\", \"to\", \"dry_run\", \"records\": [{\"id\", \"conditions\"}]}."
        )
        var json = false
        @OptionGroup var accountOptions: AccountOptions
        @OptionGroup var storeOptions: StoreOptions
        @OptionGroup var zoneOptions: ZoneOptions

        struct Output: Encodable {
            struct Record: Encodable {
                let id: Int64
                let conditions: RecordJSON.ConditionsObject
            }
            let readings: Int
            let newReadings: Int
            let from: String
            let to: String
            let dryRun: Bool
            let records: [Record]
        }

        func run() async throws {
            let store = try storeOptions.open()
            let service = WeatherImportService(
                store: store, zone: try zoneOptions.zone(), account: try await accountOptions.account(in: store))
            let outcome = try await service.importFile(file, dryRun: dryRun)
            if json {
                return try printJSON(
                    snakeCase: true,
                    Output(
                        readings: outcome.readings, newReadings: outcome.newReadings,
                        from: LocalTime.utc(outcome.first), to: LocalTime.utc(outcome.last),
                        dryRun: dryRun,
                        records: outcome.records.map { .init(id: $0.id, conditions: .init(values: $0.values)) }))
            }
            let zone = service.zone
            print(
                "Read \(outcome.readings) readings from \(LocalTime.format(outcome.first, zone: zone)) "
                    + "to \(LocalTime.format(outcome.last, zone: zone))"
                    + (dryRun ? "." : "; \(outcome.newReadings) new to the store."))
            for (id, values) in outcome.records {
                print("record \(id): \(ConditionsWords.line(values) ?? "")")
            }
            let verb = dryRun ? "would get" : "got"
            print(
                outcome.records.isEmpty
                    ? "No record lies within the readings."
                    : "\(outcome.records.count) record\(outcome.records.count == 1 ? "" : "s") \(verb) weather.")
        }
    }
}
