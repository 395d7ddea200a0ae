import GPSCore
import Testing

@testable import Formats

/// GeoJSON times in the places other tools put them.
@Suite struct GeoJSONReaderTests {
    /// A point timed by its `date` (Google Takeout's GeoJSON, as in Freika/dawarich
    /// spec/fixtures/files/geojson/google_takeout_example.json @b135ee7c); a `MultiPoint` whose
    /// positions are timed by `coordTimes` (as toGeoJSON writes lines' times); positions whose
    /// fourth value is their Unix time (read so by Freika/dawarich app/services/geojson/params.rb
    /// @114a4b81), in a Point and in a line.
    @Test(arguments: [1, 11, 4096])
    func datesCoordTimesAndTimesInThePositions(_ chunk: Int) throws {
        let geojson = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","geometry":{"type":"Point","coordinates":[28,36]},
             "properties":{"date":"2016-06-21T06:09:33Z"}},
            {"type":"Feature","properties":{"coordTimes":["2016-06-21T07:00:00Z","2016-06-21T07:01:00Z"]},
             "geometry":{"type":"MultiPoint","coordinates":[[28.001,36.001],[28.002,36.002]]}},
            {"type":"Feature","geometry":{"type":"Point","coordinates":[28.01,36.01,12,1466496000]},"properties":{}},
            {"type":"Feature","geometry":{"type":"LineString","coordinates":
             [[28.02,36.02,14,1466499600],[28.03,36.03,15,1466499660000]]},"properties":{}},
            {"type":"Feature","geometry":{"type":"LineString","coordinates":[[28.04,36.04,16,0],[28.05,36.05,17,12.5]]},
             "properties":{}}
            ]}
            """
        let reader = GeoJSONReader()
        let items = try readAll(reader, geojson, chunk: chunk)
        #expect(
            items.seconds == [
                seconds("2016-06-21T06:09:33Z"), seconds("2016-06-21T07:00:00Z"), seconds("2016-06-21T07:01:00Z"),
                1_466_496_000, 1_466_499_600, 1_466_499_660,
            ])
        #expect(items.fixes[1].coordinate == Coordinate(latitude: 36.001, longitude: 28.001))
        #expect(items.fixes[3].altitudeMSL == 12)
        // A line whose fourth values are measures along it (0, 12.5 m) has no times.
        #expect(reader.elements == 8 && reader.skipped == ["no time": 2], "\(reader.skipped)")
    }
}
