import Formats
import GPSCore
import GPSDevices
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file (or standard input), plain or gzip-compressed, read in large chunks with `read(2)`, EINTR handled here once.
public final class InputFile {
    /// The name used in messages ("standard input" for `-`).
    public let displayName: String
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let buffer: UnsafeMutableRawBufferPointer
    /// Bytes read so far.
    public private(set) var bytesRead = 0
    /// The size in bytes of a regular file; nil for standard input, pipes and devices.
    public let size: Int?
    /// Set when the input turned out to be gzip-compressed.
    private var gzip: GzipStream?
    /// Set when the input is an entry of a zip archive.
    private var zipEntry: (archive: ZipArchive, entry: ZipArchive.Entry)?

    /// Size of one read.
    static let chunkSize = 1 << 20

    /// Opens `path`, or standard input for `-`. Throws an ``InputError`` with a
    /// sentence saying what is wrong and what to do.
    public init(path: String) throws {
        if path == "-" {
            fd = Console.current.input
            ownsDescriptor = false
            displayName = "standard input"
            size = nil
        } else {
            let fd: Int32
            do {
                fd = try Posix.open(path, O_RDONLY)
            } catch .notDirectory {
                // An entry of a zip archive: `takeout.zip/Takeout/Records.json`.
                guard let (archivePath, name) = ZipArchive.split(path) else {
                    throw InputError.cannotOpen(path, .notDirectory)
                }
                let archive = try Self.openArchive(archivePath)
                guard let entry = archive.entry(named: name) else {
                    throw InputError.cannotOpen(path, .noSuchFileOrDirectory)
                }
                self.fd = -1
                ownsDescriptor = false
                displayName = path
                size = Int(clamping: entry.size)
                zipEntry = (archive, entry)
                buffer = .allocate(byteCount: 16, alignment: 16)
                return
            } catch {
                throw InputError.cannotOpen(path, error)
            }
            var info = stat()
            if fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
                Posix.close(fd)
                throw InputError.isDirectory(path)
            }
            self.fd = fd
            size = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
            ownsDescriptor = true
            displayName = path
        }
        buffer = .allocate(byteCount: Self.chunkSize, alignment: 16)
    }

    /// Opens a zip archive, its failures as ``InputError``s.
    public static func openArchive(_ path: String) throws -> ZipArchive {
        do {
            return try ZipArchive(path: path)
        } catch let failure as ZipArchive.Failure {
            throw InputError.brokenZip(path, reason: failure.description)
        } catch let errno as Errno {
            throw InputError.cannotOpen(path, errno)
        }
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { Posix.close(fd) }
    }

    /// Calls `body` with each chunk until the end of the file. With `whole`, a regular file
    /// that is not compressed is mapped into memory instead of read, and comes in chunks of 2 MB
    /// (for a reader that takes large chunks without copying them, ``NMEADecoder`` with workers).
    public func forEachChunk(whole: Bool = false, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        if let (archive, entry) = zipEntry {
            do {
                try archive.forEachChunk(of: entry) { chunk in
                    if bytesRead == 0 && GzipStream.isGzip(chunk) { gzip = try gzipFailing { try GzipStream() } }
                    bytesRead += chunk.count
                    if let gzip {
                        try gzipFailing { try gzip.feed(chunk, body) }
                    } else {
                        try body(chunk)
                    }
                }
            } catch let failure as ZipArchive.Failure {
                throw InputError.brokenZip(displayName, reason: failure.description)
            }
            try gzipFailing { try gzip?.finish() }
            return
        }
        if whole, bytesRead == 0, let size, let mapping = MappedFile(fd: fd, size: size),
            !GzipStream.isGzip(mapping.bytes)
        {
            try mapping.forEachWindow { window in
                bytesRead += window.count
                try body(window)
            }
            return
        }
        while true {
            let n: Int
            do {
                n = try Posix.read(fd, into: buffer)
            } catch {
                throw InputError.readFailed(displayName, error)
            }
            if n == 0 {
                try gzipFailing { try gzip?.finish() }
                return
            }
            if n < 0 {  // a non-blocking standard input with nothing yet
                _ = try? Posix.waitReadable(fd, milliseconds: 1000)
                continue
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            if bytesRead == 0 && GzipStream.isGzip(chunk) { gzip = try gzipFailing { try GzipStream() } }
            bytesRead += n
            if let gzip {
                try gzipFailing { try gzip.feed(chunk, body) }
            } else {
                try body(chunk)
            }
        }
    }

    /// Runs `body`, turning a gzip failure into ``InputError/brokenGzip(_:reason:)``.
    private func gzipFailing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as GzipStream.Failure {
            throw InputError.brokenGzip(displayName, reason: "\(failure)")
        }
    }
}
