import Formats
import Foundation
import Reports

/// What a file to import looks like from its first bytes (after gzip decompression).
public enum FileKind: Equatable, Sendable {
    case gpx, kml, tcx, fit, geoJSON, csv, jsonTrack, googleTimeline, ownTracksRec, dawarich, nmeaOrText, empty, jpeg,
        png, pdf,
        zip
    case otherXML, binary
    /// A file recognised as something that holds no track: what it is, and what to give instead.
    case notATrack(what: String, give: String)

    /// Whether a file of this kind is one `import` reads by its content (NMEA logs and text
    /// aside, which are recognised by their sentences).
    public var isTrackFile: Bool {
        switch self {
        case .gpx, .kml, .tcx, .fit, .geoJSON, .csv, .jsonTrack, .googleTimeline, .ownTracksRec, .dawarich: true
        default: false
        }
    }

    /// Looks at the first kilobytes of `path` (an ``InputError`` when it cannot be read).
    public static func sniff(_ path: String) throws -> FileKind {
        try head(path).withUnsafeBytes { kind(of: $0) }
    }

    /// Whether a file of `kind` starting with `head` is Trailbook's own export (`export`): a
    /// GPX it wrote (`creator="Trailbook"`), its GeoJSON or KML (named "Trailbook ..."), its CSV
    /// (the points' columns with `ride` and `segment`). Its rides and segments are taken as
    /// written: a round trip comes back with the rides it went out with.
    public static func writtenByTrailbook(_ kind: FileKind, head: [UInt8]) -> Bool {
        let text = String(decoding: head.prefix(2048), as: UTF8.self)
        switch kind {
        case .gpx: return text.contains(#"creator="Trailbook""#)
        case .geoJSON: return text.contains(#""name":"Trailbook "#)
        case .kml: return text.contains("<name>Trailbook ")
        case .csv:
            let header = text.prefix { $0 != "\n" && $0 != "\r\n" }
            return header.hasPrefix("time,mode,lat,lon,alt,speed,track,quality,") && header.contains(",ride,segment,")
        default: return false
        }
    }

    /// The first kilobytes of `path`, decompressed (an ``InputError`` when it cannot be read).
    public static func head(_ path: String) throws -> [UInt8] {
        let input = try InputFile(path: path)
        var head: [UInt8] = []
        struct Enough: Error {}
        do {
            try input.forEachChunk { chunk in
                head.append(contentsOf: chunk.prefix(4096 - head.count))
                if head.count >= 4096 { throw Enough() }
            }
        } catch is Enough {
        } catch InputError.brokenGzip {
            // A broken gzip stream: the reader that follows reports it.
        }
        return head
    }

    public static func kind(of head: UnsafeRawBufferPointer) -> FileKind {
        if head.isEmpty { return .empty }
        if FITReader.looksLikeFIT(head) { return .fit }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if head.starts(with: Array("%PDF".utf8)) { return .pdf }
        if head.starts(with: [0x50, 0x4B, 0x03, 0x04]) { return .zip }
        if GPXReader.looksLikeGPX(head) { return .gpx }
        if KMLReader.looksLikeKML(head) { return .kml }
        if TCXReader.looksLikeTCX(head) { return .tcx }
        if GoogleTimeline.format(of: head) != nil { return .googleTimeline }
        if DawarichExport.looksLikeDawarich(head) { return .dawarich }
        if GeoJSONReader.looksLikeGeoJSON(head) { return .geoJSON }
        if JSONTrack.looksLikeJSONTrack(head) { return .jsonTrack }
        if OwnTracksRec.looksLikeRec(head) { return .ownTracksRec }
        if CSVTrackReader.looksLikeCSV(head) { return .csv }
        let first = head.first(where: {
            $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF
        })
        if first == UInt8(ascii: "<") { return .otherXML }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") { return otherJSON(head) }
        if let csv = otherCSV(head) { return csv }
        // Text has no NUL bytes and is valid UTF-8 (a character cut at the end aside).
        let text = head.count > 3 ? UnsafeRawBufferPointer(rebasing: head.dropLast(3)) : head
        let valid = String(validating: text, as: UTF8.self) != nil
        return head.contains(0) || !valid ? .binary : .nmeaOrText
    }

    /// JSON that none of the readers takes: Google's files that hold no locations say what they
    /// are (their keys as locationhistoryformat.com documents them,
    /// CarlosBergillos/LocationHistoryFormat schemas/TimelineEdits.schema.json @eec3a7c8 and
    /// schemas/Settings.schema.json @3e36377f), any other says it is JSON of another kind.
    static func otherJSON(_ head: UnsafeRawBufferPointer) -> FileKind {
        let text = String(decoding: head, as: UTF8.self)
        let google = "Records.json, the Semantic Location History or Timeline.json (location-history.json) instead"
        if text.contains("\"timelineEdits\"") {
            return .notATrack(
                what: "Google's Timeline Edits file (the edits made on a phone and its raw signals, not the location "
                    + "history)", give: google)
        }
        if DawarichExport.isManifest(head) {
            return .notATrack(
                what: "the manifest of a Dawarich archive (the list of its files, no places)",
                give: "the archive's zip as Dawarich wrote it, or the folder it unpacks to")
        }
        if text.contains("\"deviceSettings\"") || text.contains("\"historyEnabled\"") {
            return .notATrack(
                what: "Google Location History's settings (its devices and whether history is on, no locations)",
                give: google)
        }
        return .notATrack(
            what: "JSON, but not GeoJSON, Google location history or a JSON track (no coordinates with times where "
                + "those have them)",
            give: "a GeoJSON FeatureCollection of timed points or lines, Google's Records.json or Timeline.json, or a "
                + "Trailbook JSON track")
    }

    /// Text in columns with no NMEA sentence in its first lines and no latitude and longitude
    /// columns: CSV that says which columns it has.
    static func otherCSV(_ head: UnsafeRawBufferPointer) -> FileKind? {
        let text = String(decoding: head, as: UTF8.self)
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard let header = lines.first, !lines.contains(where: { $0.hasPrefix("$") || $0.hasPrefix("!") }) else {
            return nil
        }
        let separator: Character? = [",", ";", "\t"].max { a, b in
            header.filter { $0 == a }.count < header.filter { $0 == b }.count
        }
        guard let separator, header.contains(separator) else { return nil }
        let names = header.split(separator: separator).prefix(8).map {
            $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        }
        return .notATrack(
            what: "CSV whose header (\(names.joined(separator: ", "))) names no latitude and longitude columns",
            give: "a CSV with a header naming them (lat or latitude, lon or longitude, and a time column)")
    }

    /// What was found, as a clause for "Nothing to import from F: ...".
    public var found: String {
        switch self {
        case .empty: return "it is empty"
        case .jpeg: return "it is a JPEG image"
        case .png: return "it is a PNG image"
        case .pdf: return "it is a PDF document"
        case .zip: return "it is a ZIP archive"
        case .otherXML: return "it is XML but not GPX, KML or TCX"
        case .binary: return "it holds binary data, not text"
        case .notATrack(let what, _): return "it is " + what
        case .gpx, .kml, .tcx, .fit, .geoJSON, .csv, .jsonTrack, .googleTimeline, .ownTracksRec, .dawarich, .nmeaOrText:
            return "no NMEA sentences in it"
        }
    }
}
