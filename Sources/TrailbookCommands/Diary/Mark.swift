import ArgumentParser
import Foundation
import GPSCore
import TrackModel
import TrackStore
import TrailbookKit

/// `trailbook mark`: add a location record by hand.
struct Mark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark",
        abstract: "Add a location record: here and now, or at a time and place, with a note, photos and fields.",
        discussion: """
            Without --lat/--lon the record takes the position of the stored fix at --at: by default \
            now, which needs a fix stored within --max-age seconds (from a running trailbook record); \
            with --at TIME, the stored fix nearest that time within --within seconds. TIME is \(LocalTime.accepted); \
            local times are in the configured time zone.
            """)

    @Option(help: ArgumentHelp("When: \(LocalTime.accepted).", valueName: "time"))
    var at: String?

    @Option(help: ArgumentHelp("Latitude in decimal degrees (with --lon).", valueName: "degrees"))
    var lat: Double?

    @Option(help: ArgumentHelp("Longitude in decimal degrees (with --lat).", valueName: "degrees"))
    var lon: Double?

    @Option(help: ArgumentHelp("Altitude in metres (with --lat/--lon).", valueName: "metres"))
    var alt: Double?

    @Option(help: "A note to attach.")
    var note: String?

    @Option(help: ArgumentHelp("A JPEG photo to attach (repeat for more).", valueName: "file"))
    var photo: [String] = []

    @Option(help: ArgumentHelp("A field to set (repeat for more); numbers stay numbers.", valueName: "key=value"))
    var field: [String] = []
    @Option(
        help: ArgumentHelp(
            "A condition you observed, e.g. weather.pressure_hpa=1009 (repeat for more; stored with source user).",
            valueName: "key=value"))
    var condition: [String] = []

    @Option(
        help: ArgumentHelp(
            "A record kind declared in the config ([kinds.NAME]): its fields are checked, nothing is stored when one does not fit.",
            valueName: "name"))
    var kind: String?

    @Option(help: ArgumentHelp("Without --at: how old the latest fix may be.", valueName: "seconds"))
    var maxAge: Double = 120

    @Option(help: ArgumentHelp("With --at: how far from TIME the stored fix may be.", valueName: "seconds"))
    var within: Double = 60

    @Flag(help: "Print the new record as JSON (with its id).")
    var json = false

    @OptionGroup var accountOptions: AccountOptions
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func validate() throws {
        if (lat == nil) != (lon == nil) { throw ValidationError("Give --lat and --lon together.") }
        if let lat, !(lat.isFinite && abs(lat) <= 90) {
            throw ValidationError("--lat must be between -90 and 90 degrees.")
        }
        if let lon, !(lon.isFinite && abs(lon) <= 180) {
            throw ValidationError("--lon must be between -180 and 180 degrees.")
        }
        if alt != nil && lat == nil { throw ValidationError("--alt goes with --lat and --lon.") }
        if !(maxAge > 0) { throw ValidationError("--max-age must be a positive number of seconds.") }
        if !(within > 0) { throw ValidationError("--within must be a positive number of seconds.") }
    }

    func run() async throws {
        let zone = try zoneOptions.zone()
        let kind = try kind.map { try zoneOptions.kind($0) }
        let at = try self.at.map { try LocalTime.require($0, option: "--at", zone: zone) }
        let fields = try field.map { try FieldArgument.parse($0, option: "--field") }
        let observed = try condition.map { try FieldArgument.parse($0, option: "--condition") }.map {
            ConditionValue(key: $0.key, value: $0.value, source: .user)
        }
        let photos = try await Blocking.runOnConsole { [photo] in try photo.map(PhotoFile.init) }
        let store = try await storeOptions.openedOrCreated()
        let placement: DiaryService.Placement
        if let lat, let lon {
            placement = .given(Coordinate(latitude: lat, longitude: lon), altitude: alt, time: at)
        } else if let at {
            placement = .storedFix(time: at, within: within)
        } else {
            placement = .latest(maxAge: maxAge)
        }
        let diary = try await accountOptions.diary(store, zone: zone, tide: try zoneOptions.tide())
        let record = try await diary.mark(
            placement, note: note, fields: fields, photos: photos, kind: kind, conditions: observed)
        if json {
            try printJSON(RecordJSON(record, store: store, zone: zone))
        } else {
            print(RecordText.lines(record, zone: zone, store: store).joined(separator: "\n"))
        }
    }
}
