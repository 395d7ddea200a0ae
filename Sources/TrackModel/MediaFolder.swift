import Foundation
import GPSCore
import SystemPackage

/// The folder of photo files beside a store: photos copied in, named by their SHA-256 (the same
/// photo added twice is one file), folder 0700 and files 0600 like the store. Every store keeps
/// its photos this way; the store holds their references.
public struct MediaFolder: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// A file or folder of the media folder could not be written.
    public struct CannotWrite: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String {
            "Cannot write \(path): \(reason); check that the media folder is writable."
        }
    }

    /// Copies the file at `source` into the folder (unless that content is there already) and
    /// returns the photo to attach. The copy is written to a temporary name and renamed, so a
    /// half-copied file never carries a final name.
    public func store(_ source: String, takenMilliseconds: Int64?) throws -> Photo {
        let sha = try ContentDigest.hexDigest(ofFile: source)
        let ext = (source as NSString).pathExtension.lowercased() == "jpeg" ? "jpeg" : "jpg"
        let relative = "\(sha.prefix(2))/\(sha).\(ext)"
        let folder = path + "/" + sha.prefix(2)
        // The folder and any of its parents missing yet (a new PostgreSQL store's default media
        // folder lies under a data folder that may not exist), each 0700.
        var dir = path.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            dir += "/" + part
            if mkdir(dir, 0o700) != 0 && errno != EEXIST {
                throw CannotWrite(path: dir, reason: String(cString: strerror(errno)))
            }
        }
        let target = path + "/" + relative
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
                throw CannotWrite(path: target, reason: reason)
            }
        }
        return Photo(
            sha256: sha, file: relative, bytes: size, takenMilliseconds: takenMilliseconds,
            name: (source as NSString).lastPathComponent)
    }
}

extension MediaFolder {
    /// Deletes the photo files `files` (names in `directory`) that no record uses any more and
    /// returns how many go: at once, or with `afterCommit` (inside a unit of work) once the unit has
    /// committed, so that its rollback keeps them.
    public static func release(
        _ files: [String], in directory: String, afterCommit: ((@escaping @Sendable () -> Void) -> Void)?
    ) -> Int {
        let paths = files.map { directory + "/" + $0 }
        guard let afterCommit else { return paths.filter { unlink($0) == 0 }.count }
        let present = paths.filter { FileManager.default.fileExists(atPath: $0) }
        afterCommit { for path in present { unlink(path) } }
        return present.count
    }
}
