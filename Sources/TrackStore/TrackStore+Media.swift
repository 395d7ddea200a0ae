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
    /// and returns the photo to attach. The copy is written to a temporary name and renamed, so a
    /// half-copied file never carries a final name.
    public func storePhotoFile(_ source: String, takenMilliseconds: Int64?) throws -> Photo {
        let sha = try ContentDigest.hexDigest(ofFile: source)
        let ext = (source as NSString).pathExtension.lowercased() == "jpeg" ? "jpeg" : "jpg"
        let relative = "\(sha.prefix(2))/\(sha).\(ext)"
        let folder = mediaDirectory + "/" + sha.prefix(2)
        for dir in [mediaDirectory, folder] where mkdir(dir, 0o700) != 0 && errno != EEXIST {
            throw StoreError.cannotOpen(path: dir, reason: String(cString: strerror(errno)))
        }
        let target = mediaDirectory + "/" + relative
        let size = ((try? FileManager.default.attributesOfItem(atPath: source))?[.size] as? NSNumber)?.intValue ?? 0
        if !FileManager.default.fileExists(atPath: target) {
            let temporary = target + ".part-\(getpid())"
            let input = try Posix.open(source, O_RDONLY)
            defer { Posix.close(input) }
            unlink(temporary)
            let output = try Posix.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
            do {
                defer { Posix.close(output) }
                let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
                defer { buffer.deallocate() }
                while true {
                    let n = try Posix.read(input, into: buffer)
                    if n <= 0 { break }
                    try Posix.write(output, UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
                }
                guard fsync(output) == 0 else { throw Errno(rawValue: errno) }
            } catch {
                unlink(temporary)
                throw error
            }
            guard rename(temporary, target) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                throw StoreError.cannotOpen(path: target, reason: reason)
            }
        }
        return Photo(
            sha256: sha, file: relative, bytes: size, takenMilliseconds: takenMilliseconds,
            name: (source as NSString).lastPathComponent)
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
