import Formats
import GPSCore

/// What a reader hands over for `text` fed in pieces of `chunk` bytes.
func readAll(_ reader: some TrackFileReader, _ text: String, chunk: Int = 4096) throws -> [TrackItem] {
    try readAll(reader, Array(text.utf8), chunk: chunk)
}

func readAll(_ reader: some TrackFileReader, _ bytes: [UInt8], chunk: Int = 4096) throws -> [TrackItem] {
    var items: [TrackItem] = []
    var i = 0
    while i < bytes.count {
        try Array(bytes[i..<min(i + chunk, bytes.count)]).withUnsafeBytes { try reader.feed($0) { items.append($0) } }
        i += chunk
    }
    try reader.finish { items.append($0) }
    return items
}

extension [TrackItem] {
    var fixes: [Fix] {
        compactMap {
            if case .point(let fix) = $0 { return fix }
            return nil
        }
    }

    var waypoints: [TrackItem.Waypoint] {
        compactMap {
            if case .waypoint(let w) = $0 { return w }
            return nil
        }
    }

    /// The fixes' times, in seconds since 1970.
    var seconds: [Int64] { fixes.compactMap { $0.unixMilliseconds.map { $0 / 1000 } } }
}

/// Seconds since 1970 of an ISO 8601 UTC time.
func seconds(_ iso: String) -> Int64 { UTCTimestamp.milliseconds(Substring(iso))! / 1000 }
