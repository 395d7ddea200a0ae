import Foundation
import Synchronization

/// The package's sample files.
public enum Samples {
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Samples")

    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    public static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The sample ride cut into epochs (each starts at its RMC line), as bytes.
    public static func rideEpochs() throws -> [[UInt8]] { epochs(of: try bytes("ride.nmea")) }

    /// A log cut into epochs, each starting at its RMC line.
    public static func epochs(of log: [UInt8]) -> [[UInt8]] {
        var epochs: [[UInt8]] = []
        for line in log.split(separator: 0x0A) {
            let bytes = Array(line) + [0x0A]
            let isRMC = line.count > 6 && Array(line.dropFirst(3).prefix(3)) == Array("RMC".utf8)
            if isRMC || epochs.isEmpty {
                epochs.append(bytes)
            } else {
                epochs[epochs.count - 1] += bytes
            }
        }
        return epochs
    }

    /// A new empty temporary directory, removed with everything in it when the test process
    /// exits (kept with `TRAILBOOK_KEEP_TEST_FILES=1`, to look at what a failing test left).
    public static func temporaryDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trailbook-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        _ = removedAtExit
        made.withLock { $0.append(dir.path) }
        return dir.path
    }

    /// The temporary directories made in this process.
    private static let made = Mutex<[String]>([])

    /// Registers, once, the removal of ``made`` when the process exits.
    private static let removedAtExit: Void = {
        guard ProcessInfo.processInfo.environment["TRAILBOOK_KEEP_TEST_FILES"] != "1" else { return }
        atexit {
            for dir in Samples.made.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: dir) }
        }
    }()
}
