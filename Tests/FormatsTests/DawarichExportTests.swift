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
            #expect(reader.elements == 5)
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

    /// The manifest and other JSON are not taken for points; a month cut inside a line is an error.
    @Test func otherJSONIsNotDawarichAndACutMonthFails() throws {
        let manifest = #"{"counts":{"points":3},"format_version":2,"dawarich_version":"0.37.0","files":{"points":[]}}"#
        for text in [manifest, #"{"type":"FeatureCollection","features":[]}"#, #"{"lat":1,"lon":2,"timestamp":3}"#] {
            #expect(text.utf8.withContiguousStorageIfAvailable { DawarichExport.looksLikeDawarich(.init($0)) } == false)
        }
        #expect(throws: JSONScanner.Failure.self) { try read(Self.point1 + "\n" + Self.point2.dropLast(9), chunk: 7) }
    }
}
