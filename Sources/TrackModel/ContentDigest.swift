import Crypto
import Foundation
import GPSCore
import SystemPackage

/// SHA-256 of files and bytes (apple/swift-crypto), for naming imported files and photos by
/// their content, as 64 lowercase hex digits.
public enum ContentDigest {
    /// The digest of `bytes`.
    public static func hexDigest(of bytes: some Sequence<UInt8>) -> String {
        var hash = SHA256()
        hash.update(data: Array(bytes))
        return hex(hash.finalize())
    }

    /// The digest of bytes handed over in pieces: `read` calls the function it is given with
    /// each piece, in order.
    public static func hexDigest<E: Error>(
        reading read: ((UnsafeRawBufferPointer) -> Void) throws(E) -> Void
    ) throws(E) -> String {
        var hash = SHA256()
        try read { hash.update(bufferPointer: $0) }
        return hex(hash.finalize())
    }

    /// The digest of a file's bytes, read in 1 MB chunks.
    public static func hexDigest(ofFile path: String) throws(Errno) -> String {
        let fd = try Posix.open(path, O_RDONLY)
        defer { Posix.close(fd) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var hash = SHA256()
        while true {
            let n = try Posix.read(fd, into: buffer)
            if n <= 0 { break }
            hash.update(bufferPointer: UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
        }
        return hex(hash.finalize())
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(64)
        for byte in digest {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
