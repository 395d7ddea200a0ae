import Foundation
import GPSCore
import GPSDevices
import NMEA
import Reports

/// The readers `import` uses: each reads one file and hands over its fixes as ``StreamItem``s.
enum ImportReaders {
    /// What a GPX file held besides its track points.
    struct GPXExtras {
        var waypoints: [GPXReader.Waypoint] = []
        var routes = 0
    }

    /// Reads an NMEA log (plain or gzip) through the replay source, dating epochs that have no
    /// date in the log with `date`.
    static func nmea(
        _ path: String, kind: FileKind, date: CivilDate?, progress: (@Sendable (Int) -> Void)?,
        _ item: (StreamItem) throws -> Void
    ) throws {
        var source = ReplaySource(path: path, fallbackDate: date)
        source.progress = progress
        try source.run(shouldStop: { false }) { event in
            guard case .fix(let f) = event else { return }
            try item(.fix(f))
        }
        let s = source.statistics
        if !s.foundNMEA {
            throw ImportError.nothingToImport(
                path,
                found: s.badChecksum > 0
                    ? "\(counted(s.badChecksum, "sentence")) with bad checksums and none that decoded" : kind.found)
        }
    }

    /// Reads a GPX file (plain or gzip, UTF-8 or UTF-16): each track is a stream, each track
    /// segment a segment.
    static func gpx(
        _ path: String, progress: (@Sendable (Int) -> Void)?, _ item: (StreamItem) throws -> Void
    ) throws -> GPXExtras {
        let input = try InputFile(path: path)
        let reader = GPXReader()
        var extras = GPXExtras()
        func take(_ i: GPXReader.Item) throws {
            switch i {
            case .track: try item(.track)
            case .segment: try item(.segment)
            case .point(let f): try item(.fix(f))
            case .waypoint(let w): extras.waypoints.append(w)
            }
        }
        do {
            try input.forEachChunk { chunk in
                try reader.feed(chunk, take)
                progress?(input.bytesRead)
            }
            try reader.finish(take)
        } catch let failure as GPXReader.Failure {
            throw ImportError.broken(path, reason: failure.description, format: "GPX file")
        }
        extras.routes = reader.routes
        return extras
    }

    /// Reads the JSON track format: one stream, each of its segments a segment.
    static func jsonTrack(_ path: String, _ item: (StreamItem) throws -> Void) throws {
        var data = Data()
        let input = try InputFile(path: path)
        try input.forEachChunk { chunk in
            data.append(contentsOf: chunk)
            guard data.count <= 1 << 30 else {
                throw ImportError.tooLarge(path)
            }
        }
        let segments: [[Fix]]
        do {
            segments = try JSONTrack.read(data)
        } catch {
            throw ImportError.broken(path, reason: "\(error)", format: "file")
        }
        try item(.track)
        for (i, fixes) in segments.enumerated() {
            if i > 0 { try item(.segment) }
            for f in fixes { try item(.fix(f)) }
        }
    }
}
