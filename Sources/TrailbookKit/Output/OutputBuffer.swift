import GPSCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bytes collected in memory and written to a file descriptor (by default the command's standard
/// output, ``Console/current``) in large blocks.
public struct OutputBuffer: ~Copyable {
    public let fd: Int32
    private var storage: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    public private(set) var count = 0
    public static let flushThreshold = 1 << 16

    /// - Parameter capacity: bytes reserved up front (it grows when needed); small for short
    ///   formatted pieces, large for streamed output.
    public init(fd: Int32 = Console.current.output, capacity: Int = OutputBuffer.flushThreshold * 2) {
        self.fd = fd
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// Makes room for at least `n` more bytes (grows if a single item is huge).
    @inline(__always)
    public mutating func reserve(_ n: Int) {
        if count + n > capacity { grow(n) }
    }

    private mutating func grow(_ n: Int) {
        let newCapacity = Swift.max(capacity * 2, count + n)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: storage, count: count)
        storage.deallocate()
        storage = grown
        capacity = newCapacity
    }

    /// Writes `b` at `offset` bytes past the end without counting it (see ``advance(_:)``).
    @inline(__always)
    public mutating func storageAppendAt(offset: Int, _ b: UInt8) { storage[count + offset] = b }

    /// Counts `n` bytes written with ``storageAppendAt(offset:_:)``.
    @inline(__always)
    public mutating func advance(_ n: Int) { count += n }

    @inline(__always)
    public mutating func append(_ b: UInt8) {
        if count == capacity { reserve(1) }
        storage[count] = b
        count += 1
    }

    public mutating func append(_ s: StaticString) {
        append(bytes: UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    public mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    public mutating func append(bytes: UnsafeRawBufferPointer) {
        reserve(bytes.count)
        if let base = bytes.baseAddress {
            UnsafeMutableRawPointer(storage + count).copyMemory(from: base, byteCount: bytes.count)
        }
        count += bytes.count
    }

    /// What has been collected, as text (for short formatted pieces).
    public var text: String { String(decoding: UnsafeBufferPointer(start: storage, count: count), as: UTF8.self) }

    /// Writes out when enough has collected.
    public mutating func flushIfFull() throws {
        if count >= Self.flushThreshold { try flush() }
    }

    /// Writes everything collected so far.
    public mutating func flush() throws {
        do {
            try Posix.write(fd, UnsafeRawBufferPointer(start: storage, count: count))
        } catch {
            throw OutputError.writeFailed(reason: "\(error)")
        }
        count = 0
    }
}
