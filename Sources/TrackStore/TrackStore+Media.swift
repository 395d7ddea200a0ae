import Foundation
import GPSCore
internal import GRDB
import SystemPackage

/// The media folder beside the store: photos copied in, named by their SHA-256 (the same photo
/// added twice is one file), folder 0700 and files 0600 like the store.
extension TrackStore {
    /// `trailbook.sqlite` → `trailbook-media`, next to it.
    public var mediaDirectory: String {
        (path.hasSuffix(".sqlite") ? String(path.dropLast(".sqlite".count)) : path) + "-media"
    }

    /// Copies the file at `source` into the media folder (unless that content is there already)
    /// and returns the photo to attach (``MediaFolder``).
    public func storePhotoFile(_ source: String, takenMilliseconds: Int64?) throws -> Photo {
        do {
            return try MediaFolder(path: mediaDirectory).store(source, takenMilliseconds: takenMilliseconds)
        } catch let failure as MediaFolder.CannotWrite {
            throw StoreError.cannotOpen(path: failure.path, reason: failure.reason)
        }
    }
}

extension SQLiteStoring {
    public func storePhotoFile(_ source: String, takenMilliseconds: Int64?) throws -> Photo {
        try pool.store.storePhotoFile(source, takenMilliseconds: takenMilliseconds)
    }

    /// Deletes the media files of `photos` that no stored photo row refers to: the copies of a
    /// command that failed before attaching them.
    public func discardUnattached(_ photos: [Photo]) {
        for photo in photos {
            let known = try? pool.read { db in
                try Row.fetchOne(db, sql: "SELECT 1 FROM photo WHERE sha256 = ?", arguments: [photo.sha256]) != nil
            }
            if known == false { unlink(mediaDirectory + "/" + photo.file) }
        }
    }
}
