import Reports

/// What a file to import looks like from its first bytes (after gzip decompression).
public enum FileKind: Equatable, Sendable {
    case gpx, kml, tcx, fit, geoJSON, csv, jsonTrack, googleTimeline, ownTracksRec, nmeaOrText, empty, jpeg, png, pdf, zip
    case otherXML, binary

    /// Whether a file of this kind is one `import` reads by its content (NMEA logs and text
    /// aside, which are recognised by their sentences).
    public var isTrackFile: Bool {
        switch self {
        case .gpx, .kml, .tcx, .fit, .geoJSON, .csv, .jsonTrack, .googleTimeline, .ownTracksRec: true
        default: false
        }
    }

    /// Looks at the first kilobytes of `path` (an ``InputError`` when it cannot be read).
    public static func sniff(_ path: String) throws -> FileKind {
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
        return head.withUnsafeBytes { kind(of: $0) }
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
        if GeoJSONReader.looksLikeGeoJSON(head) { return .geoJSON }
        if JSONTrack.looksLikeJSONTrack(head) { return .jsonTrack }
        if OwnTracksRec.looksLikeRec(head) { return .ownTracksRec }
        if CSVTrackReader.looksLikeCSV(head) { return .csv }
        if head.first(where: {
            $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF
        }) == UInt8(ascii: "<") {
            return .otherXML
        }
        // Text has no NUL bytes and is valid UTF-8 (a character cut at the end aside).
        let text = head.count > 3 ? UnsafeRawBufferPointer(rebasing: head.dropLast(3)) : head
        let valid = String(validating: text, as: UTF8.self) != nil
        return head.contains(0) || !valid ? .binary : .nmeaOrText
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
        case .gpx, .kml, .tcx, .fit, .geoJSON, .csv, .jsonTrack, .googleTimeline, .ownTracksRec, .nmeaOrText:
            return "no NMEA sentences in it"
        }
    }
}
