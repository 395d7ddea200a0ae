import GPSCore
import Testing

@testable import Formats

/// Dawarich's account export read in pieces of any size: the points and visits of both layouts
/// (fields as Freika/dawarich app/services/users/export_data/points.rb @0a42eb1b and visits.rb
/// @3e475d8f write them; the JSON Lines months of import_data/v2_handler.rb @3c8ea2d3).
@Suite struct DawarichExportTests {
    static let point1 =
        #"{"battery_status":"charging","battery":85,"timestamp":1781418600,"altitude":15.5,"velocity":"2.5","#
        + #""accuracy":5.0,"raw_data":{"lat":1,"timestamp":1},"inrids":["a"],"lonlat":"POINT(-74.006 40.7128)","#
        + #""longitude":-74.006,"latitude":40.7128,"visit_reference":{"name":"Work Visit"}}"#
    /// Written before the columns: `lonlat` alone, the other columns null.
    static let point2 =
        #"{"timestamp":1781418660,"altitude":null,"lonlat":"POINT(-73.9857 40.7484)","longitude":null,"latitude":null}"#
    static let noTime = #"{"timestamp":null,"lonlat":"POINT(-73.9 40.7)"}"#
    static let visit =
        #"{"started_at":"2026-06-14T08:00:00.000Z","ended_at":"2026-06-14T17:00:00.000Z","duration":32400,"#
        + #""name":"Work Visit","status":"suggested","place_reference":{"name":"Office Building","#
        + #""latitude":"40.7589","longitude":"-73.9851","source":"manual"}}"#
    static let declined = #"{"started_at":"2026-06-14T18:00:00Z","status":"declined","place_reference":null}"#

    static let dataJSON =
        #"{"counts":{"points":3,"visits":2},"settings":{"timezone":"UTC"},"areas":[{"name":"Home","latitude":"1","#
        + #""longitude":"2"}],"imports":[],"exports":[],"trips":[],"stats":[],"notifications":[],"points":["#
        + [point1, point2, noTime].joined(separator: ",") + #"],"visits":["# + [visit, declined].joined(separator: ",")
        + #"],"places":[{"name":"Office Building","latitude":"40.7589","longitude":"-73.9851"}]}"#
    static let monthOfPoints = [point1, point2, noTime].joined(separator: "\n") + "\n"
    static let monthOfVisits = visit + "\n\n" + declined + "\n"

    func read(_ text: String, chunk: Int) throws -> (fixes: [Fix], reader: DawarichExport.Reader) {
        let reader = DawarichExport.Reader()
        var fixes: [Fix] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            try Array(bytes[i..<min(i + chunk, bytes.count)]).withUnsafeBytes {
                try reader.feed($0) { fixes.append($0) }
            }
            i += chunk
        }
        try reader.finish { fixes.append($0) }
        return (fixes, reader)
    }

    @Test(arguments: [1, 7, 4096])
    func bothLayoutsReadTheSamePointsAndVisits(_ chunk: Int) throws {
        for (text, layout) in [(Self.dataJSON, "data.json"), (Self.monthOfPoints + Self.monthOfVisits, "jsonl")] {
            #expect(text.utf8.withContiguousStorageIfAvailable { DawarichExport.looksLikeDawarich(.init($0)) } == true)
            let (fixes, reader) = try read(text, chunk: chunk)
            #expect(fixes.count == 2, "\(layout)")
            #expect(fixes.first?.coordinate == Coordinate(latitude: 40.7128, longitude: -74.006), "\(layout)")
            #expect(fixes.first?.unixMilliseconds == 1_781_418_600_000)
            #expect(fixes.first?.speed == 2.5 && fixes.first?.altitudeMSL == 15.5)
            #expect(abs((fixes.first?.horizontalError ?? 0) - 5) < 1e-9)
            #expect(fixes.last?.coordinate == Coordinate(latitude: 40.7484, longitude: -73.9857), "\(layout)")
            #expect(fixes.last?.altitudeMSL == nil && fixes.last?.mode == .twoD)
            // The points, the visits, and in data.json an area (100 m where it says no radius) and a place.
            #expect(reader.elements == (layout == "data.json" ? 7 : 5))
            if layout == "data.json" {
                #expect(
                    reader.areas == [
                        .init(name: "Home", coordinate: Coordinate(latitude: 1, longitude: 2), radius: 100)
                    ])
                #expect(reader.places.map(\.name) == ["Office Building"])
            }
            #expect(reader.skipped == ["no time": 1, "visit declined": 1], "\(layout)")
            let visit = try #require(reader.visits.first)
            #expect(reader.visits.count == 1)
            #expect(visit.fix.coordinate == Coordinate(latitude: 40.7589, longitude: -73.9851))
            #expect(visit.fix.unixMilliseconds == 1_781_424_000_000)
            #expect(
                visit.fields.map { "\($0.key)=\($0.value)" } == [
                    "dawarich=visit", "name=Work Visit", "place=Office Building", "status=suggested",
                    "until=2026-06-14T17:00:00.000Z",
                ])
        }
    }

    /// The second layout's `areas.jsonl`, `places.jsonl` and `trips.jsonl`, each row as
    /// `as_json(except: %w[user_id id])` writes it (Freika/dawarich app/services/users/export_data/
    /// areas.rb and places.rb @dd246797, trips.rb @36e42643; columns as db/schema.rb @0038f721):
    /// each is told by its first line, an area without a radius is 100 m (import_data/areas.rb
    /// @031104cd), a trip is placed where its path begins and one without a path is counted.
    @Test func areasPlacesAndTripsOfTheSecondLayout() throws {
        let stamp = #""created_at":"2026-06-01T10:00:00.000Z","updated_at":"2026-06-01T10:00:00.000Z""#
        let areas =
            #"{"name":"Home","latitude":"47.376900","longitude":"8.541700","radius":75,"# + stamp + "}\n"
            + #"{"name":"Gym","latitude":"47.38","longitude":"8.55","radius":null,"# + stamp + "}\n"
        let places =
            #"{"name":"Café Henrici","longitude":"8.544","latitude":"47.372","city":"Zürich","country":"Switzerland","#
            + #""source":"photon","geodata":{},"reverse_geocoded_at":"2026-06-01T10:00:00.000Z","# + stamp
            + #","lonlat":"POINT(8.544 47.372)"}"# + "\n"
        let trips =
            #"{"name":"Lisbon","started_at":"2026-05-01T08:00:00.000Z","ended_at":"2026-05-05T20:00:00.000Z","#
            + #""distance":3120,"visited_countries":["Portugal"],"path":"LINESTRING (-9.1393 38.7223, -9.1427 38.7369)","#
            + stamp + "}\n"
            + #"{"name":"Draft","started_at":"2026-06-01T08:00:00.000Z","ended_at":"2026-06-02T08:00:00.000Z","#
            + #""distance":0,"path":null,"# + stamp + "}\n"
        for text in [areas, places, trips] {
            #expect(text.utf8.withContiguousStorageIfAvailable { DawarichExport.looksLikeDawarich(.init($0)) } == true)
        }
        let (_, a) = try read(areas, chunk: 5)
        #expect(
            a.areas == [
                .init(name: "Home", coordinate: Coordinate(latitude: 47.3769, longitude: 8.5417), radius: 75),
                .init(name: "Gym", coordinate: Coordinate(latitude: 47.38, longitude: 8.55), radius: 100),
            ])
        let (_, p) = try read(places, chunk: 5)
        #expect(p.places == [.init(name: "Café Henrici", coordinate: Coordinate(latitude: 47.372, longitude: 8.544))])
        let (fixes, t) = try read(trips, chunk: 5)
        #expect(fixes.isEmpty && t.trips.count == 1)
        #expect(t.trips.first?.fix.coordinate == Coordinate(latitude: 38.7223, longitude: -9.1393))
        #expect(t.trips.first?.fix.unixMilliseconds == 1_777_622_400_000)
        #expect(
            t.trips.first?.fields.map { "\($0.key)=\($0.value)" } == [
                "dawarich=trip", "name=Lisbon", "until=2026-05-05T20:00:00.000Z", "end_latitude=38.7369",
                "end_longitude=-9.1427",
            ])
        #expect(t.skipped == ["trip without a path": 1])
    }

    /// The manifest and other JSON are not taken for points; a month cut inside a line is an error.
    @Test func otherJSONIsNotDawarichAndACutMonthFails() throws {
        let manifest = #"{"counts":{"points":3},"format_version":2,"dawarich_version":"0.37.0","files":{"points":[]}}"#
        for text in [manifest, #"{"type":"FeatureCollection","features":[]}"#, #"{"lat":1,"lon":2,"timestamp":3}"#] {
            #expect(text.utf8.withContiguousStorageIfAvailable { DawarichExport.looksLikeDawarich(.init($0)) } == false)
        }
        #expect(throws: JSONScanner.Failure.self) { try read(Self.point1 + "\n" + Self.point2.dropLast(9), chunk: 7) }
    }
}
