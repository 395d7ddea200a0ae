import Foundation

/// A tar archive (POSIX ustar as GNU tar writes it, with GNU's long names and pax headers), as
/// the web app's account archive is (`/export/archive`): every header is read and checked before
/// anything is written, and only then is it unpacked into a new folder.
///
/// Refused whole, with what is wrong as a clause: a header whose checksum does not match (a file
/// that is not a tar, or a damaged one), an entry whose name is absolute or climbs out of the
/// archive's folder (`..`), a link (symbolic or hard) or a device, an entry named twice, an entry
/// that runs past the end of the file (cut short), more than ``maxEntries`` entries or more than
/// ``maxBytes`` bytes unpacked. Files are made 0600 and folders 0700, never through a link.
public enum TarArchive {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public struct Entry: Sendable, Equatable {
        /// Its path inside the archive, without a trailing `/`.
        public var name: String
        /// Where its data begins in the file, and its size, bytes.
        public var offset: UInt64
        public var size: UInt64
        public var isFolder: Bool
    }

    /// The most an archive may unpack to: 64 GiB.
    public static let maxBytes: UInt64 = 64 << 30
    /// The most entries an archive may hold.
    public static let maxEntries = 1_000_000

    /// Whether the file at `path` starts with a tar header (its checksum right).
    public static func isTarFile(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let block = try? handle.read(upToCount: 512), block.count == 512 else { return false }
        return [UInt8](block).withUnsafeBytes { checksumMatches($0) } && !block.allSatisfy { $0 == 0 }
    }

    /// Whether a 512-byte header's checksum (the sum of its bytes, the checksum field counted as
    /// spaces) is the one it holds.
    static func checksumMatches(_ block: UnsafeRawBufferPointer) -> Bool {
        guard let stored = octal(UnsafeRawBufferPointer(rebasing: block[148..<156])) else { return false }
        var sum: UInt64 = 0
        for (i, byte) in block.enumerated() { sum += (148..<156).contains(i) ? 0x20 : UInt64(byte) }
        return sum == stored
    }

    /// An octal number field (spaces and NULs around it), or GNU's base-256 (high bit set).
    static func octal(_ field: UnsafeRawBufferPointer) -> UInt64? {
        if let first = field.first, first & 0x80 != 0 {
            return field.dropFirst().reduce(UInt64(first & 0x7F)) { ($0 << 8) | UInt64($1) }
        }
        var value: UInt64 = 0
        var digits = 0
        for byte in field where byte != 0x20 && byte != 0 {
            guard byte >= 0x30, byte <= 0x37 else { return nil }
            value = value * 8 + UInt64(byte - 0x30)
            digits += 1
        }
        return digits > 0 ? value : 0
    }

    static func text(_ field: UnsafeRawBufferPointer) -> String {
        String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The entries of the archive at `path`, every header checked (see the type's comment).
    public static func entries(_ path: String) throws -> [Entry] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw Failure(description: "it cannot be read") }
        defer { try? handle.close() }
        let fileSize = (try? handle.seekToEnd()) ?? 0
        var entries: [Entry] = []
        var names = Set<String>()
        var (offset, total): (UInt64, UInt64) = (0, 0)
        // A GNU long name or a pax `path` for the next entry.
        var nextName: String?
        var nextSize: UInt64?
        while offset + 512 <= fileSize {
            try handle.seek(toOffset: offset)
            let block = [UInt8](try handle.read(upToCount: 512) ?? Data())
            guard block.count == 512 else { break }
            if block.allSatisfy({ $0 == 0 }) { break }
            let header = try block.withUnsafeBytes { b -> (name: String, size: UInt64, type: UInt8, link: String) in
                guard checksumMatches(b) else {
                    throw Failure(
                        description: offset == 0
                            ? "it is not a tar archive"
                            : "its header at byte \(offset) is damaged (its checksum is wrong)")
                }
                var name = text(UnsafeRawBufferPointer(rebasing: b[0..<100]))
                let prefix = text(UnsafeRawBufferPointer(rebasing: b[345..<500]))
                if text(UnsafeRawBufferPointer(rebasing: b[257..<262])) == "ustar", !prefix.isEmpty {
                    name = prefix + "/" + name
                }
                guard let size = octal(UnsafeRawBufferPointer(rebasing: b[124..<136])) else {
                    throw Failure(description: "the size of \(name) is unreadable")
                }
                return (name, size, b[156], text(UnsafeRawBufferPointer(rebasing: b[157..<257])))
            }
            let size = nextSize ?? header.size
            let data = offset + 512
            guard data + size <= fileSize else {
                throw Failure(description: "it is cut short (\(nextName ?? header.name) runs past its end)")
            }
            offset = data + (size + 511) / 512 * 512
            switch header.type {
            case UInt8(ascii: "L"), UInt8(ascii: "x"):
                try handle.seek(toOffset: data)
                let body = String(
                    decoding: try handle.read(upToCount: Int(min(header.size, 1 << 20))) ?? Data(), as: UTF8.self)
                if header.type == UInt8(ascii: "L") {
                    nextName = String(body.prefix { $0 != "\0" })
                } else {
                    // pax records: "LENGTH key=value\n".
                    for record in body.split(separator: "\n") {
                        guard let space = record.firstIndex(of: " ") else { continue }
                        let pair = record[record.index(after: space)...].split(separator: "=", maxSplits: 1)
                        guard pair.count == 2 else { continue }
                        if pair[0] == "path" { nextName = String(pair[1]) }
                        if pair[0] == "size" { nextSize = UInt64(pair[1]) }
                    }
                }
                continue
            case UInt8(ascii: "g"):
                continue
            default: break
            }
            let name = nextName ?? header.name
            (nextName, nextSize) = (nil, nil)
            switch header.type {
            case UInt8(ascii: "1"), UInt8(ascii: "2"):
                throw Failure(
                    description: "it holds a link (\(name) → \(header.link)), which Trailbook does not unpack")
            case UInt8(ascii: "0"), 0, UInt8(ascii: "7"), UInt8(ascii: "5"): break
            default: throw Failure(description: "it holds \(name), which is not a file or a folder")
            }
            let parts = name.split(separator: "/", omittingEmptySubsequences: true)
            guard !name.hasPrefix("/"), !parts.isEmpty, !parts.contains(".."), !name.contains("\0") else {
                throw Failure(description: "an entry's name climbs out of its folder (\(name))")
            }
            let clean = parts.filter { $0 != "." }.joined(separator: "/")
            guard names.insert(clean).inserted else { throw Failure(description: "it holds \(clean) twice") }
            let isFolder = header.type == UInt8(ascii: "5")
            total += isFolder ? 0 : size
            guard total <= maxBytes else {
                throw Failure(description: "it would unpack to more than \(maxBytes >> 30) GiB")
            }
            guard entries.count < maxEntries else {
                throw Failure(description: "it holds more than \(maxEntries) entries")
            }
            entries.append(Entry(name: clean, offset: data, size: isFolder ? 0 : size, isFolder: isFolder))
        }
        guard !entries.isEmpty || offset > 0 else { throw Failure(description: "it is empty") }
        return entries
    }

    /// Unpacks the archive at `path` into `folder`, which must not exist: made 0700, and
    /// removed again when something fails. Returns the entries.
    @discardableResult
    public static func unpack(_ path: String, into folder: String) throws -> [Entry] {
        let entries = try entries(path)
        guard mkdir(folder, 0o700) == 0 else {
            throw Failure(description: "\(folder) cannot be made (\(String(cString: strerror(errno))))")
        }
        do {
            guard let handle = FileHandle(forReadingAtPath: path) else {
                throw Failure(description: "it cannot be read")
            }
            defer { try? handle.close() }
            func makeFolders(_ relative: String) throws {
                var made = folder
                for part in relative.split(separator: "/") {
                    made += "/" + part
                    if mkdir(made, 0o700) != 0 && errno != EEXIST {
                        throw Failure(description: "\(made) cannot be made (\(String(cString: strerror(errno))))")
                    }
                }
            }
            for entry in entries {
                if entry.isFolder {
                    try makeFolders(entry.name)
                    continue
                }
                try makeFolders((entry.name as NSString).deletingLastPathComponent)
                let target = folder + "/" + entry.name
                let fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
                guard fd >= 0 else {
                    throw Failure(description: "\(target) cannot be written (\(String(cString: strerror(errno))))")
                }
                let out = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
                try handle.seek(toOffset: entry.offset)
                var left = entry.size
                while left > 0 {
                    let chunk = try handle.read(upToCount: Int(min(left, 1 << 20))) ?? Data()
                    guard !chunk.isEmpty else { throw Failure(description: "it is cut short (\(entry.name))") }
                    try out.write(contentsOf: chunk)
                    left -= UInt64(chunk.count)
                }
                try out.close()
            }
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        return entries
    }
}
