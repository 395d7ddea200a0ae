import Foundation
import GPSCore
import Photos
import TrackModel

/// A photo to add: checked (exists, is a JPEG) and its EXIF read before anything is stored.
public struct PhotoFile: Sendable {
    public var path: String
    public var metadata: JPEGMetadata
    /// Why the EXIF data could not be read, when it could not (the photo is still a JPEG).
    public var exifProblem: String?

    /// Reads the start of `path`.
    public init(_ path: String) throws(PhotoError) {
        self.path = path
        var isDirectory: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        if exists && isDirectory.boolValue { throw .isFolder(path) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw exists ? .unreadable(path) : .missing(path)
        }
        defer { try? handle.close() }
        let head = Array((try? handle.read(upToCount: 256 << 10)) ?? Data())
        do {
            metadata = try JPEGMetadata.read(head)
        } catch let failure {
            switch failure {
            case .notJPEG: throw .notJPEG(path, reason: failure.description)
            case .brokenEXIF:
                metadata = JPEGMetadata()
                exifProblem = failure.description
            }
        }
    }

    /// The JPEG files under `paths` (folders searched recursively for *.jpg/*.jpeg), in name
    /// order; a named file is taken as it is.
    public static func collect(_ paths: [String]) throws(PhotoError) -> [String] {
        var files: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw .missing(path)
            }
            if isDirectory.boolValue {
                let names = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
                files += names.filter { ["jpg", "jpeg"].contains(($0 as NSString).pathExtension.lowercased()) }
                    .sorted().map { path + "/" + $0 }
            } else {
                files.append(path)
            }
        }
        return files
    }

    /// When the photo was taken, UTC: the camera clock (with its recorded offset, else read in
    /// `zone`) shifted by `offset` seconds; else the GPS time; nil when the photo has neither.
    public func taken(zone: TimeZone, offset: Double = 0) -> Int64? {
        if let clock = metadata.cameraClockMilliseconds {
            let utc: Int64
            if let minutes = metadata.offsetMinutes {
                utc = clock - Int64(minutes) * 60_000
            } else {
                // The clock reads local time in `zone`: find the instant whose local time it is.
                let guess = Date(timeIntervalSince1970: Double(clock) / 1000)
                let first = Double(zone.secondsFromGMT(for: guess))
                let corrected = Double(zone.secondsFromGMT(for: guess.addingTimeInterval(-first)))
                utc = clock - Int64(corrected * 1000)
            }
            return utc + Int64((offset * 1000).rounded())
        }
        return metadata.gpsMilliseconds
    }
}

/// Why a photo cannot be added.
public enum PhotoError: ServiceFailure, Equatable {
    case missing(String)
    case unreadable(String)
    case isFolder(String)
    /// Not a JPEG; the reason is a clause ("it is not a JPEG (a PNG image)").
    case notJPEG(String, reason: String)
    /// No JPEG files among the paths given.
    case noneFound([String])
    /// The copy into the media folder failed.
    case cannotCopy(folder: String, reason: String)

    public var kind: FailureKind {
        switch self {
        case .missing, .unreadable, .isFolder, .noneFound: return .missingInput
        case .notJPEG: return .badData
        case .cannotCopy: return .cannotWrite
        }
    }

    public var description: String {
        switch self {
        case .missing(let path): return "The photo \(path) does not exist; check the path."
        case .unreadable(let path): return "Cannot read the photo \(path); check its permissions."
        case .isFolder(let path): return "\(path) is a folder; give JPEG files."
        case .notJPEG(let path, let reason):
            return "\(path) cannot be added: \(reason); Trailbook stores JPEG photos (.jpg) only."
        case .noneFound(let paths): return "No JPEG files found in \(paths.joined(separator: ", "))."
        case .cannotCopy(let folder, let reason):
            return "Cannot copy the photo into \(folder): \(reason); check that the folder is writable."
        }
    }
}
