import GPSCore

/// GPX 1.1 (valid against the TopoGrafix schema): a `wpt` per place with its notes as the
/// description, a `link` per photo and its fields as `<trailbook:field key="...">` extensions,
/// a `trk` per ride with a `trkseg` per segment. A place's `<name>` is ``TrackExport/Place/name``
/// (its field `name`, else its note's first line). Speed (m/s) and course (degrees true) go in
/// Garmin's TrackPointExtension v2, which GPX 1.1 has no element for and which Garmin,
/// GPSBabel and most readers understand.
public enum GPXWriter {
    /// The namespace of Garmin's TrackPointExtension, version 2.
    public static let trackPointExtension = "http://www.garmin.com/xmlschemas/TrackPointExtension/v2"
    /// The namespace of Trailbook's fields on waypoints (an identifier; nothing is fetched).
    public static let fieldsExtension = "https://trailbook.invalid/xmlschemas/fields/v1"

    public static func write(_ export: TrackExport, creator: String = "Trailbook") -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="\(Exchange.xml(creator))" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="\(trackPointExtension)" xmlns:trailbook="\(fieldsExtension)" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
            xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">

            """
        out += "  <metadata>\n    <name>\(Exchange.xml(export.name))</name>\n"
        let fixes = export.allFixes
        let lats = fixes.map { $0.coordinate!.latitude } + export.places.map(\.coordinate.latitude)
        let lons = fixes.map { $0.coordinate!.longitude } + export.places.map(\.coordinate.longitude)
        if let s = lats.min(), let n = lats.max(), let w = lons.min(), let e = lons.max() {
            out +=
                "    <bounds minlat=\"\(Exchange.degrees(s))\" minlon=\"\(Exchange.degrees(w))\" "
                + "maxlat=\"\(Exchange.degrees(n))\" maxlon=\"\(Exchange.degrees(e))\"/>\n"
        }
        out += "  </metadata>\n"
        for p in export.places {
            out +=
                "  <wpt lat=\"\(Exchange.degrees(p.coordinate.latitude))\" lon=\"\(Exchange.degrees(p.coordinate.longitude))\">\n"
            if let alt = p.altitude { out += "    <ele>\(Exchange.metres(alt))</ele>\n" }
            out += "    <time>\(Exchange.time(p.milliseconds))</time>\n"
            out += "    <name>\(Exchange.xml(p.name))</name>\n"
            if !p.notes.isEmpty { out += "    <desc>\(Exchange.xml(p.notes.joined(separator: "\n\n")))</desc>\n" }
            for photo in p.photos {
                out += "    <link href=\"\(Exchange.xml(photo))\"><text>photo</text><type>image/jpeg</type></link>\n"
            }
            let fields = p.fields.filter { $0.key != "name" }
            if !fields.isEmpty {
                out += "    <extensions>\n"
                for f in fields {
                    out +=
                        "      <trailbook:field key=\"\(Exchange.xml(f.key))\">\(Exchange.xml(f.value))</trailbook:field>\n"
                }
                out += "    </extensions>\n"
            }
            out += "  </wpt>\n"
        }
        out.reserveCapacity(out.utf8.count + fixes.count * 120)
        for ride in export.rides {
            out += "  <trk>\n    <name>ride \(ride.id)</name>\n"
            for segment in ride.segments {
                out += "    <trkseg>\n"
                for f in segment {
                    let c = f.coordinate!
                    out +=
                        "      <trkpt lat=\"\(Exchange.degrees(c.latitude))\" lon=\"\(Exchange.degrees(c.longitude))\">"
                    if let alt = f.altitudeMSL { out += "<ele>\(Exchange.metres(alt))</ele>" }
                    out += "<time>\(Exchange.time(f.unixMilliseconds!))</time>"
                    switch f.mode {
                    case .twoD: out += "<fix>2d</fix>"
                    case .threeD: out += "<fix>3d</fix>"
                    default: break
                    }
                    if let sats = f.satellitesUsed { out += "<sat>\(sats)</sat>" }
                    if let h = f.hdop { out += "<hdop>\(Exchange.metres(h))</hdop>" }
                    let s = f.sensors
                    if f.speed != nil || f.track != nil || s?.temperature != nil || s?.heartRate != nil
                        || s?.cadence != nil
                    {
                        // In the order of the TrackPointExtension v2 schema; it has no power.
                        out += "<extensions><gpxtpx:TrackPointExtension>"
                        if let v = s?.temperature { out += "<gpxtpx:atemp>\(v)</gpxtpx:atemp>" }
                        if let v = s?.heartRate { out += "<gpxtpx:hr>\(v)</gpxtpx:hr>" }
                        if let v = s?.cadence { out += "<gpxtpx:cad>\(v)</gpxtpx:cad>" }
                        if let v = f.speed { out += "<gpxtpx:speed>\(Exchange.metres(v))</gpxtpx:speed>" }
                        if let v = f.track { out += "<gpxtpx:course>\(Exchange.metres(v))</gpxtpx:course>" }
                        out += "</gpxtpx:TrackPointExtension></extensions>"
                    }
                    out += "</trkpt>\n"
                }
                out += "    </trkseg>\n"
            }
            out += "  </trk>\n"
        }
        return out + "</gpx>\n"
    }
}
