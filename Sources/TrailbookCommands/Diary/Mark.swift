import ArgumentParser
import Foundation
import GPSCore
import TrackStore

/// `trailbook mark`: add a location record by hand.
struct Mark: ParsableCommand {
    static let configuration = CommandConfiguration(
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

    @Option(help: ArgumentHelp("Without --at: how old the latest fix may be.", valueName: "seconds"))
    var maxAge: Double = 120

    @Option(help: ArgumentHelp("With --at: how far from TIME the stored fix may be.", valueName: "seconds"))
    var within: Double = 60

    @Flag(help: "Print the new record as JSON (with its id).")
    var json = false

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
    }

    func run() throws {
        let zone = try zoneOptions.zone()
        let at = try self.at.map { try LocalTime.require($0, option: "--at", zone: zone) }
        let fields = try field.map(FieldArgument.parse)
        let photos = try photo.map(PhotoInput.init)
        let store = try storeOptions.open()
        var time: Int64
        var coordinate: Coordinate
        var altitude = alt
        if let lat, let lon {
            time = at ?? UTCTimestamp.now()
            coordinate = Coordinate(latitude: lat, longitude: lon)
        } else if let at {
            guard let fix = try store.nearestPoint(to: at, within: Int64(within * 1000)) else {
                throw CommandFailure(
                    message: "No stored fix lies within \(Int(within)) s of \(LocalTime.format(at, zone: zone)); "
                        + "give the place with --lat and --lon (or a wider --within).",
                    code: .dataError)
            }
            time = at
            coordinate = fix.coordinate!
            altitude = fix.altitudeMSL
        } else {
            let now = UTCTimestamp.now()
            guard let fix = try store.latestPoint(), now - fix.unixMilliseconds! <= Int64(maxAge * 1000) else {
                throw CommandFailure(
                    message: "There is no recent fix (none stored in the last \(Int(maxAge)) s); "
                        + "give the place with --lat and --lon, or a past time with --at.",
                    code: .dataError)
            }
            time = fix.unixMilliseconds!
            coordinate = fix.coordinate!
            altitude = fix.altitudeMSL
        }
        let stored = try store.storePhotos(photos, zone: zone)
        let id: Int64
        do {
            id = try store.addRecord(
                milliseconds: time, coordinate: coordinate, altitude: altitude, notes: note.map { [$0] } ?? [],
                fields: fields, photos: stored)
        } catch {
            store.discardUnattached(stored)
            throw error
        }
        let record = try store.record(id)!
        if json {
            try printJSON(RecordJSON(record, store: store, zone: zone))
        } else {
            print(RecordText.lines(record, zone: zone, store: store).joined(separator: "\n"))
        }
    }
}
