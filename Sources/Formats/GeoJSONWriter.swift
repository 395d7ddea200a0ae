import GPSCore

/// GeoJSON (RFC 7946): a FeatureCollection with a MultiLineString feature per ride (a line per
/// segment, positions `[lon, lat, alt]`, the times in `properties.times`), a Point feature (kind
/// "ride", with its `time`) for each segment of a single point, and a Point feature per place.
public enum GeoJSONWriter {
    public static func write(_ export: TrackExport) -> String {
        var features: [String] = []
        for p in export.places {
            var props = [
                "\"kind\":\"record\"", "\"id\":\(p.id)", "\"name\":\(Exchange.json(p.name))",
                "\"time\":\(Exchange.json(Exchange.time(p.milliseconds)))",
                "\"notes\":[\(p.notes.map(Exchange.json).joined(separator: ","))]",
                "\"photos\":[\(p.photos.map(Exchange.json).joined(separator: ","))]",
            ]
            props.append(
                "\"fields\":{\(p.fields.map { "\(Exchange.json($0.key)):\(Exchange.json($0.value))" }.joined(separator: ","))}"
            )
            features.append(
                "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(position(p.coordinate, p.altitude))},"
                    + "\"properties\":{\(props.joined(separator: ","))}}")
        }
        for ride in export.rides {
            // A line needs two positions (RFC 7946 §3.1.4): a segment of one point is a Point.
            let lines = ride.segments.filter { $0.count >= 2 }
            if !lines.isEmpty {
                let coordinates = lines.map { segment in
                    "[" + segment.map { position($0.coordinate!, $0.altitudeMSL) }.joined(separator: ",") + "]"
                }
                let times = lines.map { segment in
                    "[" + segment.map { Exchange.json(Exchange.time($0.unixMilliseconds!)) }.joined(separator: ",")
                        + "]"
                }
                features.append(
                    "{\"type\":\"Feature\",\"geometry\":{\"type\":\"MultiLineString\",\"coordinates\":[\(coordinates.joined(separator: ","))]},"
                        + "\"properties\":{\"kind\":\"ride\",\"ride\":\(ride.id),\"times\":[\(times.joined(separator: ","))]}}"
                )
            }
            for segment in ride.segments where segment.count == 1 {
                let f = segment[0]
                features.append(
                    "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(position(f.coordinate!, f.altitudeMSL))},"
                        + "\"properties\":{\"kind\":\"ride\",\"ride\":\(ride.id),"
                        + "\"time\":\(Exchange.json(Exchange.time(f.unixMilliseconds!)))}}")
            }
        }
        return "{\"type\":\"FeatureCollection\",\"name\":\(Exchange.json(export.name)),\"features\":[\n"
            + features.joined(separator: ",\n") + "\n]}\n"
    }

    static func position(_ c: Coordinate, _ altitude: Double?) -> String {
        "[\(Exchange.degrees(c.longitude)),\(Exchange.degrees(c.latitude))"
            + (altitude.map { ",\(Exchange.metres($0))" } ?? "")
            + "]"
    }
}

/// KML 2.2 for Google Earth: a Placemark per ride (a `gx:MultiTrack` with a `gx:Track` per
/// segment, each position with its `<when>`, so `import` reads the file back whole) and per place
/// (a Point with its `<TimeStamp>`, style `#record`).
public enum KMLWriter {
    public static func write(_ export: TrackExport) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
            <Document>
              <name>\(Exchange.xml(export.name))</name>
              <Style id="ride"><LineStyle><color>ff1e64dc</color><width>3</width></LineStyle></Style>
              <Style id="record"><IconStyle><scale>0.8</scale></IconStyle></Style>

            """
        // KML carries no fields: the stays and moves of days (field `trailbook`) would come back as notes.
        for p in export.places where !p.fields.contains(where: { $0.key == "trailbook" }) {
            out += "  <Placemark>\n    <name>\(Exchange.xml(p.name))</name>\n    <styleUrl>#record</styleUrl>\n"
            out += "    <TimeStamp><when>\(Exchange.time(p.milliseconds))</when></TimeStamp>\n"
            if !p.description.isEmpty || !p.photos.isEmpty {
                let photos = p.photos.map { "\n\($0)" }.joined()
                out += "    <description>\(Exchange.xml(p.description + photos))</description>\n"
            }
            out +=
                "    <Point><coordinates>\(coordinate(p.coordinate, p.altitude))</coordinates></Point>\n  </Placemark>\n"
        }
        for ride in export.rides {
            out += "  <Placemark>\n    <name>ride \(ride.id)</name>\n    <styleUrl>#ride</styleUrl>\n"
            if let first = ride.segments.first?.first, let last = ride.segments.last?.last {
                out +=
                    "    <TimeSpan><begin>\(Exchange.time(first.unixMilliseconds!))</begin>"
                    + "<end>\(Exchange.time(last.unixMilliseconds!))</end></TimeSpan>\n"
            }
            out += "    <gx:MultiTrack>\n"
            for segment in ride.segments {
                out += "      <gx:Track>\n"
                for f in segment { out += "        <when>\(Exchange.time(f.unixMilliseconds!))</when>\n" }
                for f in segment {
                    let c = f.coordinate!
                    out += "        <gx:coord>\(Exchange.degrees(c.longitude)) \(Exchange.degrees(c.latitude))"
                    out += (f.altitudeMSL.map { " \(Exchange.metres($0))" } ?? "") + "</gx:coord>\n"
                }
                out += "      </gx:Track>\n"
            }
            out += "    </gx:MultiTrack>\n  </Placemark>\n"
        }
        return out + "</Document>\n</kml>\n"
    }

    static func coordinate(_ c: Coordinate, _ altitude: Double?) -> String {
        "\(Exchange.degrees(c.longitude)),\(Exchange.degrees(c.latitude))"
            + (altitude.map { ",\(Exchange.metres($0))" } ?? "")
    }
}
