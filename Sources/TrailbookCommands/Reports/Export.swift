import ArgumentParser
import Formats
import Foundation
import GPSCore
import Reports
import TrackStore
import TrailbookKit

/// `trailbook export`: rides and records as GPX, GeoJSON, KML, CSV or the JSON track format.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export rides (and the day's records) as GPX 1.1, GeoJSON, KML, CSV or JSON.",
        discussion: """
            gpx: GPX 1.1, a trk per ride with a trkseg per segment, a wpt per record named by its name \
            field or its note's first line, its notes as the description, a link per photo and its \
            fields as extensions. geojson: RFC 7946, a MultiLineString per \
            ride, a Point per record. kml: KML 2.2 for Google Earth, a gx:Track per segment with its \
            times. csv: the columns of trailbook points, then kind, note and fields: a row per record \
            (kind record, its notes, its fields as key=value lines). json: {name, link, time, segments: [{coords: [{latitude, longitude, altitude, time}]}], \
            distance, feetClimbed} (distance in metres, climb in feet). Written to -o FILE (under a \
            temporary name, renamed when complete) or standard output.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case gpx, geojson, kml, csv, json }

    @Option(help: "A ride's id.")
    var ride: Int64?

    @OptionGroup var days: DayRangeOptions

    @Option(help: "gpx, geojson, kml, csv or json.")
    var format: Format

    @Option(name: .shortAndLong, help: ArgumentHelp("Write here instead of standard output.", valueName: "file"))
    var output: String?

    @OptionGroup var devices: DeviceOptions
    @Option(
        help:
            "The rides of this account (a server's user, whose phones post to trailbook serve); default: this store's own."
    )
    var user: String?
    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var zoneOptions: ZoneOptions

    func validate() throws {
        if (ride == nil) == !days.isSet { throw ValidationError("Give --ride ID, or --day D (or --from D --to D).") }
    }

    func run() async throws {
        let config = try zoneOptions.loaded()
        let zone = config.timeZone
        let store = try storeOptions.open()
        let filter = try await devices.filter(store, account: user)
        let selection = try await RideSelection.loadNamingNearest(
            days.scope(ride: ride, zone: zone), store: store, zone: zone, devices: filter, fused: false)
        // Days carry their stays and moves (docs/TIMELINE.md, "Exports"); a ride is itself.
        let export = try await selection.export(
            store: store, records: ride == nil, account: user,
            timeline: ride == nil ? TimelinePlaces(rules: config.pipeline.visits, devices: filter, zone: zone) : nil)
        let file = try OutputFile(path: output, suffix: format.rawValue)
        var out = OutputBuffer(fd: file.fd)
        switch format {
        case .gpx: out.append(GPXWriter.write(export))
        case .geojson: out.append(GeoJSONWriter.write(export))
        case .kml: out.append(KMLWriter.write(export))
        case .json:
            let stats = RideStatistics.total(selection.rides.map { RideStatistics.compute($0.points) })
            out.append(try JSONTrack.write(export, distance: stats.distance, climb: stats.climb))
        case .csv:
            // The points' columns, then a row per record (`kind` record, its notes and fields).
            out.appendCSVHeader(extra: ["ride", "segment"] + SensorColumns.names + ["kind", "note", "fields"])
            for (ride, points) in selection.rides {
                for p in points {
                    out.appendCSVRow(
                        p.fix, extra: [Int(ride.id), Int(p.segment)] + SensorColumns.values(p.fix.sensors),
                        text: SensorColumns.texts(p.fix.sensors) + [nil, nil, nil])
                    try out.flushIfFull()
                }
            }
            for place in export.places {
                var fix = Fix()
                fix.coordinate = place.coordinate
                fix.altitudeMSL = place.altitude
                fix.mode = place.altitude == nil ? .twoD : .threeD
                UTCTimestamp.set(place.milliseconds, on: &fix)
                out.appendCSVRow(
                    fix, extra: [nil, nil] + SensorColumns.values(nil),
                    text: SensorColumns.texts(nil) + [
                        "record", place.notes.isEmpty ? nil : place.notes.joined(separator: "\n\n"),
                        place.fields.isEmpty ? nil : TrackExport.fieldLines(place.fields),
                    ])
            }
        }
        try out.flush()
        try file.commit()
    }

}
