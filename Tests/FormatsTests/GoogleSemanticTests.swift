import GPSCore
import Testing

@testable import Formats

/// The Semantic Location History in the shapes Dawarich's importer specs name (Freika/dawarich
/// spec/fixtures/files/google/location-history/*.json and google/semantic_history.json, read as
/// app/services/google_maps/semantic_history_importer.rb @ed3bb4fb reads them): what Dawarich
/// keeps as a point is kept here as the visit or the move it is.
@Suite struct GoogleSemanticTests {
    func read(_ text: String, chunk: Int = 4096) throws -> (
        records: [GoogleTimeline.Record], fixes: [Fix], reader: GoogleTimeline.Reader
    ) {
        let reader = GoogleTimeline.Reader()
        var records: [GoogleTimeline.Record] = []
        var fixes: [Fix] = []
        func take(_ item: GoogleTimeline.Item) {
            switch item {
            case .record(let r): records.append(r)
            case .fix(let f): fixes.append(f)
            default: break
            }
        }
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            try Array(bytes[i..<min(i + chunk, bytes.count)]).withUnsafeBytes { try reader.feed($0, take) }
            i += chunk
        }
        try reader.finish(take)
        return (records, fixes, reader)
    }

    static let start = UTCTimestamp.milliseconds("2025-03-24T19:07:24Z")!

    /// A move without `startLocation` placed by its waypoint path; one with only a
    /// `startLocation`; a visit without a location placed at its first other candidate; times
    /// as Ruby writes them ("2025-03-24 20:07:24 +0100") and as a string of seconds.
    @Test(arguments: [1, 5, 4096])
    func movesAndVisitsPlacedWhereDawarichPlacesThem(_ chunk: Int) throws {
        let json = """
            {"timelineObjects":[
            {"activitySegment":{"waypointPath":{"waypoints":[{"latE7":473769000,"lngE7":85417000},
              {"latE7":473800000,"lngE7":85500000}]},"duration":{"startTimestamp":"2025-03-24 20:07:24 +0100"}}},
            {"activitySegment":{"startLocation":{"latitudeE7":473422222,"longitudeE7":85422222},
              "duration":{"startTimestamp":"2025-03-24 20:17:24 +0100"}}},
            {"placeVisit":{"otherCandidateLocations":[{"latitudeE7":473533333,"longitudeE7":85533333},
              {"latitudeE7":1,"longitudeE7":1}],"duration":{"startTimestamp":"2025-03-24 20:25:02 +0100"}}},
            {"placeVisit":{"location":{"latitudeE7":473477777,"longitudeE7":85477777},
              "duration":{"startTimestamp":"1742844232"}}},
            {"placeVisit":{"location":{},"duration":{"startTimestamp":"2025-03-24 20:25:02 +0100"}}},
            {"activitySegment":{"duration":{"startTimestamp":"2025-03-24 20:07:24 +0100"}}}
            ]}
            """
        let (records, fixes, reader) = try read(json, chunk: chunk)
        #expect(fixes.isEmpty)
        #expect(records.map(\.kind) == [.activity, .activity, .visit, .visit])
        #expect(records.map(\.start) == [Self.start, Self.start + 600_000, Self.start + 1_058_000, 1_742_844_232_000])
        #expect(records[0].coordinate == Coordinate(latitude: 47.3769, longitude: 8.5417))
        #expect(records[0].endCoordinate == Coordinate(latitude: 47.38, longitude: 8.55))
        #expect(records[1].coordinate == Coordinate(latitude: 47.3422222, longitude: 8.5422222))
        #expect(records[2].coordinate == Coordinate(latitude: 47.3533333, longitude: 8.5533333))
        #expect(records[3].coordinate == Coordinate(latitude: 47.3477777, longitude: 8.5477777))
        // The visit with an empty location and the move with no place at all: left out, counted.
        #expect(reader.skipped == ["no position": 2], "\(reader.skipped)")
    }

    /// The older file (2013): `startLocation` and `endLocation` empty, the mode in `activities`
    /// and the waypoint path's `travelMode`, the distance in `distance` or the path's
    /// `distanceMeters`; a move of no length (it starts as it ends) kept as a move.
    @Test func olderSemanticHistoryMovesComeFromTheirWaypointPaths() throws {
        func segment(_ start: String, _ end: String, _ distance: String, _ activities: [String], _ path: String)
            -> String
        {
            """
            {"activitySegment":{"startLocation":{},"endLocation":{},"duration":{"startTimestamp":"\(start)",
            "endTimestamp":"\(end)"},\(distance)"confidence":"LOW","activities":[\(activities.map {
                #"{"activityType":"\#($0)","probability":0.0}"# }.joined(separator: ","))],
            "waypointPath":\(path),"editConfirmationStatus":"NOT_CONFIRMED"}}
            """
        }
        let json =
            #"{"timelineObjects":["#
            + [
                segment(
                    "2013-12-01T07:05:14.222Z", "2013-12-01T07:11:13.214Z", "", ["WALKING", "CYCLING"],
                    #"{"waypoints":[{"latE7":533407440,"lngE7":837026901},{"latE7":533410301,"lngE7":837051010}],"#
                        + #""source":"BACKFILLED","distanceMeters":209.65,"travelMode":"WALK","confidence":1.0}"#),
                segment(
                    "2013-12-01T07:11:13.214Z", "2013-12-01T08:25:17.226Z", #""distance":3853,"#, [],
                    #"{"waypoints":[{"latE7":533410301,"lngE7":837051010},{"latE7":533519706,"lngE7":837596359}],"#
                        + #""distanceMeters":4877.0,"travelMode":"DRIVE"}"#),
                segment(
                    "2013-12-01T08:25:17.226Z", "2013-12-01T08:25:17.226Z", "", ["WALKING"],
                    #"{"waypoints":[{"latE7":533519706,"lngE7":837596359}]}"#),
            ].joined(separator: ",") + "]}"
        let (records, _, reader) = try read(json, chunk: 3)
        #expect(records.count == 3, "\(reader.skipped)")
        #expect(records.map(\.activityType) == ["WALKING", "DRIVE", "WALKING"])
        #expect(records.map(\.distance) == [209.65, 3853, nil])
        #expect(records[0].coordinate == Coordinate(latitude: 53.340744, longitude: 83.7026901))
        #expect(records[1].endCoordinate == Coordinate(latitude: 53.3519706, longitude: 83.7596359))
        #expect(records[2].start == records[2].end)
        #expect(
            records.compactMap { $0.activityType.flatMap(MotionActivity.init(word:)) } == [
                .walking, .vehicle, .walking,
            ])
    }
}
