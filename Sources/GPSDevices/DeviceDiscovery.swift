import Foundation
import GPSCore

/// Finds serial GPS receiver candidates and what sysfs knows about them.
public enum DeviceDiscovery {
    /// One candidate receiver.
    public struct Candidate: Equatable, Sendable {
        /// The stable name under /dev/serial/by-id, when there is one.
        public var byID: String?
        /// The device node, e.g. /dev/ttyUSB0.
        public var node: String
        /// USB vendor and product IDs (hex), from sysfs.
        public var vendorID: String?
        public var productID: String?
        /// Manufacturer and product strings, from sysfs.
        public var manufacturer: String?
        public var product: String?
        /// Kernel driver (cp210x, pl2303, ftdi_sio, cdc_acm, ...).
        public var driver: String?
        /// Whether this user may open it for reading and writing.
        public var accessible: Bool

        /// The path to show and use: the stable by-id name when there is one.
        public var preferredPath: String { byID ?? node }
    }

    /// Where device nodes and sysfs live (tests point these at a prepared tree).
    public static var devRoot: String { Console.current.environment["TRAILBOOK_DEV_ROOT"] ?? "/dev" }
    public static var sysRoot: String { Console.current.environment["TRAILBOOK_SYS_ROOT"] ?? "/sys" }

    /// A name for the receiver at `path` that stays the same across plug-ins: the by-id name
    /// (without its folder) when the path is one or its node has one, else the name the path
    /// gives (a udev link such as `gps0`, or the node's `ttyUSB0`).
    public static func stableName(of path: String) -> String {
        if path.contains("/serial/by-id/") { return (path as NSString).lastPathComponent }
        let node = ((path as NSString).resolvingSymlinksInPath as NSString).standardizingPath
        if let byID = candidates().first(where: { $0.node == node })?.byID {
            return (byID as NSString).lastPathComponent
        }
        return (path as NSString).lastPathComponent
    }

    /// Preferred paths of all candidates, for messages.
    public static func candidatePaths() -> [String] { candidates().map(\.preferredPath) }

    /// All `ttyUSB*` and `ttyACM*` nodes, with their by-id names and sysfs details.
    public static func candidates() -> [Candidate] {
        let fm = FileManager.default
        let dev = devRoot
        let nodes = ((try? fm.contentsOfDirectory(atPath: dev)) ?? [])
            .filter { $0.hasPrefix("ttyUSB") || $0.hasPrefix("ttyACM") }
            .sorted { ($0.count, $0) < ($1.count, $1) }
        var byID: [String: String] = [:]
        let byIDDir = dev + "/serial/by-id"
        for link in (try? fm.contentsOfDirectory(atPath: byIDDir)) ?? [] {
            let path = byIDDir + "/" + link
            if let target = try? fm.destinationOfSymbolicLink(atPath: path) {
                byID[(target as NSString).lastPathComponent] = path
            }
        }
        return nodes.map { name in
            var c = Candidate(
                byID: byID[name], node: dev + "/" + name, accessible: Posix.mayReadWrite(dev + "/" + name))
            let device = URL(fileURLWithPath: sysRoot + "/class/tty/" + name + "/device").resolvingSymlinksInPath()
            c.driver = (try? fm.destinationOfSymbolicLink(atPath: device.path + "/driver")).map {
                ($0 as NSString).lastPathComponent
            }
            // The USB device directory is the nearest ancestor that has idVendor.
            var dir = device
            for _ in 0..<4 {
                if fm.fileExists(atPath: dir.path + "/idVendor") {
                    c.vendorID = read(dir.path + "/idVendor")
                    c.productID = read(dir.path + "/idProduct")
                    c.manufacturer = read(dir.path + "/manufacturer")
                    c.product = read(dir.path + "/product")
                    break
                }
                dir = dir.deletingLastPathComponent()
            }
            return c
        }
    }

    private static func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
