import Foundation

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

    /// A new empty temporary directory.
    public static func temporaryDirectory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trailbook-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.path
    }
}
