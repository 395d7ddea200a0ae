import Formats
import Foundation
import GPSCore
import GPSDevices
import SystemPackage
import TrackModel

/// The SHA-256 of a file, computed on a thread of its own from when it is made, so an import
/// reads and runs the rules over the file meanwhile instead of waiting for it.
final class FileDigesting: Sendable {
    private let outcome = Guarded<Result<String, Errno>?>(nil)

    /// Starts digesting `path`.
    init(_ path: String) {
        let outcome = outcome
        Blocking.start("trailbook digest") {
            let result = Result { () throws(Errno) -> String in
                guard ZipArchive.split(path) != nil else { return try ContentDigest.hexDigest(ofFile: path) }
                // An entry of a zip archive: the digest of what it holds, so that the file
                // imported from the archive and the same file unpacked are one file.
                return try ContentDigest.hexDigest { (update: (UnsafeRawBufferPointer) -> Void) throws(Errno) in
                    do {
                        let input = try InputFile(path: path)
                        try input.forEachChunk { update($0) }
                    } catch {
                        throw Errno.ioError
                    }
                }
            }
            outcome.withLock { $0 = result }
        }
    }

    /// The digest once it is known, without waiting.
    var ready: Result<String, Errno>? { outcome.peek { $0 } }

    /// Waits for the digest.
    func wait() -> Result<String, Errno> {
        outcome.wait(until: { $0 != nil }) { $0! }
    }
}
