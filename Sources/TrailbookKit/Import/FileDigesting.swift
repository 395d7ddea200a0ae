import Foundation
import GPSCore
import SystemPackage
import TrackModel

/// The SHA-256 of a file, computed on a thread of its own from when it is made, so an import
/// reads and runs the rules over the file meanwhile instead of waiting for it.
final class FileDigesting: @unchecked Sendable {
    private let condition = NSCondition()
    private var outcome: Result<String, Errno>?

    /// Starts digesting `path`.
    init(_ path: String) {
        let thread = Thread { [self] in
            let result = Result { () throws(Errno) -> String in try ContentDigest.hexDigest(ofFile: path) }
            condition.withLock {
                outcome = result
                condition.broadcast()
            }
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// The digest once it is known, without waiting.
    var ready: Result<String, Errno>? { condition.withLock { outcome } }

    /// Waits for the digest.
    func wait() -> Result<String, Errno> {
        condition.withLock {
            while outcome == nil { condition.wait() }
            return outcome!
        }
    }
}
