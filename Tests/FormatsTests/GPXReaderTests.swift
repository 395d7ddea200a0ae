import GPSCore
import Testing

@testable import Formats

/// Reads `text` fed in pieces of `chunk` bytes, returning the items or the failure.
private func read(_ text: String, chunk: Int = 7) -> (items: [GPXReader.Item], failure: XMLScanner.Failure?) {
    read(bytes: Array(text.utf8), chunk: chunk)
}

/// Reads `bytes` fed in pieces of `chunk` bytes.
private func read(bytes: [UInt8], chunk: Int) -> (items: [GPXReader.Item], failure: XMLScanner.Failure?) {
    let reader = GPXReader()
    var items: [GPXReader.Item] = []
    do {
        var i = 0
        while i < bytes.count {
            let piece = Array(bytes[i..<min(i + chunk, bytes.count)])
            try piece.withUnsafeBytes { try reader.feed($0) { items.append($0) } }
            i += chunk
        }
        try reader.finish { items.append($0) }
        return (items, nil)
    } catch let failure as XMLScanner.Failure {
        return (items, failure)
    } catch {
        Issue.record("unexpected \(error)")
        return (items, nil)
    }
}

private let sample = """
    <?xml version="1.0" encoding="UTF-8"?>
    <!-- written by hand -->
    <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
      <wpt lat="47.5" lon="8.25"><time>2026-06-14T07:00:00Z</time><name>Caf&#233; &amp; bakery</name>
        <desc><![CDATA[Cake <b>good</b>]]></desc><cmt>second</cmt><link href="https://example.org/a?b=1&amp;c=2"/></wpt>
      <trk><name>Morning</name>
        <trkseg>
          <trkpt lat="47.1" lon='8.2'><ele>412.5</ele><time>2026-06-14T06:30:01.250Z</time>
            <hdop>0.9</hdop><sat>9</sat><fix>3d</fix></trkpt>
          <trkpt lat="47.2" lon="8.3"><time>2026-06-14T08:30:02+02:00</time></trkpt>
        </trkseg>
        <trkseg><trkpt lat="-33.9" lon="-70.7"/></trkseg>
      </trk>
      <rte><rtept lat="1" lon="2"/></rte>
    </gpx>
    """

@Test(arguments: [1, 7, 4096])
func readsTracksSegmentsAndWaypoints(chunk: Int) throws {
    let (items, failure) = read(sample, chunk: chunk)
    #expect(failure == nil)
    let points = items.compactMap { if case .point(let f) = $0 { f } else { nil } }
    #expect(items.filter { $0 == .segment }.count == 2)
    #expect(points.count == 3)
    #expect(points[0].coordinate == Coordinate(latitude: 47.1, longitude: 8.2))
    #expect(points[0].altitudeMSL == 412.5)
    #expect(points[0].unixMilliseconds == 1_781_418_601_250)
    #expect(points[0].hdop == 0.9 && points[0].satellitesUsed == 9 && points[0].mode == .threeD)
    // +02:00 is converted to UTC; a point without <ele> is 2D.
    #expect(points[1].unixMilliseconds == 1_781_418_602_000)
    #expect(points[1].mode == .twoD)
    #expect(points[2].unixMilliseconds == nil)
    guard case .waypoint(let w) = items.first else {
        Issue.record("the waypoint comes first")
        return
    }
    #expect(w.name == "Café & bakery")
    #expect(w.text == "Cake <b>good</b>\n\nsecond")
    #expect(w.link == "https://example.org/a?b=1&c=2")
    #expect(w.fix.unixMilliseconds == 1_781_420_400_000)
}

@Test func truncatedFileNamesTheLineAndOpenElement() {
    let cut = String(sample.prefix(upTo: sample.range(of: "</trkseg>")!.lowerBound))
    let (_, failure) = read(cut)
    #expect(failure?.reason.contains("ends inside <trkseg> opened on line 7") == true)
    #expect(failure?.line == 11)
    let (_, inTag) = read(String(sample.prefix(350)))
    #expect(inTag != nil)
}

@Test func refusesDocumentTypeDeclarations() {
    let bomb = """
        <?xml version="1.0"?>
        <!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
        <gpx><trk><trkseg><trkpt lat="1" lon="&b;"/></trkseg></trk></gpx>
        """
    let (items, failure) = read(bomb)
    #expect(items.isEmpty)
    #expect(failure?.line == 2)
    #expect(failure?.reason.contains("document type declaration") == true)
}

@Test(arguments: [
    ("<gpx><trk><trkseg><trkpt lat=\"91\" lon=\"0\"/></trkseg></trk></gpx>", "lat=\"91\""),
    ("<gpx><trk><trkseg><trkpt lat=\"NaN\" lon=\"0\"/></trkseg></trk></gpx>", "not a number"),
    ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"inf\"/></trkseg></trk></gpx>", "lon=\"inf\""),
    ("<gpx><trk><trkseg><trkpt lon=\"1\"/></trkseg></trk></gpx>", "no lat attribute"),
    ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\"><ele>high</ele></trkpt></trkseg></trk></gpx>", "not a finite"),
    ("<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\"><time>yesterday</time></trkpt></trkseg></trk></gpx>", "ISO 8601"),
    ("<gpx><trk></trkseg></trk></gpx>", "closes <trk>"),
    ("<kml></kml>", "not <gpx>"),
    ("<gpx>&bogus;</gpx>", "unknown entity"),
    ("<gpx></gpx><gpx></gpx>", "second root"),
    ("not xml", "does not start with an XML element"),
    ("", "no XML element"),
])
func badDocumentsFailWithAReason(text: String, expected: String) {
    let (_, failure) = read(text)
    #expect(failure?.reason.contains(expected) == true, "\(String(describing: failure))")
}

@Test func deepNestingAndHugeTokensAreBounded() {
    let deep = String(repeating: "<a>", count: XMLScanner.maxDepth + 1)
    #expect(read("<gpx>" + deep).failure?.reason.contains("nested") == true)
    let long = "<gpx><trk><name>" + String(repeating: "x", count: XMLScanner.maxTokenBytes + 10)
    #expect(read(long, chunk: 65536).failure?.reason.contains("longer than 1 MB") == true)
}

@Test func looksLikeGPXSniffsTheStart() {
    func sniff(_ s: String) -> Bool { Array(s.utf8).withUnsafeBytes { GPXReader.looksLikeGPX($0) } }
    #expect(sniff("\u{FEFF}<?xml version=\"1.0\"?>\n<gpx version=\"1.0\">"))
    #expect(!sniff("$GPGGA,123519,4807.038,N"))
    #expect(!sniff("<html><body>"))
}

@Test func timestampsParseWithZonesAndFractions() {
    #expect(UTCTimestamp.milliseconds("1970-01-01T00:00:00Z") == 0)
    #expect(UTCTimestamp.milliseconds("1970-01-01T01:00:00+01:00") == 0)
    #expect(UTCTimestamp.milliseconds("1969-12-31T23:59:59.5") == -500)
    #expect(UTCTimestamp.milliseconds("2026-06-14 06:30:01.123456Z") == 1_781_418_601_123)
    let behindUTC: Int64 = 1_781_418_601_000 + 5 * 3_600_000 + 30 * 60_000
    #expect(UTCTimestamp.milliseconds("2026-06-14T06:30:01-0530") == behindUTC)
    #expect(UTCTimestamp.milliseconds("2026-02-30T00:00:00Z") == nil)
    #expect(UTCTimestamp.milliseconds("2026-06-14T06:30:01Zjunk") == nil)
    // Ruby's Time#to_s, as Dawarich's Google fixtures write times.
    #expect(UTCTimestamp.milliseconds("2026-06-14 07:30:01 +0100") == 1_781_418_601_000)
    #expect(UTCTimestamp.milliseconds("2026-06-14 06:30:01 UTC") == 1_781_418_601_000)
    #expect(UTCTimestamp.milliseconds("2026-06-14 06:30:01 junk") == nil)
}

/// A byte-order mark and UTF-16 (either byte order, with or without a mark) read as UTF-8 does,
/// whatever the chunks: a character outside the BMP (a surrogate pair) split across chunks too.
@Test(arguments: [1, 2, 3, 7, 4096])
func readsByteOrderMarksAndUTF16(chunk: Int) throws {
    let text = sample.replacingOccurrences(of: "Caf&#233; &amp; bakery", with: "Café 🚲 bakery")
    let (reference, _) = read(text, chunk: chunk)
    #expect(reference.count == 7)  // a waypoint, a track, two segments, three points
    let encodings: [[UInt8]] = [
        [0xEF, 0xBB, 0xBF] + Array(text.utf8),
        [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
        [0xFE, 0xFF] + text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
        text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
    ]
    for bytes in encodings {
        let (items, failure) = read(bytes: bytes, chunk: chunk)
        #expect(failure == nil, "\(bytes.prefix(4))")
        #expect(items == reference, "\(bytes.prefix(4))")
        guard case .waypoint(let w) = items.first else { continue }
        #expect(w.name == "Café 🚲 bakery")
    }
    #expect(encodings[1].withUnsafeBytes { GPXReader.looksLikeGPX($0) })
}

/// A track starts with .track; values of a point are its own children, speed and course also
/// from Garmin's TrackPointExtension; a name nested in another element is not the waypoint's.
@Test func tracksExtensionsAndNestedNames() throws {
    let (items, failure) = read(
        """
        <gpx version="1.0" xmlns:groundspeak="http://www.groundspeak.com/cache/1/0/1">
          <wpt lat="1" lon="2"><name>GC1</name><groundspeak:cache><groundspeak:name>Long name</groundspeak:name>
            </groundspeak:cache></wpt>
          <trk><trkseg><trkpt lat="1" lon="2"><time>2026-06-14T06:30:00Z</time><extensions>
            <gpxtpx:TrackPointExtension><gpxtpx:speed>5.25</gpxtpx:speed><gpxtpx:course>181.5</gpxtpx:course>
            </gpxtpx:TrackPointExtension></extensions></trkpt></trkseg></trk>
          <trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk>
        </gpx>
        """)
    #expect(failure == nil)
    #expect(items.filter { $0 == .track }.count == 2)
    guard case .waypoint(let w) = items.first else {
        Issue.record("the waypoint comes first")
        return
    }
    #expect(w.name == "GC1")
    let points = items.compactMap { if case .point(let f) = $0 { f } else { nil } }
    #expect(points.first?.speed == 5.25 && points.first?.track == 181.5)
}

/// Places are named by their name field or their note's first line; fields travel as GPX
/// extensions and come back as fields.
@Suite struct PlaceNameTests {
    func place(notes: [String], fields: [(key: String, value: String)] = []) -> TrackExport.Place {
        TrackExport.Place(
            id: 8, milliseconds: 1_781_418_600_000, coordinate: Coordinate(latitude: 47, longitude: 8),
            altitude: nil, notes: notes, photos: ["/media/ab.jpg"], fields: fields)
    }

    @Test func namesComeFromTheNameFieldOrTheNote() {
        #expect(place(notes: ["Coffee by the lake\nthen home"]).name == "Coffee by the lake")
        #expect(place(notes: ["x"], fields: [("name", "Bridge")]).name == "Bridge")
        #expect(place(notes: []).name == "record 8")
        #expect(place(notes: ["  \nsecond"]).name == "second", "the first line that is not blank")
        let long = String(repeating: "a", count: 80)
        #expect(place(notes: [long]).name.count == 60 && place(notes: [long]).name.hasSuffix("…"))
    }

    @Test func fieldsRoundTripThroughGPXExtensions() throws {
        let export = TrackExport(
            name: "t", rides: [], places: [place(notes: ["Heron"], fields: [("weather", "sunny"), ("n", "12.5")])])
        let gpx = GPXWriter.write(export)
        #expect(gpx.contains("<name>Heron</name>") && gpx.contains("<desc>Heron</desc>"))
        #expect(gpx.contains("<trailbook:field key=\"n\">12.5</trailbook:field>"))
        #expect(gpx.contains("<link href=\"/media/ab.jpg\">"))
        var waypoints: [GPXReader.Waypoint] = []
        let reader = GPXReader()
        try Array(gpx.utf8).withUnsafeBytes { raw in
            try reader.feed(raw) { if case .waypoint(let w) = $0 { waypoints.append(w) } }
        }
        try reader.finish { if case .waypoint(let w) = $0 { waypoints.append(w) } }
        #expect(waypoints.count == 1)
        #expect(waypoints.first?.fields == [.init(key: "weather", value: "sunny"), .init(key: "n", value: "12.5")])
        #expect(waypoints.first?.name == "Heron" && waypoints.first?.link == "/media/ab.jpg")
        #expect(GeoJSONWriter.write(export).contains("\"name\":\"Heron\""))
        #expect(KMLWriter.write(export).contains("<name>Heron</name>"))
    }
}
