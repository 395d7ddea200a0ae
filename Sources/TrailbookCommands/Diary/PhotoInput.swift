import Foundation
import GPSCore
import Photos
import TrackStore

/// Photos named on the command line: checked (exists, is a JPEG) and their EXIF read before
/// anything is stored.
struct PhotoInput {
    var path: String
    var metadata: JPEGMetadata
    /// Why the EXIF data could not be read, when it could not (the photo is still a JPEG).
    var exifProblem: String?

    /// Reads the start of `path`; missing or unreadable: exit 66, not a JPEG: exit 65.
    init(_ path: String) throws {
        self.path = path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw CommandFailure(
                message: exists
                    ? "Cannot read the photo \(path); check its permissions."
                    : "The photo \(path) does not exist; check the path.",
                code: .noInput)
        }
        defer { try? handle.close() }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw CommandFailure(message: "\(path) is a folder; give JPEG files.", code: .noInput)
        }
        let head = Array((try? handle.read(upToCount: 256 << 10)) ?? Data())
        do {
            metadata = try JPEGMetadata.read(head)
        } catch let failure {
            switch failure {
            case .notJPEG:
                throw CommandFailure(
                    message: "\(path) cannot be added: \(failure); Trailbook stores JPEG photos (.jpg) only.",
                    code: .dataError)
            case .brokenEXIF:
                metadata = JPEGMetadata()
                exifProblem = failure.description
            }
        }
    }

    /// When the photo was taken, UTC: the camera clock (with its recorded offset, else read in
    /// `zone`) shifted by `offset` seconds; else the GPS time; nil when the photo has neither.
    func taken(zone: TimeZone, offset: Double = 0) -> Int64? {
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

extension TrackStore {
    /// Copies the photos into the media folder; on failure removes what this call copied.
    func storePhotos(_ photos: [PhotoInput], zone: TimeZone, offset: Double = 0) throws -> [Photo] {
        var stored: [Photo] = []
        do {
            for p in photos {
                stored.append(try storePhotoFile(p.path, takenMilliseconds: p.taken(zone: zone, offset: offset)))
            }
        } catch {
            discardUnattached(stored)
            throw CommandFailure(
                message: "Cannot copy the photo into \(mediaDirectory): \(error); check that the folder is writable.",
                code: .cannotCreate)
        }
        return stored
    }
}
