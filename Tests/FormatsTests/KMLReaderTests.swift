import Foundation
import GPSCore
import Testing

@testable import Formats

/// KML paths: every vertex of a line in its span, each at its own time.
@Suite struct KMLReaderTests {
    /// Traccar's KML export (traccar/traccar src/main/java/org/traccar/reports/KmlExportProvider.java
    /// @7ae819e8): one Placemark named by the range asked for, `yyyy-MM-dd HH:mm - yyyy-MM-dd HH:mm`
    /// in the server's zone, and a LineString (`extrude`, `tessellate`, `altitudeMode` absolute) of
    /// every position as `%f,%f,%f`, a space between them. A device parked writes its position
    /// again: those vertices are time spent there, not duplicates. Read as Dawarich reads it
    /// (Freika/dawarich spec/fixtures/files/kml/traccar_linestring.kml @380613a9: the vertices
    /// spread evenly over the named range, in the owner's zone).
    @Test(arguments: [1, 13, 4096])
    func traccarLineIsEveryVertexOverItsNamedRange(_ chunk: Int) throws {
        let kml = """
            <?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>\
            <name>Ana's bike</name><Placemark><name>2026-05-23 16:55 - 2026-05-23 16:57</name><LineString>\
            <extrude>1</extrude><tessellate>1</tessellate><altitudeMode>absolute</altitudeMode><coordinates>\
            13.404954,52.520008,35.000000 13.405315,52.520171,36.000000 13.405315,52.520171,36.000000 \
            13.405781,52.520409,37.000000 13.404954,52.520008,35.000000</coordinates></LineString></Placemark>\
            </Document></kml>
            """
        let reader = KMLReader()
        reader.zone = TimeZone(identifier: "Europe/Berlin")!
        let items = try readAll(reader, kml, chunk: chunk)
        // 16:55 to 16:57 in Berlin (summer time) is 14:55 to 14:57 UTC: 30 s a vertex.
        let start = seconds("2026-05-23T14:55:00Z")
        #expect(items.seconds == [start, start + 30, start + 60, start + 90, start + 120])
        #expect(items.fixes.map { $0.coordinate?.latitude } == [52.520008, 52.520171, 52.520171, 52.520409, 52.520008])
        #expect(items.fixes.map(\.altitudeMSL) == [35, 36, 36, 37, 35])
        #expect(reader.elements == 5)
        #expect(reader.skipped.isEmpty, "\(reader.skipped)")

        // Without a zone, the names' times are UTC; a name that is no range leaves the line untimed.
        let utc = try readAll(KMLReader(), kml, chunk: chunk)
        #expect(utc.seconds.first == seconds("2026-05-23T16:55:00Z"))
        let other = KMLReader()
        #expect(try readAll(other, kml.replacingOccurrences(of: " - 2026", with: " to 2026")).fixes.isEmpty)
        #expect(other.skipped == ["no time": 5])
    }

    /// A path under a `<TimeSpan>` (KML 2.2 §9.15; a `MultiGeometry` of lines is one track of
    /// segments): every vertex, spread evenly over the span, a position written twice in a row
    /// included. A move of Google's Timeline (its `Category` data) keeps its own reading: timed by
    /// the distance along it, its doubled first position once.
    @Test func pathUnderATimeSpanKeepsEveryVertex() throws {
        let kml = """
            <kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>Walk</name>
            <TimeSpan><begin>2026-06-14T08:00:00Z</begin><end>2026-06-14T08:50:00Z</end></TimeSpan>
            <MultiGeometry><LineString><coordinates>8.54,47.37,0 8.54,47.38,0 8.54,47.38,0 8.54,47.39,0
            </coordinates></LineString><LineString><coordinates>8.54,47.39,0 8.54,47.37,0</coordinates></LineString>
            </MultiGeometry></Placemark>
            <Placemark><name>Driving</name><ExtendedData><Data name="Category"><value>Driving</value></Data>
            </ExtendedData><TimeSpan><begin>2026-06-14T09:00:00Z</begin><end>2026-06-14T09:30:00Z</end></TimeSpan>
            <LineString><coordinates>8.54,47.37,0 8.54,47.37,0 8.54,47.38,0 8.54,47.40,0</coordinates></LineString>
            </Placemark></Document></kml>
            """
        let reader = KMLReader()
        let items = try readAll(reader, kml, chunk: 7)
        let walk = seconds("2026-06-14T08:00:00Z")
        let drive = seconds("2026-06-14T09:00:00Z")
        #expect(
            items.seconds == [walk, walk + 600, walk + 1200, walk + 1800, walk + 2400, walk + 3000]
                + [drive, drive + 600, drive + 1800])
        #expect(items.fixes.prefix(6).map { $0.coordinate?.latitude } == [47.37, 47.38, 47.38, 47.39, 47.39, 47.37])
        #expect(items.filter { $0 == .segment }.count == 1)
        #expect(reader.elements == 10)
        #expect(reader.skipped == ["repeated position": 1], "\(reader.skipped)")
    }
}
