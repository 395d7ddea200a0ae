import Foundation
import GPSCore
import Testing
import TrailbookTestSupport

@testable import Photos

private func metadata(_ path: String) throws -> JPEGMetadata {
    try JPEGMetadata.read(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
}

@Test func readsTimeOffsetAndGPSFromARealJPEG() throws {
    let path = try Samples.temporaryDirectory() + "/gps.jpg"
    try TestPhotos.make(
        path, taken: "2026:06:14 08:31:05", offset: "+02:00", gps: (47.3779, -8.5417, 410.5),
        gpsUTC: "2026:06:14 06:31:04")
    let m = try metadata(path)
    #expect(m.cameraClockMilliseconds == UTCTimestamp.milliseconds("2026-06-14T08:31:05Z"))
    #expect(m.offsetMinutes == 120)
    let c = try #require(m.coordinate)
    #expect(abs(c.latitude - 47.3779) < 1e-6 && abs(c.longitude + 8.5417) < 1e-6)
    #expect(m.altitude == 410.5)
    #expect(m.gpsMilliseconds == UTCTimestamp.milliseconds("2026-06-14T06:31:04Z"))
}

@Test func aJPEGWithoutGPSHasOnlyItsTime() throws {
    let path = try Samples.temporaryDirectory() + "/plain.jpg"
    try TestPhotos.make(path, taken: "2026:06:14 09:00:00")
    let m = try metadata(path)
    #expect(m.cameraClockMilliseconds == UTCTimestamp.milliseconds("2026-06-14T09:00:00Z"))
    #expect(m.offsetMinutes == nil && m.coordinate == nil && m.gpsMilliseconds == nil)
    let none = try Samples.temporaryDirectory() + "/none.jpg"
    try TestPhotos.make(none, taken: nil)
    #expect(try metadata(none) == JPEGMetadata())
}

@Test(
    arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A], "a PNG image"),
        (Array("GIF89a".utf8), "a GIF image"),
        ([0, 0, 0, 0x18] + Array("ftypheic".utf8), "a HEIC image"),
        ([], "the file is empty"),
        (Array("hello".utf8), "does not start with the JPEG marker"),
    ] as [([UInt8], String)])
func otherFormatsAreNamed(bytes: [UInt8], found: String) {
    #expect {
        try JPEGMetadata.read(bytes)
    } throws: { error in
        (error as? JPEGMetadata.Failure)?.description.contains(found) == true
    }
}

/// A hand-built EXIF block whose IFD0 points back at itself, and one pointing outside.
@Test func loopsAndWildOffsetsInEXIFEndInAnError() {
    func jpeg(tiff: [UInt8]) -> [UInt8] {
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + [0xFF, 0xD9]
    }
    // Big-endian TIFF header, IFD0 at 8 with one entry: ExifIFD pointer (0x8769, LONG) → 8 again.
    let loop: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x87, 0x69, 0, 4, 0, 0, 0, 1, 0, 0, 0, 8, 0, 0, 0, 0]
    #expect(throws: JPEGMetadata.Failure.brokenEXIF("its IFD offsets form a loop")) {
        try JPEGMetadata.read(jpeg(tiff: loop))
    }
    let wild: [UInt8] = [0x4D, 0x4D, 0, 42, 0x7F, 0xFF, 0xFF, 0xF0]
    #expect(throws: JPEGMetadata.Failure.brokenEXIF("an offset points outside the EXIF block")) {
        try JPEGMetadata.read(jpeg(tiff: wild))
    }
    // A string value claiming a billion bytes.
    let huge: [UInt8] = [
        0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x32, 0, 2, 0x3B, 0x9A, 0xCA, 0x00, 0, 0, 0, 8, 0, 0, 0, 0,
    ]
    #expect(throws: JPEGMetadata.Failure.self) { try JPEGMetadata.read(jpeg(tiff: huge)) }
}

/// Found by `make fuzz` (fuzz-exif): a DateTime with a nine-digit year overflowed the conversion
/// to milliseconds and trapped. Such a date is now no date.
@Test func aWildYearInEXIFIsNoDate() throws {
    let date = Array("617777777:06:14 08:31:05\0".utf8)
    // Big-endian TIFF, IFD0 at 8 with one entry: DateTime (0x0132), ASCII, its string at 26.
    var tiff: [UInt8] = [
        0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x32, 0, 2, 0, 0, 0, UInt8(date.count), 0, 0, 0, 26,
    ]
    tiff += [0, 0, 0, 0] + date
    let payload = Array("Exif\0\0".utf8) + tiff
    let jpeg = [0xFF, 0xD8, 0xFF, 0xE1, 0, UInt8(payload.count + 2)] + payload + [0xFF, 0xD9]
    #expect(try JPEGMetadata.read(jpeg).cameraClockMilliseconds == nil)
}
