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
        _ path: String, kind: FileKind, date: CivilDate?, bar: ProgressBar, _ item: (StreamItem) throws -> Void
    ) throws {
        var source = ReplaySource(path: path, fallbackDate: date)
        source.progress = { bar.update($0) }
        do {
            try source.run(shouldStop: { false }) { event in
                guard case .fix(let f) = event else { return }
                try item(.fix(f))
            }
        } catch let error as DeviceError {
            throw error.commandFailure
        }
        let s = source.statistics
        if !s.foundNMEA {
            throw CommandFailure(
                message:
                    "Nothing to import from \(path): \(s.badChecksum > 0 ? "\(s.badChecksum) sentences with bad checksums and none that decoded" : kind.found); "
                    + "give an NMEA 0183 log ($GPGGA/$GPRMC lines, plain or .gz) or a GPX file.",
                code: .dataError)
        }
    }

    /// Reads a GPX file (plain or gzip, UTF-8 or UTF-16): each track is a stream, each track
    /// segment a segment.
    static func gpx(_ path: String, bar: ProgressBar, _ item: (StreamItem) throws -> Void) throws -> GPXExtras {
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
                bar.update(input.bytesRead)
            }
            try reader.finish(take)
        } catch let failure as GPXReader.Failure {
            throw CommandFailure(
                message:
                    "Cannot import \(path): \(failure.description); nothing of it was stored. Fix or re-export the GPX file.",
                code: .dataError)
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
                throw CommandFailure(message: "\(path) is larger than 1 GB of JSON; split it.", code: .dataError)
            }
        }
        let segments: [[Fix]]
        do {
            segments = try JSONTrack.read(data)
        } catch {
            throw CommandFailure(
                message: "Cannot import \(path): \(error); nothing of it was stored. Fix or re-export the file.",
                code: .dataError)
        }
        try item(.track)
        for (i, fixes) in segments.enumerated() {
            if i > 0 { try item(.segment) }
            for f in fixes { try item(.fix(f)) }
        }
    }
}
