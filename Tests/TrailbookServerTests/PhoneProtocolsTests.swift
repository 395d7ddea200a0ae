import Foundation
import Testing

@testable import TrailbookServer

/// The phones' JSON read as JSON: a boolean is no number, a string is no number, and what is no
/// position is kept exactly as it came.
@Suite struct PhoneProtocolsTests {
    /// OsmAnd's and GPSLogger's form fields: `+` a space, `%XX` a UTF-8 byte; what is not well
    /// formed comes as it was sent, and the first of two same names counts.
    @Test func formFieldsAreDecodedAndWhatIsNotWellFormedIsKept() {
        #expect(SharingServer.decode("plain-1.5") == "plain-1.5")
        #expect(SharingServer.decode("Caf%C3%A9+du%20Lac") == "Café du Lac")
        #expect(SharingServer.decode("%2B1%2b2") == "+1+2", "either case of hex digits")
        #expect(SharingServer.decode("100%") == "100%", "a % with nothing after it")
        #expect(SharingServer.decode("a%zz+b") == "a%zz+b", "a % without two hex digits")
        #expect(SharingServer.decode("%FF%FE") == "%FF%FE", "bytes that are no UTF-8")
        let fields = SharingServer.parameters("id=phone+1&lat=47.37&lon=8.54&id=other&flag&note=a%3Db")
        #expect(fields == ["id": "phone 1", "lat": "47.37", "lon": "8.54", "flag": "", "note": "a=b"])
    }

    @Test func overlandKeepsWhatIsNoPositionAndReadsTheRest() throws {
        let body = #"""
            {"locations":[
              {"type":"Feature","geometry":{"type":"Point","coordinates":[true,false]},
               "properties":{"timestamp":"2026-06-14T07:00:00Z"}},
              {"type":"Feature","geometry":{"type":"Point","coordinates":[8.54,47.37]},
               "properties":{"timestamp":"2026-06-14T07:00:01Z","speed":-1,"altitude":-3.5,"battery_level":0.42}}
            ]}
            """#
        let report = try PhoneProtocols.overland(Data(body.utf8))
        #expect(report.fixes.count == 1)
        let fix = try #require(report.fixes.first)
        #expect(fix.coordinate?.latitude == 47.37 && fix.coordinate?.longitude == 8.54)
        #expect(fix.speed == nil && fix.altitudeMSL == -3.5, "iOS's -1 is unknown; an altitude may be negative")
        #expect(report.battery == 42)
        let kept = try #require(report.kept.first)
        #expect(kept.type == "overland.unreadable" && kept.reason == "location 0 has no Point coordinates [lon, lat]")
        #expect(
            kept.body == #"{"feature":{"geometry":{"coordinates":[true,false],"type":"Point"},"#
                + #""properties":{"timestamp":"2026-06-14T07:00:00Z"},"type":"Feature"},"#
                + #""reason":"location 0 has no Point coordinates [lon, lat]"}"#, "\(kept.body)")
    }

    @Test func numbersAreNumbers() throws {
        #expect(throws: PhoneProtocols.Malformed.self) {
            try PhoneProtocols.owntracks(Data(#"{"_type":"location","lat":"47.3","lon":8.5,"tst":1781418600}"#.utf8))
        }
        #expect(throws: PhoneProtocols.Malformed.self) {
            try PhoneProtocols.owntracks(Data(#"{"_type":"location","lat":true,"lon":8.5,"tst":1781418600}"#.utf8))
        }
        let ok = try PhoneProtocols.owntracks(
            Data(#"{"_type":"location","lat":47.3,"lon":8.5,"tst":1781418600,"vel":36,"batt":80,"p":96.5}"#.utf8))
        #expect(ok.fix?.speed == 10 && ok.battery == 80 && ok.pressure?.pressure == 965)
        #expect(throws: PhoneProtocols.Malformed.self) {
            try PhoneProtocols.traccarJSON(Data(#"{"device_id":"x","location":[{"coords":{}}, 3]}"#.utf8))
        }
        #expect(PhoneProtocols.traccarDeviceID(Data(#"{"device_id":"abc","location":{}}"#.utf8)) == "abc")
        let lwt = try PhoneProtocols.owntracks(Data(#"{"_type":"lwt","tst":1}"#.utf8))
        #expect(lwt.keptType == "lwt" && lwt.fix == nil && lwt.places.isEmpty)
        #expect(ok.keptType == nil, "a location is stored as a point, not kept as it came")
        let waypoints = try PhoneProtocols.owntracks(
            Data(#"{"_type":"waypoints","waypoints":[{"desc":"Home","lat":47.3,"lon":8.5,"rad":0},7]}"#.utf8))
        #expect(waypoints.keptType == "waypoints" && waypoints.fix == nil)
        #expect(waypoints.places.map(\.name) == ["Home"] && waypoints.places.first?.radius == 100)
        #expect(try PhoneProtocols.owntracks(Data(#"{"_type":"card","name":"x"}"#.utf8)).keptType == nil)
    }
}
