import Foundation

/// A folder laid out as OwnTracks Recorder keeps its store: `rec/USER/DEVICE/YYYY-MM.rec`, a
/// folder per user, one per device in it, a file per month (the Recorder's README, "Storage",
/// owntracks/recorder@02c0ce20; names are lower case there). `trailbook import` takes such a
/// tree whole: each user's devices into the account of that name, each device its own.
public struct RecorderTree: Sendable, Equatable {
    /// The `rec` folder.
    public var root: String
    public var devices: [Device]

    public struct Device: Sendable, Equatable {
        public var user: String
        public var device: String
        /// Its monthly files, in time order.
        public var files: [String]
    }

    /// The users, in name order.
    public var users: [String] { Array(Set(devices.map(\.user))).sorted() }

    /// The tree at `path`: the Recorder's store folder (its `rec` folder inside) or the `rec`
    /// folder itself; nil when `path` is no such folder or no device in it has a monthly file.
    public static func find(_ path: String) -> RecorderTree? {
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        let root = (base as NSString).lastPathComponent == "rec" ? base : base + "/rec"
        guard isFolder(root) else { return nil }
        var devices: [Device] = []
        for user in folders(in: root) {
            for device in folders(in: root + "/" + user) {
                let folder = root + "/" + user + "/" + device
                let months = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter(isMonth)
                    .sorted()
                guard !months.isEmpty else { continue }
                devices.append(Device(user: user, device: device, files: months.map { folder + "/" + $0 }))
            }
        }
        return devices.isEmpty ? nil : RecorderTree(root: root, devices: devices)
    }

    /// `2024-06.rec`, also gzip-compressed.
    static func isMonth(_ name: String) -> Bool {
        var bare = Substring(name)
        if bare.hasSuffix(".gz") { bare = bare.dropLast(3) }
        guard bare.hasSuffix(".rec") else { return false }
        let stem = Array(bare.dropLast(4).utf8)
        return stem.count == 7 && stem[4] == UInt8(ascii: "-")
            && stem.enumerated().allSatisfy { $0.offset == 4 || (0x30...0x39).contains($0.element) }
    }

    static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

    static func folders(in path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
            !$0.hasPrefix(".") && isFolder(path + "/" + $0)
        }.sorted()
    }
}
