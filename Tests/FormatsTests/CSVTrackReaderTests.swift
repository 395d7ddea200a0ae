import GPSCore
import Testing

@testable import Formats

/// CSVs that write a hemisphere as a letter: Columbus receivers' logs and others.
@Suite struct CSVTrackReaderTests {
    /// A Columbus log as GPSBabel's `v900` reader describes and reads it (GPSBabel/gpsbabel v900.cc
    /// @000330cf): lines ending in CR LF, a header without NULs, then rows whose fields are
    /// padded with NUL bytes to a fixed width; `YYMMDD` and `HHMMSS` in UTC; latitude and
    /// longitude with a trailing hemisphere letter; `HEIGHT` in metres, `SPEED` in km/h,
    /// `HEADING` in degrees; tag `T` a point, `C` a point of interest (the P-1 Mark II writes a
    /// `T` row again as `C`), `V` a voice memo named in `VOX`.
    static func columbus(_ header: String, _ rows: [[String]], widths: [Int]?) -> [UInt8] {
        var bytes = Array((header + "\r\n").utf8)
        for row in rows {
            for (i, field) in row.enumerated() {
                if i > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += Array(field.utf8)
                if let widths { bytes += [UInt8](repeating: 0, count: max(0, widths[i] - field.utf8.count)) }
            }
            bytes += [0x0D, 0x0A]
        }
        return bytes
    }

    @Test(arguments: [1, 9, 4096])
    func columbusV900BasicModeWithPaddingTagsAndVoice(_ chunk: Int) throws {
        let header = "INDEX,TAG,DATE,TIME,LATITUDE N/S,LONGITUDE E/W,HEIGHT,SPEED,HEADING,VOX"
        let rows = [
            ["1", "T", "090404", "063401", "31.765931N", "035.206969E", "821", "0", "0", ""],
            ["2", "T", "090404", "063402", "31.765931N", "035.206969E", "821", "36", "90", ""],
            ["3", "C", "090404", "063402", "31.765931N", "035.206969E", "821", "36", "90", ""],
            ["4", "V", "090404", "063407", "33.856800S", "151.215300W", "12", "18", "270", "VOX00003"],
        ]
        let bytes = Self.columbus(header, rows, widths: [6, 1, 6, 6, 10, 11, 5, 4, 3, 9])
        #expect(bytes.contains(0))
        let head = bytes.withUnsafeBytes { CSVTrackReader.looksLikeCSV($0) }
        #expect(head)
        let reader = CSVTrackReader()
        let items = try readAll(reader, bytes, chunk: chunk)
        let fixes = items.fixes
        #expect(items.seconds.first == seconds("2009-04-04T06:34:01Z"))
        #expect(fixes.count == 4)
        #expect(fixes[0].coordinate == Coordinate(latitude: 31.765931, longitude: 35.206969))
        #expect(fixes[0].altitudeMSL == 821)
        #expect(abs((fixes[1].speed ?? 0) - 10) < 1e-9)  // 36 km/h
        #expect(fixes[1].track == 90)
        #expect(fixes[3].coordinate == Coordinate(latitude: -33.8568, longitude: -151.2153))
        #expect(items.waypoints.map(\.name) == ["Point of interest", "Voice memo"])
        #expect(items.waypoints.last?.text == "VOX00003.WAV")
        #expect(reader.elements == 4 && reader.skipped.isEmpty, "\(reader.skipped)")
    }

    /// Advanced mode adds `FIX MODE,VALID,PDOP,HDOP,VDOP`; the P-1 Mark II writes no VOX and no
    /// padding; the V-1000 writes `LATITUDEN/S` and a `TEMP`.
    @Test func columbusAdvancedModeP1AndV1000() throws {
        let advanced = Self.columbus(
            "INDEX,TAG,DATE,TIME,LATITUDE N/S,LONGITUDE E/W,HEIGHT,SPEED,HEADING,FIX MODE,VALID,PDOP,HDOP,VDOP,VOX",
            [
                [
                    "1", "T", "090204", "055722", "31.768380N", "035.209656E", "149", "0", "0", "2D", "SPS ", "2.6",
                    "2.4",
                    "1.0", "",
                ]
            ],
            widths: [6, 1, 6, 6, 10, 11, 5, 4, 3, 2, 4, 5, 5, 5, 9])
        let a = try readAll(CSVTrackReader(), advanced).fixes
        #expect(a.count == 1)
        #expect(a.first?.mode == .twoD && a.first?.pdop == 2.6 && a.first?.hdop == 2.4 && a.first?.vdop == 1.0)
        let p1 = Self.columbus(
            "INDEX,TAG,DATE,TIME,LATITUDE N/S,LONGITUDE E/W,HEIGHT,SPEED,HEADING",
            [["1", "T", "191231", "235959", "47.3769N", "8.5417E", "408", "5", "12"]], widths: nil)
        #expect(try readAll(CSVTrackReader(), p1).seconds == [seconds("2019-12-31T23:59:59Z")])
        let v1000 = Self.columbus(
            "INDEX,TAG,DATE,TIME,LATITUDEN/S,LONGITUDEE/W,HEIGHT,SPEED,HEADING,PRES,TEMP",
            [["1", "T", "200615", "101500", "47.376900N", "008.541700E", "408", "5", "12", "965.2", "21"]], widths: nil)
        let v = try readAll(CSVTrackReader(), v1000).fixes
        #expect(v.first?.coordinate == Coordinate(latitude: 47.3769, longitude: 8.5417))
        #expect(v.first?.sensors?.temperature == 21)
    }

    /// Hemisphere letters after the number under a Columbus-style header with ISO times (the
    /// shape of Freika/dawarich spec/fixtures/files/csv/nsew_suffixes.csv @7149e387), and before
    /// or after it under plain `lat`/`lon` columns.
    @Test func hemisphereLettersBeforeOrAfterTheNumber() throws {
        let dawarich = """
            INDEX,TAG,timestamp,LATITUDE N/S,LONGITUDE E/W,HEIGHT,SPEED,HEADING
            1,T,2024-06-15T10:30:00Z,52.520000N,13.405000E,34,1.5,90
            2,T,2024-06-15T10:31:00Z,52.521000N,13.406000E,35,1.6,95

            """
        let d = try readAll(CSVTrackReader(), dawarich)
        #expect(d.seconds == [seconds("2024-06-15T10:30:00Z"), seconds("2024-06-15T10:31:00Z")])
        #expect(d.fixes.first?.coordinate == Coordinate(latitude: 52.52, longitude: 13.405))
        let plain = """
            time,lat,lon
            2024-06-15T10:30:00Z,S33.8568,E151.2153
            2024-06-15T10:31:00Z,33.8570 S,151.2155 W
            2024-06-15T10:32:00Z,N 47.3769,W 8.5417

            """
        let p = try readAll(CSVTrackReader(), plain).fixes.map(\.coordinate)
        #expect(
            p == [
                Coordinate(latitude: -33.8568, longitude: 151.2153),
                Coordinate(latitude: -33.857, longitude: -151.2155),
                Coordinate(latitude: 47.3769, longitude: -8.5417),
            ])
    }

    /// The CSVs of Dawarich's importer specs (Freika/dawarich spec/fixtures/files/csv/, each file's
    /// shape: split_date_time.csv @2e42a59a, semicolon_eu.csv and e7_integers.csv @52db8949,
    /// unix_timestamps.csv @b9b2ddbe, gpslogger.csv @7149e387, quoted_headers.csv @f9f0ec48), read
    /// as Dawarich reads them: every row a point at its time.
    @Test func dawarichsCSVFixtures() throws {
        func read(_ text: String) throws -> [TrackItem] { try readAll(CSVTrackReader(), text) }
        // A date with slashes and a time apart.
        let split = try read(
            "INDEX,DATE,TIME,LATITUDE,LONGITUDE,HEIGHT,SPEED\n1,2008/12/02,01:21:52,51.126410,1.338282,150.000,0.000\n"
                + "2,2008/12/02,01:21:34,50.862034,1.735265,222.759,10.599\n")
        #expect(split.seconds == [seconds("2008-12-02T01:21:52Z"), seconds("2008-12-02T01:21:34Z")])
        #expect(split.fixes.last?.altitudeMSL == 222.759)
        // Semicolons and decimal commas.
        let eu = try read("time;lat;lon;elevation;accuracy;speed\n2024-06-15T10:30:00Z;52,5200;13,4050;34,0;8;1,5\n")
        #expect(
            eu.fixes.first?.coordinate == Coordinate(latitude: 52.52, longitude: 13.405) && eu.fixes.first?.speed == 1.5
        )
        // E7 integers.
        let e7 = try read(
            "timestamp,latitudeE7,longitudeE7,accuracy,altitude,velocity\n2024-06-15T10:30:00Z,525200000,134050000,8,34,1.5\n"
        )
        #expect(e7.fixes.first?.coordinate == Coordinate(latitude: 52.52, longitude: 13.405))
        // Unix seconds.
        let unix = try read(
            "deviceid,lat,lon,timestamp,accuracy,altitude,batterylevel,speed,bearing\n"
                + "phone1,52.5200,13.4050,1718444200,8,34.0,85,1.5,90\n")
        #expect(unix.seconds == [1_718_444_200] && unix.fixes.first?.track == 90)
        // GPSLogger's columns with its activity.
        let logger = try read(
            "time,lat,lon,elevation,accuracy,bearing,speed,satellites,provider,activity,battery\n"
                + "2024-06-15T10:30:00.000Z,52.5200,13.4050,34.0,8,90,1.5,12,gps,walking,85\n")
        #expect(logger.fixes.first?.satellitesUsed == 12 && logger.fixes.first?.sensors?.activity == .walking)
        // A list of Google Timeline's activities and visits, quoted: each at its start; a visit at its end too.
        let timeline = try read(
            #""Type","Name","Address","Latitude","Longitude","Start Time","End Time","PlaceId""# + "\n"
                + #""Activity","UNKNOWN","","32.8954383","-117.1930364","2024-12-02T11:00:00.000-08:00","#
                + #""2024-12-02T13:00:00.000-08:00","""# + "\n"
                + #""Visit","","","32.8955442","-117.1929882","2024-12-02T11:02:12.000-08:00","#
                + #""2024-12-02T22:14:34.000-08:00","""# + "\n")
        #expect(
            timeline.seconds == [
                seconds("2024-12-02T19:00:00Z"), seconds("2024-12-02T19:02:12Z"), seconds("2024-12-03T06:14:34Z"),
            ])
        #expect(timeline.fixes.last?.coordinate == Coordinate(latitude: 32.8955442, longitude: -117.1929882))
    }
}
