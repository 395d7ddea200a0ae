internal import CZlib
import GPSCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A zip archive read in place (PKWARE's APPNOTE: the central directory, stored and deflated
/// entries, Zip64 sizes and offsets), each entry's data streamed through zlib so that memory
/// stays a buffer's whatever the entry's size.
///
/// It guards against zip bombs: an entry may not inflate to more than it declares, nor declare
/// more than 1,000 times its compressed size (deflate itself cannot reach 1,032), and entries
/// whose data overlap (one block of data counted many times) are refused. Encrypted entries and
/// methods other than stored and deflate are refused by name.
public final class ZipArchive {
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var method: UInt16
        public var compressedSize: UInt64
        public var size: UInt64
        public var localHeaderOffset: UInt64
        public var encrypted: Bool
        public var isFolder: Bool { name.hasSuffix("/") }
    }

    /// What is wrong with the archive or an entry, as a clause.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    public static let maxRatio: UInt64 = 1000

    public let entries: [Entry]
    private let fd: Int32
    private let fileSize: UInt64

    /// Whether `bytes` start like a zip archive.
    public static func isZip(_ bytes: UnsafeRawBufferPointer) -> Bool { bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) }

    /// Opens `path` and reads its central directory.
    public init(path: String) throws {
        fd = try Posix.open(path, O_RDONLY)
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            Posix.close(fd)
            throw Failure(description: "it cannot be examined")
        }
        fileSize = UInt64(info.st_size)
        do {
            entries = try Self.readDirectory(fd: fd, size: fileSize)
        } catch {
            Posix.close(fd)
            throw error
        }
    }

    deinit { Posix.close(fd) }

    /// The entry named `name`, if the archive has it.
    public func entry(named name: String) -> Entry? { entries.first { $0.name == name } }

    /// For a path that names an entry inside a zip archive, the archive's path and the entry's
    /// name: `takeout.zip/Takeout/Location History/Records.json`, whose leading part is a zip
    /// file (a file cannot be a folder, so no other file has that path). Nil for other paths.
    public static func split(_ path: String) -> (archive: String, entry: String)? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        var prefix = ""
        for (i, part) in parts.enumerated() {
            prefix += (i == 0 ? "" : "/") + part
            if prefix.isEmpty { continue }
            var info = stat()
            guard stat(prefix, &info) == 0 else { return nil }
            guard (info.st_mode & S_IFMT) == S_IFREG else { continue }
            guard i < parts.count - 1, isZipFile(prefix) else { return nil }
            return (prefix, parts[(i + 1)...].joined(separator: "/"))
        }
        return nil
    }

    /// Whether the file at `path` starts like a zip archive.
    public static func isZipFile(_ path: String) -> Bool {
        guard let fd = try? Posix.open(path, O_RDONLY) else { return false }
        defer { Posix.close(fd) }
        var magic = [UInt8](repeating: 0, count: 4)
        let n = magic.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 4, 0) }
        return n == 4 && magic.withUnsafeBytes { isZip($0) }
    }

    private static func read(_ fd: Int32, at offset: UInt64, count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        guard n == count else { throw Failure(description: "it is cut short (the archive looks truncated)") }
        return bytes
    }

    private static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    private static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
    private static func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }

    private static func readDirectory(fd: Int32, size: UInt64) throws -> [Entry] {
        // The end of central directory record: in the last 22 + 65,535 bytes.
        let tail = Int(min(size, 22 + 65_535))
        guard tail >= 22 else { throw Failure(description: "it is too short to be a zip archive") }
        let end = try read(fd, at: size - UInt64(tail), count: tail)
        guard let eocd = stride(from: tail - 22, through: 0, by: -1).first(where: { u32(end, $0) == 0x0605_4B50 })
        else { throw Failure(description: "it has no zip directory at its end (the archive looks truncated)") }
        var count = UInt64(u16(end, eocd + 10))
        var directorySize = UInt64(u32(end, eocd + 12))
        var directoryOffset = UInt64(u32(end, eocd + 16))
        // Zip64: the locator just before, pointing at the Zip64 end record.
        let eocdAt = size - UInt64(tail) + UInt64(eocd)
        if eocdAt >= 20 {
            let locator = try read(fd, at: eocdAt - 20, count: 20)
            if u32(locator, 0) == 0x0706_4B50 {
                let record = try read(fd, at: u64(locator, 8), count: 56)
                guard u32(record, 0) == 0x0606_4B50 else { throw Failure(description: "its Zip64 directory is broken") }
                count = u64(record, 32)
                directorySize = u64(record, 40)
                directoryOffset = u64(record, 48)
            }
        }
        guard directoryOffset + directorySize <= size, directorySize < 1 << 30 else {
            throw Failure(description: "its zip directory lies outside the file (the archive looks truncated)")
        }
        let directory = try read(fd, at: directoryOffset, count: Int(directorySize))
        var entries: [Entry] = []
        var i = 0
        for _ in 0..<count {
            guard i + 46 <= directory.count, u32(directory, i) == 0x0201_4B50 else {
                throw Failure(description: "its zip directory is broken")
            }
            let flags = u16(directory, i + 8)
            let method = u16(directory, i + 10)
            var compressed = UInt64(u32(directory, i + 20))
            var uncompressed = UInt64(u32(directory, i + 24))
            let nameLength = Int(u16(directory, i + 28))
            let extraLength = Int(u16(directory, i + 30))
            let commentLength = Int(u16(directory, i + 32))
            var offset = UInt64(u32(directory, i + 42))
            guard i + 46 + nameLength + extraLength <= directory.count else {
                throw Failure(description: "its zip directory is broken")
            }
            let name = String(decoding: directory[(i + 46)..<(i + 46 + nameLength)], as: UTF8.self)
            // Zip64 extra field: the values that are 0xFFFFFFFF above, in order.
            var e = i + 46 + nameLength
            let extraEnd = e + extraLength
            while e + 4 <= extraEnd {
                let id = u16(directory, e)
                let length = Int(u16(directory, e + 2))
                if id == 0x0001 {
                    var k = e + 4
                    if uncompressed == 0xFFFF_FFFF, k + 8 <= extraEnd {
                        uncompressed = u64(directory, k)
                        k += 8
                    }
                    if compressed == 0xFFFF_FFFF, k + 8 <= extraEnd {
                        compressed = u64(directory, k)
                        k += 8
                    }
                    if offset == 0xFFFF_FFFF, k + 8 <= extraEnd { offset = u64(directory, k) }
                }
                e += 4 + length
            }
            entries.append(
                Entry(
                    name: name, method: method, compressedSize: compressed, size: uncompressed,
                    localHeaderOffset: offset, encrypted: flags & 1 != 0))
            i += 46 + nameLength + extraLength + commentLength
        }
        // Entries whose data overlap: a bomb that counts one block many times.
        let sorted = entries.filter { $0.compressedSize > 0 }.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
        for (a, b) in zip(sorted, sorted.dropFirst())
        where a.localHeaderOffset + 30 + a.compressedSize > b.localHeaderOffset {
            throw Failure(description: "its entries \(a.name) and \(b.name) overlap (a zip bomb)")
        }
        return entries
    }

    /// Calls `body` with `entry`'s data, decompressed, in pieces; `limit` stops early (after at
    /// least that many bytes) when given.
    public func forEachChunk(
        of entry: Entry, limit: Int? = nil, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        guard !entry.encrypted else { throw Failure(description: "\(entry.name) is encrypted") }
        guard entry.method == 0 || entry.method == 8 else {
            throw Failure(description: "\(entry.name) is compressed with method \(entry.method), not deflate")
        }
        guard entry.size <= max(entry.compressedSize, 1) * Self.maxRatio else {
            throw Failure(
                description: "\(entry.name) declares \(entry.size) bytes from \(entry.compressedSize) (a zip bomb)")
        }
        let header = try Self.read(fd, at: entry.localHeaderOffset, count: 30)
        guard Self.u32(header, 0) == 0x0403_4B50 else {
            throw Failure(description: "the data of \(entry.name) is not where the directory says")
        }
        var position = entry.localHeaderOffset + 30 + UInt64(Self.u16(header, 26)) + UInt64(Self.u16(header, 28))
        let dataEnd = position + entry.compressedSize
        guard dataEnd <= fileSize else {
            throw Failure(description: "\(entry.name) is cut short (the archive looks truncated)")
        }
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer {
            input.deallocate()
            output.deallocate()
        }
        var stream = z_stream()
        if entry.method == 8 {
            guard tb_inflate_init_raw(&stream) == Z_OK else { throw Failure(description: "zlib could not start") }
        }
        defer { if entry.method == 8 { inflateEnd(&stream) } }
        var produced: UInt64 = 0
        var ended = entry.method == 0
        func deliver(_ bytes: UnsafeRawBufferPointer) throws -> Bool {
            produced += UInt64(bytes.count)
            guard produced <= entry.size else {
                throw Failure(
                    description: "\(entry.name) holds more than the \(entry.size) bytes it declares (a zip bomb)")
            }
            try body(bytes)
            if let limit, produced >= UInt64(limit) { return false }
            return true
        }
        while position < dataEnd {
            let want = Int(min(UInt64(input.count), dataEnd - position))
            let n = pread(fd, input.baseAddress, want, off_t(position))
            guard n > 0 else { throw Failure(description: "\(entry.name) cannot be read") }
            position += UInt64(n)
            let chunk = UnsafeRawBufferPointer(rebasing: input[0..<n])
            if entry.method == 0 {
                guard try deliver(chunk) else { return }
                continue
            }
            stream.next_in = UnsafeMutablePointer(mutating: chunk.baseAddress!.assumingMemoryBound(to: Bytef.self))
            stream.avail_in = uInt(n)
            while stream.avail_in > 0 && !ended {
                stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(output.count)
                let status = inflate(&stream, Z_NO_FLUSH)
                let made = output.count - Int(stream.avail_out)
                if made > 0, try !deliver(UnsafeRawBufferPointer(rebasing: output[0..<made])) { return }
                switch status {
                case Z_STREAM_END: ended = true
                case Z_OK, Z_BUF_ERROR: continue
                default: throw Failure(description: "the data of \(entry.name) is corrupt")
                }
            }
        }
        if entry.method == 8 {
            // What is still inside zlib once the input ended.
            while !ended {
                stream.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.avail_out = uInt(output.count)
                let status = inflate(&stream, Z_FINISH)
                let made = output.count - Int(stream.avail_out)
                if made > 0, try !deliver(UnsafeRawBufferPointer(rebasing: output[0..<made])) { return }
                guard status == Z_STREAM_END else {
                    if made > 0 && status == Z_BUF_ERROR { continue }
                    throw Failure(description: "\(entry.name) is cut short (the archive looks truncated)")
                }
                ended = true
            }
        }
        guard produced == entry.size || limit != nil else {
            throw Failure(description: "\(entry.name) holds \(produced) bytes, not the \(entry.size) it declares")
        }
    }
}
