import GPSCore

/// What Trailbook reads from a JPEG: when it was taken and, when the camera recorded it, where.
///
/// The reader walks the JPEG's segments up to the image data, finds the EXIF block (APP1) and
/// follows its IFDs (IFD0 → Exif IFD, GPS IFD) with every offset checked against the block and
/// every IFD visited once, so a broken or looping EXIF chain ends in an error, never a crash
/// or a hang.
public struct JPEGMetadata: Equatable, Sendable {
    /// `DateTimeOriginal` (or `DateTime`) as written by the camera's clock: local time of day
    /// with no zone, as ms since 1970 read as if it were UTC.
    public var cameraClockMilliseconds: Int64?
    /// `OffsetTimeOriginal` (or `OffsetTime`), minutes east of UTC, when the camera wrote one.
    public var offsetMinutes: Int?
    /// GPS position, WGS-84.
    public var coordinate: Coordinate?
    /// GPS altitude in metres (negative below sea level).
    public var altitude: Double?
    /// `GPSDateStamp` + `GPSTimeStamp`: UTC, ms since 1970.
    public var gpsMilliseconds: Int64?

    public init() {}

    /// Why a file cannot be read as a JPEG photo; descriptions are clauses for a sentence.
    public enum Failure: Error, Equatable, CustomStringConvertible, Sendable {
        /// Not a JPEG at all; says what it looks like.
        case notJPEG(found: String)
        /// A JPEG whose EXIF data cannot be followed.
        case brokenEXIF(String)

        public var description: String {
            switch self {
            case .notJPEG(let found): return "it is not a JPEG (\(found))"
            case .brokenEXIF(let reason): return "its EXIF data is broken (\(reason))"
            }
        }
    }

    /// Reads the metadata from the first bytes of a file (the EXIF block sits at the start: 256 KB
    /// is plenty).
    public static func read(_ bytes: [UInt8]) throws(Failure) -> JPEGMetadata {
        guard bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF else {
            throw .notJPEG(found: describe(bytes))
        }
        var i = 2
        while i + 4 <= bytes.count {
            guard bytes[i] == 0xFF else { throw .brokenEXIF("no segment marker at byte \(i)") }
            let marker = bytes[i + 1]
            if marker == 0xFF {  // fill byte
                i += 1
                continue
            }
            if marker == 0xD9 || marker == 0xDA { break }  // end of image, start of scan: no EXIF after this
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {
                i += 2
                continue
            }
            let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            guard length >= 2 else { throw .brokenEXIF("a segment of length \(length) at byte \(i)") }
            let start = i + 4
            let end = min(i + 2 + length, bytes.count)
            if marker == 0xE1, end - start >= 6, Array(bytes[start..<(start + 6)]) == Array("Exif\0\0".utf8) {
                return try EXIFBlock(Array(bytes[(start + 6)..<end])).metadata()
            }
            i += 2 + length
        }
        return JPEGMetadata()
    }

    /// What a non-JPEG file looks like, for the message.
    static func describe(_ bytes: [UInt8]) -> String {
        func starts(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        if bytes.isEmpty { return "the file is empty" }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "a PNG image" }
        if starts(Array("GIF8".utf8)) { return "a GIF image" }
        if bytes.count >= 12, Array(bytes[4..<8]) == Array("ftyp".utf8) {
            let brand = String(decoding: bytes[8..<12], as: UTF8.self)
            return brand.hasPrefix("hei") || brand.hasPrefix("mif1") ? "a HEIC image" : "an MP4/QuickTime file"
        }
        if starts(Array("II*\0".utf8)) || starts(Array("MM\0*".utf8)) { return "a TIFF or camera raw file" }
        if starts(Array("RIFF".utf8)) { return "a RIFF file such as WebP" }
        if starts(Array("%PDF".utf8)) { return "a PDF document" }
        return "it does not start with the JPEG marker FF D8 FF"
    }
}

/// The TIFF structure inside an EXIF APP1 segment.
private struct EXIFBlock {
    let b: [UInt8]
    let bigEndian: Bool

    init(_ bytes: [UInt8]) throws(JPEGMetadata.Failure) {
        b = bytes
        guard bytes.count >= 8 else { throw .brokenEXIF("the EXIF block is \(bytes.count) bytes long") }
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw .brokenEXIF("no byte order mark")
        }
    }

    func u16(_ at: Int) throws(JPEGMetadata.Failure) -> Int {
        guard at >= 0, at + 2 <= b.count else { throw .brokenEXIF("an offset points outside the EXIF block") }
        return bigEndian ? Int(b[at]) << 8 | Int(b[at + 1]) : Int(b[at + 1]) << 8 | Int(b[at])
    }

    func u32(_ at: Int) throws(JPEGMetadata.Failure) -> Int {
        let hi = try u16(bigEndian ? at : at + 2)
        let lo = try u16(bigEndian ? at + 2 : at)
        return hi << 16 | lo
    }

    /// One IFD entry: its type, count and where its value starts.
    struct Entry {
        var type: Int
        var count: Int
        var offset: Int
    }

    static let typeSizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 9: 4, 10: 8]

    /// The entries of the IFD at `offset`, by tag.
    func ifd(_ offset: Int, visited: inout Set<Int>) throws(JPEGMetadata.Failure) -> [Int: Entry] {
        guard visited.insert(offset).inserted else { throw .brokenEXIF("its IFD offsets form a loop") }
        guard visited.count <= 16 else { throw .brokenEXIF("more than 16 IFDs") }
        let count = try u16(offset)
        guard offset + 2 + count * 12 <= b.count else { throw .brokenEXIF("an IFD runs past the EXIF block") }
        var entries: [Int: Entry] = [:]
        for k in 0..<count {
            let e = offset + 2 + k * 12
            let type = try u16(e + 2)
            let n = try u32(e + 4)
            guard let size = Self.typeSizes[type] else { continue }
            guard n <= b.count else { throw .brokenEXIF("an entry claims \(n) values") }
            let valueOffset = size * n <= 4 ? e + 8 : try u32(e + 8)
            guard valueOffset + size * n <= b.count else {
                throw .brokenEXIF("a value lies outside the EXIF block")
            }
            entries[try u16(e)] = Entry(type: type, count: n, offset: valueOffset)
        }
        return entries
    }

    func ascii(_ e: Entry?) -> String? {
        guard let e, e.type == 2 else { return nil }
        let raw = b[e.offset..<(e.offset + e.count)].prefix { $0 != 0 }
        return String(decoding: raw, as: UTF8.self).trimmingSpaces
    }

    func rationals(_ e: Entry?) throws(JPEGMetadata.Failure) -> [Double]? {
        guard let e, e.type == 5 || e.type == 10 else { return nil }
        var values: [Double] = []
        for k in 0..<e.count {
            var num = try u32(e.offset + k * 8)
            var den = try u32(e.offset + k * 8 + 4)
            if e.type == 10 {
                num = Int(Int32(truncatingIfNeeded: num))
                den = Int(Int32(truncatingIfNeeded: den))
            }
            guard den != 0 else { return nil }
            values.append(Double(num) / Double(den))
        }
        return values
    }

    func metadata() throws(JPEGMetadata.Failure) -> JPEGMetadata {
        var visited = Set<Int>()
        let ifd0 = try ifd(try u32(4), visited: &visited)
        var result = JPEGMetadata()
        var exif: [Int: Entry] = [:]
        if let pointer = ifd0[0x8769] {
            exif = try ifd(try u32(pointer.offset), visited: &visited)
        }
        if let text = ascii(exif[0x9003]) ?? ascii(ifd0[0x0132]) {
            result.cameraClockMilliseconds = Self.exifTime(text)
        }
        if let text = ascii(exif[0x9011]) ?? ascii(exif[0x9010]) {
            result.offsetMinutes = Self.offset(text)
        }
        if let pointer = ifd0[0x8825] {
            let gps = try ifd(try u32(pointer.offset), visited: &visited)
            if let lat = try rationals(gps[2]), lat.count == 3, let lon = try rationals(gps[4]), lon.count == 3 {
                let latitude = (lat[0] + lat[1] / 60 + lat[2] / 3600) * (ascii(gps[1]) == "S" ? -1 : 1)
                let longitude = (lon[0] + lon[1] / 60 + lon[2] / 3600) * (ascii(gps[3]) == "W" ? -1 : 1)
                let c = Coordinate(latitude: latitude, longitude: longitude)
                if abs(latitude) <= 90 && abs(longitude) <= 180 && !(latitude == 0 && longitude == 0) {
                    result.coordinate = c
                }
            }
            if let alt = try rationals(gps[6])?.first {
                let below = gps[5].map { b[$0.offset] == 1 } ?? false
                result.altitude = below ? -alt : alt
            }
            if let date = ascii(gps[0x1D]), let time = try rationals(gps[7]), time.count == 3,
                let day = Self.exifTime(date + " 00:00:00")
            {
                result.gpsMilliseconds = day + Int64(((time[0] * 3600 + time[1] * 60 + time[2]) * 1000).rounded())
            }
        }
        return result
    }

    /// `YYYY:MM:DD HH:MM:SS` as ms since 1970, read as UTC.
    static func exifTime(_ text: String) -> Int64? {
        let parts = text.split { $0 == ":" || $0 == " " }.compactMap { Int($0) }
        // Years a camera can have written; a wild one must not overflow the arithmetic below.
        guard parts.count >= 6, (1800...2999).contains(parts[0]),
            let date = CivilDate(year: parts[0], month: parts[1], day: parts[2]),
            (0..<24).contains(parts[3]), (0..<60).contains(parts[4]), (0...60).contains(parts[5])
        else { return nil }
        return (Int64(date.daysSinceEpoch) * 86_400 + Int64(parts[3] * 3600 + parts[4] * 60 + parts[5])) * 1000
    }

    /// `+02:00` as minutes east of UTC.
    static func offset(_ text: String) -> Int? {
        let t = Array(text.utf8)
        guard t.count == 6, t[0] == 43 || t[0] == 45, t[3] == 58, let h = Int(text.dropFirst().prefix(2)),
            let m = Int(text.suffix(2))
        else { return nil }
        return (t[0] == 43 ? 1 : -1) * (h * 60 + m)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s = s.dropLast() }
        while s.first == " " { s = s.dropFirst() }
        return String(s)
    }
}
