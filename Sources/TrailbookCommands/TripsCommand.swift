import ArgumentParser
import Foundation
import TrailbookKit

/// `trailbook trips`: the journeys away from home, found from the timeline.
struct TripsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trips",
        abstract:
            "List the trips away from home: each time away that held a night elsewhere or went 100 km or farther.",
        discussion: """
            Found from the whole timeline (the kept stays and moves, your edits applied), from the place the \
            timeline suggests as home; named by the places it stayed at (their towns where a gazetteer is loaded). \
            Newest first.
            """)
    @Flag(
        help: """
            Print {"home", "trips": [{"number", "name", "start", "end", "ongoing", "days", "nights", "places", \
            "countries", "distance_m_by_mode", "farthest_km"}]}, oldest first.
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
        let report = try await TripsReport.load(
            store: store, devices: filter, rules: config.pipeline.visits, zone: config.timeZone)
        if json { return try printJSON(report) }
        for line in report.lines { print(line) }
    }
}
