#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A regular file mapped read-only into memory, for a reader that takes large chunks without
/// copying them. ``forEachWindow(_:_:)`` hands it out in windows and gives each window's pages
/// back once done with it, so the resident memory stays a window's, whatever the file's size.
public final class MappedFile {
    /// The whole file.
    public let bytes: UnsafeRawBufferPointer

    /// Maps `size` bytes of the file open as `fd`; nil when it cannot be mapped (the caller
    /// reads it instead).
    public init?(fd: Int32, size: Int) {
        guard size > 0, let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else { return nil }
        _ = madvise(p, size, MADV_SEQUENTIAL)
        bytes = UnsafeRawBufferPointer(start: p, count: size)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress!), bytes.count) }

    /// Calls `body` with consecutive windows of `window` bytes (the last one shorter); after
    /// each, its pages leave this process (they stay in the page cache).
    public func forEachWindow(_ window: Int = 2 << 20, _ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let step = max(pageSize, window / pageSize * pageSize)
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + step)
            try body(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
            _ = madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress! + start), end - start, MADV_DONTNEED)
            start = end
        }
    }
}
